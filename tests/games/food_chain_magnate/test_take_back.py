"""Restructuring take-back (§6.1): a card put in the secret structure can be taken back before submitting."""

from __future__ import annotations

import pytest

from app.games.base import IllegalAction
from app.games.food_chain_magnate import ENGINE
from app.games.food_chain_magnate.flow import advance
from tests.games.food_chain_magnate.helpers import JSON, give, hand_made, invariant


def _restructuring() -> JSON:
    state = hand_made(2)
    give(state, "0", "hand", "management_trainee", "waitress", "waitress", "kitchen_trainee")
    give(state, "1", "hand", "waitress")
    state["phase"] = "start_round"
    advance(state, [])
    assert state["phase"] == "restructuring"
    return state


def _apply(state: JSON, seat: str, *actions: JSON) -> JSON:
    for action in actions:
        state = ENGINE.apply(state, seat, action).state
    return state


def test_take_back_is_listed_for_each_chosen_card_only() -> None:
    state = _restructuring()
    assert not [a for a in ENGINE.actions(state, "0") if a["type"] == "take_back"]
    state = _apply(state, "0", {"type": "work", "card": "waitress"}, {"type": "work", "card": "waitress"},
                   {"type": "work", "card": "kitchen_trainee"})
    backs = [a for a in ENGINE.actions(state, "0") if a["type"] == "take_back"]
    assert backs == [{"type": "take_back", "card": "kitchen_trainee"}, {"type": "take_back", "card": "waitress"}]


def test_take_back_removes_one_copy_secretly_and_is_undoable() -> None:
    state = _apply(_restructuring(), "0", {"type": "work", "card": "waitress"},
                   {"type": "work", "card": "waitress"})
    applied = ENGINE.apply(state, "0", {"type": "take_back", "card": "waitress"})
    assert applied.state["secret"]["0"]["work"] == ["waitress"]
    assert applied.events == [{"type": "work_taken_back", "player": "0", "card": "waitress", "visible_to": ["0"]}]
    assert applied.undoable
    assert state["secret"]["0"]["work"] == ["waitress", "waitress"]  # input untouched
    # the card is back among the hand cards that can be put to work
    assert {"type": "work", "card": "waitress"} in ENGINE.actions(applied.state, "0")


def test_take_back_of_a_card_not_chosen_is_refused() -> None:
    state = _apply(_restructuring(), "0", {"type": "work", "card": "waitress"})
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, "0", {"type": "take_back", "card": "kitchen_trainee"})
    assert err.value.code == "bad_structure_choice"


def test_others_cannot_tell_a_take_back_happened() -> None:
    base = _restructuring()
    took_back = _apply(base, "0", {"type": "work", "card": "waitress"}, {"type": "work", "card": "kitchen_trainee"},
                       {"type": "take_back", "card": "waitress"})
    never = _apply(base, "0", {"type": "work", "card": "management_trainee"})
    for viewer in (None, "1"):
        assert ENGINE.view(took_back, viewer) == ENGINE.view(never, viewer)


def test_revealed_structure_leaves_taken_back_cards_on_the_beach() -> None:
    state = _apply(_restructuring(), "0", {"type": "work", "card": "management_trainee"},
                   {"type": "work", "card": "waitress"}, {"type": "take_back", "card": "management_trainee"},
                   {"type": "submit"})
    state = _apply(state, "1", {"type": "submit"})
    assert state["p"]["0"]["work"] == ["waitress"]
    assert state["p"]["0"]["beach"] == ["kitchen_trainee", "management_trainee", "waitress"]
    invariant(state)
