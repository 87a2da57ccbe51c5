"""Bytes a process keeps per table in its record cache, per game, and whether that grows with the game's history.

Usage: .venv/bin/python bench/table_memory.py [--tables 40] [--moves 0,40,160] [--database-url URL]

In one process, on a fresh SQLite database (or --database-url, a fresh Postgres database), it sets up --tables
running 3-seat tables of each game through the services (create, join, start), plays random legal moves on all of
them through `play.apply_action` (the path a socket's move takes: checked, stored durably, cached), and after each
step of --moves (moves played per table so far) prints, per game, the bytes one cached record holds (every object
reachable from it but None, booleans and small integers: state, seats, options, recent events; a key string
shared with other records counts in each, so this is an upper bound) as
it is in the cache after play and as it is read back from the database. A record's memory follows its game's state,
not its history: moves are kept in the database, and the cached record keeps the events of the last
`EVENT_WINDOW` versions only. Bytes per idle socket: bench/sockets.py.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import gc
import logging
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.config import Settings  # noqa: E402
from app.db.models import User  # noqa: E402
from app.games import GAMES  # noqa: E402
from app.main import run_migrations  # noqa: E402
from app.runtime import Runtime  # noqa: E402
from app.services import lobby as tables  # noqa: E402
from app.services.errors import ServiceError  # noqa: E402
from app.services.loading import load_record  # noqa: E402
from app.services.record import EVENT_WINDOW, TableRecord  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from interpreter import interpreter  # noqa: E402


def deep_size(root: Any, shared: set[int]) -> int:
    """Bytes of every object reachable from `root` that is not in `shared` (ids), each counted once."""
    seen: set[int] = set(shared)
    stack = [root]
    total = 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


def shared_ids() -> set[int]:
    """What every record may point at without owning it: None, the booleans, the small integers."""
    return {id(x) for x in [None, True, False, *range(-5, 257)]}


async def play_moves(rt: Runtime, ids: list[str], moves: int, rng: random.Random) -> int:
    """Up to `moves` random legal moves on each table (fewer if its game ends); how many were played."""
    played = 0
    for table_id in ids:
        for _ in range(moves):
            rec = await rt.tables.record_at_least(table_id, 0)
            if rec.status != "playing" or not rec.awaiting:
                break
            seat = rec.awaiting[0]
            actions = rec.actions_for(seat)
            if not actions:
                break
            try:
                await rt.play.apply_action(table_id, seat, rng.choice(actions))
                played += 1
            except ServiceError:
                continue
    return played


async def main_run(args: argparse.Namespace) -> None:
    tmp = tempfile.TemporaryDirectory()
    url = args.database_url or f"sqlite+aiosqlite:///{tmp.name}/memory.db"
    settings = Settings(database_url=url, secret_key="bench-table-memory-secret-key", bot_delay=0,
                        table_cache_size=10**6, table_cache_idle_seconds=0)
    logging.disable(logging.INFO)  # the migrations' progress
    await asyncio.to_thread(run_migrations, settings.effective_database_url)
    rt = Runtime(settings)
    await rt.writer.start()
    rng = random.Random(args.seed)

    async def join(session: Any, rec: TableRecord, user: User) -> Any:
        return await tables.join(session, rec, user, None, None)

    try:
        async with rt.sessions() as session:
            people = [User(id=f"u{k}", name=f"P{k}", username=f"p{k}", password_hash="x") for k in range(3)]
            session.add_all(people)
            await session.commit()
        by_game: dict[str, list[str]] = {}
        for game in GAMES:
            if game == "tiny":
                continue
            for _ in range(args.tables):
                async with rt.sessions() as session:
                    rec = await rt.lobby.create_table(session, people[0], game, 3, {}, "public", None)
                for p in people[1:]:
                    await rt.lobby.change(rec.id, p, None, functools.partial(join, user=p))
                await rt.lobby.change(rec.id, people[0], None, lambda s, r: tables.start(s, r, people[0]))
                by_game.setdefault(game, []).append(rec.id)
        shared = shared_ids()
        done = 0
        print(f"table_memory: {args.tables} tables of each game, 3 seats, {'Postgres' if 'postgres' in url else 'SQLite'}; "
              f"bytes per cached record (median over the tables), EVENT_WINDOW {EVENT_WINDOW}")
        for target in args.moves:
            for ids in by_game.values():
                await play_moves(rt, ids, target - done, rng)
            done = target
            gc.collect()
            line = []
            for game, ids in by_game.items():
                cached: list[TableRecord] = [r for t in ids if (r := rt.cache.get(t)) is not None]
                sizes = sorted(deep_size(r, shared) for r in cached)
                async with rt.reads() as session:
                    fresh = [await load_record(session, t) for t in ids]
                reloaded = sorted(deep_size(r, shared) for r in fresh)
                moves = sorted(r.move_count for r in cached)
                events = max(len(r.recent_events) for r in cached)
                line.append(f"{game} {sizes[len(sizes) // 2]:,} B cached ({reloaded[len(reloaded) // 2]:,} read "
                            f"back), median {moves[len(moves) // 2]} moves, <= {events} versions of events")
            print(f"  after up to {target:>4} moves: " + "; ".join(line))
        print(f"  ({interpreter()}, {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())})")
    finally:
        await rt.stop()
        tmp.cleanup()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=40, help="tables of each game")
    ap.add_argument("--moves", default="0,40,160", help="moves per table at which to measure (ascending)")
    ap.add_argument("--database-url", default="")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    args.moves = [int(x) for x in args.moves.split(",")]
    asyncio.run(main_run(args))


if __name__ == "__main__":
    main()
