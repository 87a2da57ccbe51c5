"""A person's move is not slowed by thinking bots: ack times at one table while hard bots play at ten others.

Usage: .venv/bin/python bench/bot_ack.py [--tables 10] [--game foodies] [--moves 300] [--workers 1]

Starts the real server (the platform tests' one, with the tiny game, on a throwaway SQLite database, no bot
delay, BOT_WORKERS=--workers), then two people play the tiny game (cheap moves, so the figure is the server's
path, not an engine's) and every move's ack is timed: first with no bots anywhere, then while --tables tables
of --game are played by bots only (two hard bots and the host's seat handed to a stand-in bot), which think
all the time. Prints the p50, p99 and max ack in milliseconds of each part. The bots think in the server's
bounded process pool; were they in its event loop, a person's ack would wait for whole searches.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.platform.client import Player, Socket  # noqa: E402


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def bot_tables(url: str, game: str, count: int) -> list[str]:
    """`count` running tables of bots only: two hard bots, and the host's seat handed to a stand-in."""
    ids = []
    for i in range(count):
        host = await Player.guest(url, f"Host{i}")
        tid = (await host.table(game=game, seats=3))["id"]
        for seat in ("1", "2"):
            await host.post(f"/api/tables/{tid}/bots", {"seat": seat, "level": "hard"})
        await host.post(f"/api/tables/{tid}/start")
        await host.post(f"/api/tables/{tid}/stand_in", {"seat": "0"})
        await host.close()
        ids.append(tid)
    return ids


async def timed_moves(url: str, moves: int) -> list[float]:
    """Two people play the tiny game; the milliseconds from each move sent to its ack."""
    ana, ben = await Player.guest(url, "Ana"), await Player.guest(url, "Ben")
    tid = (await ana.table(seats=2, options={"target": 10**6}))["id"]
    await ben.post(f"/api/tables/{tid}/join", {"seat": "1"})
    await ana.post(f"/api/tables/{tid}/start")
    ws_url = url.replace("http", "ws")
    sockets = {"0": await Socket.open(ws_url, tid, ana.token), "1": await Socket.open(ws_url, tid, ben.token)}
    times: list[float] = []
    while len(times) < moves:
        table = (await ana.http.get(f"/api/tables/{tid}")).json()
        for seat in table["awaiting"]:
            # A person's pace: a socket may send 20 messages a second (WS_RATE_PER_SECOND) before it is refused.
            await asyncio.sleep(0.1)
            start = time.perf_counter()
            reply = await sockets[seat].act({"type": "pick", "n": 1})
            if reply["type"] == "error":  # the bump phase: a pick is refused at once; bump instead
                start = time.perf_counter()
                reply = await sockets[seat].act({"type": "bump"})
            if reply["type"] == "ack":
                times.append(1000 * (time.perf_counter() - start))
    for s in sockets.values():
        await s.close()
    await ana.close()
    await ben.close()
    return times


def report(label: str, times: list[float]) -> None:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    print(f"{label:34} moves {len(times):4}  p50 {statistics.median(times):6.1f} ms  p99 {p99:6.1f} ms"
          f"  max {ordered[-1]:6.1f} ms", flush=True)


async def main_async(args: argparse.Namespace, url: str) -> None:
    report("no bots", await timed_moves(url, args.moves))
    await bot_tables(url, args.game, args.tables)
    await asyncio.sleep(2)  # the bots are under way
    report(f"{args.tables} tables of hard {args.game} bots", await timed_moves(url, args.moves))
    async with httpx.AsyncClient(base_url=url) as c:
        tables = (await c.get("/api/tables", params={"status": "playing"})).json()["tables"]
    moved = sum(t.get("move_count", 0) for t in tables if t["game"] == args.game)
    print(f"bot tables' moves meanwhile: {moved}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--game", default="foodies")
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/db.sqlite3", "PORT": str(port),
               "BOT_DELAY": "0", "LOG_LEVEL": "warning", "BOT_WORKERS": str(args.workers),
               "SECRET_KEY": "bench-bot-ack"}
        log = open(Path(tmp) / "server.log", "wb")  # noqa: SIM115
        proc = subprocess.Popen([sys.executable, "-m", "tests.platform.serve"], cwd=ROOT, env=env, stdout=log,
                                stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    if time.monotonic() > deadline:
                        raise
                time.sleep(0.2)
            asyncio.run(main_async(args, url))
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
