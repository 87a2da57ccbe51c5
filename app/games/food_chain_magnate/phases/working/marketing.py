"""Working step 3, initiate marketing campaigns (§4.1-§4.3, §6.3.3)."""

from __future__ import annotations

from typing import Any

from app.games.base import IllegalAction
from app.games.food_chain_magnate import map as fcm_map
from app.games.food_chain_magnate.board import entrances_of, occupied
from app.games.food_chain_magnate.data import CAMPAIGNS, DRINKS, GOODS
from app.games.food_chain_magnate.employees import MARKETEERS, ability, card
from app.games.food_chain_magnate.milestones import award, holds
from app.games.toolkit import JSON


def _placements(state: JSON, seat: str, marketeer: str, number: int) -> list[JSON]:
    """Legal spots of one campaign tile for one marketeer: {"cells"} or {"edge", "offset"}."""
    tile = CAMPAIGNS[number]
    if tile["type"] == "airplane":
        return [dict(a) for a in fcm_map.airplane_placements(state["map"], tile["covers"])]
    rng = card(marketeer)["range"]
    kwargs: dict[str, Any] = {}
    if rng["kind"] == "road":
        kwargs = {"entrances": entrances_of(state, seat), "reach": rng["value"]}
    spots = fcm_map.campaign_placements(state["map"], occupied(state), tile["size"], **kwargs)
    return [{"cells": cells} for cells in spots]


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
    for marketeer in MARKETEERS:
        if marketeer not in p["work"]:
            continue
        kinds = ability(marketeer)["campaign_types"]
        for number in state["campaign_supply"]:
            if CAMPAIGNS[number]["type"] in kinds and _placements(state, seat, marketeer, number):
                out.append({"type": "campaign", "marketeer": marketeer, "number": number})
    return out


def apply_marketing(state: JSON, seat: str, action: JSON, events: list[JSON]) -> None:
    """Advance the campaign being set up, placing it when the good and duration are chosen."""
    if action not in marketing_actions(state, seat):
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
