"""The bot plays legal, deterministic moves and beats a uniformly random player."""

from __future__ import annotations

import random

import pytest

from app.games.food_truck_champion import ENGINE
from tests.games.contract import seats


def play_bot_vs_random(n: int, seed: int, bot: str) -> dict:
    rnd = random.Random(seed)
    state = ENGINE.new_game(seats(n), seed)
    k = 0
    while ENGINE.outcome(state) is None:
        seat = rnd.choice(ENGINE.awaiting(state))
        legal = ENGINE.actions(state, seat)
        if seat == bot:
            action = ENGINE.bot_action(ENGINE.view(state, seat), seat, seed * 7919 + k)
            assert action in legal
        else:
            action = rnd.choice(legal)
        state = ENGINE.apply(state, seat, action).state
        k += 1
    out = ENGINE.outcome(state)
    assert out is not None
    return dict(out)


def test_bot_beats_a_uniformly_random_player_in_at_least_70_percent_of_200_games() -> None:
    wins = 0
    for seed in range(200):
        bot = str(seed % 2)
        out = play_bot_vs_random(2, seed, bot)
        wins += out["winners"] == [bot]
    assert wins >= 140, wins


@pytest.mark.parametrize("n", [3, 5])
def test_bot_plays_whole_games_at_every_player_count(n: int) -> None:
    for seed in range(3):
        state = ENGINE.new_game(seats(n), seed)
        k = 0
        while ENGINE.outcome(state) is None:
            seat = ENGINE.awaiting(state)[0]
            action = ENGINE.bot_action(ENGINE.view(state, seat), seat, k)
            assert action in ENGINE.actions(state, seat)
            state = ENGINE.apply(state, seat, action).state
            k += 1
            assert k < 5000


def test_bot_is_deterministic_for_a_seed() -> None:
    state = ENGINE.new_game(seats(4), 3)
    seat = ENGINE.awaiting(state)[0]
    assert ENGINE.bot_action(ENGINE.view(state, seat), seat, 42) == ENGINE.bot_action(ENGINE.view(state, seat), seat, 42)


def test_bot_refuses_to_move_for_a_seat_that_is_not_awaited() -> None:
    state = ENGINE.new_game(seats(3), 3)
    idle = next(s for s in seats(3) if s not in ENGINE.awaiting(state))
    with pytest.raises(ValueError):
        ENGINE.bot_action(ENGINE.view(state, idle), idle, 1)
