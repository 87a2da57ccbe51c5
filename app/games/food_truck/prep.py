"""Prep (spec §4.1 step 2): each player secretly stacks their whole hand, one card at a time."""

from __future__ import annotations

from app.games.food_truck.data import in_card_order
from app.games.food_truck.service import begin_service
from app.games.food_truck.table import Events, event
from app.games.toolkit import JSON


def place_card(state: JSON, player: str, card: str, ev: Events) -> None:
    """Put one card from the hand under the cards already stacked; the last card completes the order."""
    me = state["seats"][player]
    me["hand"].remove(card)
    me["draw_pile"].append(card)
    ev.append(event("card_stacked", visible_to=[player], seat=player, card=card, position=len(me["draw_pile"])))
    if me["hand"]:
        return
    me["ready"] = True
    ev.append(event("order_ready", seat=player))
    if all(state["seats"][p]["ready"] for p in state["players"]):
        begin_service(state, ev)


def take_back_card(state: JSON, player: str, ev: Events) -> None:
    """Take the last stacked card back into the hand (the order is not final until the hand is empty)."""
    me = state["seats"][player]
    card = me["draw_pile"].pop()
    me["hand"] = in_card_order([*me["hand"], card])
    ev.append(event("card_unstacked", visible_to=[player], seat=player, card=card))
