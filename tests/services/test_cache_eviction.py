"""The table cache is bounded by count and by idle time, and a table that left it comes back from the database equal
to the record that left (services/table_cache.TableCache), on this run's database; a record's memory does not grow
with the game's history (its recent events stay within EVENT_WINDOW versions)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import fields
from typing import Any

import pytest

from app.clock import Clock, FakeClock
from app.config import Settings
from app.db.models import User
from app.main import run_migrations
from app.runtime import Runtime
from app.services import lobby as tables
from app.services.record import EVENT_WINDOW, TableRecord
from app.services.table_cache import TableCache
from tests.conftest import SECRET, Database

pytestmark = pytest.mark.usefixtures("tiny_game")


MakeRuntime = Callable[..., Awaitable[Runtime]]


@pytest.fixture
async def make_rt(fresh_db: Database) -> AsyncIterator[MakeRuntime]:
    """A runtime on this test's database with two people, its cache set by the given settings."""
    made: list[Runtime] = []

    async def make(clock: Clock | None = None, **cache: Any) -> Runtime:
        settings = Settings(database_url=fresh_db.url, secret_key=SECRET, bot_delay=0, **cache)
        await asyncio.to_thread(run_migrations, settings.effective_database_url)
        runtime = Runtime(settings, clock=clock)
        made.append(runtime)
        await runtime.writer.start()
        async with runtime.sessions() as session:
            for name in ("ana", "bo"):
                session.add(User(id=name, name=name.title(), username=name, password_hash="x"))
            await session.commit()
        return runtime

    try:
        yield make
    finally:
        for runtime in made:
            await runtime.stop()


@pytest.fixture
async def rt(make_rt: MakeRuntime) -> Runtime:
    return await make_rt()


async def _started(rt: Runtime) -> str:
    """A running two-seat tiny table (a long game: no move ends it here)."""
    async with rt.reads() as session:
        ana, bo = await session.get(User, "ana"), await session.get(User, "bo")
    assert ana is not None and bo is not None
    async with rt.sessions() as session:
        rec = await rt.lobby.create_table(session, ana, "tiny", 2, {"target": 10_000}, "public", None)
    await rt.lobby.change(rec.id, bo, None, lambda s, r: tables.join(s, r, bo, None, None))
    await rt.lobby.change(rec.id, ana, None, lambda s, r: tables.start(s, r, ana))
    return rec.id


async def _play(rt: Runtime, table_id: str, moves: int) -> None:
    for _ in range(moves):
        rec = await rt.tables.record_at_least(table_id, 0)
        seat = rec.awaiting[0]
        await rt.play.apply_action(table_id, seat, rec.actions_for(seat)[0])


# What a record read from the database cannot know: the events of versions before its last lobby change (a room
# behind asks for a snapshot instead), and the lists derived on demand.
NOT_STORED = {"recent_events", "_actions", "_draft_states", "_seat_by_user", "_bots"}


def _stored_fields(rec: TableRecord) -> dict[str, object]:
    return {f.name: getattr(rec, f.name) for f in fields(rec) if f.name not in NOT_STORED}


async def test_a_table_pushed_out_of_the_cache_comes_back_from_the_database_unchanged(make_rt: MakeRuntime) -> None:
    rt = await make_rt(table_cache_size=1)
    first = await _started(rt)
    await _play(rt, first, 5)
    evicted = rt.cache.get(first)
    assert evicted is not None and evicted.move_count == 5
    second = await _started(rt)  # the only place goes to it
    await _play(rt, second, 2)
    assert rt.cache.get(first) is None and len(rt.cache) == 1
    back = await rt.tables.record_at_least(first, 0)
    assert back is not evicted
    assert _stored_fields(back) == _stored_fields(evicted)
    assert back.actions_for(back.awaiting[0]) == evicted.actions_for(evicted.awaiting[0])
    await _play(rt, first, 1)  # and play goes on from it
    assert (await rt.tables.record_at_least(first, 0)).move_count == 6


async def test_a_table_idle_too_long_leaves_the_cache_and_comes_back_unchanged(make_rt: MakeRuntime) -> None:
    clock = FakeClock()
    rt = await make_rt(clock, table_cache_size=100, table_cache_idle_seconds=60)
    idle, busy = await _started(rt), await _started(rt)
    await _play(rt, idle, 3)
    left = rt.cache.get(idle)
    assert left is not None
    clock.advance(59)
    await _play(rt, busy, 1)
    assert rt.cache.get(idle) is left  # not yet idle for 60 s: kept, and its use counts
    clock.advance(61)
    await _play(rt, busy, 1)  # any use of the cache lets the idle ones go
    assert rt.cache.get(idle) is None and rt.cache.get(busy) is not None
    back = await rt.tables.record_at_least(idle, 0)
    assert _stored_fields(back) == _stored_fields(left)


async def test_a_records_recent_events_stay_within_the_window_however_long_the_game(rt: Runtime) -> None:
    table_id = await _started(rt)
    await _play(rt, table_id, EVENT_WINDOW + 20)
    rec = rt.cache.get(table_id)
    assert rec is not None and rec.move_count == EVENT_WINDOW + 20
    assert len(rec.recent_events) <= EVENT_WINDOW
    assert min(rec.recent_events) > rec.version - EVENT_WINDOW
    assert list(rec.recent_events) == sorted(rec.recent_events)
    # A record read afresh, merged with the cached one, keeps no event older than the window either.
    rt.cache.put(await rt.tables.reload(table_id))
    merged = rt.cache.get(table_id)
    assert merged is not None and min(merged.recent_events) > merged.version - EVENT_WINDOW


async def test_a_cached_record_keeps_the_events_of_its_last_versions_only(make_rt: MakeRuntime) -> None:
    rt = await make_rt(table_cache_events=4)
    table_id = await _started(rt)
    await _play(rt, table_id, 10)
    rec = rt.cache.get(table_id)
    assert rec is not None
    assert list(rec.recent_events) == list(range(rec.version - 3, rec.version + 1))
    await _play(rt, table_id, 1)  # a socket one version behind still gets the events it missed
    newer = rt.cache.get(table_id)
    assert newer is not None and newer.recent_events[rec.version + 1]


def test_the_cache_holds_at_most_its_capacity_and_forgets_the_least_recently_used() -> None:
    from tests.services.test_loading import record

    cache = TableCache(capacity=3)
    recs = [record() for _ in range(5)]
    for k, rec in enumerate(recs):
        rec.id = f"{k:016x}"
    for rec in recs[:3]:
        cache.put(rec)
    cache.get(recs[0].id)  # used again: the second is now the least recent
    cache.put(recs[3])
    assert [cache.get(r.id) is not None for r in recs[:4]] == [True, False, True, True]
    cache.put(recs[4])
    assert len(cache) == 3 and cache.get(recs[0].id) is None  # the checks above used 2 and 3 after it
