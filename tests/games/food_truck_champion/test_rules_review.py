"""Rules review: rare cases checked against the spec (rules/food-truck-champion.md in the shared folder beside the
project) and the rulebook."""

from __future__ import annotations

import random

from app.games.food_truck_champion import ENGINE
from tests.games.contract import seats
from tests.games.food_truck_champion.helpers import make_state, run, step
from tests.games.food_truck_champion.test_examples import MARKET8

# §8: hand contents are private to their owner. A step that shows a hand card to the table reveals hidden
# information, so it cannot be taken back (docs/architecture/game-contract.md, `undoable`), just as a lead cannot.


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


def _cards_seen(view: object) -> set[str]:
    """Every game card named anywhere in a view."""
    if isinstance(view, dict):
        return set().union(*map(_cards_seen, view.values())) if view else set()
    if isinstance(view, list):
        return set().union(*map(_cards_seen, view)) if view else set()
    return {view} if isinstance(view, str) and view.startswith("ftc-") else set()


def test_undoable_steps_show_the_other_seats_no_new_card() -> None:
    # Over seeded random games: a step that may be taken back drew nothing, keeps its player the only one awaited,
    # and shows no other seat (nor a spectator) a card it could not see before: public steps may be taken back,
    # but a card that comes out of a hand or the deck has been seen.
    r = random.Random(11)
    seen = 0
    for game in range(12):
        state = ENGINE.new_game(seats(2 + game % 3), game)
        for _ in range(400):
            waiting = ENGINE.awaiting(state)
            if not waiting:
                break
            seat = waiting[0]
            applied = ENGINE.apply(state, seat, r.choice(ENGINE.actions(state, seat)))
            if applied.undoable:
                seen += 1
                assert ENGINE.awaiting(applied.state) == [seat] and applied.state["rng"] == state["rng"]
                assert all(e["visible_to"] in (None, [seat]) for e in applied.events)
                for other in [p for p in state["players"] if p != seat] + [None]:
                    assert _cards_seen(ENGINE.view(applied.state, other)) <= _cards_seen(ENGINE.view(state, other))
            state = applied.state
    assert seen > 50
