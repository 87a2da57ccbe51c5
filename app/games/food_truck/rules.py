"""The legal actions of each moment, and why any other action is refused."""

from __future__ import annotations

from typing import Any

from app.games.base import IllegalAction
from app.games.food_truck.data import EFFECTS, TRUCK_CARDS
from app.games.food_truck.setup import trucks_left
from app.games.food_truck.table import current_effect, singles
from app.games.food_truck.windows import WINDOW_A, WINDOW_B, share_partner, truck_plays
from app.games.toolkit import JSON

#: action types allowed at each moment: the phase, or the service step during Service
ALLOWED: dict[str, tuple[str, ...]] = {
    "trucks": ("choose_truck",),
    "prep": ("place", "take_back"),
    "reveal": ("reveal", "play_truck"),
    "decide": ("resolve", "play_truck"),
    "rearrange": ("rearrange", "take_back"),
    "compensation": ("take",),
    "winner_pick": ("take",),
}
KNOWN_TYPES = {t for types in ALLOWED.values() for t in types}


def moment(state: JSON) -> str:
    """The phase, or the service step while in Service."""
    return state["step"] if state["phase"] == "service" else state["phase"]


def awaiting(state: JSON) -> list[str]:
    """Seats whose input is awaited now."""
    phase = state["phase"]
    if phase == "trucks":
        return [state["truck_chooser"]]
    if phase == "prep":
        return [p for p in state["players"] if not state["seats"][p]["ready"]]
    if phase == "service":
        return [state["turn"]]
    return []


def legal_actions(state: JSON, player: str) -> list[JSON]:
    """The complete list of concrete legal actions for this seat now."""
    if player not in awaiting(state):
        return []
    me = state["seats"][player]
    now = moment(state)
    if now == "trucks":
        return [{"type": "choose_truck", "truck": t} for t in trucks_left(state)]
    if now == "prep":
        out: list[JSON] = [{"type": "place", "card": c} for c in me["hand"]]
        return out + ([{"type": "take_back"}] if me["draw_pile"] else [])
    if now == "reveal":
        return [{"type": "reveal"}, *truck_plays(state, player, WINDOW_A)]
    if now == "decide":
        return [{"type": "resolve"}, *truck_plays(state, player, WINDOW_B)]
    if now == "rearrange":
        work = state["rearrange"]
        out = [{"type": "rearrange", "card": c} for c in work["todo"]]
        return out + ([{"type": "take_back"}] if work["done"] else [])
    return [{"type": "take", "card": c} for c in state["supply"]]


def refuse(state: JSON, player: str, action: Any) -> IllegalAction:
    """The IllegalAction explaining why an action that is not in the legal list is refused."""
    if state["phase"] == "over":
        return IllegalAction("game_over", "The game is over.")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return IllegalAction("unknown_action", "That is not an action of this game.")
    kind = action["type"]
    if kind not in KNOWN_TYPES:
        return IllegalAction("unknown_action", f"Food Truck has no action '{kind}'.")
    if player not in awaiting(state):
        return IllegalAction("not_your_turn", "It is not your turn.")
    now = moment(state)
    if kind not in ALLOWED[now]:
        return IllegalAction("wrong_phase", f"You cannot do '{kind}' now.")
    return _refuse_detail(state, player, action, now)


def _refuse_detail(state: JSON, player: str, action: JSON, now: str) -> IllegalAction:
    kind = action["type"]
    me = state["seats"][player]
    card = action.get("card")
    if kind == "choose_truck":
        if not isinstance(action.get("truck"), str) or action["truck"] not in TRUCK_CARDS:
            return IllegalAction("no_such_truck", "There is no such truck.")
        if action["truck"] not in trucks_left(state):
            return IllegalAction("truck_taken", "Another player already runs that truck.")
    elif kind == "place" and card not in me["hand"]:
        return IllegalAction("no_such_card", "That card is not in your hand.")
    elif kind == "rearrange" and card not in state["rearrange"]["todo"]:
        return IllegalAction("no_such_card", "That card is not among the cards you are rearranging.")
    elif kind == "take" and card not in state["supply"]:
        return IllegalAction("no_such_card", "That card is not in the supply.")
    elif kind == "take_back":
        stacked = me["draw_pile"] if now == "prep" else state["rearrange"]["done"]
        if not stacked:
            return IllegalAction("nothing_to_take_back", "You have not placed any card yet.")
    elif kind == "play_truck":
        return _refuse_truck(state, player, action, now)
    return IllegalAction("bad_action", "That action is malformed.")


def _refuse_truck(state: JSON, player: str, action: JSON, now: str) -> IllegalAction:
    effect = current_effect(state, player)
    if effect is None:
        return IllegalAction("truck_used", "You have already used your Truck card this round.")
    if action.get("effect") != effect:
        return IllegalAction("wrong_effect", f"Your Truck card this round is {EFFECTS[effect]['name']}.")
    window = WINDOW_A if now == "reveal" else WINDOW_B
    if window not in EFFECTS[effect]["windows"]:
        return IllegalAction("wrong_window", f"{EFFECTS[effect]['name']} is played after revealing your card.")
    if effect == "E2" and (action.get("seat"), action.get("meal")) not in singles(state):
        return IllegalAction("not_a_single", "Choose a face-up Meal that is not part of a pile.")
    if effect == "E3":
        if not state["supply"]:
            return IllegalAction("supply_empty", "The supply is empty: there is nothing to swap with.")
        if action.get("card") not in state["supply"]:
            return IllegalAction("no_such_card", "That card is not in the supply.")
    if effect == "E5" and share_partner(state, player) is None:
        return IllegalAction("share_not_allowed",
                             "You may share only a Meal that exactly one other player shows, not as a pile.")
    return IllegalAction("bad_action", "That action is malformed.")
