"""CPU of a Food Chain Magnate move on the server: the legal-action listing, the check, the apply and the views.

Usage: .venv/bin/python bench/fcm_moves.py [--games 40] [--players 3] [--seed 1] [--max-steps 250] [--passes 3]
                                           [--random-share 0.8]

Plays --games seeded games of --max-steps moves at most, in which a move is a uniformly random listed one (as
bench/human.py's players choose) with probability --random-share, else the engine's `normal` bot's (so that games
get past the first rounds). Then replays the recorded moves the way the server plays one (`actions` for the
player's update, `is_listed`, `apply_listed`; then `views` for every seat and a spectator, as the hub asks) and
the way a replay of history does (`apply`, which checks the move itself). The moves are replayed interleaved, one
move of each game in turn, so the map caches see many tables at once as a server's do; then again with the
engine's caches emptied before each move (a server with more tables than its caches hold, at worst: every map's
geometry is built again).

Prints the median over --passes of the CPU (process time) per move, by path and by kind of move (setup: a move of
the first restaurants' placing; placing: a square or spot chosen for another piece; other: the rest), and a hash of
every legal-action list, state, event list and view replayed: two builds of the engine that answer alike print the
same hash. To compare with another commit, run this file in a worktree of it.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import interpreter  # noqa: E402

from app.games.food_chain_magnate import ENGINE  # noqa: E402
from app.games.food_chain_magnate.bot import normal  # noqa: E402
from app.games.rng import Rng  # noqa: E402
from app.games.toolkit import is_listed  # noqa: E402

Step = tuple[dict[str, Any], str, dict[str, Any]]
PLACING = {"restaurant_at", "restaurant_entrance", "campaign_at", "house_at", "garden_at"}


def play(seed: int, players: int, max_steps: int, random_share: float) -> list[Step]:
    """One seeded game's (state, seat, action) steps."""
    rnd = random.Random(seed)
    seats = [str(i) for i in range(players)]
    state = ENGINE.new_game(seats, seed)
    steps: list[Step] = []
    while ENGINE.outcome(state) is None and len(steps) < max_steps:
        seat = rnd.choice(ENGINE.awaiting(state))
        legal = ENGINE.actions(state, seat)
        if rnd.random() < random_share:
            action = rnd.choice(legal)
        else:
            action = normal(state, seat, Rng(rnd.getrandbits(63)))
        steps.append((state, seat, action))
        state = ENGINE.apply(state, seat, action).state
    return steps


KINDS = ("setup", "placing", "other")


def kind(step: Step) -> str:
    """The column a move is counted in: placing a first restaurant, placing another piece, anything else."""
    state, _, action = step
    if state["phase"] == "first_restaurants":
        return "setup"
    return "placing" if action["type"] in PLACING else "other"


def map_caches() -> list[Any]:
    """The engine's memoised functions (map geometry, spots, road costs): the FCM modules' `lru_cache`s."""
    return [f for name, module in sorted(sys.modules.items()) if name.startswith("app.games.food_chain_magnate")
            for f in vars(module).values() if callable(getattr(f, "cache_clear", None))]


def replay(order: list[Step], viewers: list[str | None], digest: Any, cold: bool) -> dict[str, dict[str, list[int]]]:
    """CPU ns per move by path ("server", "views", "apply") and kind; feeds `digest` with every answer. `cold`
    empties the engine's caches before each move (as on a server whose tables are more than they hold)."""
    clock = time.process_time_ns
    out: dict[str, dict[str, list[int]]] = {p: {k: [] for k in KINDS} for p in ("server", "views", "apply")}
    caches = map_caches()
    for f in caches:
        f.cache_clear()
    for step in order:
        state, seat, action = step
        row = kind(step)
        if cold:
            for f in caches:
                f.cache_clear()
        t0 = clock()
        legal = ENGINE.actions(state, seat)
        assert is_listed(action, legal)
        applied = ENGINE.apply_listed(state, seat, action)
        t1 = clock()
        views = ENGINE.views(applied.state, viewers)
        t2 = clock()
        if cold:
            for f in caches:
                f.cache_clear()
        t3 = clock()
        again = ENGINE.apply(state, seat, action)
        t4 = clock()
        out["server"][row].append(t1 - t0)
        out["views"][row].append(t2 - t1)
        out["apply"][row].append(t4 - t3)
        if digest is not None:
            digest.update(orjson.dumps([legal, applied.state, applied.events, applied.undoable, views, again.state],
                                       option=orjson.OPT_SORT_KEYS))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-steps", type=int, default=250)
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--random-share", type=float, default=0.8)
    args = ap.parse_args()
    print(interpreter())
    t0 = time.perf_counter()
    games = [play(args.seed * 1000 + g, args.players, args.max_steps, args.random_share) for g in range(args.games)]
    longest = max(len(g) for g in games)
    order = [g[i] for i in range(longest) for g in games if i < len(g)]
    viewers: list[str | None] = [*(str(i) for i in range(args.players)), None]
    counts = {k: sum(1 for s in order if kind(s) == k) for k in KINDS}
    print(f"{args.games} games, {len(order)} moves ({counts['setup']} setup, {counts['placing']} placing), "
          f"{time.perf_counter() - t0:.1f} s to play them")
    digest = hashlib.sha256()
    for cold in (False, True):
        runs = [replay(order, viewers, digest if n == 0 and not cold else None, cold) for n in range(args.passes)]
        if not cold:
            print(f"answers sha256 {digest.hexdigest()[:16]}")
        print(f"caches {'emptied before each move' if cold else 'kept'} (median of {args.passes} passes)")
        print(f"{'us/move':<8} {'all':>8} {'setup':>8} {'placing':>8} {'other':>8}")
        for path in ("server", "views", "apply"):
            def per_move(rows: list[str], path: str = path, runs: list[Any] = runs) -> float:
                return statistics.median(
                    sum(sum(r[path][k]) for k in rows) / max(1, sum(len(r[path][k]) for k in rows)) for r in runs
                ) / 1000
            print(f"{path:<8} {per_move(list(KINDS)):>8.1f} "
                  + " ".join(f"{per_move([k]):>8.1f}" for k in KINDS))


if __name__ == "__main__":
    main()
