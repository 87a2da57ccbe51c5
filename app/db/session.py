"""The async engine and session factory."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.util.concurrency import await_only

from app.config import Settings
from app.db import sqlite_connection


def make_engine(settings: Settings) -> AsyncEngine:
    """Create the engine for the configured database."""
    url = settings.effective_database_url
    if url.startswith("sqlite"):
        _private_file(url)
        synchronous = settings.sqlite_synchronous.upper()
        if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"SQLITE_SYNCHRONOUS must be OFF, NORMAL, FULL or EXTRA, not {synchronous!r}")
        engine = create_async_engine(url, connect_args={"timeout": 30, "async_creator_fn": sqlite_connection.connect})

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={synchronous}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        return engine
    engine = create_async_engine(
        url,
        # Twice DB_POOL_SIZE, all kept open: a burst's connections beyond a pool size were closed as they came back
        # (SQLAlchemy's overflow), so the next burst connected, negotiated and prepared every statement again.
        pool_size=2 * settings.db_pool_size,
        max_overflow=0,
        # A ping per checkout costs a round trip, but without it a Postgres restart leaves dead
        # connections in the pool that fail request after request.
        pool_pre_ping=True,
        pool_timeout=settings.db_pool_timeout,
        # Named in pg_stat_activity, so an operator tells the app's connections from others'.
        connect_args={"server_settings": {"application_name": "foodgames"}},
    )
    engine.sync_engine.dialect.do_ping = _ping_outside_transaction  # type: ignore[method-assign]
    return engine


# Set while a read that tries again on its own takes its connection (`unpinged`).
_UNPINGED: ContextVar[bool] = ContextVar("unpinged", default=False)


@contextlib.contextmanager
def unpinged() -> Iterator[None]:
    """Connections checked out in this block are not pinged first. Only for work that, should its connection turn
    out dead, is made again (`services.database.Database.read`): a dead connection fails it, and the pool, told of
    the disconnect, replaces every connection older than the failure."""
    token = _UNPINGED.set(True)
    try:
        yield
    finally:
        _UNPINGED.reset(token)


def _ping_outside_transaction(dbapi_connection: Any) -> bool:
    """The pool's ping as one round trip. The asyncpg dialect wraps its ping in BEGIN … ROLLBACK (for pgbouncer's
    transaction mode, which this deployment does not use): three round trips on every checkout, a request's largest
    cost after its own statements. A query in the simple protocol, as asyncpg sends a statement without
    arguments: no prepared statement to look up, bind and decode, as the dialect's `fetchrow(";")` has. A dead
    connection fails this ping as it fails that one, with the error translated as the dialect's ping does, so the
    pool tells a disconnect and replaces the connection."""
    if _UNPINGED.get():
        return True
    try:
        await_only(dbapi_connection._connection.execute("SELECT 1"))
    except Exception as error:
        dbapi_connection._handle_exception(error)
    return True


def _private_file(url: str) -> None:
    """Create the SQLite file for its owner only (it holds password hashes); SQLite gives its -wal and -shm files the
    database file's permissions. A file others may read already is narrowed."""
    if ":///" not in url or url.endswith(":memory:"):
        return
    path = Path(url.split(":///", 1)[1].split("?", 1)[0])
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not path.exists():
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    elif path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO) and path.stat().st_uid == os.getuid():
        path.chmod(0o600)


def make_sessionmaker(engine: AsyncEngine, *, autocommit: bool = False) -> async_sessionmaker[AsyncSession]:
    """Sessions for writes (one transaction each), or, with `autocommit`, for reads that need no
    BEGIN/ROLLBACK round trips."""
    if autocommit:
        engine = engine.execution_options(isolation_level="AUTOCOMMIT")
    return async_sessionmaker(engine, expire_on_commit=False)
