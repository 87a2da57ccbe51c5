"""Where an idle websocket's bytes go: tracemalloc in one in-process server, grouped by where they were allocated.

Usage: .venv/bin/python bench/socket_memory.py [--sockets 500] [--tables 10] [--frames 8] [--top 30]

Starts the app with uvicorn in this process on a fresh SQLite database (with `uvicorn_options`, so WS_IMPL
chooses the websocket implementation as in production), under tracemalloc. A client subprocess (this file
with --client) sets up --tables running Food Truck Champion tables through REST, opens and closes 100 sockets
to warm the server, then opens --sockets watchers; the server takes a snapshot before and after those and
prints the bytes still allocated per open socket, grouped by traceback (the innermost frames of this project,
uvicorn, websockets and starlette), with the total and the RSS growth per socket (tracemalloc's own
bookkeeping inflates RSS, so the bench/sockets.py figure is the one to quote).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import tempfile
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from load import rss_mb  # noqa: E402

BENCH_ENV = {
    "LOG_LEVEL": "warning", "BOT_DELAY": "0", "RUN_MIGRATIONS": "true", "SECRET_KEY": "socket-memory-bench-key-0123456789",
    "LIMIT_GUESTS": "1000000/minute", "LIMIT_TABLES": "1000000/minute", "MAX_OPEN_TABLES": "1000000",
    "WS_PER_ADDRESS": "1000000", "WS_PER_PERSON_PER_TABLE": "1000000",
}


async def client(base: str, sockets: int, tables: int) -> None:
    from sockets import Pool, make_tables

    ids = await make_tables(base, tables)
    pool = Pool(base, ids, None)
    await pool.grow(100, 50)
    await pool.close()
    pool.socks.clear()
    print("warm", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    await pool.grow(sockets, 50)
    print(f"open {len(pool.socks)} failed {pool.failed}", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    print(f"answering {await pool.ping_all()}", flush=True)
    await pool.close()


def ours(frame: tracemalloc.Frame) -> bool:
    return any(part in frame.filename for part in ("/app/", "uvicorn", "websockets", "starlette", "asyncio"))


async def serve(args: argparse.Namespace) -> None:
    import uvicorn

    from app.config import get_settings
    from app.main import asgi_app, uvicorn_options

    settings = get_settings()
    config = uvicorn.Config(asgi_app(settings), host="127.0.0.1", port=args.port, log_level="warning",
                            **uvicorn_options(settings))
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.05)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--client", "--sockets", str(args.sockets), "--tables", str(args.tables),
        "--port", str(args.port), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stdin is not None

    async def line() -> str:
        assert proc.stdout is not None
        return (await proc.stdout.readline()).decode().strip()

    print(await line())
    await asyncio.sleep(1)
    gc.collect()
    before, rss0 = tracemalloc.take_snapshot(), rss_mb(os.getpid())
    proc.stdin.write(b"go\n")
    opened = await line()
    print(opened)
    n = int(opened.split()[1])
    await asyncio.sleep(1)
    gc.collect()
    after, rss1 = tracemalloc.take_snapshot(), rss_mb(os.getpid())
    proc.stdin.write(b"go\n")
    print(await line())
    await proc.wait()
    report(before, after, n, rss1 - rss0, args)
    server.should_exit = True
    await asyncio.wait_for(serving, 30)


def report(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot, n: int, rss_growth: float,
           args: argparse.Namespace) -> None:
    keep = [tracemalloc.Filter(False, tracemalloc.__file__)]
    stats = after.filter_traces(keep).compare_to(before.filter_traces(keep), "traceback")
    total = sum(s.size_diff for s in stats)
    print(f"\n{n} sockets: {total / n / 1024:.2f} KB per socket allocated (tracemalloc), "
          f"RSS +{rss_growth * 1024 / n:.1f} KB per socket\n")
    for stat in stats[: args.top]:
        per, count = stat.size_diff / n, stat.count_diff / n
        if per < 16:
            break
        frames = [f for f in stat.traceback if ours(f)][-args.show:] or list(stat.traceback)[-1:]
        where = " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in reversed(frames))
        print(f"{per:8.0f} B {count:5.1f} blocks  {where}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sockets", type=int, default=500)
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--frames", type=int, default=12, help="traceback depth kept by tracemalloc")
    ap.add_argument("--show", type=int, default=4, help="frames shown per entry")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--port", type=int, default=8472)
    ap.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.client:
        asyncio.run(client(f"http://127.0.0.1:{args.port}", args.sockets, args.tables))
        return
    tmp = tempfile.mkdtemp(prefix="socket-memory-")
    os.environ.update(BENCH_ENV | {"DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/bench.sqlite3"})
    tracemalloc.start(args.frames)
    asyncio.run(serve(args))


if __name__ == "__main__":
    main()
