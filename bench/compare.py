"""Side by side with the boardgame.io peer: our figures as ratios of its figures at 50 and 200 tables.

Usage: .venv/bin/python bench/compare.py [--levels 50,200] [--reps 3] [--duration 15] [--pad 2000] [--servers 1]
                                         [--against peer|IMPL|tree:DIR]

Interleaves, for each repetition and level, one run of the peer (bench/peers/boardgameio: one Node
process, N 2-player matches of a one-move game, its state padded by --pad bytes) and one run of ours
(bench/load.py with N tables x 2 players, no spectators, Food Truck Champion, one server process on
Postgres; with --servers 2, two processes with each table's sockets on one of them), so both see the same
machine; our server CPU is then the sum over the processes. Prints the median of each figure and our/peer ratios: moves/s,
round-trip (act -> ack for us, move -> own update for the peer) p50/p99, moves per second of server CPU
(robust to a busy shared machine), and how much of the time each server was waiting for a CPU.
Needs node/npm for the peer (run.sh installs its pinned packages on first use).

`--against IMPL` (a `WS_IMPL` value, e.g. `websockets-sansio`) compares our server with itself instead: the
same runs of ours, interleaved, one with the default websocket implementation and one with IMPL; the ratio
row is then default / IMPL. It decides whether app/realtime/protocol.py earns its place (docs/performance.md).

`--against tree:DIR` compares this checkout with the one at DIR (e.g. `git worktree add ../before main`): the same
runs, interleaved, each server started from its own tree, with this venv. It prints a change's before and after on
the move path from one run; the ratio row is this tree / DIR.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from interpreter import interpreter

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def last_json(text: str) -> dict[str, Any]:
    lines = [line for line in text.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError(f"no result in output:\n{text[-2000:]}")
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def run_peer(matches: int, duration: int, pad: int) -> dict[str, Any]:
    out = subprocess.run(
        [str(HERE / "peers" / "boardgameio" / "run.sh"), "--matches", str(matches), "--reps", "1",
         "--duration", str(duration)],
        env=dict(os.environ, PAD_BYTES=str(pad)), capture_output=True, text=True, timeout=duration + 300,
    )
    if out.returncode != 0:
        raise RuntimeError(f"peer failed: {out.stderr[-2000:]}")
    r = last_json(out.stdout)
    return {
        "moves_per_s": r["moves_per_s"], "p50_ms": r["rtt_p50_ms"], "p99_ms": r["rtt_p99_ms"],
        "server_cpu_pct": r["server_cpu_pct"], "server_wait_pct": r.get("server_wait_pct", float("nan")),
        "per_cpu_s": r["moves_per_s"] / max(1e-9, r["server_cpu_pct"] / 100), "load": r.get("load_avg", "?"),
    }


def run_ours(tables: int, duration: int, servers: int = 1, ws_impl: str | None = None, tree: Path = ROOT) -> dict[str, Any]:
    env = dict(os.environ)
    if ws_impl is not None:
        env["WS_IMPL"] = ws_impl
    out = subprocess.run(
        [sys.executable, str(tree / "bench" / "load.py"), "--tables", str(tables), "--players", "2", "--spectators",
         "0", "--duration", str(duration), "--warmup", "3", "--servers", str(servers), "--spread", "tables"],
        cwd=tree, env=env, capture_output=True, text=True, timeout=duration + 900,
    )
    if out.returncode != 0:
        raise RuntimeError(f"load.py failed: {out.stderr[-2000:]}")
    r = last_json(out.stdout)
    return {
        "moves_per_s": r["commands_per_s"], "p50_ms": r["ack_p50_ms"], "p99_ms": r["ack_p99_ms"],
        "server_cpu_pct": sum(r["server_cpu_pct"]), "server_wait_pct": max(r["server_cpu_wait_pct"]),
        "per_cpu_s": r["commands_per_server_cpu_s"], "load": r["load_average"], "errors": r["errors"],
        # Every ack waits for a commit, so a disk that stalled during the run shows in our p99.
        "commit_ms_p99_under": r["commit_ms_p99_under"],
        "disk_fsync_max_ms": (r.get("disk_fsync") or {}).get("max_ms"),
        "client_loop_lag_max_ms": r["client_loop_lag_max_ms"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--levels", default="50,200")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--duration", type=int, default=15)
    ap.add_argument("--pad", type=int, default=2000, help="PAD_BYTES for the peer's state")
    ap.add_argument("--servers", type=int, default=1,
                    help="our server processes, each table's sockets all on one of them (load.py --spread tables)")
    ap.add_argument("--against", default="peer",
                    help="peer (boardgame.io), a WS_IMPL to compare our default websocket implementation with, or "
                         "tree:DIR, another checkout of this project")
    args = ap.parse_args()
    other = "peer" if args.against == "peer" else "other"
    tree = Path(args.against.removeprefix("tree:")).resolve() if args.against.startswith("tree:") else None
    if tree is not None and not (tree / "bench" / "load.py").is_file():
        ap.error(f"{tree} is not a checkout of this project")
    levels = [int(x) for x in args.levels.split(",")]
    rows: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for rep in range(1, args.reps + 1):
        for level in levels:
            if args.against == "peer":
                baseline = lambda n=level: run_peer(n, args.duration, args.pad)  # noqa: E731
            elif tree is not None:
                baseline = lambda n=level: run_ours(n, args.duration, args.servers, tree=tree)  # noqa: E731
            else:
                baseline = lambda n=level: run_ours(n, args.duration, args.servers, args.against)  # noqa: E731
            for who, fn in ((other, baseline), ("ours", lambda n=level: run_ours(n, args.duration, args.servers))):
                try:
                    r = fn()
                    if "postgres_restarted_during_window" in r.get("errors", {}):
                        raise RuntimeError("Postgres was restarted during the measured window")
                except RuntimeError as exc:
                    # This machine's Postgres is shared and sometimes restarted under us: one more try.
                    print(f"{who} at {level} failed, retrying once: {str(exc)[-300:]}", file=sys.stderr)
                    r = fn()
                rows.setdefault((who, level), []).append(r)
                print(json.dumps({"rep": rep, "who": who, "tables": level, **r}), flush=True)
    keys = ["moves_per_s", "p50_ms", "p99_ms", "per_cpu_s", "server_cpu_pct", "server_wait_pct"]
    against = (f"peer boardgame.io PAD_BYTES={args.pad}" if other == "peer"
               else f"other: ours from {tree}" if tree is not None
               else f"other: ours with WS_IMPL={args.against}")
    print(f"\nmedian of {args.reps} interleaved runs, {args.duration} s each; {against}; "
          f"ours (WS_IMPL={os.environ.get('WS_IMPL', 'default')}) Food Truck Champion, 2 players/table, Postgres, {args.servers} process(es) on {interpreter()}; "
          f"{os.cpu_count()} cores")
    print(f"{'tables':>6} {'who':<5}" + "".join(f"{k:>16}" for k in keys))
    for level in levels:
        med = {}
        for who in (other, "ours"):
            med[who] = {k: statistics.median(r[k] for r in rows[(who, level)]) for k in keys}
            print(f"{level:>6} {who:<5}" + "".join(f"{med[who][k]:>16.1f}" for k in keys))
        ratio = {k: med["ours"][k] / med[other][k] if med[other][k] else float("nan") for k in keys}
        print(f"{level:>6} {'ratio':<5}" + "".join(f"{ratio[k]:>16.2f}" for k in keys) + f"   (ours / {other})")


if __name__ == "__main__":
    main()
