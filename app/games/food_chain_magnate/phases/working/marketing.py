"""Working step 3, initiate marketing campaigns (§4.1-§4.3, §6.3.3)."""

from __future__ import annotations

from app.games.base import IllegalAction
from app.games.food_chain_magnate import map as fcm_map
from app.games.food_chain_magnate.board import entrances_of, if_equal, listed_cells, occupied_squares
from app.games.food_chain_magnate.data import CAMPAIGNS, DRINKS, GOODS
from app.games.food_chain_magnate.employees import MARKETEERS, ability, card
from app.games.food_chain_magnate.map_build import Cell
from app.games.food_chain_magnate.milestones import award, holds
from app.games.toolkit import JSON


def _rules(state: JSON, seat: str, marketeer: str) -> JSON:
    """Keyword arguments of the map's campaign placements for one marketeer's on-board tiles."""
    rng = card(marketeer)["range"]
    if rng["kind"] == "road":
        return {"entrances": entrances_of(state, seat), "reach": rng["value"]}
    return {}


def _placements(state: JSON, seat: str, marketeer: str, number: int) -> list[JSON]:
    """Legal spots of one campaign tile for one marketeer: {"cells"} or {"edge", "offset"}."""
    tile = CAMPAIGNS[number]
    if tile["type"] == "airplane":
        return [dict(a) for a in fcm_map.airplane_placements(state["map"], tile["covers"])]
    kwargs = _rules(state, seat, marketeer)
    spots = fcm_map.campaign_placements(state["map"], occupied_squares(state), tile["size"], **kwargs)
    return [{"cells": cells} for cells in spots]


def _has_placement(state: JSON, seat: str, marketeer: str, number: int, taken: frozenset[Cell]) -> bool:
    """Whether `_placements` lists anything."""
    tile = CAMPAIGNS[number]
    if tile["type"] == "airplane":
        return bool(fcm_map.airplane_placements(state["map"], tile["covers"]))
    kwargs = _rules(state, seat, marketeer)
    return fcm_map.has_campaign_placement(state["map"], taken, tile["size"], **kwargs)


def _spot_candidates(state: JSON, seat: str, action: JSON) -> list[JSON]:
    """The `campaign_at` actions listed for the pending campaign equal to `action` (by ==)."""
    pending = state["pending"]
    tile = CAMPAIGNS[pending["number"]]
    if tile["type"] == "airplane":
        edge, offset = action.get("edge"), action.get("offset")
        if not isinstance(offset, (int, float)) or isinstance(offset, float) and not offset.is_integer():
            return []
        spot = {"edge": edge, "offset": int(offset)}
        legal = spot in _placements(state, seat, pending["marketeer"], pending["number"])
        return if_equal({"type": "campaign_at", **spot}, action) if legal else []
    cells = listed_cells(action.get("cells"))
    if cells is None:
        return []
    kwargs = _rules(state, seat, pending["marketeer"])
    if not fcm_map.campaign_spot_ok(state["map"], occupied_squares(state), tile["size"], cells, **kwargs):
        return []
    return if_equal({"type": "campaign_at", "cells": [list(c) for c in cells]}, action)


def marketing_candidates(state: JSON, seat: str, action: JSON) -> list[JSON] | None:
    """The actions of `marketing_actions` equal to `action` (by ==) when it chooses the pending campaign's
    spot, found without listing them all; None for any other action."""
    pending = state["pending"]
    if not (pending and pending["kind"] == "campaign" and "spot" not in pending):
        return None
    return _spot_candidates(state, seat, action) if action.get("type") == "campaign_at" else []


def _eternal(state: JSON, seat: str, number: int) -> bool:
    """Eternal when the owner holds the billboard milestone, or this billboard is about to earn it."""
    if holds(state, seat, "first_billboard_placed"):
        return True
    return CAMPAIGNS[number]["type"] == "billboard" and "first_billboard_placed" in state["milestones_available"]


def marketing_actions(state: JSON, seat: str) -> list[JSON]:
    """Choose a marketeer and a tile; then a spot; then the good and duration."""
    pending = state["pending"]
    if pending and pending["kind"] == "campaign":
        if "spot" not in pending:
            return [{"type": "campaign_at", **spot}
                    for spot in _placements(state, seat, pending["marketeer"], pending["number"])]
        top = 1 if _eternal(state, seat, pending["number"]) else ability(pending["marketeer"])["max_duration"]
        return [{"type": "advertise", "good": g, "duration": d} for g in GOODS for d in range(1, top + 1)]
    p = state["p"][seat]
    out: list[JSON] = []
    working = [m for m in MARKETEERS if m in p["work"]]
    taken = occupied_squares(state) if working else frozenset()
    for marketeer in working:
        kinds = ability(marketeer)["campaign_types"]
        for number in state["campaign_supply"]:
            if CAMPAIGNS[number]["type"] in kinds and _has_placement(state, seat, marketeer, number, taken):
                out.append({"type": "campaign", "marketeer": marketeer, "number": number})
    return out


def apply_marketing(state: JSON, seat: str, action: JSON, events: list[JSON]) -> None:
    """Advance the campaign being set up, placing it when the good and duration are chosen."""
    listed = marketing_candidates(state, seat, action)
    if action not in (marketing_actions(state, seat) if listed is None else listed):
        raise IllegalAction("cannot_market", "That campaign choice is not possible now.")
    if action["type"] == "campaign":
        state["pending"] = {"kind": "campaign", "marketeer": action["marketeer"], "number": action["number"]}
    elif action["type"] == "campaign_at":
        state["pending"]["spot"] = {k: v for k, v in action.items() if k != "type"}
    else:
        place_campaign(state, seat, action["good"], action["duration"], events)


def place_campaign(state: JSON, seat: str, good: str, duration: int, events: list[JSON]) -> None:
    """Put the campaign on the board; its marketeer becomes busy; marketing milestones are awarded."""
    pending = state["pending"]
    state["pending"] = None
    number, marketeer = pending["number"], pending["marketeer"]
    kind = CAMPAIGNS[number]["type"]
    p = state["p"][seat]
    if kind == "billboard":
        award(state, seat, "first_billboard_placed", events)
    eternal = holds(state, seat, "first_billboard_placed")
    campaign: JSON = {"number": number, "type": kind, "owner": seat, "card": marketeer, "good": good,
                      "tokens": 1 if eternal else duration, "eternal": eternal, **pending["spot"]}
    if kind == "airplane":
        campaign["covers"] = CAMPAIGNS[number]["covers"]
    state["campaign_supply"].remove(number)
    state["campaigns"].append(campaign)
    state["campaigns"].sort(key=lambda c: c["number"])
    p["work"].remove(marketeer)
    p["busy"].append({"card": marketeer, "campaign": number})
    events.append({"type": "campaign_placed", "player": seat, "campaign": dict(campaign), "visible_to": None})
    if kind == "airplane":
        award(state, seat, "first_airplane_campaign", events)
    if kind == "radio":
        award(state, seat, "first_radio_campaign", events)
    if good == "burger":
        award(state, seat, "first_burger_marketed", events)
    elif good == "pizza":
        award(state, seat, "first_pizza_marketed", events)
    elif good in DRINKS:
        award(state, seat, "first_drink_marketed", events)
