"""Working step 5, new business developers place houses and gardens (§5.4, §6.3.5)."""

from __future__ import annotations

from app.games.base import IllegalAction
from app.games.food_chain_magnate import map as fcm_map
from app.games.food_chain_magnate.board import house, occupied
from app.games.food_chain_magnate.employees import cards_of_kind
from app.games.food_chain_magnate.players import unused_at_work, use
from app.games.toolkit import JSON

NBD = cards_of_kind("place_house_or_garden")[0]


def _house_spots(state: JSON) -> list[JSON]:
    return [dict(s) for s in fcm_map.house_placements(state["map"], occupied(state))]


def _garden_spots(state: JSON, number: int) -> list[list[list[int]]]:
    return [list(g) for g in fcm_map.garden_placements(state["map"], occupied(state), house(state, number))]


def house_actions(state: JSON, seat: str) -> list[JSON]:
    """Pick a house number or a printed house to garden; then the squares."""
    pending = state["pending"]
    if pending and pending["kind"] == "house":
        spots = _house_spots(state)
        if "cells" not in pending:
            cells = sorted({tuple(map(tuple, s["cells"])) for s in spots})
            return [{"type": "house_at", "cells": [list(c) for c in cs]} for cs in cells]
        return [{"type": "garden_at", "garden": s["garden"]} for s in spots if s["cells"] == pending["cells"]]
    if pending and pending["kind"] == "garden":
        return [{"type": "garden_at", "garden": g} for g in _garden_spots(state, pending["house"])]
    if unused_at_work(state["p"][seat], NBD) <= 0:
        return []
    out: list[JSON] = []
    if state["house_supply"] and _house_spots(state):
        out.extend({"type": "new_house", "number": n} for n in state["house_supply"])
    if state["garden_supply"] > 0:
        for h in state["houses"]:
            if not h.get("garden") and not h.get("placed") and _garden_spots(state, h["number"]):
                out.append({"type": "garden", "house": h["number"]})
    return out


def apply_house(state: JSON, seat: str, action: JSON, events: list[JSON]) -> None:
    """Advance the house or garden being placed; the last choice puts it on the map."""
    if action not in house_actions(state, seat):
        raise IllegalAction("cannot_build", "That house or garden cannot be placed now.")
    pending = state["pending"]
    kind = action["type"]
    if kind == "new_house":
        state["pending"] = {"kind": "house", "number": action["number"]}
    elif kind == "garden":
        state["pending"] = {"kind": "garden", "house": action["house"]}
    elif kind == "house_at":
        pending["cells"] = action["cells"]
    elif pending["kind"] == "house":
        state["pending"] = None
        use(state["p"][seat], NBD)
        state["house_supply"].remove(pending["number"])
        state["houses"].append({"number": pending["number"], "cells": pending["cells"],
                                "garden": action["garden"], "placed": True})
        state["houses"].sort(key=lambda h: h["number"])
        events.append({"type": "house_placed", "player": seat, "number": pending["number"],
                       "cells": pending["cells"], "garden": action["garden"], "visible_to": None})
    else:
        state["pending"] = None
        use(state["p"][seat], NBD)
        state["garden_supply"] -= 1
        house(state, pending["house"])["garden"] = action["garden"]
        events.append({"type": "garden_placed", "player": seat, "house": pending["house"],
                       "garden": action["garden"], "visible_to": None})
