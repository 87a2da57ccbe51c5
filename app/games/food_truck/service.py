"""Service (spec §4.2) and End of service (spec §4.3): reveal, serve or be eliminated, compensation."""

from __future__ import annotations

from app.games.food_truck.data import is_dessert, meal_type
from app.games.food_truck.setup import start_round
from app.games.food_truck.table import (
    Events,
    add_to_collection,
    event,
    is_blocked,
    next_standing,
    showing,
    standing,
)
from app.games.food_truck.windows import WINDOW_B, truck_plays
from app.games.toolkit import JSON


def begin_service(state: JSON, ev: Events) -> None:
    """Every order is in: the marker holder takes the first service turn."""
    state["phase"] = "service"
    ev.append(event("service_started", round=state["round"], first_player=state["round_starter"]))
    begin_turn(state, state["round_starter"])


def begin_turn(state: JSON, player: str) -> None:
    """Open a player's service turn at window A (before revealing)."""
    state["turn"], state["step"] = player, "reveal"


def reveal_card(state: JSON, ev: Events) -> None:
    """Turn over the top card of the draw pile; with an empty pile the player is out (ruling F12)."""
    player = state["turn"]
    me = state["seats"][player]
    if not me["draw_pile"]:
        ev.append(event("ran_out", seat=player))
        eliminate(state, player, None, ev)
        return
    card = me["draw_pile"].pop(0)
    me["pending"] = card
    ev.append(event("revealed", seat=player, card=card, meal=meal_type(card)))
    if truck_plays(state, player, WINDOW_B):
        state["step"] = "decide"
    else:
        resolve_pending(state, ev)


def serve(state: JSON, player: str, card: str, ev: Events, shared_with: str | None = None) -> None:
    """Put the revealed card face up: a Dessert, or onto the player's own cards of that meal."""
    me = state["seats"][player]
    me["pending"] = None
    if is_dessert(card):
        me["desserts_served"].append(card)
        ev.append(event("dessert_served", seat=player, card=card))
    else:
        meal = meal_type(card)
        me["served"].setdefault(meal, []).append(card)
        ev.append(event("served", seat=player, card=card, meal=meal, pile=len(me["served"][meal]),
                        shared_with=shared_with))
    end_turn(state)


def resolve_pending(state: JSON, ev: Events) -> None:
    """Step 5: serve the revealed card if nobody else shows its meal, otherwise the player is eliminated."""
    player = state["turn"]
    card = state["seats"][player]["pending"]
    if is_blocked(state, player, card):
        eliminate(state, player, card, ev)
    else:
        serve(state, player, card, ev)


def eliminate(state: JSON, player: str, card: str | None, ev: Events) -> None:
    """Out for the round: the blocked card goes under the pile; the first one out takes the marker."""
    me = state["seats"][player]
    if card is not None:
        me["draw_pile"].append(card)
        me["pending"] = None
    me["eliminated"] = True
    state["elimination_order"].append(player)
    blockers = [p for p in showing(state, meal_type(card)) if p != player] if card else []
    ev.append(event("eliminated", seat=player, card=card, meal=meal_type(card) if card else None,
                    blocked_by=blockers))
    if state["eliminated_this_round"] == 0:
        state["first_player"] = player
        ev.append(event("marker_taken", seat=player))
    state["eliminated_this_round"] += 1
    if state["supply"]:
        state["step"] = "compensation"
    else:
        ev.append(event("no_compensation", seat=player))
        after_elimination(state, ev)


def take_from_supply(state: JSON, player: str, card: str, ev: Events) -> None:
    """The awaited supply pick: an eliminated player's compensation, or the round winner's card."""
    if state["step"] == "compensation":
        take_compensation(state, player, card, ev)
    else:
        winner_takes(state, player, card, ev)


def _gain(state: JSON, player: str, card: str) -> None:
    me = state["seats"][player]
    state["supply"].remove(card)
    add_to_collection(me, card)
    me["draw_pile"].append(card)


def take_compensation(state: JSON, player: str, card: str, ev: Events) -> None:
    """An eliminated player adds a supply card to their collection (bottom of the draw pile, ruling F3)."""
    _gain(state, player, card)
    ev.append(event("compensation_taken", seat=player, card=card))
    after_elimination(state, ev)


def winner_takes(state: JSON, player: str, card: str, ev: Events) -> None:
    """The round winner takes a supply card; any other left (unreachable) goes under the central deck."""
    _gain(state, player, card)
    ev.append(event("last_card_taken", seat=player, card=card))
    state["central_deck"].extend(state["supply"])
    state["supply"] = []
    finish_round(state, player, card, ev)


def after_elimination(state: JSON, ev: Events) -> None:
    """Service goes on clockwise, or ends when one player is left standing."""
    left = standing(state)
    if len(left) == 1:
        end_of_service(state, left[0], ev)
    else:
        end_turn(state)


def end_turn(state: JSON) -> None:
    """Pass the service turn to the next player still standing."""
    begin_turn(state, next_standing(state, state["turn"]))


def end_of_service(state: JSON, winner: str, ev: Events) -> None:
    """The last player standing gains a VP and the supply's last card."""
    state["seats"][winner]["vp"] += 1
    ev.append(event("round_won", seat=winner, round=state["round"], vp=state["seats"][winner]["vp"]))
    state["turn"] = winner
    if len(state["supply"]) > 1:
        state["step"] = "winner_pick"
    elif state["supply"]:
        winner_takes(state, winner, state["supply"][0], ev)
    else:
        finish_round(state, winner, None, ev)


def discard_truck_cards(state: JSON, ev: Events) -> None:
    """Unused face-up Truck cards go to their owners' discards."""
    for p in state["players"]:
        me = state["seats"][p]
        if me["truck_current"] is not None:
            me["truck_discard"].append(me["truck_current"])
            ev.append(event("truck_discarded", seat=p, card=me["truck_current"]))
            me["truck_current"] = None


def gather_cards(state: JSON) -> None:
    """Every player takes all their cards back into their hand; the collection already lists them."""
    for p in state["players"]:
        me = state["seats"][p]
        me.update(draw_pile=[], hand=list(me["collection"]), served={}, desserts_served=[], pending=None, eliminated=False,
                  ready=False)


def deal_supply(state: JSON, ev: Events) -> None:
    """A new supply of n cards from the central deck (fewer if it runs short, ruling F16)."""
    n = len(state["players"])
    state["supply"] = state["central_deck"][:n]
    state["central_deck"] = state["central_deck"][n:]
    ev.append(event("supply_dealt", cards=list(state["supply"])))


def finish_round(state: JSON, winner: str, card: str | None, ev: Events) -> None:
    """End-of-service bookkeeping, then the game ends at the VP target or a new round starts."""
    state["rounds"].append({"round": state["round"], "winner": winner,
                            "eliminated": list(state["elimination_order"]), "card": card})
    over = state["seats"][winner]["vp"] >= state["vp_target"]
    if over:
        # The table as the last round left it, before everyone takes their cards back: the end screen shows it.
        # An event, not state: the state is reset as after every round, so replaying an older game still gives the
        # final state stored for it.
        ev.append(event("final_board", seats={p: {
            "served": {meal: list(cards) for meal, cards in me["served"].items()},
            "desserts_served": list(me["desserts_served"]),
            "eliminated": me["eliminated"],
            "truck_current": me["truck_current"],
        } for p, me in state["seats"].items()}))
    discard_truck_cards(state, ev)
    gather_cards(state)
    deal_supply(state, ev)
    state["turn"], state["step"], state["rearrange"] = None, None, None
    state["eliminated_this_round"], state["elimination_order"] = 0, []
    if over:
        state["phase"] = "over"
        state["winner"] = winner
        ev.append(event("game_won", seat=winner, vp=state["seats"][winner]["vp"]))
    else:
        start_round(state, ev)
