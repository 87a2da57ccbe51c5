"""The table records through the cache (services/table_records.TableRecords), built from a real cache and this
run's database: loaded on a miss, kept while known, read afresh or brought up to a version when asked."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import GameTable, User
from app.db.session import make_engine, make_sessionmaker
from app.main import run_migrations
from app.services.table_cache import TableCache
from app.services.table_records import TableRecords
from tests.conftest import SECRET, Database

TABLE = "a" * 16


@dataclass
class World:
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    reads: async_sessionmaker[AsyncSession]

    def records(self, *, shared: bool = False, moves_query: Any = None) -> TableRecords:
        return TableRecords(
            cache=TableCache(), reads=self.reads, shared=shared, engine=self.engine, moves_query=moves_query
        )

    async def store(self, **values: Any) -> None:
        """Change the table's row as another process would, behind the cache's back."""
        async with self.sessions() as session:
            await session.execute(update(GameTable).where(GameTable.id == TABLE).values(**values))
            await session.commit()


@pytest.fixture
async def world(fresh_db: Database) -> AsyncIterator[World]:
    settings = Settings(database_url=fresh_db.url, secret_key=SECRET)
    await asyncio.to_thread(run_migrations, settings.effective_database_url)
    engine = make_engine(settings)
    sessions = make_sessionmaker(engine)
    async with sessions() as session:
        session.add(User(id="ana", name="Ana", username="ana", password_hash="x"))
        await session.flush()
        session.add(GameTable(
            id=TABLE, game="tiny", name="first", host_id="ana", visibility="public", status="open", seat_count=2,
            options={}, seed=7, seed_commitment="c", version=1,
        ))
        await session.commit()
    try:
        yield World(engine, sessions, make_sessionmaker(engine, autocommit=True))
    finally:
        await engine.dispose()


async def test_a_record_is_loaded_on_a_miss_then_served_from_the_cache(world: World) -> None:
    records = world.records()
    async with world.reads() as session:
        first = await records.record(session, TABLE)
        await world.store(name="renamed", version=2)
        again = await records.record(session, TABLE)
    assert first.name == "first" and first.host_name == "Ana"
    assert again is first and records.cache.get(TABLE) is first


async def test_a_reload_reads_the_table_afresh_and_caches_it(world: World) -> None:
    records = world.records()
    cached = await records.record_at_least(TABLE, 0)
    await world.store(name="renamed", version=2)
    fresh = await records.reload(TABLE)
    assert (fresh.name, fresh.version) == ("renamed", 2)
    assert records.cache.get(TABLE) is fresh and fresh is not cached


async def test_record_at_least_reads_again_only_a_table_known_older_than_asked(world: World) -> None:
    records = world.records()
    cached = await records.record_at_least(TABLE, 1)
    await world.store(name="renamed", version=2)
    assert await records.record_at_least(TABLE, 1) is cached
    newer = await records.record_at_least(TABLE, 2)
    assert (newer.name, newer.version) == ("renamed", 2)


@pytest.mark.parametrize("shared", [False, True])
async def test_a_fresh_record_looks_at_the_database_only_when_other_processes_write(
    world: World, shared: bool
) -> None:
    records = world.records(shared=shared)
    async with world.reads() as session:
        cached = await records.record(session, TABLE)
        await world.store(name="renamed", version=2)
        fresh = await records.record_fresh(session, TABLE)
    if shared:
        assert (fresh.name, fresh.version) == ("renamed", 2)
    else:
        assert fresh is cached  # one process writes: what it knows is the newest


async def test_the_moves_after_are_asked_of_the_query_on_a_driver_connection(world: World) -> None:
    asked: list[tuple[Any, dict[str, int]]] = []

    async def moves_query(conn: Any, known: dict[str, int]) -> dict[str, list[Any]]:
        asked.append((conn, known))
        return {table_id: [] for table_id in known}

    records = world.records(moves_query=moves_query)
    assert await records.moves_after({TABLE: 3}) == {TABLE: []}
    [(conn, known)] = asked
    assert known == {TABLE: 3} and conn is not None
