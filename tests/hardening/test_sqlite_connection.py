"""A SQLite statement cancelled twice (a request whose client left, then the server's shutdown) ends its connection
and lets the event loop end: aiosqlite's connection thread is stopped once (app/db/sqlite_connection.py)."""

from __future__ import annotations

import asyncio
import sys
import threading
import traceback
from pathlib import Path

from sqlalchemy import text

from app.config import Settings
from app.db import sqlite_connection
from app.db.session import make_engine

# Long enough to be cancelled mid-way: ~0.1 s of SQLite's own work.
SLOW = "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 300000) SELECT count(*) FROM r"


async def _cancelled_twice(url: str, turns: int) -> None:
    """A statement cancelled once mid-way, then again `turns` turns of the loop later, as its connection is ended."""
    engine = make_engine(Settings(database_url=url))

    async def statement() -> None:
        async with engine.connect() as conn:
            await conn.execute(text(SLOW))

    task = asyncio.create_task(statement())
    await asyncio.sleep(0.01)
    task.cancel()
    for _ in range(turns):
        await asyncio.sleep(0)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


def stacks() -> str:
    """Where every thread of the process stands: what a loop that did not end waits for."""
    return "\n".join(f"thread {ident}:\n{''.join(traceback.format_stack(frame))}"
                     for ident, frame in sys._current_frames().items())


def test_a_statement_cancelled_twice_lets_the_event_loop_end(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}"
    for turns in range(4):
        # In a thread, so that a loop that never ends fails the test rather than holding the run.
        run = threading.Thread(target=asyncio.run, args=(_cancelled_twice(url, turns),), daemon=True)
        run.start()
        run.join(20)
        assert not run.is_alive(), f"the event loop did not end (second cancel {turns} turns after the first)\n{stacks()}"


async def test_a_second_stop_answers_the_first_and_the_thread_ends(tmp_path: Path) -> None:
    conn = await sqlite_connection.connect(str(tmp_path / "db.sqlite3"))
    assert await (await conn.execute("SELECT 1")).fetchone() == (1,)
    first = conn.stop()
    assert first is not None and conn.stop() is first
    await first
    await asyncio.to_thread(conn._thread.join, 5)
    assert not conn._thread.is_alive()
