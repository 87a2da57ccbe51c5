"""Working step 5, new business developers place houses and gardens (§5.4, §6.3.5)."""

from __future__ import annotations

from app.games.base import IllegalAction
from app.games.food_chain_magnate import map as fcm_map
from app.games.food_chain_magnate.board import house, if_equal, listed_cells, occupied_squares
from app.games.food_chain_magnate.employees import cards_of_kind
from app.games.food_chain_magnate.map_build import Cell
from app.games.food_chain_magnate.players import unused_at_work, use
from app.games.toolkit import JSON

NBD = cards_of_kind("place_house_or_garden")[0]


def _garden_spots(state: JSON, number: int, taken: frozenset[Cell]) -> list[list[list[int]]]:
    return [list(g) for g in fcm_map.garden_placements(state["map"], taken, house(state, number))]


def house_actions(state: JSON, seat: str) -> list[JSON]:
    """Pick a house number or a printed house to garden; then the squares."""
    pending = state["pending"]
    if pending and pending["kind"] == "house":
        taken = occupied_squares(state)
        if "cells" not in pending:
            return [{"type": "house_at", "cells": [list(c) for c in cs]}
                    for cs in fcm_map.house_squares(state["map"], taken)]
        cells = listed_cells(pending["cells"])
        gardens = [] if cells is None else fcm_map.house_gardens(state["map"], taken, tuple(cells))
        return [{"type": "garden_at", "garden": g} for g in gardens]
    if pending and pending["kind"] == "garden":
        return [{"type": "garden_at", "garden": g}
                for g in _garden_spots(state, pending["house"], occupied_squares(state))]
    if unused_at_work(state["p"][seat], NBD) <= 0:
        return []
    out: list[JSON] = []
    taken = occupied_squares(state)
    if state["house_supply"] and fcm_map.has_house_placement(state["map"], taken):
        out.extend({"type": "new_house", "number": n} for n in state["house_supply"])
    if state["garden_supply"] > 0:
        for h in state["houses"]:
            if not h.get("garden") and not h.get("placed") and _garden_spots(state, h["number"], taken):
                out.append({"type": "garden", "house": h["number"]})
    return out


def house_candidates(state: JSON, seat: str, action: JSON) -> list[JSON] | None:
    """The actions of `house_actions` equal to `action` (by ==) when it places a new house's squares or
    garden, found without listing them all; None for any other action."""
    pending = state["pending"]
    if not (pending and pending["kind"] == "house"):
        return None
    taken = occupied_squares(state)
    if action.get("type") == "house_at" and "cells" not in pending:
        cells = listed_cells(action.get("cells"))
        if cells is None or not fcm_map.house_gardens(state["map"], taken, tuple(cells)):
            return []
        return if_equal({"type": "house_at", "cells": [list(c) for c in cells]}, action)
    if action.get("type") == "garden_at" and "cells" in pending:
        cells, garden = listed_cells(pending["cells"]), listed_cells(action.get("garden"))
        if cells is None or garden is None:
            return []
        gardens = fcm_map.house_gardens(state["map"], taken, tuple(cells))
        listed = [list(c) for c in garden]
        return if_equal({"type": "garden_at", "garden": listed}, action) if listed in gardens else []
    return None


def apply_house(state: JSON, seat: str, action: JSON, events: list[JSON]) -> None:
    """Advance the house or garden being placed; the last choice puts it on the map."""
    listed = house_candidates(state, seat, action)
    if action not in (house_actions(state, seat) if listed is None else listed):
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
