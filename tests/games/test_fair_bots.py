"""Bots are fair by construction: two states a seat cannot tell apart get the same decision for the same seed.

For each game, mid-game states are taken from seeded games; a twin of each is made by dealing what the seat
may not see differently (other hands, deck orders, secret choices, the generator), the twin's view is checked
to be the same, and every level's decision is compared. The twin is made here, independently of the bots'
own sampling, so a bot that read the state instead of the view would be caught."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import orjson
import pytest

from app.games import GAMES
from app.games.base import BotLevel, Game
from app.games.toolkit import JSON

HARD_PLAYOUTS = 8  # a small budget: the search runs, and its decision still depends on the seed alone


def twin_foodies(state: JSON, seat: str, rnd: random.Random) -> JSON:
    twin = _copy(state)
    rnd.shuffle(twin["deck"])
    twin["rng"] = rnd.randrange(1 << 62)
    return twin


def twin_food_truck_champion(state: JSON, seat: str, rnd: random.Random) -> JSON:
    twin = _copy(state)
    others = [s for s in twin["players"] if s != seat]
    pool = list(twin["deck"])
    for s in others:
        board = twin["boards"][s]
        pool += [c for c in board["hand"] if c.startswith("ftc-")]
        pool += [c for c in board["completed"] if c.startswith("ftc-")]
    rnd.shuffle(pool)
    for s in others:
        board = twin["boards"][s]
        board["hand"] = [c if not c.startswith("ftc-") else pool.pop() for c in board["hand"]]
        board["completed"] = [c if not c.startswith("ftc-") else pool.pop() for c in board["completed"]]
        rnd.shuffle(board["tokens"])
    twin["deck"] = pool
    rnd_state = twin["round"]
    if rnd_state is not None and rnd_state["critique"] is not None:
        for s in others:
            if rnd_state["critique"][s] is not None:
                rnd_state["critique"][s] = rnd.choice(twin["boards"][s]["completed"])
    twin["rng"] = rnd.randrange(1 << 62)
    return twin


def twin_food_truck(state: JSON, seat: str, rnd: random.Random) -> JSON:
    twin = _copy(state)
    rnd.shuffle(twin["central_deck"])
    for p in twin["players"]:
        me = twin["seats"][p]
        rnd.shuffle(me["truck_pile"])
        if p != seat and twin["phase"] != "prep" and twin["rearrange"] is None:
            rnd.shuffle(me["draw_pile"])
    twin["rng"] = rnd.randrange(1 << 62)
    return twin


def twin_food_chain_magnate(state: JSON, seat: str, rnd: random.Random) -> JSON:
    twin = _copy(state)
    view = GAMES["food-chain-magnate"].view(state, seat)
    for p in twin["players"]:
        if view["p"][p]["reserve"] == "hidden":
            twin["p"][p]["reserve"] = rnd.choice(["reserve_100", "reserve_200", "reserve_300"])
    twin["rng"] = rnd.randrange(1 << 62)
    return twin


def _copy(doc: Any) -> Any:
    return orjson.loads(orjson.dumps(doc))


TWINS: dict[str, Callable[[JSON, str, random.Random], JSON]] = {
    "foodies": twin_foodies,
    "food-truck-champion": twin_food_truck_champion,
    "food-truck": twin_food_truck,
    "food-chain-magnate": twin_food_chain_magnate,
}


# Games played and one state taken in so many steps: about thirty states per game.
SAMPLING = {"foodies": (6, 4), "food-truck-champion": (4, 24), "food-truck": (5, 9), "food-chain-magnate": (4, 25)}


def mid_game_states(game: Game, games: int, every: int) -> Iterator[tuple[JSON, str]]:
    """(state, awaited seat) pairs from seeded two-player games of bots, one in `every` steps."""
    for seed in range(games):
        rnd = random.Random(seed)
        state = game.new_game(["a", "b"], seed)
        step = 0
        while game.outcome(state) is None and step < 2000:
            seat = rnd.choice(game.awaiting(state))
            legal = game.actions(state, seat)
            if step % every == every // 2 and len(legal) > 1:
                yield state, seat
            action = game.bot_action(game.view(state, seat), seat, rnd.randrange(1 << 30)) if rnd.random() < 0.7 \
                else rnd.choice(legal)
            state = game.apply(state, seat, action).state
            step += 1


@pytest.mark.parametrize("game_id", sorted(TWINS))
def test_indistinguishable_states_get_the_same_decision(game_id: str) -> None:
    game = GAMES[game_id]
    rnd = random.Random(36)
    checked = differed = 0
    games, every = SAMPLING[game_id]
    for k, (state, seat) in enumerate(mid_game_states(game, games, every)):
        twin = TWINS[game_id](state, seat, rnd)
        view = game.view(state, seat)
        assert game.view(twin, seat) == view, "the twin must look the same to the seat"
        differed += twin != state
        seed = rnd.randrange(1 << 30)
        levels = [BotLevel.EASY, BotLevel.NORMAL] + ([BotLevel.HARD] if k % 3 == 0 else [])
        for level in levels:
            mine = game.bot_action(view, seat, seed, level, HARD_PLAYOUTS)
            theirs = game.bot_action(game.view(twin, seat), seat, seed, level, HARD_PLAYOUTS)
            assert mine == theirs, (level, mine, theirs)
            assert mine in game.actions(state, seat)
        checked += 1
    assert checked >= 20
    assert differed >= checked // 2, "the twins must differ from the states in what the seat cannot see"
