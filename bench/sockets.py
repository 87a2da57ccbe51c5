"""Idle websockets held by one server process: resident memory at 1,000 / 5,000 / 10,000 connections.

Usage: .venv/bin/python bench/sockets.py [--levels 1000,5000,10000] [--tables 100] [--compression deflate|none]

Raises this process's open-file limit to its hard limit (the server it starts inherits it), creates a fresh
Postgres database, starts one server process (`python -m app.main`, LOG_LEVEL=warning), sets up --tables
running Food Truck Champion tables through REST (4 guest players each), then opens websockets as watchers
spread over those tables, in steps up to each level, from one asyncio client process (uvloop). At each
level, once every socket has its snapshot and the server has settled, it samples the server's resident
memory, checks every socket still answers a ping, and prints RSS and RSS per connection over the baseline
(the server with its tables loaded and a first 100 sockets opened and closed). Stops the server by PID and
drops the database. Loopback only; bounded by a hard time limit.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import resource
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))

from interpreter import interpreter  # noqa: E402
from load import loadavg, psql, rss_mb, start_server, stop_server, wait_healthy  # noqa: E402


def raise_nofile() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


async def make_tables(base: str, n: int) -> list[str]:
    """N running 4-seat Food Truck Champion tables, set up through the REST API."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        sem = asyncio.Semaphore(4)  # more joins in flight can exhaust the server's pool (docs/performance.md)

        async def once(i: int) -> str:
            tokens = []
            for k in range(4):
                r = await http.post("/api/auth/guest", json={"name": f"idle {i}.{k}"})
                r.raise_for_status()
                tokens.append(r.json()["token"])
            hdr = [{"Authorization": f"Bearer {t}"} for t in tokens]
            r = await http.post("/api/tables", headers=hdr[0],
                                json={"game": "food-truck-champion", "seats": 4, "visibility": "public"})
            r.raise_for_status()
            tid = r.json()["id"]
            for k in range(1, 4):
                (await http.post(f"/api/tables/{tid}/join", headers=hdr[k], json={})).raise_for_status()
            (await http.post(f"/api/tables/{tid}/start", headers=hdr[0], json={})).raise_for_status()
            return str(tid)

        async def one(i: int) -> str:
            async with sem:
                for attempt in range(5):
                    try:
                        return await once(i)
                    except httpx.HTTPError:
                        # The shared Postgres is sometimes restarted by other work: wait and try again.
                        if attempt == 4:
                            raise
                        await asyncio.sleep(2)
                raise AssertionError("unreachable")

        return list(await asyncio.gather(*(one(i) for i in range(n))))


class Pool:
    """The client side: open sockets, each having received its snapshot."""

    def __init__(self, base: str, tables: list[str], compression: str | None) -> None:
        self.base = base.replace("http", "ws", 1)
        self.tables = tables
        self.compression = compression
        self.socks: list[ClientConnection] = []
        self.failed = 0
        self._n = 0

    async def _open(self) -> ClientConnection | None:
        tid = self.tables[self._n % len(self.tables)]
        self._n += 1
        try:
            ws = await connect(f"{self.base}/ws/tables/{tid}", compression=self.compression, open_timeout=120,
                               ping_interval=None, close_timeout=2, max_size=2**22)
            msg = orjson.loads(await asyncio.wait_for(ws.recv(), 120))
            if msg.get("type") != "snapshot":
                raise RuntimeError(f"unexpected first message {msg.get('type')}")
            return ws
        except Exception:  # noqa: BLE001 - counted
            self.failed += 1
            return None

    async def grow(self, target: int, concurrency: int) -> None:
        sem = asyncio.Semaphore(concurrency)

        async def one() -> None:
            async with sem:
                ws = await self._open()
                if ws is not None:
                    self.socks.append(ws)

        await asyncio.gather(*(one() for _ in range(target - len(self.socks))))

    async def ping_all(self, concurrency: int = 500) -> int:
        """How many sockets answer an application ping with a pong."""
        sem = asyncio.Semaphore(concurrency)

        async def one(ws: ClientConnection) -> bool:
            async with sem:
                try:
                    await ws.send('{"type":"ping"}')
                    while True:
                        msg = orjson.loads(await asyncio.wait_for(ws.recv(), 60))
                        if msg.get("type") == "pong":
                            return True
                except Exception:  # noqa: BLE001
                    return False

        return sum(await asyncio.gather(*(one(ws) for ws in self.socks)))

    async def close(self, socks: list[ClientConnection] | None = None) -> None:
        socks = self.socks if socks is None else socks
        for i in range(0, len(socks), 500):
            await asyncio.gather(*(ws.close() for ws in socks[i : i + 500]), return_exceptions=True)


async def settled_rss(pid: int, seconds: float = 3.0) -> float:
    """Resident memory once it stops moving (sampled for a few seconds, the last value)."""
    value = rss_mb(pid)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        await asyncio.sleep(0.5)
        value = rss_mb(pid)
    return value


async def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    db = f"bench_sockets_{int(time.time())}_{os.getpid()}"
    log_dir = Path(args.log_dir)
    log_dir.mkdir(parents=True, exist_ok=True)
    psql(f"CREATE DATABASE {db}")
    # The idle sweep must not close the first sockets while a slow (busy) machine is still opening the rest.
    server = start_server(f"postgresql://postgres@127.0.0.1:5432/{db}", args.port, True, log_dir,
                          extra_env={"WS_IDLE_TIMEOUT": "3600"})
    rows: list[dict[str, Any]] = []
    try:
        await wait_healthy(server)
        tables = await make_tables(server.url, args.tables)
        pool = Pool(server.url, tables, args.compression)
        # Warm the server's code paths and caches, then take the baseline without sockets.
        await pool.grow(100, args.concurrency)
        await pool.close()
        pool.socks.clear()
        base = await settled_rss(server.proc.pid)
        print(f"idle sockets on one server process: {args.tables} running tables, watchers spread over them, "
              f"ws compression offered: {args.compression or 'none'}; {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}, "
              f"{os.cpu_count()} cores, nofile limit {resource.getrlimit(resource.RLIMIT_NOFILE)[0]}, "
              f"load average {loadavg()}; {interpreter()}")
        print(f"baseline RSS {base:.1f} MB")
        print(f"{'sockets':>8}{'open s':>8}{'failed':>8}{'answering':>11}{'RSS MB':>9}{'KB/socket':>11}")
        for level in args.levels:
            t0 = time.perf_counter()
            await pool.grow(level, args.concurrency)
            took = time.perf_counter() - t0
            gc.collect()
            rss = await settled_rss(server.proc.pid)
            answering = await pool.ping_all()
            per = (rss - base) * 1024 / max(1, len(pool.socks))
            row = {"sockets": len(pool.socks), "open_s": round(took, 1), "failed": pool.failed,
                   "answering": answering, "rss_mb": round(rss, 1), "kb_per_socket": round(per, 1)}
            rows.append(row)
            print(f"{row['sockets']:>8}{row['open_s']:>8}{row['failed']:>8}{row['answering']:>11}"
                  f"{row['rss_mb']:>9}{row['kb_per_socket']:>11}")
            if server.proc.poll() is not None:
                raise RuntimeError(f"server exited; see {server.log}")
        await pool.close()
    finally:
        stop_server(server)
        with contextlib.suppress(Exception):
            psql(f"DROP DATABASE IF EXISTS {db} WITH (FORCE)")
    print("target: 10,000 idle sockets under 400 MB")
    print(orjson.dumps(rows).decode())
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--levels", default="1000,5000,10000")
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--compression", default="deflate", choices=["deflate", "none"])
    ap.add_argument("--concurrency", type=int, default=200, help="handshakes in flight")
    ap.add_argument("--port", type=int, default=8400)
    ap.add_argument("--log-dir", default=str(Path(tempfile.gettempdir()) / "bench-sockets-logs"))
    ap.add_argument("--timeout", type=float, default=900, help="hard bound on the whole run, seconds")
    args = ap.parse_args()
    args.levels = sorted(int(x) for x in args.levels.split(","))
    args.compression = None if args.compression == "none" else args.compression
    hard = raise_nofile()
    if hard < args.levels[-1] + 1000:  # client and server are separate processes
        print(f"warning: open-file hard limit {hard} may be too low for {args.levels[-1]} sockets", file=sys.stderr)
    with contextlib.suppress(ImportError), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import uvloop

        uvloop.install()
    try:
        asyncio.run(asyncio.wait_for(run(args), args.timeout))
    except TimeoutError:
        print(f"sockets: hard time bound ({args.timeout:.0f} s) hit", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
