"""Phase 6, marketing campaigns (§4.4, §4.5, §6.6): campaigns run in number order and place demand."""

from __future__ import annotations

from app.games.food_chain_magnate import map as fcm_map
from app.games.food_chain_magnate.board import demand_cap
from app.games.food_chain_magnate.data import MILESTONES
from app.games.food_chain_magnate.milestones import holds
from app.games.toolkit import JSON

RADIO_TOKENS = int(MILESTONES["first_radio_campaign"]["params"]["radio_tokens_per_house"])


def tokens_per_house(state: JSON, campaign: JSON) -> int:
    """1, or the radio milestone's count (2) for a radio whose owner holds it."""
    if campaign["type"] == "radio" and holds(state, campaign["owner"], "first_radio_campaign"):
        return RADIO_TOKENS
    return 1


def run_campaign(state: JSON, campaign: JSON, events: list[JSON]) -> bool:
    """Add demand to every reached house within its cap; return whether the campaign ran out."""
    per_house = tokens_per_house(state, campaign)
    reached = fcm_map.campaign_reach(state["map"], state["houses"], campaign)
    houses = {h["number"]: h for h in state["houses"]}
    added: dict[str, int] = {}
    for number in reached:
        key = str(number)
        have = state["demand"].get(key, [])
        n = max(0, min(per_house, demand_cap(houses[number]) - len(have)))
        if n:
            state["demand"][key] = have + [campaign["good"]] * n
            added[key] = n
    events.append({"type": "campaign_ran", "campaign": campaign["number"], "good": campaign["good"],
                   "added": added, "visible_to": None})
    if campaign["eternal"]:
        return False
    campaign["tokens"] -= 1
    return campaign["tokens"] <= 0


def end_campaign(state: JSON, campaign: JSON, events: list[JSON]) -> None:
    """Return the tile and chip; the marketeer (if still owned) goes back to its owner's hand."""
    state["campaigns"].remove(campaign)
    state["campaign_supply"] = sorted(state["campaign_supply"] + [campaign["number"]])
    p = state["p"][campaign["owner"]]
    entry = next((b for b in p["busy"] if b["campaign"] == campaign["number"]), None)
    if entry is not None:
        p["busy"].remove(entry)
        p["hand"].append(entry["card"])
    events.append({"type": "campaign_ended", "campaign": campaign["number"], "player": campaign["owner"],
                   "visible_to": None})


def marketing_campaigns(state: JSON, events: list[JSON]) -> None:
    """Run every campaign on the board once, in ascending number."""
    for campaign in sorted(state["campaigns"], key=lambda c: c["number"]):
        if run_campaign(state, campaign, events):
            end_campaign(state, campaign, events)
