"""Placing restaurants: first restaurants (§1.5), local managers, regional managers (§6.3.6)."""

from __future__ import annotations

from app.games.base import IllegalAction
from app.games.food_chain_magnate import map as fcm_map
from app.games.food_chain_magnate.board import (
    entrances_of,
    if_equal,
    listed_cell,
    occupied_squares,
    restaurants_of,
)
from app.games.food_chain_magnate.data import RESTAURANTS_PER_PLAYER
from app.games.food_chain_magnate.employees import cards_of_kind
from app.games.food_chain_magnate.map_build import Cell
from app.games.food_chain_magnate.players import unused_at_work, use
from app.games.toolkit import JSON

LOCAL = cards_of_kind("place_restaurant")[0]
REGIONAL = cards_of_kind("place_or_move_restaurant")[0]


def _spot_rules(state: JSON, seat: str, purpose: str, moving: int | None) -> tuple[frozenset[Cell], JSON] | None:
    """(occupied squares, keyword arguments of the map's restaurant placements) for a placement of this purpose;
    None when a local manager has no tile to place on."""
    m = state["map"]
    if purpose == "setup":
        taken = [fcm_map.tile_of(r["entrance"]) for r in state["restaurants"]]
        return occupied_squares(state), {"forbidden_entrance_tiles": taken}
    if purpose == "local":
        tiles = fcm_map.local_manager_tiles(m, entrances_of(state, seat), 3)
        if not tiles:
            return None
        return occupied_squares(state), {"entrance_tiles": tiles}
    return occupied_squares(state, ignore_restaurant=moving), {}


def restaurant_spots(state: JSON, seat: str, purpose: str, moving: int | None = None) -> list[JSON]:
    """Legal {"cells", "entrance"} for a setup, local, regional or moved restaurant."""
    rules = _spot_rules(state, seat, purpose, moving)
    if rules is None:
        return []
    return [dict(s) for s in fcm_map.restaurant_placements(state["map"], rules[0], **rules[1])]


def has_restaurant_spot(state: JSON, seat: str, purpose: str) -> bool:
    """Whether `restaurant_spots` lists anything for a new restaurant."""
    rules = _spot_rules(state, seat, purpose, None)
    return rules is not None and fcm_map.has_restaurant_placement(state["map"], rules[0], **rules[1])


def _entrances(state: JSON, seat: str, anchor: Cell) -> list[Cell]:
    """The legal entrances of the pending restaurant with its north-west square on `anchor`."""
    pending = state["pending"]
    rules = _spot_rules(state, seat, pending["purpose"], pending.get("restaurant"))
    if rules is None:
        return []
    return fcm_map.restaurant_entrances(state["map"], rules[0], anchor, **rules[1])


def spot_actions(state: JSON, seat: str) -> list[JSON]:
    """The two small choices of a pending placement: the top-left square, then the entrance."""
    pending = state["pending"]
    if "cell" not in pending:
        rules = _spot_rules(state, seat, pending["purpose"], pending.get("restaurant"))
        if rules is None:
            return []
        anchors = fcm_map.restaurant_anchors(state["map"], rules[0], **rules[1])
        return [{"type": "restaurant_at", "cell": list(a)} for a in anchors]
    anchor = listed_cell(pending["cell"])
    if anchor is None:
        return []
    return [{"type": "restaurant_entrance", "entrance": list(e)} for e in _entrances(state, seat, anchor)]


def spot_candidates(state: JSON, seat: str, action: JSON) -> list[JSON]:
    """The actions of `spot_actions` equal to `action` (by ==), found without listing them all."""
    pending = state["pending"]
    if action.get("type") == "restaurant_at" and "cell" not in pending:
        anchor = listed_cell(action.get("cell"))
        if anchor is None or not _entrances(state, seat, anchor):
            return []
        return if_equal({"type": "restaurant_at", "cell": list(anchor)}, action)
    if action.get("type") == "restaurant_entrance" and "cell" in pending:
        anchor, entrance = listed_cell(pending["cell"]), listed_cell(action.get("entrance"))
        if anchor is None or entrance is None or entrance not in _entrances(state, seat, anchor):
            return []
        return if_equal({"type": "restaurant_entrance", "entrance": list(entrance)}, action)
    return []


def choose_spot(state: JSON, seat: str, action: JSON, events: list[JSON]) -> JSON | None:
    """Apply one placement choice; returns the finished {"cells", "entrance"} spot, if any."""
    listed = spot_candidates(state, seat, action)
    if action not in listed:
        raise IllegalAction("bad_restaurant_spot", "A restaurant cannot go there.")
    pending = state["pending"]
    if action["type"] == "restaurant_at":
        pending["cell"] = action["cell"]
        return None
    anchor = listed_cell(pending["cell"])
    assert anchor is not None
    return {"cells": [[anchor[0] + dr, anchor[1] + dc] for dr in (0, 1) for dc in (0, 1)],
            "entrance": listed[0]["entrance"]}


def put_restaurant(state: JSON, seat: str, spot: JSON, is_open: bool, events: list[JSON]) -> None:
    """A new restaurant on the map."""
    rid = len(state["restaurants"])
    state["restaurants"].append({"id": rid, "owner": seat, "cells": spot["cells"], "entrance": spot["entrance"],
                                 "open": is_open})
    events.append({"type": "restaurant_placed", "player": seat, "restaurant": rid, "cells": spot["cells"],
                   "entrance": spot["entrance"], "open": is_open, "visible_to": None})


def restaurant_candidates(state: JSON, seat: str, action: JSON) -> list[JSON] | None:
    """The actions of `restaurant_actions` equal to `action` (by ==) while a restaurant is being placed,
    found without listing them all; None when no restaurant is being placed."""
    if state["pending"] and state["pending"]["kind"] == "restaurant":
        return spot_candidates(state, seat, action)
    return None


def restaurant_actions(state: JSON, seat: str) -> list[JSON]:
    """Local managers place coming-soon restaurants; regional managers place or move open ones."""
    if state["pending"] and state["pending"]["kind"] == "restaurant":
        return spot_actions(state, seat)
    p = state["p"][seat]
    out: list[JSON] = []
    room = len(restaurants_of(state, seat)) < RESTAURANTS_PER_PLAYER
    if room and unused_at_work(p, LOCAL) > 0 and has_restaurant_spot(state, seat, "local"):
        out.append({"type": "new_restaurant", "card": LOCAL})
    if unused_at_work(p, REGIONAL) > 0:
        if room and has_restaurant_spot(state, seat, "regional"):
            out.append({"type": "new_restaurant", "card": REGIONAL})
        for r in restaurants_of(state, seat):
            if r["open"]:
                out.append({"type": "move_restaurant", "restaurant": r["id"]})
    return out


def apply_restaurant(state: JSON, seat: str, action: JSON, events: list[JSON]) -> None:
    """Start or finish placing/moving a restaurant."""
    if action["type"] in ("restaurant_at", "restaurant_entrance"):
        if not (state["pending"] and state["pending"]["kind"] == "restaurant"):
            raise IllegalAction("nothing_to_place", "No restaurant is being placed.")
        spot = choose_spot(state, seat, action, events)
        if spot is None:
            return
        pending = state["pending"]
        state["pending"] = None
        if pending["purpose"] == "move":
            use(state["p"][seat], REGIONAL)
            r = state["restaurants"][pending["restaurant"]]
            r["cells"], r["entrance"] = spot["cells"], spot["entrance"]
            events.append({"type": "restaurant_moved", "player": seat, "restaurant": r["id"],
                           "cells": spot["cells"], "entrance": spot["entrance"], "visible_to": None})
        else:
            use(state["p"][seat], LOCAL if pending["purpose"] == "local" else REGIONAL)
            put_restaurant(state, seat, spot, pending["purpose"] == "regional", events)
        return
    if action not in restaurant_actions(state, seat):
        raise IllegalAction("cannot_place_restaurant", "You cannot place or move a restaurant now.")
    if action["type"] == "new_restaurant":
        purpose = "local" if action["card"] == LOCAL else "regional"
        state["pending"] = {"kind": "restaurant", "purpose": purpose}
    else:
        state["pending"] = {"kind": "restaurant", "purpose": "move", "restaurant": action["restaurant"]}
