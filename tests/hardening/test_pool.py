"""The connection pool: connections Postgres ended while they sat in the pool never fail a request."""

from __future__ import annotations

import asyncio

import asyncpg
from sqlalchemy import text

from app.config import Settings
from app.db.session import make_engine
from tests.conftest import Database, _pg_admin_url, requires_postgres


async def test_connections_killed_in_the_pool_are_replaced_unseen(fresh_db: Database) -> None:
    requires_postgres()
    engine = make_engine(Settings(database_url=fresh_db.url, db_pool_size=2))
    try:
        async def one_query() -> int:
            async with engine.connect() as conn:
                held = await conn.scalar(text("SELECT pg_backend_pid()"))
                await asyncio.sleep(0.05)  # held together, so the pool fills
                assert isinstance(held, int)
                return held

        pooled = set(await asyncio.gather(*(one_query() for _ in range(4))))
        assert len(pooled) == 4
        admin = await asyncpg.connect(_pg_admin_url())
        try:
            pids = [r["pid"] for r in await admin.fetch(
                "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", fresh_db.name)]
            for pid in pids:
                assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
        finally:
            await admin.close()
        assert set(pids) == pooled
        # Each checkout finds a dead connection, pings it, and is given a new one.
        answers = [await one_query() for _ in range(6)]
        assert not pooled & set(answers)
    finally:
        await engine.dispose()
