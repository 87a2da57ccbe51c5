"""The bot: legal, deterministic, sensible, and much better than random play."""

from __future__ import annotations

import random

import pytest

from app.games.food_truck import ENGINE
from app.games.food_truck.bot import plan_order
from tests.games.contract import canonical, check_outcome, seats

from .helpers import act, build


def _match(n: int, seed: int, bots: set[str]) -> str:
    state = ENGINE.new_game(seats(n), seed)
    rnd = random.Random(seed)
    step = 0
    while ENGINE.outcome(state) is None:
        player = rnd.choice(ENGINE.awaiting(state))
        if player in bots:
            action = ENGINE.bot_action(ENGINE.view(state, player), player, seed * 1000 + step)
        else:
            action = rnd.choice(ENGINE.actions(state, player))
        state = ENGINE.apply(state, player, action).state
        step += 1
    out = ENGINE.outcome(state)
    assert out is not None
    return out["winners"][0]


def test_bot_beats_a_random_player() -> None:
    wins = sum(_match(2, seed, {str(seed % 2)}) == str(seed % 2) for seed in range(200))
    assert wins >= 140, wins


def test_bot_beats_two_random_players_more_often_than_its_share() -> None:
    wins = sum(_match(3, seed, {str(seed % 3)}) == str(seed % 3) for seed in range(60))
    assert wins >= 36, wins


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_bots_play_legal_complete_games(n: int) -> None:
    for seed in range(3):
        state = ENGINE.new_game(seats(n), seed, {"trucks": "choose"})
        while ENGINE.outcome(state) is None:
            player = ENGINE.awaiting(state)[0]
            action = ENGINE.bot_action(ENGINE.view(state, player), player, seed)
            assert action in ENGINE.actions(state, player)
            assert canonical(ENGINE.bot_action(ENGINE.view(state, player), player, seed)) == canonical(action)
            state = ENGINE.apply(state, player, action).state
        check_outcome(ENGINE, state, n)


def test_prep_plan_claims_contested_meals_first() -> None:
    state = ENGINE.new_game(seats(2), 1, {"trucks": "random"})
    order = plan_order(state, "0", state["seats"]["0"]["collection"])
    assert order[0].startswith("burger")  # the most contested meal: both players own two
    assert order[-1].startswith("dessert")  # always safe: kept for last
    assert sorted(order) == sorted(state["seats"]["0"]["collection"])


def test_bot_rescues_a_blocked_card() -> None:
    s = build(["a", "b", "c"], turn="a", trucks={"a": "E5"}, served={"b": ["tacos-02"]},
              piles={"a": ["tacos-01"]}, supply=["salad-01", "salad-02", "salad-03"])
    s, _ = act(s, "a", {"type": "reveal"})
    assert ENGINE.bot_action(ENGINE.view(s, "a"), "a", 1) == {"type": "play_truck", "effect": "E5"}
    s = build(["a", "b", "c"], turn="a", trucks={"a": "E2"}, served={"b": ["tacos-02"]},
              piles={"a": ["tacos-01"]}, supply=["salad-01", "salad-02", "salad-03"])
    assert ENGINE.bot_action(ENGINE.view(s, "a"), "a", 1) == {"type": "play_truck", "effect": "E2", "seat": "b", "meal": "tacos"}


def test_bot_serves_a_safe_card_without_wasting_its_truck() -> None:
    s = build(["a", "b"], turn="a", trucks={"a": "E4"}, piles={"a": ["tacos-01"]}, supply=["salad-01", "salad-02"])
    s, _ = act(s, "a", {"type": "reveal"})
    assert ENGINE.bot_action(ENGINE.view(s, "a"), "a", 1) == {"type": "resolve"}


def test_bot_compensation_prefers_a_meal_nobody_else_owns() -> None:
    s = build(["a", "b", "c"], turn="b", served={"a": ["tacos-01"]}, piles={"b": ["tacos-02"]},
              supply=["burger-07", "salad-01", "pizza-04"])
    s, _ = act(s, "b", {"type": "reveal"})
    assert ENGINE.bot_action(ENGINE.view(s, "b"), "b", 1) == {"type": "take", "card": "salad-01"}
