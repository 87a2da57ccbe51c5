"""SQLite connections for the async engine: aiosqlite's, with a `stop` that may be called twice.

aiosqlite (0.22) runs each connection on a thread of its own, which `stop` ends by queueing a last call; a second
`stop` queues another call behind it, which no thread will ever run, and whoever awaits it waits forever. SQLAlchemy
calls it twice when a task is cancelled twice mid-statement (a request whose client left, then the server's
shutdown): its pool ends the connection gracefully (`close`, which stops the thread) while, cancelled again, it also
forces the stop. The graceful close then never ends, and neither does the event loop's shutdown
(tests/hardening/test_sqlite_connection.py)."""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from typing import Any

import aiosqlite


class StopOnceConnection(aiosqlite.Connection):
    """An aiosqlite connection whose thread is stopped once: a later `stop` answers the first one's future."""

    _stopping: asyncio.Future[Any] | None = None

    def stop(self) -> asyncio.Future[Any] | None:
        if self._running:
            self._stopping = super().stop()
        return self._stopping


def connect(database: str, **kwargs: Any) -> aiosqlite.Connection:
    """A connection to `database` with sqlite3's `kwargs`, made as `aiosqlite.connect` makes one (SQLAlchemy awaits
    it). Its thread is a daemon, as in SQLAlchemy's own: a connection left unclosed does not hold the process."""
    conn = StopOnceConnection(functools.partial(sqlite3.connect, database, **kwargs), iter_chunk_size=64)
    conn._thread.daemon = True
    return conn
