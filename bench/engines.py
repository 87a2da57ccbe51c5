"""Engine speed: random full games per second and the cost of apply / actions / view, per registered game.

Usage: .venv/bin/python bench/engines.py [--games 40] [--players 4] [--seed 1] [--game ID] [--bots GAME=K]

For every engine in app.games.GAMES it plays --games random games (uniformly random legal action for an
awaited seat; K seats play the engine's bot instead where --bots says so, by default 2 of Food Chain
Magnate's 4, whose games uniform random play rarely finishes; games/s then includes bot_action time) at
--players seats (clamped to the game's range), stopping early after --budget seconds, timing every call,
then times
actions()+apply() again on states taken from the middle third of those games (the "mid-game" figure the
issue's target is about: card games < 200 us median). For Food Chain Magnate it also times the step that
runs dinnertime in all-bot games from round 6 on. Prints one row per game; pure CPU, one core.

"games/s" replays the games through `apply`, which checks the action against the legal ones itself; "listed"
replays them as the server plays a move (it lists the actions once, for the player's update, checks the move
against that list and applies it with `apply_listed`). A first line times a fixed pure-Python loop, a reference
for relating runs on a machine whose speed drifts (the engines' figures follow it: docs/performance.md, "The machine
and how to read a figure").
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import interpreter  # noqa: E402

from app.games import GAMES  # noqa: E402
from app.games.base import Game  # noqa: E402

MAX_STEPS = 20_000  # a random game that runs this long is reported as unfinished, never loops forever


def choose(game: Game, state: Any, seat: str, actions: list[Any], bots: set[str], rnd: random.Random) -> Any:
    """The engine's bot for a bot seat, else a uniformly random legal action."""
    if seat in bots:
        return game.bot_action(game.view(state, seat), seat, rnd.randrange(1 << 30))
    return rnd.choice(actions)


def play_one(
    game: Game, players: list[str], seed: int, timings: dict[str, list[int]], bots: set[str]
) -> tuple[int, bool, list[Any]]:
    """One random game; returns (steps, finished, sampled mid-game (state, seat) pairs)."""
    rnd = random.Random(seed)
    clock = time.perf_counter_ns
    state = game.new_game(players, seed, None)
    trail: list[tuple[Any, str]] = []
    steps = 0
    while steps < MAX_STEPS:
        if game.outcome(state) is not None:
            break
        awaiting = game.awaiting(state)
        seat = rnd.choice(awaiting)
        t0 = clock()
        actions = game.actions(state, seat)
        t1 = clock()
        action = choose(game, state, seat, actions, bots, rnd)
        t1b = clock()
        applied = game.apply(state, seat, action)
        t2 = clock()
        viewer = rnd.choice([*players, None])
        game.view(applied.state, viewer)
        t3 = clock()
        timings["actions"].append(t1 - t0)
        timings["apply"].append(t2 - t1b)
        timings["view"].append(t3 - t2)
        trail.append((state, seat))
        state = applied.state
        steps += 1
    finished = game.outcome(state) is not None
    third = len(trail) // 3
    middle = trail[third : 2 * third] or trail
    return steps, finished, rnd.sample(middle, min(10, len(middle)))


def replay_bare(
    game: Game, players: list[str], games: int, seed: int, bots: set[str], apply: Callable[[Any, str, Any], Any]
) -> float:
    """Seconds to replay the benchmark's games with nothing but the engine calls and the choice."""
    t0 = time.perf_counter()
    for g in range(games):
        rnd = random.Random(seed + g)
        state = game.new_game(players, seed + g, None)
        for _ in range(MAX_STEPS):
            if game.outcome(state) is not None:
                break
            seat = rnd.choice(game.awaiting(state))
            state = apply(state, seat, choose(game, state, seat, game.actions(state, seat), bots, rnd)).state
    return time.perf_counter() - t0


def mid_game_cost(game: Game, samples: list[tuple[Any, str]], seed: int, reps: int = 5) -> list[float]:
    """actions()+apply() of one random legal action, in microseconds, for each sampled mid-game state."""
    rnd = random.Random(seed)
    clock = time.perf_counter_ns
    out: list[float] = []
    for state, seat in samples:
        action = rnd.choice(game.actions(state, seat))
        runs = []
        for _ in range(reps):
            t0 = clock()
            game.actions(state, seat)
            game.apply(state, seat, action)
            runs.append(clock() - t0)
        out.append(statistics.median(runs) / 1000)
    return out


def bench_game(game: Game, n_players: int, games: int, seed: int, budget: float, n_bots: int) -> dict[str, Any]:
    """All figures for one engine."""
    n = max(game.min_players, min(game.max_players, n_players))
    players = [str(i) for i in range(n)]
    bots = set(players[n - min(n_bots, n) :])
    timings: dict[str, list[int]] = {"actions": [], "apply": [], "view": []}
    samples: list[tuple[Any, str]] = []
    steps_total = unfinished = 0
    gc.collect()
    t0 = time.perf_counter()
    played = 0
    for g in range(games):
        steps, finished, mids = play_one(game, players, seed + g, timings, bots)
        steps_total += steps
        unfinished += not finished
        samples.extend(mids)
        played += 1
        if played >= 3 and time.perf_counter() - t0 > budget:
            break  # a slow engine gets fewer games, not a longer run
    games = played
    wall = time.perf_counter() - t0
    # Full-game rate without the view() calls and the timer overhead: replay the same games bare, through
    # `apply`, then the way the server plays a move (the listed actions, then `apply_listed` of the chosen one).
    bare = replay_bare(game, players, games, seed, bots, game.apply)
    listed = replay_bare(game, players, games, seed, bots, game.apply_listed)
    mid = mid_game_cost(game, samples, seed)

    def mean_us(xs: list[int]) -> float:
        return statistics.fmean(xs) / 1000 if xs else 0.0

    return {
        "game": game.id,
        "players": n,
        "bots": len(bots),
        "games": games,
        "unfinished": unfinished,
        "moves_per_game": steps_total / games,
        "games_per_s": games / bare,
        "games_per_s_listed": games / listed,
        "games_per_s_with_views": games / wall,
        "apply_us": mean_us(timings["apply"]),
        "actions_us": mean_us(timings["actions"]),
        "view_us": mean_us(timings["view"]),
        "mid_apply_actions_p50_us": statistics.median(mid) if mid else 0.0,
        "mid_apply_actions_p90_us": statistics.quantiles(mid, n=10)[-1] if len(mid) > 1 else 0.0,
    }


def fcm_dinnertime(games: int, seed: int, min_round: int = 6) -> dict[str, float]:
    """Food Chain Magnate: the step that runs dinnertime, on 4-seat all-bot games from round `min_round` on."""
    game = GAMES["food-chain-magnate"]
    players = ["0", "1", "2", "3"]
    cases: list[tuple[Any, str, Any, int]] = []
    for g in range(games):
        rnd = random.Random(seed + g)
        state = game.new_game(players, seed + g, None)
        for _ in range(MAX_STEPS):
            if game.outcome(state) is not None:
                break
            seat = rnd.choice(game.awaiting(state))
            action = game.bot_action(game.view(state, seat), seat, rnd.randrange(1 << 30))
            new = game.apply(state, seat, action).state
            if state["phase"] == "working" and (new["phase"] != "working" or new["round"] != state["round"]) \
                    and state["round"] >= min_round:
                cases.append((state, seat, action, len(state["houses"])))
            state = new
    times = []
    for state, seat, action, _ in cases:
        runs = []
        for _ in range(5):
            t0 = time.perf_counter_ns()
            game.apply(state, seat, action)
            runs.append(time.perf_counter_ns() - t0)
        times.append(statistics.median(runs) / 1e6)
    return {
        "steps": len(cases),
        "houses_median": statistics.median(c[3] for c in cases) if cases else 0,
        "houses_max": max((c[3] for c in cases), default=0),
        "ms_median": statistics.median(times) if times else float("nan"),
        "ms_max": max(times, default=float("nan")),
    }


def calibration() -> float:
    """Seconds for a fixed pure-Python loop of arithmetic, printed as a reference for relating runs."""
    t0 = time.perf_counter()
    total = 0
    for i in range(10_000_000):
        total += i
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=40, help="random games per engine")
    ap.add_argument("--players", type=int, default=4, help="seats (clamped to each game's range)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", action="append", default=[], metavar="GAME=K",
                    help="K seats of GAME play the engine's bot (default food-chain-magnate=2: uniform random "
                         "play rarely ends it)")
    ap.add_argument("--dinner-games", type=int, default=4, help="FCM all-bot games for the dinnertime figure")
    ap.add_argument("--budget", type=float, default=20, help="seconds per engine before it stops starting games")
    ap.add_argument("--game", action="append", help="only this game id (repeatable)")
    args = ap.parse_args()
    ids = args.game or list(GAMES)
    bots = {"food-chain-magnate": 2}
    for spec in args.bots:
        gid, _, k = spec.partition("=")
        bots[gid] = int(k)
    print(f"engines: {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}, load average "
          f"{Path('/proc/loadavg').read_text().split()[0]}; means in us include preemption on a busy machine")
    print(f"machine: a pure-Python loop of 10 million additions takes {calibration():.2f} s on "
          f"{interpreter()}; it relates sessions on the same interpreter only")
    print(f"{'game':<22}{'seats':>5}{'bots':>5}{'games':>6}{'moves/game':>11}{'games/s':>9}{'listed':>8}{'(w/ views)':>11}"
          f"{'apply us':>10}{'actions us':>11}{'view us':>9}{'mid a+a p50':>12}{'p90':>8}{'unfinished':>11}")
    for gid in ids:
        r = bench_game(GAMES[gid], args.players, args.games, args.seed, args.budget, bots.get(gid, 0))
        print(f"{r['game']:<22}{r['players']:>5}{r['bots']:>5}{r['games']:>6}{r['moves_per_game']:>11.0f}{r['games_per_s']:>9.1f}{r['games_per_s_listed']:>8.1f}"
              f"{r['games_per_s_with_views']:>11.1f}{r['apply_us']:>10.1f}{r['actions_us']:>11.1f}{r['view_us']:>9.1f}"
              f"{r['mid_apply_actions_p50_us']:>12.1f}{r['mid_apply_actions_p90_us']:>8.1f}{r['unfinished']:>11}", flush=True)
    if "food-chain-magnate" in ids:
        d = fcm_dinnertime(args.dinner_games, args.seed)
        print(f"food-chain-magnate dinnertime step (4 bots, round >= 6): {d['steps']} steps, houses median "
              f"{d['houses_median']:.0f} max {d['houses_max']}, apply ms median {d['ms_median']:.2f} max "
              f"{d['ms_max']:.2f}")
    print("targets: card games mid-game apply+actions < 200 us median; >= 20 random full games/s; FCM >= 2 games/s")


if __name__ == "__main__":
    main()
