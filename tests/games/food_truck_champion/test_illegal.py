"""Every IllegalAction code, each from a state where it is the precise reason."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.base import IllegalAction
from app.games.food_truck_champion import ENGINE
from tests.games.contract import canonical
from tests.games.food_truck_champion.helpers import make_state, run
from tests.games.food_truck_champion.test_examples import MARKET8, example_4_state
from tests.games.food_truck_champion.test_rules import completing_state, round_for


def refused(state: dict, seat: str, action: Any) -> str:
    """Apply an illegal action; return its code after checking the message and that the state is untouched."""
    before = canonical(state)
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, seat, action)
    assert info.value.message and canonical(state) == before
    return info.value.code


def turn_state() -> dict:
    return make_state(3, hands={"0": ["ftc-001", "ftc-002"], "1": ["ftc-020"]}, market=MARKET8)


def test_turn_codes() -> None:
    state = turn_state()
    assert refused(state, "9", {"type": "market_research"}) == "no_such_seat"
    assert refused(state, "1", {"type": "market_research"}) == "not_your_turn"
    assert refused(state, "0", {"type": "fly_away"}) == "unknown_action"
    assert refused(state, "0", {"card": "ftc-001"}) == "unknown_action"
    assert refused(state, "0", {"type": "decline"}) == "wrong_step"
    assert refused(state, "0", {"type": "lead", "card": "ftc-020"}) == "no_such_card"
    assert refused(state, "0", {"type": "lead", "card": "ftc-001", "action": "Manager"}) == "bad_action"
    state["boards"]["0"]["owner"] = "hand"
    state["boards"]["0"]["hand"].append("owner-bear_burgers")
    assert refused(state, "0", {"type": "lead", "card": "owner-bear_burgers", "action": "Chef"}) == "bad_staff_action"
    assert refused(state, "0", {"type": "take_charge"}) == "owner_not_on_board"


def test_game_over_code() -> None:
    state = turn_state()
    state["phase"] = "over"
    assert refused(state, "0", {"type": "market_research"}) == "game_over"


def test_decision_codes() -> None:
    state = make_state(3, hands={"0": ["ftc-001"], "1": ["ftc-020", "ftc-002"]},
                       boards={"1": {"owner": "hand"}}, market=MARKET8)
    state = run(state, ("0", {"type": "lead", "card": "ftc-001"}))
    assert refused(state, "1", {"type": "follow_hand", "card": "ftc-020"}) == "does_not_match_lead"
    assert refused(state, "1", {"type": "follow_hand", "card": "ftc-003"}) == "no_such_card"
    assert refused(state, "1", {"type": "follow_staff", "also": "none"}) == "no_matching_staff"
    assert refused(state, "1", {"type": "take_charge"}) == "owner_not_on_board"
    state["boards"]["1"]["hired_staff"] = ["ftc-003"]
    assert refused(state, "1", {"type": "follow_staff", "also": "nap"}) == "bad_choice"
    assert refused(state, "1", {"type": "follow_staff", "also": "take_charge"}) == "owner_not_on_board"


def test_market_staff_action_codes() -> None:
    market = [["ftc-030"], [], *MARKET8[2:]]
    state = round_for("ftc-001", {"fridge": ["ftc-040", "ftc-041"]}, market=market)
    assert refused(state, "0", {"type": "cashier", "position": 1}) == "wrong_staff_action"
    assert refused(state, "0", {"type": "driver", "position": 9}) == "no_such_position"
    assert refused(state, "0", {"type": "driver", "position": True}) == "no_such_position"
    assert refused(state, "0", {"type": "driver", "position": 2}) == "empty_position"
    assert refused(state, "0", {"type": "driver", "position": 1}) == "section_full"
    assert refused(state, "0", {"type": "driver", "position": 1, "replace": "ftc-042"}) == "no_such_card"


def test_cooking_codes() -> None:
    state = round_for("ftc-058", {"fridge": ["ftc-040", "ftc-039"]})
    assert refused(state, "0", {"type": "exec_chef", "card": "ftc-040", "ticket": "start-bear_burgers"}) == (
        "wrong_staff_action")
    assert refused(state, "0", {"type": "prep_cook", "card": "ftc-002", "ticket": "start-bear_burgers"}) == (
        "no_such_card")
    assert refused(state, "0", {"type": "prep_cook", "card": "ftc-040", "ticket": "ftc-046"}) == "no_such_ticket"
    assert refused(state, "0", {"type": "prep_cook", "card": "ftc-039", "ticket": "start-bear_burgers"}) == (
        "not_needed")
    chef = round_for("ftc-085", {"owner": "hand"}, hand_extra=["ftc-016"])
    assert refused(chef, "0", {"type": "exec_chef", "card": "owner-bear_burgers", "ticket": "start-bear_burgers"}) == (
        "owner_not_ingredient")


def test_discard_codes() -> None:
    state = make_state(3, hands={"0": ["ftc-001", "ftc-002", "ftc-003", "ftc-004", "ftc-005"]},
                       boards={"0": {"owner": "hand"}}, market=MARKET8)
    state = run(state, ("0", {"type": "market_research"}))
    assert refused(state, "0", {"type": "discard", "card": "owner-bear_burgers"}) == "owner_never_discarded"
    assert refused(state, "0", {"type": "discard", "card": "ftc-090-nope"}) == "no_such_card"
    assert refused(state, "0", {"type": "market_research"}) == "wrong_step"


def test_token_codes() -> None:
    state = example_4_state()
    assert refused(state, "0", {"type": "take_token", "value": 3}) == "no_such_token"
    state = run(state, ("0", {"type": "take_token", "value": 1}))
    assert refused(state, "0", {"type": "place_token", "section": "roof"}) == "no_gray_icon"
    state["boards"]["0"]["gray"]["fridge"] = 3
    assert refused(state, "0", {"type": "place_token", "section": "fridge"}) == "no_gray_icon"


def test_critique_code() -> None:
    board0 = {"plating": [{"card": "ftc-016", "on": []}], "fridge": ["ftc-001"], "completed": ["ftc-026"]}
    state = make_state(3, hands={"0": ["ftc-058"]}, boards={"0": board0}, market=MARKET8,
                       stacks={"1": ["P", "C", "P", "C"], "2": [], "3": []}, removed=["start-bear_burgers"])
    state = run(state, ("0", {"type": "lead", "card": "ftc-058"}), ("1", {"type": "market_research"}),
                ("2", {"type": "market_research"}),
                ("0", {"type": "prep_cook", "card": "ftc-001", "ticket": "ftc-016"}),
                ("0", {"type": "place_token", "section": "fridge"}))
    assert ENGINE.awaiting(state) == ["0"]
    assert refused(state, "0", {"type": "critique", "card": "ftc-046"}) == "no_such_card"


def test_place_card_codes() -> None:
    market = [[], *MARKET8[1:]]
    state = make_state(3, hands={"0": ["ftc-001"], "1": ["ftc-002"]}, market=market)
    state = run(state, ("0", {"type": "lead", "card": "ftc-001"}), ("1", {"type": "follow_hand", "card": "ftc-002"}),
                ("2", {"type": "market_research"}), ("0", {"type": "decline"}), ("1", {"type": "decline"}))
    # Seat 0's card filled the only empty position by itself; seat 1 must cover one of the eight.
    assert ENGINE.awaiting(state) == ["1"]
    assert refused(state, "1", {"type": "place_card", "position": 0}) == "no_such_position"
    state["market"][3] = []
    assert refused(state, "1", {"type": "place_card", "position": 1}) == "must_use_empty_position"


def test_values_equal_in_python_but_not_in_json_are_refused() -> None:
    market = [[], *MARKET8[1:]]
    state = make_state(3, hands={"0": ["ftc-001"], "1": ["ftc-002"]}, market=market)
    state = run(state, ("0", {"type": "lead", "card": "ftc-001"}), ("1", {"type": "follow_hand", "card": "ftc-002"}),
                ("2", {"type": "market_research"}), ("0", {"type": "decline"}), ("1", {"type": "decline"}))
    assert {"type": "place_card", "position": 1} in ENGINE.actions(state, "1")
    # True == 1 and 1.0 == 1 in Python, but they are other JSON values than the listed 1.
    assert refused(state, "1", {"type": "place_card", "position": True}) == "no_such_position"
    assert refused(state, "1", {"type": "place_card", "position": 1.0}) == "no_such_position"
    # The listed action itself is legal whatever its key order.
    assert ENGINE.apply(state, "1", {"position": 1, "type": "place_card"}).state["round"] is None


def test_unexpected_fields_are_refused() -> None:
    state = completing_state({"1": [], "2": [], "3": []})
    assert refused(state, "0", {"type": "prep_cook", "card": "ftc-001", "ticket": "ftc-016", "x": 1}) == "bad_action"


def test_non_json_and_oversized_values_are_refused_not_crashed() -> None:
    state = turn_state()
    assert refused(state, "0", {"type": "lead", "card": {"ftc-001"}}) == "no_such_card"
    assert refused(state, "0", {"type": "market_research", "n": 2**70}) == "bad_action"
    assert refused(state, "0", ["market_research"]) == "unknown_action"


def test_the_documented_codes_are_exactly_the_engine_codes() -> None:
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    source = "".join(p.read_text() for p in (root / "app/games/food_truck_champion").glob("*.py"))
    engine = set(re.findall(r'(?:refuse|IllegalAction)\("([a-z_]+)"', source))
    doc = (root / "docs/games/food-truck-champion.md").read_text()
    listed = doc[doc.index("Refusal codes:"):doc.index("## Events")]
    assert engine == set(re.findall(r"`([a-z_]+)`", listed))
