"""Final scoring: tokens, flavor-profile sets as multisets, own-logo tickets, every tie-break level."""

from __future__ import annotations

from app.games.food_truck_champion import ENGINE
from app.games.food_truck_champion.scoring import profile_sets
from tests.games.food_truck_champion.helpers import make_state


def finished(boards: dict) -> dict:
    state = make_state(3, boards=boards, check=False)
    state["phase"] = "over"
    return state


def test_profile_sets_count_doubled_icons_as_multisets() -> None:
    bear = ["Grain", "Grain", "Meat", "Dairy"]
    assert profile_sets(["ftc-023"], bear) == 0  # Grain, Meat, Dairy: one Grain short
    assert profile_sets(["ftc-023", "ftc-016"], bear) == 1
    assert profile_sets(["ftc-002", "ftc-034"], bear) == 1  # GGM + GDD
    assert profile_sets([], bear) == 0


def test_own_logo_counts_completed_and_awards_including_the_starting_order() -> None:
    out = ENGINE.outcome(finished({"0": {"completed": ["start-bear_burgers", "ftc-001"], "awards": ["ftc-020"],
                                         "plating": []}}))
    assert out is not None
    assert out["details"]["0"]["logo_count"] == 3 and out["scores"]["0"] == 3


def test_tie_on_total_and_logos_is_broken_by_number_of_tokens_not_value() -> None:
    out = ENGINE.outcome(finished({"0": {"tokens": [3, 3]}, "1": {"tokens": [2, 2, 1, 1]}}))
    assert out is not None
    assert out["scores"]["0"] == out["scores"]["1"] == 6
    assert out["ranking"] == [["1"], ["0"], ["2"]] and out["winners"] == ["1"]


def test_a_complete_tie_shares_the_win() -> None:
    out = ENGINE.outcome(finished({"0": {"tokens": [3, 1]}, "1": {"tokens": [2, 2]}, "2": {"tokens": [1, 3]}}))
    assert out is not None
    assert out["ranking"] == [["0", "1", "2"]] and sorted(out["winners"]) == ["0", "1", "2"]


def test_running_game_has_no_outcome() -> None:
    assert ENGINE.outcome(make_state(3)) is None
