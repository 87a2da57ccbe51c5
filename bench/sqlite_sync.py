"""What SQLite's `synchronous=FULL` (the default: an acknowledged move survives a power cut) costs a move's ack against
`NORMAL` (the last moves may be lost), on this machine's disk.

Usage: .venv/bin/python bench/sqlite_sync.py [--acks 300] [--reps 3]

For each repetition, one server per setting in turn (the test server, `tests.platform.serve`, on a fresh SQLite file
in a temporary folder, `SQLITE_SYNCHRONOUS` set): one seat picks and takes the pick back over its socket, `--acks`
times, each a durable write. Prints each run's ack p50, p99 and max in milliseconds, the settings interleaved so that
the machine's drift touches both alike.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.login_flood import ack_latencies, quantile, start  # noqa: E402
from tests.platform.client import Player, Socket  # noqa: E402


async def one_run(synchronous: str, acks: int) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start(Path(tmp), SQLITE_SYNCHRONOUS=synchronous)
        try:
            ana, ben = await Player.guest(url, "Ana"), await Player.guest(url, "Ben")
            t = await ana.table(seats=2, options={"target": 1000})
            await ben.post(f"/api/tables/{t['id']}/join", {})
            await ana.post(f"/api/tables/{t['id']}/start")
            sock = await Socket.open(url.replace("http", "ws", 1), t["id"], ana.token)
            await sock.expect("snapshot")
            await ack_latencies(sock, 20)  # warm up
            found = await ack_latencies(sock, acks)
            await sock.close()
            await ana.close()
            await ben.close()
            return found
        finally:
            proc.terminate()
            proc.wait(30)


async def main(args: argparse.Namespace) -> None:
    print(f"{'rep':>3} {'synchronous':>11} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for rep in range(args.reps):
        for synchronous in ("NORMAL", "FULL"):
            found = await one_run(synchronous, args.acks)
            print(f"{rep:>3} {synchronous:>11} {statistics.median(found):>8.2f} {quantile(found, 0.99):>8.2f} "
                  f"{max(found):>8.2f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--acks", type=int, default=300)
    ap.add_argument("--reps", type=int, default=3)
    asyncio.run(main(ap.parse_args()))
