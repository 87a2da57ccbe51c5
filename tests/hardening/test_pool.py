"""The connection pool: connections Postgres ended while they sat in the pool never fail a request."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import asyncpg
import pytest
from sqlalchemy import String, bindparam, func, select, text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from app.config import Settings
from app.db.session import make_engine, make_sessionmaker
from app.main import run_migrations
from app.runtime import Runtime
from app.services import lobby
from app.services.auth import create_guest
from app.services.database import Database as Database_
from app.services.loading import stored_version
from tests.conftest import SECRET, Database, _pg_admin_url, requires_postgres


@pytest.fixture
def pinged(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each ping the pool sends on the test's own thread (its `SELECT 1`, app/db/session.py), as the test goes. The
    session's server, in its thread of this process, pings its own connections meanwhile (its bot sweep, every 20 s)."""
    sent: list[str] = []
    execute = asyncpg.Connection.execute
    tests_thread = threading.get_ident()

    async def counted(conn: asyncpg.Connection, query: str, *args: Any, **kwargs: Any) -> str:
        if query == "SELECT 1" and threading.get_ident() == tests_thread:
            sent.append(query)
        return await execute(conn, query, *args, **kwargs)

    monkeypatch.setattr(asyncpg.Connection, "execute", counted)
    return sent


def _database(engine: AsyncEngine) -> Database_:
    return Database_(sessions=make_sessionmaker(engine), reads=make_sessionmaker(engine, autocommit=True),
                     is_postgres=True)


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


async def test_a_read_that_skips_the_ping_is_made_again_on_a_live_connection(
    fresh_db: Database, pinged: list[str]
) -> None:
    """`Database.read`, as every request reads its person: no ping on its checkout, and a connection Postgres ended
    fails it once, out of sight, before it is made again on a new one."""
    requires_postgres()
    engine = make_engine(Settings(database_url=fresh_db.url, db_pool_size=2))
    database = _database(engine)
    try:
        async def backend(session: AsyncSession) -> int:
            pid = await session.scalar(text("SELECT pg_backend_pid()"))
            assert isinstance(pid, int)
            return pid

        first = await database.read(backend)
        assert await database.read(backend) == first and pinged == []  # the pooled connection, unpinged
        async with engine.connect() as conn:  # any other checkout is pinged
            await conn.scalar(text("SELECT 1"))
        assert len(pinged) == 1
        await _terminate_all(fresh_db)
        answers = [await database.read(backend) for _ in range(4)]
        assert first not in answers
    finally:
        await engine.dispose()


async def test_a_one_row_read_goes_through_the_driver_and_is_made_again_on_a_dead_connection(
    fresh_db: Database, pinged: list[str]
) -> None:
    """`Database.first_row`, as every request reads its person: straight through asyncpg on a pooled connection not
    pinged first; a connection Postgres ended is dropped and the read made again in a read session, out of sight."""
    requires_postgres()
    engine = make_engine(Settings(database_url=fresh_db.url, db_pool_size=2))
    database = _database(engine)
    backend = select(func.pg_backend_pid(), bindparam("echo", type_=String))
    try:
        first = await database.first_row(backend, {"echo": "a"})
        assert isinstance(first, asyncpg.Record) and first[1] == "a"  # the driver's own row
        again = await database.first_row(backend, {"echo": "b"})
        assert again is not None and (again[0], again[1]) == (first[0], "b") and pinged == []
        await _terminate_all(fresh_db)
        answers = [await database.first_row(backend, {"echo": str(i)}) for i in range(4)]
        assert [answer[1] for answer in answers if answer is not None] == ["0", "1", "2", "3"]
        assert first[0] not in {answer[0] for answer in answers if answer is not None}
    finally:
        await engine.dispose()


async def test_a_lobby_change_skips_the_ping_and_is_made_again_on_a_live_connection(
    fresh_db: Database, pinged: list[str]
) -> None:
    """`Lobby.change` (a join, a start …): no ping on its checkout, and a connection Postgres ended fails it before
    anything is written, out of sight: the change is made again on a new one, once."""
    requires_postgres()
    settings = Settings(database_url=fresh_db.url, secret_key=SECRET, db_pool_size=2)
    await asyncio.to_thread(run_migrations, settings.effective_database_url)
    rt = Runtime(settings)
    try:
        async with rt.sessions() as session:
            ana, bo, cy = [await create_guest(session, name) for name in ("Ana", "Bo", "Cy")]
            table = await rt.lobby.create_table(session, ana, "food-truck", 3, {}, "public", None)
        pinged.clear()  # the set-up's own checkouts
        joined = await rt.lobby.change(table.id, bo, None, lambda s, r: lobby.join(s, r, bo, None, None))
        assert joined.seat_of(bo.id) == "1" and pinged == []  # a pooled connection, unpinged

        await _terminate_all(fresh_db)
        joined = await rt.lobby.change(table.id, cy, None, lambda s, r: lobby.join(s, r, cy, None, None))
        assert joined.seat_of(cy.id) == "2" and joined.version == table.version + 2
        async with rt.reads() as session:
            assert await stored_version(session, table.id) == joined.version  # made once
    finally:
        await rt.stop()


async def _terminate_all(db: Database) -> None:
    admin = await asyncpg.connect(_pg_admin_url())
    try:
        for row in await admin.fetch(
            "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", db.name
        ):
            await admin.fetchval("SELECT pg_terminate_backend($1)", row["pid"])
    finally:
        await admin.close()
