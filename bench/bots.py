"""Bot strength: seeded two-player matches between levels, with win rates and 95 % Wilson intervals.

Usage: .venv/bin/python bench/bots.py [--games 200] [--fcm-games 50] [--game ID ...] [--pair hard:normal ...]
                                      [--playouts N] [--fcm-cut-round R] [--seed 1] [--jobs 1]
                                      [--progress]

For every game (all four by default) and every pair (hard vs normal, normal vs easy, easy vs random by
default) it plays --games seeded games (--fcm-games for Food Chain Magnate), the first level in seat "a" in
even games and in seat "b" in odd ones, every bot deciding from its seat's view through the engine's
`bot_action`; "random" plays a uniformly random legal action. A game counts 1 for the first level when it
alone wins, 1/2 when the winners share, 0 otherwise. --fcm-cut-round R judges Food Chain Magnate by cash
after round R (round 8 is allowed when a full game is too long for the budget); 0 plays to the end.
--playouts sets the hard level's budget (the engine's default otherwise). --from-game N plays games N.. only, with
the seeds they have in the whole run: a run split over processes adds up to the whole run's result. Prints one row per game and pair,
with the mean and the longest CPU time of a hard decision (the process's own, so other load on the machine
lengthens it only by sharing caches), and the run's wall-clock seconds.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games import GAMES  # noqa: E402
from app.games.base import BotLevel  # noqa: E402

RANDOM = "random"
DEFAULT_PAIRS = ["hard:normal", "normal:easy", "easy:random"]
MAX_STEPS = 5_000  # a game that runs this long is judged where it stands (never happens with bots)


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def cash_leaders(state: dict[str, Any]) -> list[str]:
    """Food Chain Magnate seats with the most cash (the game's own criterion, read early)."""
    cash = {s: state["p"][s]["cash"] for s in state["players"]}
    top = max(cash.values())
    return [s for s, c in cash.items() if c == top]


def play(game_id: str, first: str, second: str, seed: int, playouts: int | None, cut_round: int) -> tuple[float, list[float]]:
    """One game; returns the first level's score (1, 1/2 or 0) and the seconds of each hard decision."""
    game = GAMES[game_id]
    seats = ["a", "b"]
    levels = {"a": first, "b": second} if seed % 2 == 0 else {"a": second, "b": first}
    mine = "a" if seed % 2 == 0 else "b"
    rnd = random.Random(seed)
    state = game.new_game(seats, seed)
    hard_times: list[float] = []
    for _ in range(MAX_STEPS):
        if game.outcome(state) is not None:
            break
        if cut_round and game_id == "food-chain-magnate" and state.get("round", 0) > cut_round:
            break
        seat = rnd.choice(game.awaiting(state))
        legal = game.actions(state, seat)
        level = levels[seat]
        if level == RANDOM:
            action = rnd.choice(legal)
        else:
            start = time.process_time()
            action = game.bot_action(game.view(state, seat), seat, rnd.randrange(1 << 62), BotLevel(level), playouts)
            if level == BotLevel.HARD and len(legal) > 1:
                hard_times.append(time.process_time() - start)
        state = game.apply_listed(state, seat, action).state
    outcome = game.outcome(state)
    winners = outcome["winners"] if outcome is not None else cash_leaders(state)
    score = 0.0 if mine not in winners else 1.0 / len(winners)
    return score, hard_times


def run_pair(game_id: str, pair: str, games: int, base_seed: int, playouts: int | None, cut_round: int,
             jobs: int, progress: bool, from_game: int = 1) -> None:
    first, second = pair.split(":")
    started = time.perf_counter()
    seeds = [base_seed * 100_000 + i for i in range(from_game - 1, games)]
    games = len(seeds)
    args = [(game_id, first, second, s, playouts, cut_round) for s in seeds]
    results: list[tuple[float, list[float]]] = []
    with ProcessPoolExecutor(jobs) if jobs > 1 else nullcontext() as pool:
        for n, result in enumerate(pool.map(_play_args, args) if pool else map(_play_args, args), 1):
            results.append(result)
            if progress:
                # A long run cut short still leaves its games counted so far.
                slowest = f"{1000 * max(result[1]):.0f}" if result[1] else "-"
                print(f"{game_id} {pair} game {n + from_game - 1}/{games + from_game - 1} seed {seeds[n - 1]}: {result[0]}"
                      f" (total {sum(r[0] for r in results)}), longest hard ms {slowest}", file=sys.stderr, flush=True)
    score = sum(r[0] for r in results)
    ties = sum(1 for r in results if 0 < r[0] < 1)
    hard = [t for r in results for t in r[1]]
    low, high = wilson(score, games)
    hard_ms = f"{1000 * sum(hard) / len(hard):7.0f} {1000 * max(hard):7.0f}" if hard else "      -       -"
    print(f"{game_id:20} {first:>6} vs {second:<6} {games:5} {score:7.1f} {ties:4} {score / games:6.1%}"
          f"  [{low:5.1%}, {high:5.1%}] {hard_ms} {time.perf_counter() - started:7.0f}", flush=True)


def _play_args(a: tuple[str, str, str, int, int | None, int]) -> tuple[float, list[float]]:
    return play(*a)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--fcm-games", type=int, default=50)
    parser.add_argument("--game", action="append", choices=sorted(GAMES))
    parser.add_argument("--pair", action="append", help="first:second levels, e.g. hard:normal (easy|normal|hard|random)")
    parser.add_argument("--playouts", type=int, default=None)
    parser.add_argument("--fcm-cut-round", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--progress", action="store_true", help="print each game's result to stderr as it ends")
    parser.add_argument("--from-game", type=int, default=1,
                        help="play only games N.. of the run (its seeds unchanged): a run split over processes")
    args = parser.parse_args()
    games = args.game or ["food-truck-champion", "food-truck", "foodies", "food-chain-magnate"]
    print(f"{'game':20} {'pair':>16} {'games':>5} {'score':>7} {'ties':>4} {'rate':>6}  {'95% Wilson':>14}"
          f" {'hard ms':>7} {'max ms':>7} {'s':>7}", flush=True)
    for game_id in games:
        n = args.fcm_games if game_id == "food-chain-magnate" else args.games
        for pair in args.pair or DEFAULT_PAIRS:
            run_pair(game_id, pair, n, args.seed, args.playouts, args.fcm_cut_round, args.jobs, args.progress,
                     args.from_game)


if __name__ == "__main__":
    main()
