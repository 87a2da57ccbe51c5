"""Every registered engine under attack: random walks that mix legal moves with illegal ones.

Each walk (hypothesis picks the seed, the player count and the mix) plays legal
moves to the end of the game; before some of them it first tries illegal ones:
a seat that is not awaited, an action type from another phase, unknown ids,
negative and huge numbers, numbers as strings, missing fields, and actions of
the other games. Every illegal try must raise IllegalAction (nothing else) with a
code and a message, and leave the state byte-identical. A second test offers
look-alikes of listed actions (true or 1.0 for 1, an extra key): refused too.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from app.games import GAMES
from app.games.base import Game, IllegalAction
from tests.games.contract import canonical, play_random, seats
from tests.hardening.helpers import SCALE

JSON = dict[str, Any]
WALKS_PER_GAME = 8 * SCALE
# Share of steps preceded by a salvo of illegal tries (long games get a smaller share, same total).
ILLEGAL_RATE = {"food-truck-champion": 0.04, "food-chain-magnate": 0.1}
# Food Chain Magnate's random games run to thousands of steps: its walks are cut after this many.
STEP_CAP = {"food-chain-magnate": 250}
# Shrinking a whole game walk takes minutes; the failing seed, count and mix are reported as they are.
NO_SHRINK = [Phase.explicit, Phase.reuse, Phase.generate]
TRIED: dict[str, dict[str, int]] = {}


def _sample_actions(game: Game, limit: int = 60) -> list[JSON]:
    """Distinct legal actions met in one random game: the 'other games' pool and the 'other phase' pool."""
    players = seats(game.min_players)
    state = game.new_game(players, 99)
    rnd = random.Random(99)
    seen: dict[str, JSON] = {}
    for _ in range(STEP_CAP.get(game.id, 3000)):
        if game.outcome(state) is not None:
            break
        player = rnd.choice(game.awaiting(state))
        legal = game.actions(state, player)
        for action in legal[:20]:
            seen.setdefault(canonical(action), action)
        state = game.apply(state, player, rnd.choice(legal)).state
    pool = list(seen.values())
    rnd.shuffle(pool)
    return pool[:limit]


POOLS = {gid: _sample_actions(game) for gid, game in GAMES.items()}


def _corruptions(action: JSON, rnd: random.Random, confuse_types: bool = False) -> Iterator[JSON]:
    """Plausible-but-wrong variants of one legal action (or, with `confuse_types`, equal-in-Python ones)."""
    if confuse_types:
        for key, value in action.items():
            for bad in _confused(value):
                changed = dict(action)
                changed[key] = bad
                yield changed
        yield {**action, rnd.choice(["card", "seat", "x", "n"]): "no-such-thing"}
        return
    yield {}
    yield {"type": None}
    yield {"type": action.get("type", "") + "_x"}
    for key, value in action.items():
        if key == "type":
            continue
        missing = dict(action)
        del missing[key]
        yield missing
        for bad in _bad_values(value, rnd):
            changed = copy.deepcopy(action)
            changed[key] = bad
            yield changed


def _confused(value: Any) -> list[Any]:
    """Values of another JSON type that Python's == takes for this one: true for 1, 1.0 for 1, 0 for false."""
    if isinstance(value, bool):
        return [int(value)]
    if isinstance(value, int):
        return [float(value)] + ([bool(value)] if value in (0, 1) else [])
    if isinstance(value, list):
        return [[w for v in value for w in _confused(v)[:1]]] if value else []
    return []


def _bad_values(value: Any, rnd: random.Random) -> list[Any]:
    if isinstance(value, bool):
        return ["true", None]
    if isinstance(value, int):
        return [-1 - abs(value), value + 1000, 10**12, -(2**63), str(value), None]
    if isinstance(value, str):
        # A list or an object where a name belongs: unhashable, so a lookup that trusts the type raises TypeError.
        return ["no-such-card", value + "-nope", "", value.upper() + "\u0301", "'; DROP TABLE moves; --", 7, None,
                [value], {"id": value}]
    if isinstance(value, list):
        return [value + value if value else ["nope"], value[:-1] if value else [None], "not-a-list", None]
    if isinstance(value, dict):
        return [{}, {"no": "such"}, [], None]
    return ["nope", -1]


def _illegal_tries(
    game: Game, state: JSON, players: list[str], rnd: random.Random
) -> Iterator[tuple[str, str, JSON]]:
    """(kind, seat, action) candidates; some may happen to be legal and are then skipped."""
    waiting = game.awaiting(state)
    idle = [p for p in players if p not in waiting]
    player = rnd.choice(waiting)
    legal = game.actions(state, player)
    if idle:
        other = rnd.choice(idle)
        yield "wrong_seat", other, rnd.choice(legal)
    yield "not_a_seat", "99", rnd.choice(legal)
    yield "not_a_seat", "", rnd.choice(legal)
    for action in rnd.sample(POOLS[game.id], min(4, len(POOLS[game.id]))):
        yield "wrong_phase", player, action
    for gid, pool in POOLS.items():
        if gid != game.id and pool:
            yield "other_game", player, rnd.choice(pool)
    for action in rnd.sample(legal, min(2, len(legal))):
        for bad in _corruptions(action, rnd):
            yield "corrupted", player, bad


def _refuses(game: Game, state: JSON, seat: str, action: JSON, before: str) -> None:
    try:
        game.apply(state, seat, action)
    except IllegalAction as exc:
        assert isinstance(exc.code, str) and exc.code, (game.id, action)
        assert isinstance(exc.message, str) and exc.message, (game.id, action)
    else:
        raise AssertionError(f"{game.id}: seat {seat!r} was allowed the unlisted action {action}")
    assert canonical(state) == before, f"{game.id}: a refused {action} changed the state"


def walk(game: Game, n_players: int, seed: int, mix: int) -> dict[str, int]:
    """One walk; returns how many legal and illegal actions it tried."""
    players = seats(n_players)
    state = game.new_game(players, seed)
    rnd = random.Random(mix)
    counts = {"legal": 0, "illegal": 0}
    cap = STEP_CAP.get(game.id)
    step = 0
    while game.outcome(state) is None:
        if cap is not None and step >= cap:
            break
        waiting = game.awaiting(state)
        assert waiting, f"{game.id}: nobody awaited but no outcome"
        if rnd.random() < ILLEGAL_RATE.get(game.id, 0.25):
            before = canonical(state)
            legal_by_seat = {p: {canonical(a) for a in game.actions(state, p)} for p in players}
            for _kind, seat, action in _illegal_tries(game, state, players, rnd):
                if seat in legal_by_seat and canonical(action) in legal_by_seat[seat]:
                    continue
                _refuses(game, state, seat, action, before)
                counts["illegal"] += 1
        player = rnd.choice(waiting)
        legal = game.actions(state, player)
        assert legal, f"{game.id}: seat {player} awaited without a legal action"
        state = game.apply(state, player, rnd.choice(legal)).state
        counts["legal"] += 1
        step += 1
    return counts


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_random_walks_refuse_every_illegal_action(game_id: str) -> None:
    game = GAMES[game_id]
    totals = TRIED.setdefault(game_id, {"walks": 0, "legal": 0, "illegal": 0})

    @settings(max_examples=WALKS_PER_GAME, deadline=None, database=None, phases=NO_SHRINK,
              suppress_health_check=[HealthCheck.too_slow])
    @given(
        n_players=st.integers(game.min_players, game.max_players),
        seed=st.integers(0, 2**63 - 1),
        mix=st.integers(0, 2**32),
    )
    def run(n_players: int, seed: int, mix: int) -> None:
        counts = walk(game, n_players, seed, mix)
        totals["walks"] += 1
        totals["legal"] += counts["legal"]
        totals["illegal"] += counts["illegal"]

    run()
    assert totals["illegal"] > 0


def test_the_pools_are_not_empty() -> None:
    assert all(POOLS.values()), {g: len(p) for g, p in POOLS.items()}
    # sanity: a plain random game of each still ends
    for gid in POOLS:
        game = GAMES[gid]
        if gid not in STEP_CAP:
            final, _ = play_random(game, game.min_players, 5)
            assert game.outcome(final) is not None


def confusion_walk(game: Game, n_players: int, seed: int, max_steps: int = 300) -> list[str]:
    """Random legal play; at every step offer each legal action with a Python-equal value of another type."""
    players = seats(n_players)
    state = game.new_game(players, seed)
    rnd = random.Random(seed)
    accepted: list[str] = []
    for _ in range(max_steps):
        if game.outcome(state) is not None:
            break
        player = rnd.choice(game.awaiting(state))
        legal = game.actions(state, player)
        listed = {canonical(a) for a in legal}
        before = canonical(state)
        for action in rnd.sample(legal, min(3, len(legal))):
            for bad in _corruptions(action, rnd, confuse_types=True):
                if canonical(bad) in listed:
                    continue
                try:
                    game.apply(state, player, bad)
                except IllegalAction:
                    pass
                except Exception as exc:  # noqa: BLE001 - a crash is as wrong as an acceptance
                    accepted.append(f"{canonical(bad)} crashed: {exc!r}")
                else:
                    accepted.append(canonical(bad))
                assert canonical(state) == before
        state = game.apply(state, player, rnd.choice(legal)).state
    return accepted


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_unlisted_lookalikes_are_refused(game_id: str) -> None:
    """JSON true/1.0 are not 1, and an extra field makes another action: all unlisted, all refused."""
    game = GAMES[game_id]
    accepted = [a for seed in range(4 * SCALE) for a in confusion_walk(game, game.min_players + seed % 2, seed)]
    assert not accepted, f"{game_id} applied {len(accepted)} unlisted actions, e.g. {sorted(set(accepted))[:5]}"
