"""Property tests over many seeds and every player count: random play, actions/apply agreement, determinism,
and hidden information by indistinguishability."""

from __future__ import annotations

import copy
import random

import pytest

from app.games.food_truck_champion import ENGINE
from app.games.food_truck_champion.staff import STAFF_TYPE, can_perform, staff_options
from tests.games.contract import (
    assert_json,
    assert_unlisted_refused,
    canonical,
    check_outcome,
    mutate_actions,
    play_random,
    replay,
    seats,
)
from tests.games.food_truck_champion.helpers import check_invariant

COUNTS = [2, 3, 4, 5]
SECRET_EVENTS = {"drew", "critique_pick"}


@pytest.mark.parametrize("n", COUNTS)
def test_random_play_ends_and_keeps_every_invariant(n: int) -> None:
    for seed in range(6):
        state, moves = play_random(ENGINE, n, 100 * n + seed, check_every=3, invariant=check_invariant)
        check_outcome(ENGINE, state, n)
        assert ENGINE.awaiting(state) == [] and ENGINE.actions(state, "0") == []
        out = ENGINE.outcome(state)
        assert out is not None
        for seat, detail in out["details"].items():
            assert detail["total"] == detail["token_points"] + detail["set_points"] + detail["logo_points"]
            assert out["scores"][seat] == detail["total"]


@pytest.mark.parametrize("n", COUNTS)
def test_actions_agree_with_apply(n: int) -> None:
    """Everything listed applies (a valid JSON state, input untouched); plausible unlisted variants are refused."""
    rnd = random.Random(n)
    state = ENGINE.new_game(seats(n), 7 * n)
    steps = 0
    while ENGINE.outcome(state) is None:
        seat = rnd.choice(ENGINE.awaiting(state))
        legal = ENGINE.actions(state, seat)
        assert legal and len({canonical(a) for a in legal}) == len(legal), "duplicate or empty action list"
        if steps % 4 == 0:
            before = canonical(state)
            for action in legal:
                applied = ENGINE.apply(state, seat, action)
                assert_json(applied.state)
                for event in applied.events:
                    assert isinstance(event["type"], str) and "visible_to" in event
                    assert (event["type"] in SECRET_EVENTS) == (event["visible_to"] is not None), event
            assert canonical(state) == before
            assert_unlisted_refused(ENGINE, state, seat, mutate_actions(legal, rnd))
            others = [s for s in seats(n) if s not in ENGINE.awaiting(state)]
            if others:
                assert_unlisted_refused(ENGINE, state, others[0], legal[:3])
        state = ENGINE.apply(state, seat, rnd.choice(legal)).state
        steps += 1


@pytest.mark.parametrize("n", COUNTS)
def test_same_seed_and_actions_give_the_same_state(n: int) -> None:
    state, moves = play_random(ENGINE, n, 999 + n)
    assert canonical(replay(ENGINE, n, 999 + n, moves)) == canonical(state)
    again, _ = play_random(ENGINE, n, 999 + n)
    assert canonical(again) == canonical(state)


def states_along_a_game(n: int, seed: int, every: int) -> list[dict]:
    rnd = random.Random(seed)
    state = ENGINE.new_game(seats(n), seed)
    out = []
    k = 0
    while ENGINE.outcome(state) is None:
        if k % every == 0:
            out.append(state)
        seat = rnd.choice(ENGINE.awaiting(state))
        state = ENGINE.apply(state, seat, rnd.choice(ENGINE.actions(state, seat))).state
        k += 1
    return out


def hide_differently(state: dict, secret_seat: str, rnd: random.Random) -> dict:
    """A state that differs from `state` only in what nobody but `secret_seat` may know."""
    other = copy.deepcopy(state)
    other["rng"] = state["rng"] ^ 0xABCDEF
    rnd.shuffle(other["deck"])
    board = other["boards"][secret_seat]
    swappable = [i for i, c in enumerate(board["hand"]) if c.startswith("ftc-")]
    if swappable and other["deck"]:
        i = rnd.choice(swappable)
        board["hand"][i], other["deck"][0] = other["deck"][0], board["hand"][i]
    if board["completed"] and other["deck"]:
        board["completed"][0], other["deck"][-1] = other["deck"][-1], board["completed"][0]
    board["tokens"] = [4 - t for t in board["tokens"]]
    rnd.shuffle(board["hand"])
    return other


@pytest.mark.parametrize("n", COUNTS)
def test_views_hide_hands_deck_completed_orders_and_token_values(n: int) -> None:
    rnd = random.Random(n)
    for state in states_along_a_game(n, 31 + n, every=15):
        secret = rnd.choice(seats(n))
        other = hide_differently(state, secret, rnd)
        for viewer in [None, *(s for s in seats(n) if s != secret)]:
            assert canonical(ENGINE.view(state, viewer)) == canonical(ENGINE.view(other, viewer)), viewer
        view = ENGINE.view(state, None)
        assert "rng" not in view and "deck" not in view
        assert view["boards"][secret]["hand_count"] == len(state["boards"][secret]["hand"])


def test_the_owner_sees_their_own_secrets_and_everything_is_revealed_at_the_end() -> None:
    state, _ = play_random(ENGINE, 3, 5)
    view = ENGINE.view(state, None)
    for seat in seats(3):
        assert view["boards"][seat]["hand"] == state["boards"][seat]["hand"]
        assert view["boards"][seat]["tokens"] == state["boards"][seat]["tokens"]
    assert view["final"] == ENGINE.outcome(state)
    running = states_along_a_game(3, 5, every=40)[-1]
    own = ENGINE.view(running, "1")["boards"]["1"]
    assert own["hand"] == running["boards"]["1"]["hand"] and own["completed"] == running["boards"]["1"]["completed"]
    assert ENGINE.view(running, "0")["boards"]["1"]["hand"] is None


@pytest.mark.parametrize("n", [2, 4])
def test_can_perform_says_whether_staff_options_offers_anything(n: int) -> None:
    rnd = random.Random(50 + n)
    state = ENGINE.new_game(seats(n), 50 + n)
    while ENGINE.outcome(state) is None:
        for seat in state["boards"]:
            for staff_action in STAFF_TYPE:
                assert can_perform(state, seat, staff_action) == bool(staff_options(state, seat, staff_action))
        seat = rnd.choice(ENGINE.awaiting(state))
        state = ENGINE.apply(state, seat, rnd.choice(ENGINE.actions(state, seat))).state
