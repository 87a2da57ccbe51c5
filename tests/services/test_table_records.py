"""The table records through the cache (services/table_records.TableRecords), built from a real cache and this
run's database: loaded on a miss, kept while known, read afresh or brought up to a version when asked."""

from __future__ import annotations

from typing import Any

import pytest

from app.services.table_cache import TableCache
from app.services.table_records import TableRecords
from tests.services.conftest import TABLE, World


def records_of(world: World, *, shared: bool = False, moves_query: Any = None) -> TableRecords:
    return TableRecords(
        cache=TableCache(), reads=world.reads, shared=shared, engine=world.engine, moves_query=moves_query
    )


async def test_a_record_is_loaded_on_a_miss_then_served_from_the_cache(world: World) -> None:
    records = records_of(world)
    async with world.reads() as session:
        first = await records.record(session, TABLE)
        await world.store(name="renamed", version=2)
        again = await records.record(session, TABLE)
    assert first.name == "first" and first.host_name == "Ana"
    assert again is first and records.cache.get(TABLE) is first


async def test_a_reload_reads_the_table_afresh_and_caches_it(world: World) -> None:
    records = records_of(world)
    cached = await records.record_at_least(TABLE, 0)
    await world.store(name="renamed", version=2)
    fresh = await records.reload(TABLE)
    assert (fresh.name, fresh.version) == ("renamed", 2)
    assert records.cache.get(TABLE) is fresh and fresh is not cached


async def test_record_at_least_reads_again_only_a_table_known_older_than_asked(world: World) -> None:
    records = records_of(world)
    cached = await records.record_at_least(TABLE, 1)
    await world.store(name="renamed", version=2)
    assert await records.record_at_least(TABLE, 1) is cached
    newer = await records.record_at_least(TABLE, 2)
    assert (newer.name, newer.version) == ("renamed", 2)


@pytest.mark.parametrize("shared", [False, True])
async def test_a_fresh_record_looks_at_the_database_only_when_other_processes_write(
    world: World, shared: bool
) -> None:
    records = records_of(world, shared=shared)
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

    records = records_of(world, moves_query=moves_query)
    assert await records.moves_after({TABLE: 3}) == {TABLE: []}
    [(conn, known)] = asked
    assert known == {TABLE: 3} and conn is not None
