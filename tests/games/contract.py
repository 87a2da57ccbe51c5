"""Shared checks of the engine contract, used by every game's tests."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import orjson

from app.games.base import Game, IllegalAction
from app.games.toolkit import JSON

# orjson writes dataclasses and datetimes by itself: passed through to no `default`, they fail as JSON lacks them.
_CANONICAL = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME


def canonical(doc: Any) -> str:
    """Byte-stable JSON of `doc` (keys sorted), to compare documents by; fails on a type JSON lacks or a key that is
    not a string. orjson, ~10x faster than the standard library here: the engine tests make millions of these."""
    return orjson.dumps(doc, option=_CANONICAL).decode()


def assert_json(doc: Any) -> None:
    """Fails if `doc` is not pure JSON: also a float that is not finite, which `canonical` writes as null."""
    json.dumps(doc, allow_nan=False)
    canonical(doc)


def containers(doc: Any) -> set[int]:
    """The ids of every list and dict inside `doc` (itself included)."""
    out: set[int] = set()
    stack = [doc]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            out.add(id(x))
            stack.extend(x.values())
        elif isinstance(x, list):
            out.add(id(x))
            stack.extend(x)
    return out


def seats(n: int) -> list[str]:
    return [str(i) for i in range(n)]


def play_random(
    game: Game,
    n_players: int,
    seed: int,
    *,
    max_steps: int = 20_000,
    check_every: int = 0,
    invariant: Callable[[JSON], None] | None = None,
    chooser: Callable[[JSON, str, list[JSON], random.Random], JSON] | None = None,
    options: dict[str, Any] | None = None,
) -> tuple[JSON, list[tuple[str, JSON]]]:
    """Play uniformly random legal actions to the end; return the final state and the moves.

    With `check_every` = k > 0, every k-th step also checks that `apply` leaves its
    input untouched, that the state is JSON, that `invariant` holds and that `apply_listed`
    gives the same result.
    """
    players = seats(n_players)
    state = game.new_game(players, seed, options)
    rnd = random.Random(seed)
    moves: list[tuple[str, JSON]] = []
    for step in range(max_steps):
        if game.outcome(state) is not None:
            return state, moves
        waiting = game.awaiting(state)
        assert waiting, f"no seat awaited but no outcome at step {step}"
        player = rnd.choice(waiting)
        legal = game.actions(state, player)
        assert legal, f"seat {player} awaited but has no legal action at step {step}"
        action = chooser(state, player, legal, rnd) if chooser else rnd.choice(legal)
        checking = check_every > 0 and step % check_every == 0
        before = canonical(state) if checking else ""
        applied = game.apply(state, player, action)
        if checking:
            assert canonical(state) == before, "apply mutated its input"
            assert_json(applied.state)
            for event in applied.events:
                assert "type" in event and "visible_to" in event, event
            if invariant:
                invariant(applied.state)
            if canonical(action) in {canonical(a) for a in legal}:
                assert_listed_applies_alike(game, state, player, action, applied)
        moves.append((player, action))
        state = applied.state
    raise AssertionError(f"game did not end within {max_steps} steps")


def assert_listed_applies_alike(game: Game, state: JSON, player: str, action: JSON, applied: Any) -> None:
    """`apply_listed` of a listed action gives what `apply` gave, and leaves its input alone too."""
    before = canonical(state)
    again = game.apply_listed(state, player, action)
    assert canonical(state) == before, "apply_listed mutated its input"
    assert canonical(again.state) == canonical(applied.state)
    assert canonical(again.events) == canonical(applied.events) and again.undoable == applied.undoable


def replay(game: Game, n_players: int, seed: int, moves: list[tuple[str, JSON]],
           options: dict[str, Any] | None = None) -> JSON:
    """Replay stored moves from the seed."""
    state = game.new_game(seats(n_players), seed, options)
    for player, action in moves:
        state = game.apply(state, player, action).state
    return state


def assert_unlisted_refused(game: Game, state: JSON, player: str, candidates: list[JSON]) -> None:
    """Every candidate not in `actions()` raises IllegalAction and leaves the state alone."""
    legal = {canonical(a) for a in game.actions(state, player)}
    before = canonical(state)
    for action in candidates:
        if canonical(action) in legal:
            continue
        try:
            game.apply(state, player, action)
        except IllegalAction as exc:
            assert exc.code and exc.message
        else:
            raise AssertionError(f"unlisted action applied: {action}")
        assert canonical(state) == before


def check_outcome(game: Game, state: JSON, n_players: int) -> None:
    """The outcome of a finished game names every seat once."""
    out = game.outcome(state)
    assert out is not None
    ranked = [s for group in out["ranking"] for s in group]
    assert sorted(ranked) == seats(n_players)
    assert set(out["winners"]) == set(out["ranking"][0])
    assert set(out["scores"]) == set(seats(n_players))
    assert_json(out)


def mutate_actions(legal: list[JSON], rnd: random.Random) -> list[JSON]:
    """Plausible-but-wrong variants of legal actions: changed values, unknown types."""
    out: list[JSON] = [{"type": "no_such_action"}, {}, {"type": 7}]
    for action in rnd.sample(legal, min(len(legal), 5)):
        for key, value in action.items():
            if key == "type":
                continue
            bad = copy.deepcopy(action)
            if isinstance(value, bool):
                bad[key] = "yes"
            elif isinstance(value, int):
                bad[key] = value + rnd.choice([-1000, -1, 1, 997])
            elif isinstance(value, str):
                bad[key] = value + "-nope"
            elif isinstance(value, list):
                bad[key] = value + value if value else ["nope"]
            else:
                bad[key] = None
            out.append(bad)
    return out
