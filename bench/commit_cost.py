"""The server's CPU for one group commit that carries a single move: what a commit costs at moderate load.

Usage: .venv/bin/python bench/commit_cost.py [--commits 2000] [--reps 3]

On a fresh Postgres database (migrated, 50 table rows, dropped afterwards) it commits one move at a time,
waiting for each, three ways: a bare `SELECT 1` (asyncpg's round trip), the writer's batch statement
executed directly, and through `PostgresBatchWriter.write` (queue, future and all). It prints this
process's CPU microseconds per commit (median of the repetitions, and each one), which is what every
commit costs the server on top of its moves. Under load a commit carries many moves and this is shared
among them. Postgres' own CPU is not counted. Run the three ways in the same minutes, since the machine drifts.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import uvloop

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from load import PG, psql  # noqa: E402

from app.main import run_migrations  # noqa: E402
from app.services.writer import _BATCH_SQL, _SESSION_SETTINGS, MoveWrite, PostgresBatchWriter, _columns  # noqa: E402

TABLES = 50


class Moves:
    """Successive single moves over the table rows, each at its table's next version."""

    def __init__(self) -> None:
        self.versions = {f"t{i}": 0 for i in range(TABLES)}
        self.count = 0

    def next(self) -> MoveWrite:
        self.count += 1
        tid = f"t{self.count % TABLES}"
        v = self.versions[tid]
        self.versions[tid] = v + 1
        return MoveWrite(table_id=tid, old_version=v, version=v + 1, seq=v + 1, seat="p1", client_id=f"c{self.count}",
                         action={"type": "play", "card": "c12"}, events=[{"type": "played", "seat": "p1"}],
                         state=None, awaiting=["p2"], outcome=None, status="playing", at=datetime.now(UTC))


async def set_up(dsn: str) -> None:
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute("INSERT INTO users (id, name, created_at) VALUES ('u1', 'bench', now())")
        await conn.executemany(
            "INSERT INTO game_tables (id, game, name, host_id, visibility, status, seat_count, options, seed,"
            " seed_commitment, state, version, state_seq, move_count, awaiting, created_at, updated_at)"
            " VALUES ($1, 'food-truck-champion', 't', 'u1', 'public', 'playing', 2, '{}', 1, 'x', '{}', 0, 0, 0,"
            " '[]', now(), now())",
            [(f"t{i}",) for i in range(TABLES)],
        )
    finally:
        await conn.close()


async def cpu_per_call(call: Callable[[], Awaitable[object]], n: int) -> float:
    await call()
    t0 = time.process_time()
    for _ in range(n):
        await call()
    return (time.process_time() - t0) / n * 1e6


async def measure(dsn: str, n: int, reps: int) -> dict[str, list[float]]:
    moves = Moves()
    conn = await asyncpg.connect(dsn, server_settings=_SESSION_SETTINGS)
    writer = PostgresBatchWriter(dsn)
    await writer.start()
    ways: dict[str, Callable[[], Awaitable[object]]] = {
        "SELECT 1": lambda: conn.fetchval("SELECT 1"),
        "batch statement": lambda: conn.fetchval(_BATCH_SQL, *_columns([moves.next()])),
        "writer.write": lambda: writer.write(moves.next()),
    }
    results: dict[str, list[float]] = {name: [] for name in ways}
    try:
        for _ in range(reps):  # interleaved, so a drifting machine touches every way alike
            for name, call in ways.items():
                results[name].append(await cpu_per_call(call, n))
    finally:
        await writer.stop()
        await conn.close()
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--commits", type=int, default=2000, help="commits per way and repetition")
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    name = f"bench_commit_{int(time.time())}"
    dsn = f"postgresql://{PG['user']}@{PG['host']}:{PG['port']}/{name}"
    psql(f"CREATE DATABASE {name}")
    try:
        run_migrations(dsn.replace("postgresql://", "postgresql+asyncpg://"))
        uvloop.run(set_up(dsn))
        results = uvloop.run(measure(dsn, args.commits, args.reps))
    finally:
        psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    print(f"server CPU per single-move commit, {args.commits} commits x {args.reps} (µs, median and each run; "
          f"{datetime.now(UTC):%Y-%m-%dT%H:%M:%SZ})")
    for way, runs in results.items():
        print(f"  {way:16s} {statistics.median(runs):7.1f}   {[round(r, 1) for r in runs]}")


if __name__ == "__main__":
    main()
