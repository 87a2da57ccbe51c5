"""Property tests: legal games end, keep every invariant, and actions() agrees with apply()."""

from __future__ import annotations

import random

import pytest

from app.games.food_chain_magnate import ENGINE
from tests.games import contract
from tests.games.food_chain_magnate.helpers import JSON, invariant, purposeful


def mixed(state: JSON, player: str, legal: list[JSON], rnd: random.Random) -> JSON:
    """Seats 0 and 2 play the bot, the others random-but-purposeful: enough earning to break the bank."""
    if player in ("0", "2"):
        return ENGINE.bot_action(ENGINE.view(state, player), player, rnd.randrange(1 << 30))
    return purposeful(state, player, legal, rnd)


@pytest.mark.parametrize(("n", "seed"), [(2, 11), (2, 12), (3, 13), (3, 14), (4, 15), (4, 16), (5, 17), (5, 18)])
def test_games_end_and_keep_invariants(n: int, seed: int) -> None:
    state, moves = contract.play_random(ENGINE, n, seed, max_steps=6_000, check_every=9,
                                        invariant=invariant, chooser=mixed)
    contract.check_outcome(ENGINE, state, n)
    invariant(state)
    assert state["breaks"] == 2 and state["reserves_revealed"]
    assert contract.canonical(contract.replay(ENGINE, n, seed, moves)) == contract.canonical(state)


def test_intro_game_ends_at_first_break() -> None:
    state, _moves = contract.play_random(ENGINE, 3, 21, max_steps=6_000, check_every=5, invariant=invariant,
                                         chooser=mixed, options={"intro": True})
    contract.check_outcome(ENGINE, state, 3)
    assert state["breaks"] == 1 and not state["p"]["0"]["milestones"]
    assert all(state["p"][s]["reserve"] is None for s in state["players"])


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_uniform_random_play_never_breaks_an_invariant(n: int) -> None:
    """Uniformly random legal play (which rarely ends) for a capped number of steps."""
    state = ENGINE.new_game(contract.seats(n), 40 + n)
    rnd = random.Random(n)
    for step in range(1_200):
        if ENGINE.outcome(state) is not None:
            break
        player = rnd.choice(ENGINE.awaiting(state))
        legal = ENGINE.actions(state, player)
        assert legal
        state = ENGINE.apply(state, player, rnd.choice(legal)).state
        if step % 20 == 0:
            invariant(state)
    invariant(state)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_actions_agree_with_apply(n: int) -> None:
    """Everything listed applies; mutated unlisted actions are refused, and seats not awaited have none."""
    state = ENGINE.new_game(contract.seats(n), 100 + n)
    rnd = random.Random(n)
    for step in range(500):
        if ENGINE.outcome(state) is not None:
            break
        awaited = ENGINE.awaiting(state)
        for seat in contract.seats(n):
            if seat not in awaited:
                assert ENGINE.actions(state, seat) == []
        player = rnd.choice(awaited)
        legal = ENGINE.actions(state, player)
        if step % 4 == 0:
            for action in rnd.sample(legal, min(4, len(legal))):
                ENGINE.apply(state, player, action)
            contract.assert_unlisted_refused(ENGINE, state, player, contract.mutate_actions(legal, rnd))
            others = [s for s in contract.seats(n) if s not in awaited]
            if others:
                contract.assert_unlisted_refused(ENGINE, state, others[0], legal[:3])
        state = ENGINE.apply(state, player, mixed(state, player, legal, rnd)).state


def test_deterministic() -> None:
    a, moves = contract.play_random(ENGINE, 3, 5, max_steps=6_000, chooser=mixed)
    assert contract.canonical(contract.replay(ENGINE, 3, 5, moves)) == contract.canonical(a)
    assert contract.canonical(ENGINE.new_game(["0", "1"], 9)) == contract.canonical(ENGINE.new_game(["0", "1"], 9))
    assert contract.canonical(ENGINE.new_game(["0", "1"], 9)) != contract.canonical(ENGINE.new_game(["0", "1"], 10))
