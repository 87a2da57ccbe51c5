"""Deep copies of engine state: which way of copying a JSON document is fastest on the four games' real states.

Usage: .venv/bin/python bench/json_copy.py [--states 40] [--seed 1] [--rounds 5]

For every registered engine it plays one seeded random game (uniformly random legal actions, 4 seats clamped to
the game's range), keeps --states states spread over it, checks that every candidate copies each of them to an equal
document sharing no dict or list with its input, then times each candidate over all of them (best of --rounds,
interleaved) and prints microseconds per copy. `app.games.toolkit.copy_json` is the one the engines use; this script
is what chose it. Pure CPU, one core.
"""

from __future__ import annotations

import argparse
import copy
import marshal
import pickle
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import orjson  # noqa: E402

from app.games import GAMES  # noqa: E402
from app.games.toolkit import copy_json  # noqa: E402
from tests.games.contract import containers  # noqa: E402

MAX_STEPS = 3000


def recursive(doc: Any) -> Any:
    """The plain recursive copy (isinstance, one call per value)."""
    if isinstance(doc, dict):
        return {k: recursive(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [recursive(v) for v in doc]
    return doc


def _typed_dict(doc: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for key, value in doc.items():
        kind = type(value)
        if kind is dict:
            value = _typed_dict(value)
        elif kind is list:
            value = _typed_list(value)
        out[key] = value
    return out


def _typed_list(doc: list[Any]) -> list[Any]:
    out = []
    for value in doc:
        kind = type(value)
        if kind is dict:
            value = _typed_dict(value)
        elif kind is list:
            value = _typed_list(value)
        out.append(value)
    return out


def typed(doc: Any) -> Any:
    """A loop per container that recurses only into containers (exact types), so scalars cost no call."""
    if type(doc) is dict:
        return _typed_dict(doc)
    return _typed_list(doc) if type(doc) is list else doc


CANDIDATES: dict[str, Callable[[Any], Any]] = {
    "copy.deepcopy": copy.deepcopy,
    "orjson round trip": lambda doc: orjson.loads(orjson.dumps(doc)),
    "pickle round trip": lambda doc: pickle.loads(pickle.dumps(doc, pickle.HIGHEST_PROTOCOL)),
    "marshal round trip": lambda doc: marshal.loads(marshal.dumps(doc)),
    "recursive (isinstance)": recursive,
    "recursive (typed loops)": typed,
    "toolkit.copy_json": copy_json,
}


def sample_states(game_id: str, count: int, seed: int) -> list[Any]:
    """`count` states spread over one seeded random game of this engine."""
    game = GAMES[game_id]
    rnd = random.Random(seed)
    players = [f"p{i}" for i in range(max(game.min_players, min(4, game.max_players)))]
    state = game.new_game(players, seed, None)
    trail = [state]
    for _ in range(MAX_STEPS):
        if game.outcome(state) is not None:
            break
        seat = rnd.choice(game.awaiting(state))
        state = game.apply(state, seat, rnd.choice(game.actions(state, seat))).state
        trail.append(state)
    step = max(1, len(trail) // count)
    return trail[::step][:count]


def check(name: str, fn: Callable[[Any], Any], states: list[Any]) -> None:
    for state in states:
        copied = fn(state)
        if copied != state or orjson.dumps(copied) != orjson.dumps(state):
            raise SystemExit(f"{name}: the copy differs from its input")
        if containers(copied) & containers(state):
            raise SystemExit(f"{name}: the copy shares a dict or list with its input")


def best_us(fn: Callable[[Any], Any], states: list[Any]) -> float:
    clock = time.perf_counter_ns
    t0 = clock()
    for state in states:
        fn(state)
    return (clock() - t0) / len(states) / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    names = list(CANDIDATES)
    print(f"{'game':22} {'bytes':>7} " + " ".join(f"{n:>22}" for n in names) + "   (us per copy, best of rounds)")
    for game_id in sorted(GAMES):
        states = sample_states(game_id, args.states, args.seed)
        for name, fn in CANDIDATES.items():
            check(name, fn, states)
        best = dict.fromkeys(names, float("inf"))
        for _ in range(args.rounds):
            for name in names:
                best[name] = min(best[name], best_us(CANDIDATES[name], states))
        size = sum(len(orjson.dumps(s)) for s in states) // len(states)
        print(f"{game_id:22} {size:>7} " + " ".join(f"{best[n]:>22.1f}" for n in names))


if __name__ == "__main__":
    main()
