"""Rules review: cases the earlier audits missed, checked against the spec (/work/shared/rules/food-truck-champion.md)
and the rulebook."""

from __future__ import annotations

from tests.games.food_truck_champion.helpers import make_state, run, step
from tests.games.food_truck_champion.test_examples import MARKET8

# §8: hand contents are private to their owner. A step that shows a hand card to the table reveals hidden
# information, so it cannot be taken back (docs/architecture.md, `undoable`), just as a lead cannot.


def test_an_exec_chef_placement_shows_a_hand_card_and_cannot_be_taken_back() -> None:
    # Seat 0 leads Exec. Chef with a hired Exec. Chef (two actions); after the first placement it is still awaited.
    state = make_state(3, hands={"0": ["ftc-085", "ftc-016", "ftc-040"]}, boards={"0": {"hired_staff": ["ftc-086"]}},
                       market=MARKET8)
    state = run(state, ("0", {"type": "lead", "card": "ftc-085"}), ("1", {"type": "take_charge"}),
                ("2", {"type": "take_charge"}))
    applied = step(state, "0", {"type": "exec_chef", "card": "ftc-016", "ticket": "start-bear_burgers"})
    assert applied.state["round"]["choices"]["0"]["left"] == 1
    assert applied.undoable is False


def test_a_discard_down_to_six_shows_a_hand_card_and_cannot_be_taken_back() -> None:
    # §4.1: the discarded card goes face-up to the discard pile; seat 0 still has a second card to discard.
    state = make_state(3, hands={"0": ["ftc-001", "ftc-002", "ftc-003", "ftc-004", "ftc-005"]},
                       boards={"0": {"owner": "hand"}}, market=MARKET8)
    state = run(state, ("0", {"type": "market_research"}))
    applied = step(state, "0", {"type": "discard", "card": "ftc-001"})
    assert applied.state["discard"] == ["ftc-001"] and applied.state["pending"] is not None
    assert applied.undoable is False


def test_following_with_a_hand_card_shows_it_and_cannot_be_taken_back() -> None:
    # §4.3: a FOLLOW_HAND choice is public at once and cannot be changed. In this two-player neutral round seat 0
    # takes charge, so seat 1, the last to decide, is also the first to be asked to resolve.
    state = make_state(2, hands={"0": [], "1": ["ftc-085", "ftc-002"]}, market=MARKET8[:6],
                       deck_top=["ftc-090"], active=1)
    state = run(state, ("1", {"type": "take_charge"}))
    assert state["round"]["leader"] is None and state["round"]["lead_action"] == "Exec. Chef"
    state = run(state, ("0", {"type": "take_charge"}))
    applied = step(state, "1", {"type": "follow_hand", "card": "ftc-085"})
    assert applied.state["round"]["stage"] == "resolve" and applied.state["boards"]["1"]["centre"] == "ftc-085"
    assert applied.undoable is False
