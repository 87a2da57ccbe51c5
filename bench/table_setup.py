"""A table's set-up: the server CPU it costs to create a table, have the others join, start it, and open every
player's socket to its snapshot.

Usage: .venv/bin/python bench/table_setup.py [--tables 300] [--players 2] [--game food-truck-champion]
                                             [--concurrency 10] [--reps 3] [--sqlite] [--profile FILE]
                                             [--against DIR]

It creates a fresh Postgres database (or a SQLite file with --sqlite), starts one server process on it
(`python -m app.main`, as bench/load.py does), makes the guests first (not counted), then runs each phase for
every table in turn, --concurrency tables at a time: create, join, start, sockets (each player's socket open and
its snapshot read). The server process's CPU time (user + system, from /proc) over each phase divided by the
number of tables is that phase's cost per table. Reports the median over --reps rounds of --tables tables, and
the machine's load, since the client shares the machine's cores with the server. --profile FILE samples the server
with py-spy over the counted rounds (pip install py-spy into .venv; read with bench/profile_summary.py).

--against DIR measures the server of another checkout beside this one (`git worktree add ../before <commit>`), each
on its own database, their rounds interleaved in turn: the machine's drift over a minute is as large as a change's
effect, and falls on both alike. It prints both and their ratio.
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
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import PG, ROOT, TICK, Server, cpu_ticks, loadavg, psql, start_server, stop_server, wait_healthy  # noqa: E402

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


@contextlib.asynccontextmanager
async def serving(tree: Path, port: int, args: argparse.Namespace) -> AsyncIterator[Server]:
    """A server from the checkout at `tree` on a database of its own, dropped afterwards."""
    db = f"bench_setup_{int(time.time())}_{os.getpid()}_{port}"
    work_dir = Path(tempfile.mkdtemp(prefix="bench-setup-"))
    if args.sqlite:
        db_url = f"sqlite+aiosqlite:///{work_dir / 'bench.sqlite3'}"
    else:
        psql(f"CREATE DATABASE {db}")
        db_url = f"postgresql://{PG['user']}@{PG['host']}:{PG['port']}/{db}"
    server = start_server(db_url, port, True, work_dir, tree=tree)
    try:
        await wait_healthy(server)
        yield server
    finally:
        stop_server(server)
        if not args.sqlite:
            with contextlib.suppress(Exception):
                psql(f"DROP DATABASE IF EXISTS {db} WITH (FORCE)")


async def make_guests(http: httpx.AsyncClient, count: int, players: int) -> list[list[str]]:
    guests: list[list[str]] = []
    for i in range(count):
        row = []
        for k in range(players):
            r = await http.post("/api/auth/guest", json={"name": f"setup {i}.{k}"})
            r.raise_for_status()
            row.append(r.json()["token"])
        guests.append(row)
    return guests


def medians(rounds: list[dict[str, float]]) -> dict[str, float]:
    return {k: round(statistics.median(r[k] for r in rounds), 2) for k in (*PHASES, "total")}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    trees = {"this": ROOT} | ({"other": Path(args.against).resolve()} if args.against else {})
    async with contextlib.AsyncExitStack() as stack:
        servers = {name: await stack.enter_async_context(serving(tree, args.port + i, args))
                   for i, (name, tree) in enumerate(trees.items())}
        limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
        http = {name: await stack.enter_async_context(httpx.AsyncClient(base_url=s.url, timeout=60, limits=limits))
                for name, s in servers.items()}
        guests = {name: await make_guests(http[name], args.tables * (args.reps + 1), args.players) for name in servers}

        async def one(name: str, rep: int) -> dict[str, float]:
            server = servers[name]
            return await one_round(http[name], server.url.replace("http", "ws", 1), server.proc.pid, args,
                                   guests[name][rep * args.tables : (rep + 1) * args.tables])

        # A first round warms each server (imports, caches, prepared statements) and is not counted.
        for name in servers:
            await one(name, 0)
        spy = None
        if args.profile:
            spy = subprocess.Popen([str(Path(sys.executable).parent / "py-spy"), "record", "-p",
                                    str(servers["this"].proc.pid), "-r", "200", "-f", "raw", "-o", args.profile],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            await asyncio.sleep(1)
        rounds: dict[str, list[dict[str, float]]] = {name: [] for name in servers}
        for rep in range(1, args.reps + 1):
            # Interleaved, the order turned each round: the machine's drift falls on both alike.
            for name in (list(servers) if rep % 2 else list(reversed(servers))):
                rounds[name].append(await one(name, rep))
        if spy is not None:
            spy.send_signal(2)  # py-spy writes its file on SIGINT
            spy.wait(30)
    return {
        "database": "sqlite" if args.sqlite else "postgres", "tables": args.tables, "players": args.players,
        "game": args.game, "concurrency": args.concurrency, "reps": args.reps, "load_average": loadavg(),
        "server_cpu_ms_per_table": medians(rounds["this"]),
        "rounds": [{k: round(v, 2) for k, v in r.items()} for r in rounds["this"]],
        **({"against": str(trees["other"]), "other_cpu_ms_per_table": medians(rounds["other"]),
            "other_rounds": [{k: round(v, 2) for k, v in r.items()} for r in rounds["other"]]}
           if "other" in rounds else {}),
    }


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
    ap.add_argument("--against", metavar="DIR",
                    help="another checkout of this project (e.g. a `git worktree` of the commit before a change): "
                         "its server is measured too, on a database of its own, the rounds interleaved")
    args = ap.parse_args()
    if args.against and not (Path(args.against) / "app" / "main.py").is_file():
        ap.error(f"{args.against} is not a checkout of this project")
    result = asyncio.run(run(args))
    print(f"table set-up, {result['players']} players, {result['game']}, {result['database']}, "
          f"{result['concurrency']} at a time, median of {result['reps']} rounds of {result['tables']} "
          f"(load {result['load_average']}):")
    rows = [("this", result["server_cpu_ms_per_table"])]
    if "against" in result:
        rows.append((result["against"], result["other_cpu_ms_per_table"]))
    for name, per in rows:
        print(f"  server CPU ms per table ({name}): " + ", ".join(f"{k} {per[k]:.2f}" for k in (*PHASES, "total")))
    if "against" in result:
        this, other = result["server_cpu_ms_per_table"], result["other_cpu_ms_per_table"]
        print("  ratio this / other: " + ", ".join(f"{k} {this[k] / other[k]:.2f}" for k in (*PHASES, "total")))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
