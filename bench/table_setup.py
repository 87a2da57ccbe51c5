"""A table's set-up: the server CPU it costs to create a table, have the others join, start it, and open every
player's socket to its snapshot.

Usage: .venv/bin/python bench/table_setup.py [--tables 300] [--players 2] [--game food-truck-champion]
                                             [--concurrency 10] [--reps 3] [--sqlite] [--profile FILE]

It creates a fresh Postgres database (or a SQLite file with --sqlite), starts one server process on it
(`python -m app.main`, as bench/load.py does), makes the guests first (not counted), then runs each phase for
every table in turn, --concurrency tables at a time: create, join, start, sockets (each player's socket open and
its snapshot read). The server process's CPU time (user + system, from /proc) over each phase divided by the
number of tables is that phase's cost per table. Reports the median over --reps rounds of --tables tables, and
the machine's load, since the client shares the machine's cores with the server. --profile FILE samples the server
with py-spy over the counted rounds (pip install py-spy into .venv; read with bench/profile_summary.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import PG, TICK, cpu_ticks, loadavg, psql, start_server, stop_server, wait_healthy  # noqa: E402

PHASES = ("create", "join", "start", "sockets")


async def each(items: list[Any], concurrency: int, work: Callable[[Any], Awaitable[None]]) -> None:
    """`work` on every item, at most `concurrency` at once."""
    gate = asyncio.Semaphore(concurrency)

    async def one(item: Any) -> None:
        async with gate:
            await work(item)

    await asyncio.gather(*(one(item) for item in items))


async def post(http: httpx.AsyncClient, path: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
    r = await http.post(path, json=body, headers={"Authorization": f"Bearer {token}"})
    if r.status_code != 200:
        raise RuntimeError(f"{path}: {r.status_code} {r.text[:200]}")
    data: dict[str, Any] = r.json()
    return data


async def snapshot(ws_base: str, table_id: str, token: str) -> websockets.ClientConnection:
    ws = await websockets.connect(f"{ws_base}/ws/tables/{table_id}",
                                  additional_headers={"Authorization": f"Bearer {token}"}, max_size=2**22)
    while json.loads(await ws.recv()).get("type") != "snapshot":
        pass
    return ws


async def one_round(http: httpx.AsyncClient, ws_base: str, pid: int, args: argparse.Namespace,
                    guests: list[list[str]]) -> dict[str, float]:
    """Set up `len(guests)` tables phase by phase; the server's CPU ms per table in each phase."""
    tables: dict[int, str] = {}
    sockets: list[websockets.ClientConnection] = []
    spent: dict[str, float] = {}

    async def create(i: int) -> None:
        table = await post(http, "/api/tables", guests[i][0],
                           {"game": args.game, "seats": args.players, "visibility": "public"})
        tables[i] = str(table["id"])

    async def join(i: int) -> None:
        for token in guests[i][1:]:
            await post(http, f"/api/tables/{tables[i]}/join", token, {})

    async def start(i: int) -> None:
        await post(http, f"/api/tables/{tables[i]}/start", guests[i][0], {})

    async def open_sockets(i: int) -> None:
        for token in guests[i]:
            sockets.append(await snapshot(ws_base, tables[i], token))

    for name, work in zip(PHASES, (create, join, start, open_sockets), strict=True):
        before = cpu_ticks(pid)
        await each(list(range(len(guests))), args.concurrency, work)
        spent[name] = (cpu_ticks(pid) - before) / TICK * 1000 / len(guests)
    for ws in sockets:
        with contextlib.suppress(Exception):
            await ws.close()
    spent["total"] = sum(spent[name] for name in PHASES)
    return spent


async def run(args: argparse.Namespace) -> dict[str, Any]:
    db = f"bench_setup_{int(time.time())}_{os.getpid()}"
    work_dir = Path(tempfile.mkdtemp(prefix="bench-setup-"))
    if args.sqlite:
        db_url = f"sqlite+aiosqlite:///{work_dir / 'bench.sqlite3'}"
    else:
        psql(f"CREATE DATABASE {db}")
        db_url = f"postgresql://{PG['user']}@{PG['host']}:{PG['port']}/{db}"
    server = start_server(db_url, args.port, True, work_dir)
    try:
        await wait_healthy(server)
        limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
        async with httpx.AsyncClient(base_url=server.url, timeout=60, limits=limits) as http:
            guests: list[list[str]] = []
            for i in range(args.tables * (args.reps + 1)):
                row = []
                for k in range(args.players):
                    r = await http.post("/api/auth/guest", json={"name": f"setup {i}.{k}"})
                    r.raise_for_status()
                    row.append(r.json()["token"])
                guests.append(row)
            ws_base = server.url.replace("http", "ws", 1)
            # A first round warms the server (imports, caches, prepared statements) and is not counted.
            await one_round(http, ws_base, server.proc.pid, args, guests[: args.tables])
            spy = None
            if args.profile:
                spy = subprocess.Popen([str(Path(sys.executable).parent / "py-spy"), "record", "-p",
                                        str(server.proc.pid), "-r", "200", "-f", "raw", "-o", args.profile],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                await asyncio.sleep(1)
            rounds = []
            for rep in range(1, args.reps + 1):
                rounds.append(await one_round(http, ws_base, server.proc.pid, args,
                                              guests[rep * args.tables : (rep + 1) * args.tables]))
            if spy is not None:
                spy.send_signal(2)  # py-spy writes its file on SIGINT
                spy.wait(30)
        return {
            "database": "sqlite" if args.sqlite else "postgres", "tables": args.tables, "players": args.players,
            "game": args.game, "concurrency": args.concurrency, "reps": args.reps, "load_average": loadavg(),
            "server_cpu_ms_per_table": {k: round(statistics.median(r[k] for r in rounds), 2)
                                        for k in (*PHASES, "total")},
            "rounds": [{k: round(v, 2) for k, v in r.items()} for r in rounds],
        }
    finally:
        stop_server(server)
        if not args.sqlite:
            with contextlib.suppress(Exception):
                psql(f"DROP DATABASE IF EXISTS {db} WITH (FORCE)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=300)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--game", default="food-truck-champion")
    ap.add_argument("--concurrency", type=int, default=10)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--port", type=int, default=8790)
    ap.add_argument("--sqlite", action="store_true", help="a SQLite file instead of Postgres")
    ap.add_argument("--profile", help="a py-spy raw profile of the server over the counted rounds")
    args = ap.parse_args()
    result = asyncio.run(run(args))
    per = result["server_cpu_ms_per_table"]
    print(f"table set-up, {result['players']} players, {result['game']}, {result['database']}, "
          f"{result['concurrency']} at a time, median of {result['reps']} rounds of {result['tables']} "
          f"(load {result['load_average']}):")
    print("  server CPU ms per table: " + ", ".join(f"{k} {per[k]:.2f}" for k in (*PHASES, "total")))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
