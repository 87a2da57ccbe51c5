"""The five Truck card effects (spec §5), each played during the owner's own service turn."""

from __future__ import annotations

from typing import Any

from app.games.food_truck.data import effect_of, meal_type
from app.games.food_truck.service import resolve_pending, reveal_card, serve
from app.games.food_truck.table import Events, add_to_collection, event, remove_from_collection
from app.games.food_truck.windows import share_partner
from app.games.toolkit import JSON

REARRANGE_DEPTH = 5


def use_truck_card(state: JSON, player: str, ev: Events, **facts: Any) -> None:
    """The played Truck card goes to its owner's discard at once; one play per round."""
    me = state["seats"][player]
    card = me["truck_current"]
    me["truck_discard"].append(card)
    me["truck_current"], me["truck_used"] = None, True
    ev.append(event("truck_played", seat=player, card=card, effect=effect_of(card), **facts))


def continue_turn(state: JSON, ev: Events, window_a: bool) -> None:
    """After an effect that keeps the turn going: reveal (window A) or resolve the same card (window B)."""
    if window_a:
        reveal_card(state, ev)
    else:
        resolve_pending(state, ev)


def rearrange(state: JSON, player: str, ev: Events) -> None:
    """E1: take the top five cards (the revealed one back on top first) to reorder them one at a time."""
    me = state["seats"][player]
    if me["pending"] is not None:
        me["draw_pile"].insert(0, me["pending"])
        me["pending"] = None
    k = min(REARRANGE_DEPTH, len(me["draw_pile"]))
    use_truck_card(state, player, ev, cards=k)
    if k <= 1:
        # Nothing to reorder: go straight on to revealing (spec §5, E1 with k = 0 does nothing).
        reveal_card(state, ev)
        return
    state["rearrange"] = {"todo": me["draw_pile"][:k], "done": []}
    me["draw_pile"] = me["draw_pile"][k:]
    state["step"] = "rearrange"


def place_rearranged(state: JSON, player: str, card: str, ev: Events) -> None:
    """E1: put the next card of the new top-of-pile order; the last one puts them back and reveals."""
    work = state["rearrange"]
    work["todo"].remove(card)
    work["done"].append(card)
    ev.append(event("card_rearranged", visible_to=[player], seat=player, card=card, position=len(work["done"])))
    if work["todo"]:
        return
    me = state["seats"][player]
    me["draw_pile"] = work["done"] + me["draw_pile"]
    state["rearrange"] = None
    ev.append(event("rearranged", seat=player, cards=len(work["done"])))
    state["step"] = "reveal"
    reveal_card(state, ev)


def take_back_rearranged(state: JSON, player: str, ev: Events) -> None:
    """E1: undo the last placement while the new order is unfinished."""
    work = state["rearrange"]
    card = work["done"].pop()
    work["todo"].append(card)
    ev.append(event("card_unstacked", visible_to=[player], seat=player, card=card))


def send_back(state: JSON, player: str, target: str, meal: str, ev: Events) -> None:
    """E2: a single face-up Meal (never a pile) goes to the bottom of its owner's draw pile."""
    window_a = state["step"] == "reveal"
    owner = state["seats"][target]
    card = owner["served"].pop(meal)[0]
    owner["draw_pile"].append(card)
    use_truck_card(state, player, ev, target=target, sent_back=card, meal=meal)
    continue_turn(state, ev, window_a)


def swap(state: JSON, player: str, card: str, ev: Events) -> None:
    """E3: the revealed card joins the supply; a supply card becomes the player's and is resolved."""
    me = state["seats"][player]
    old = me["pending"]
    state["supply"].remove(card)
    state["supply"].append(old)
    remove_from_collection(me, old)
    add_to_collection(me, card)
    me["pending"] = card
    use_truck_card(state, player, ev, gave=old, took=card, meal=meal_type(card))
    resolve_pending(state, ev)


def skip(state: JSON, player: str, ev: Events) -> None:
    """E4: the revealed card goes under the pile and the next card is revealed (maybe the same one)."""
    me = state["seats"][player]
    old = me["pending"]
    me["draw_pile"].append(old)
    me["pending"] = None
    use_truck_card(state, player, ev, skipped=old)
    reveal_card(state, ev)


def share(state: JSON, player: str, ev: Events) -> None:
    """E5: serve a Meal that exactly one other player shows as a single."""
    partner = share_partner(state, player)
    card = state["seats"][player]["pending"]
    use_truck_card(state, player, ev, shared_with=partner)
    serve(state, player, card, ev, shared_with=partner)


def play_truck(state: JSON, player: str, action: JSON, ev: Events) -> None:
    """Dispatch a (validated) Truck card play to its effect."""
    effect = action["effect"]
    if effect == "E1":
        rearrange(state, player, ev)
    elif effect == "E2":
        send_back(state, player, action["seat"], action["meal"], ev)
    elif effect == "E3":
        swap(state, player, action["card"], ev)
    elif effect == "E4":
        skip(state, player, ev)
    else:
        share(state, player, ev)
