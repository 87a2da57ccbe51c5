"""Without a broker between processes, a look in the database finds the cached tables another process moved
(services/outside_changes.OutsideChanges), on a real cache and this run's database."""

from __future__ import annotations

import asyncio

import pytest

from app.services.loading import load_record
from app.services.outside_changes import OutsideChanges
from app.services.table_cache import TableCache
from tests.services.conftest import TABLE, World


class Noted:
    """The callbacks' side: sessions rechecked, changes taken up."""

    def __init__(self) -> None:
        self.rechecks = 0
        self.changes: list[tuple[str, int]] = []

    async def recheck_sessions(self) -> None:
        self.rechecks += 1

    def on_change(self, table_id: str, version: int) -> None:
        self.changes.append((table_id, version))


def outside(world: World, cache: TableCache, noted: Noted) -> OutsideChanges:
    return OutsideChanges(
        cache=cache, reads=world.reads, recheck_sessions=noted.recheck_sessions, on_change=noted.on_change,
        sleep=asyncio.sleep,
    )


async def cached(world: World) -> TableCache:
    cache = TableCache()
    async with world.reads() as session:
        cache.put(await load_record(session, TABLE))
    return cache


async def test_a_cached_table_moved_elsewhere_is_taken_up_and_the_sessions_rechecked(world: World) -> None:
    noted = Noted()
    looker = outside(world, await cached(world), noted)
    await looker.look()
    assert noted.rechecks == 1 and noted.changes == []  # nothing moved yet
    await world.store(version=3)
    await looker.look()
    assert noted.rechecks == 2 and noted.changes == [(TABLE, 3)]


async def test_a_failed_look_is_logged_and_tried_again_next_round(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    noted, cache = Noted(), await cached(world)
    await world.store(version=2)
    looker = outside(world, cache, noted)
    looker.reads = broken_reads
    await looker.look()
    assert "outside change check failed" in caplog.text and noted.changes == []
    looker.reads = world.reads
    await looker.look()
    assert noted.changes == [(TABLE, 2)]


def broken_reads() -> object:
    raise ConnectionError("the database is away")


async def test_it_looks_every_so_often_until_cancelled(world: World) -> None:
    noted, waits = Noted(), []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) == 3:
            raise asyncio.CancelledError

    looker = OutsideChanges(
        cache=TableCache(), reads=world.reads, recheck_sessions=noted.recheck_sessions, on_change=noted.on_change,
        sleep=sleep,
    )
    with pytest.raises(asyncio.CancelledError):
        await looker.run(10.0)
    assert waits == [10.0, 10.0, 10.0] and noted.rechecks == 2
