"""The async engine and session factory."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

from app.config import Settings


def make_engine(settings: Settings) -> AsyncEngine:
    """Create the engine for the configured database."""
    url = settings.effective_database_url
    if url.startswith("sqlite"):
        engine = create_async_engine(url, connect_args={"timeout": 30})

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        return engine
    return create_async_engine(
        url,
        pool_size=settings.db_pool_size,
        max_overflow=settings.db_pool_size,
        # A ping per checkout costs a round trip, but without it a Postgres restart leaves dead
        # connections in the pool that fail request after request.
        pool_pre_ping=True,
        pool_timeout=10,
    )


def make_sessionmaker(engine: AsyncEngine, *, autocommit: bool = False) -> async_sessionmaker[AsyncSession]:
    """Sessions for writes (one transaction each), or, with `autocommit`, for reads that need no
    BEGIN/ROLLBACK round trips."""
    if autocommit:
        engine = engine.execution_options(isolation_level="AUTOCOMMIT")
    return async_sessionmaker(engine, expire_on_commit=False)
