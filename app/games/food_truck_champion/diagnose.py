"""Explain why an action is not legal now: a stable code and a message a player can read."""

from __future__ import annotations

from typing import Any

from app.games.base import IllegalAction
from app.games.food_truck_champion.data import SECTIONS, STAFF_ACTIONS
from app.games.food_truck_champion.research import can_take_charge
from app.games.food_truck_champion.round import FOLLOW_EXTRAS, hired_matching
from app.games.food_truck_champion.staff import MARKET_SECTION, STAFF_TYPE, section_cards
from app.games.food_truck_champion.tokens import free_gray_sections, lower_choices
from app.games.food_truck_champion.zones import (
    action_of,
    capacity,
    ingredient_of,
    is_owner_card,
    need,
)
from app.games.toolkit import JSON

TURN_TYPES = {"market_research", "take_charge", "lead"}
DECIDE_TYPES = {"follow_hand", "follow_staff", "market_research", "take_charge"}
RESOLVE_TYPES = {*STAFF_TYPE.values(), "decline"}
ALL_TYPES = TURN_TYPES | DECIDE_TYPES | RESOLVE_TYPES | {
    "discard", "take_token", "decline_token", "place_token", "critique", "place_card"}


def step_types(state: JSON) -> set[str]:
    """Action types that belong to the current step."""
    pending = state["pending"]
    if pending is not None:
        return {"discard": {"discard"}, "token": {"take_token", "decline_token"},
                "place_token": {"place_token"}}[pending["kind"]]
    rnd = state["round"]
    if rnd is None:
        return TURN_TYPES
    return {"decide": DECIDE_TYPES, "resolve": RESOLVE_TYPES, "critique": {"critique"},
            "market": {"place_card"}}[rnd["stage"]]


def refuse(code: str, message: str) -> IllegalAction:
    """Build the exception (the caller raises it)."""
    return IllegalAction(code, message)


def diagnose(state: JSON, seat: str, action: Any) -> IllegalAction:
    """The most specific reason why `action` is not among `seat`'s legal actions."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str) or action["type"] not in ALL_TYPES:
        return refuse("unknown_action", "That is not an action of this game.")
    kind = action["type"]
    if kind not in step_types(state):
        return refuse("wrong_step", "That action is not possible at this point of the turn.")
    board = state["boards"][seat]
    checks = {
        "lead": _lead, "follow_hand": _follow_hand, "follow_staff": _follow_staff,
        "take_charge": _take_charge, "discard": _discard, "prep_cook": _cook, "exec_chef": _cook,
        "take_token": _token, "place_token": _place_token, "critique": _critique, "place_card": _place_card,
    }
    if kind in MARKET_SECTION:
        found = _market(state, board, action)
    elif kind in checks:
        found = checks[kind](state, board, action)
    else:
        found = None
    return found or refuse("bad_action", "That action is malformed.")


def _card_in(cards: list[str], action: JSON, where: str) -> IllegalAction | None:
    if action.get("card") not in cards:
        return refuse("no_such_card", f"That card is not in your {where}.")
    return None


def _lead(state: JSON, board: JSON, action: JSON) -> IllegalAction | None:
    card = str(action.get("card"))
    if card not in board["hand"]:
        return refuse("no_such_card", "That card is not in your hand.")
    if is_owner_card(card) and action.get("action") not in STAFF_ACTIONS:
        return refuse("bad_staff_action", "Name one of the five staff actions for your Owner card.")
    return None


def _follow_hand(state: JSON, board: JSON, action: JSON) -> IllegalAction | None:
    card = str(action.get("card"))
    if card not in board["hand"]:
        return refuse("no_such_card", "That card is not in your hand.")
    if not is_owner_card(card) and action_of(card) != state["round"]["lead_action"]:
        return refuse("does_not_match_lead", f"To follow you need a {state['round']['lead_action']} card.")
    return None


def _follow_staff(state: JSON, board: JSON, action: JSON) -> IllegalAction | None:
    if not hired_matching(board, state["round"]["lead_action"]):
        return refuse("no_matching_staff", "None of your Hired Staff matches the lead action.")
    if action.get("also") not in FOLLOW_EXTRAS:
        return refuse("bad_choice", "Add Market Research, Take Charge or nothing.")
    if action["also"] == "take_charge" and not can_take_charge(board):
        return refuse("owner_not_on_board", "Your Owner card is not on your board.")
    return None


def _take_charge(state: JSON, board: JSON, action: JSON) -> IllegalAction | None:
    if not can_take_charge(board):
        return refuse("owner_not_on_board", "Your Owner card is not on your board.")
    return None


def _discard(state: JSON, board: JSON, action: JSON) -> IllegalAction | None:
    card = action.get("card")
    if isinstance(card, str) and is_owner_card(card) and card in board["hand"]:
        return refuse("owner_never_discarded", "Your Owner card can never be discarded.")
    return _card_in(board["hand"], action, "hand")


def _market(state: JSON, board: JSON, action: JSON) -> IllegalAction | None:
    kind = action["type"]
    if STAFF_TYPE[state["round"]["lead_action"]] != kind:
        return refuse("wrong_staff_action", f"This round's action is {state['round']['lead_action']}.")
    position = action.get("position")
    if not isinstance(position, int) or isinstance(position, bool) or not 1 <= position <= len(state["market"]):
        return refuse("no_such_position", "There is no such market position.")
    if not state["market"][position - 1]:
        return refuse("empty_position", "That market position is empty.")
    section = MARKET_SECTION[kind]
    if "replace" in action:
        if action["replace"] not in section_cards(board, section):
            return refuse("no_such_card", "You can only replace a card in that section of your truck.")
        return None
    if len(section_cards(board, section)) >= capacity(board, section):
        return refuse("section_full", "That section is full: choose a card to replace.")
    return None


def _cook(state: JSON, board: JSON, action: JSON) -> IllegalAction | None:
    kind = action["type"]
    if STAFF_TYPE[state["round"]["lead_action"]] != kind:
        return refuse("wrong_staff_action", f"This round's action is {state['round']['lead_action']}.")
    card = str(action.get("card"))
    source = board["fridge"] if kind == "prep_cook" else board["hand"]
    if is_owner_card(card):
        return refuse("owner_not_ingredient", "Your Owner card is never an ingredient.")
    if card not in source:
        return refuse("no_such_card", "That card is not in your " + ("Fridge." if kind == "prep_cook" else "hand."))
    slot = next((s for s in board["plating"] if s["card"] == action.get("ticket")), None)
    if slot is None:
        return refuse("no_such_ticket", "That ticket is not in your Plating Area.")
    if ingredient_of(card) not in need(slot):
        return refuse("not_needed", "That ticket does not need this ingredient.")
    return None


def _token(state: JSON, board: JSON, action: JSON) -> IllegalAction | None:
    if action.get("value") not in lower_choices(state, state["pending"]["value"]):
        return refuse("no_such_token", "You may only take a token of a lower value that is still available.")
    return None


def _place_token(state: JSON, board: JSON, action: JSON) -> IllegalAction | None:
    if action.get("section") not in SECTIONS or action["section"] not in free_gray_sections(board):
        return refuse("no_gray_icon", "That section has no free gray icon.")
    return None


def _critique(state: JSON, board: JSON, action: JSON) -> IllegalAction | None:
    return _card_in(board["completed"], action, "Completed Orders")


def _place_card(state: JSON, board: JSON, action: JSON) -> IllegalAction | None:
    position = action.get("position")
    if not isinstance(position, int) or isinstance(position, bool) or not 1 <= position <= len(state["market"]):
        return refuse("no_such_position", "There is no such market position.")
    if state["market"][position - 1] and any(not pile for pile in state["market"]):
        return refuse("must_use_empty_position", "Put your card into an empty market position.")
    return None
