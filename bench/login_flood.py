"""What a flood of wrong-password sign-ins does to the move acks of a running table on the same server process.

Usage: .venv/bin/python bench/login_flood.py [--logins 48] [--concurrency 16] [--acks 300] [--reps 3]

Starts one server process (the test server, `tests.platform.serve`, whose tiny game makes a move cost next to
nothing beyond the server itself; SQLite in a temporary folder; rate limits raised, since a flood spread over many
addresses would not meet them). One seat of a running table then picks and takes the pick back over its socket,
ack after ack, in two phases per repetition: alone, and while `--logins` wrong-password sign-ins for a real account
are sent `--concurrency` at a time. Prints each phase's ack p50, p99 and max in milliseconds, and what the flood
added to the p99. Password hashing runs in worker threads (services/auth.py), so the flood should add little.
Loopback only; bounded by the counts given.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
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
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(tmp: Path, **settings: str) -> tuple[subprocess.Popen[bytes], str]:
    """The test server on a fresh SQLite database in `tmp`, with these settings on top of the bench's."""
    port = free_port()
    env = {
        **os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{tmp / 'bench.sqlite3'}", "SECRET_KEY": "bench-" + "x" * 32,
        "PORT": str(port), "LOG_LEVEL": "warning", "LIMIT_LOGIN_FAILURES": "1000000/minute",
        "LIMIT_GUESTS": "1000000/minute", "LIMIT_REGISTRATIONS": "1000000/minute",
        "WS_RATE_PER_SECOND": "100000", "WS_RATE_BURST": "100000",  # one socket acting as fast as it can
        **settings,
    }
    proc = subprocess.Popen([sys.executable, "-m", "tests.platform.serve"], cwd=ROOT, env=env,
                            stdout=open(tmp / "server.log", "wb"), stderr=subprocess.STDOUT)  # noqa: SIM115
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def ack_latencies(sock: Socket, count: int) -> list[float]:
    """Milliseconds from sending to the ack, for `count` moves (a pick, then taking it back)."""
    found = []
    for _ in range(count):
        began = time.perf_counter()
        ack = await sock.act({"type": "pick", "n": 1})
        found.append((time.perf_counter() - began) * 1000)
        assert ack["type"] == "ack", ack
        undone = await sock.undo(ack["version"])
        assert undone["type"] == "ack", undone
    return found


async def flood(url: str, username: str, logins: int, concurrency: int) -> None:
    gate = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(base_url=url, timeout=60) as c:

        async def wrong(i: int) -> None:
            async with gate:
                r = await c.post("/api/auth/login", json={"username": username, "password": f"wrong guess {i}"})
                assert r.status_code == 401, r.text

        await asyncio.gather(*(wrong(i) for i in range(logins)))


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start(Path(tmp))
        try:
            async with httpx.AsyncClient(base_url=url) as c:
                r = await c.post("/api/auth/register", json={"username": "flooded", "password": "correct horse"})
                r.raise_for_status()
            ana, ben = await Player.guest(url, "Ana"), await Player.guest(url, "Ben")
            t = await ana.table(seats=2, options={"target": 1000})
            await ben.post(f"/api/tables/{t['id']}/join", {})
            await ana.post(f"/api/tables/{t['id']}/start")
            sock = await Socket.open(url.replace("http", "ws", 1), t["id"], ana.token)
            await sock.expect("snapshot")
            await ack_latencies(sock, 20)  # warm up
            rows = []
            for rep in range(args.reps):
                quiet = await ack_latencies(sock, args.acks)
                flooded, _ = await asyncio.gather(
                    ack_latencies(sock, args.acks), flood(url, "flooded", args.logins, args.concurrency))
                rows.append((rep, quiet, flooded))
            print(f"{args.logins} wrong-password sign-ins, {args.concurrency} at a time, beside {args.acks} acks"
                  " (ms; the flood phase's acks run until they are done, so the flood covers their first part)")
            print(f"{'rep':>3} {'quiet p50':>10} {'quiet p99':>10} {'quiet max':>10} {'flood p50':>10} "
                  f"{'flood p99':>10} {'flood max':>10} {'added p99':>10}")
            for rep, quiet, flooded in rows:
                print(f"{rep:>3} {statistics.median(quiet):>10.2f} {quantile(quiet, 0.99):>10.2f} {max(quiet):>10.2f} "
                      f"{statistics.median(flooded):>10.2f} {quantile(flooded, 0.99):>10.2f} {max(flooded):>10.2f} "
                      f"{quantile(flooded, 0.99) - quantile(quiet, 0.99):>10.2f}")
            await sock.close()
            await ana.close()
            await ben.close()
        finally:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
            log = (Path(tmp) / "server.log").read_text()
            if "Traceback" in log or "error" in log:
                print(log[-3000:], file=sys.stderr)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--logins", type=int, default=48)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--acks", type=int, default=150)
    ap.add_argument("--reps", type=int, default=3)
    asyncio.run(main(ap.parse_args()))
