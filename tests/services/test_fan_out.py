"""What follows a committed change (services/fan_out.ChangeFanOut), on a real cache with fakes of the broker, the
bots and the sockets: each is told, in order, and what fails is logged without undoing the rest."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from dataclasses import replace
from typing import Any

import pytest

from app.services.fan_out import ChangeFanOut
from app.services.record import TableRecord, TableStatus
from app.services.table_cache import TableCache
from tests.services.test_loading import record


class World:
    """The fakes, noting what they are told in one list; `fail` names the ones that raise."""

    def __init__(self, *, publish_now: bool = True, fail: frozenset[str] = frozenset(), notify: bool = False) -> None:
        self.told: list[tuple[Any, ...]] = []
        self.publish_now_answer = publish_now
        self.fail = fail
        self.notifies = notify
        self.tasks: list[asyncio.Task[Any]] = []
        self.cache = TableCache()

    def _note(self, *call: Any) -> None:
        self.told.append(call)
        if call[0] in self.fail:
            raise RuntimeError(f"{call[0]} failed")

    async def after_commit(self, table_id: str, version: int) -> None:
        self._note("announce", table_id, version)

    def poke(self, rec: TableRecord) -> None:
        self._note("poke", rec.version)

    def publish_now(self, rec: TableRecord) -> bool:
        self._note("publish_now", rec.version)
        return self.publish_now_answer

    async def publish(self, table_id: str, version: int) -> None:
        self._note("publish", table_id, version)

    async def settle(self, table_id: str) -> None:
        self._note("settle", table_id)

    def may_notify(self, rec: TableRecord) -> bool:
        return self.notifies

    async def notify(self, rec: TableRecord) -> None:
        self._note("notify", rec.version)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.append(task)
        return task

    def fan_out(self) -> ChangeFanOut:
        return ChangeFanOut(
            cache=self.cache, announcer=self, bots=self, sockets=self, settle_rating=self.settle,
            may_notify=self.may_notify, notify=self.notify, spawn=self.spawn,
        )

    async def settled(self) -> None:
        await asyncio.gather(*self.tasks)


async def test_a_change_is_cached_announced_poked_and_published_at_once() -> None:
    world, rec = World(), record(version=4)
    await world.fan_out().after_change(rec)
    assert world.cache.get(rec.id) is rec
    assert world.told == [("announce", rec.id, 4), ("poke", 4), ("publish_now", 4)] and world.tasks == []


@pytest.mark.parametrize("fail", [frozenset(), frozenset({"publish_now"})])
async def test_a_change_not_published_at_once_is_published_in_the_background(
    fail: frozenset[str], caplog: pytest.LogCaptureFixture
) -> None:
    world, rec = World(publish_now=False, fail=fail), record(version=4)
    await world.fan_out().after_change(rec)
    await world.settled()
    assert world.told[-1] == ("publish", rec.id, 4)
    assert ("publish failed" in caplog.text) == bool(fail)


async def test_the_sockets_and_bots_hear_of_a_change_the_other_processes_could_not() -> None:
    world, rec = World(fail=frozenset({"announce"})), record(version=4)
    with pytest.raises(RuntimeError, match="announce failed"):
        await world.fan_out().after_change(rec)
    assert world.told == [("announce", rec.id, 4), ("poke", 4), ("publish_now", 4)]


async def test_a_finished_game_not_yet_rated_is_rated_in_the_background_once_published() -> None:
    world = World()
    finished = replace(record(version=9), status=TableStatus.FINISHED, rated=None)
    await world.fan_out().after_change(finished)
    await world.fan_out().after_change(replace(finished, rated=True))
    await world.settled()
    assert world.told.count(("settle", finished.id)) == 1
    assert world.told.index(("settle", finished.id)) > world.told.index(("publish_now", 9))


@pytest.mark.parametrize("fail", [frozenset(), frozenset({"notify", "settle"})])
async def test_notices_are_made_in_the_background_and_a_failure_only_logged(
    fail: frozenset[str], caplog: pytest.LogCaptureFixture
) -> None:
    world = World(notify=True, fail=fail)
    finished = replace(record(version=9), status=TableStatus.FINISHED, rated=None)
    await world.fan_out().after_change(finished)
    await world.settled()
    assert ("notify", 9) in world.told and ("settle", finished.id) in world.told
    assert ("notification failed" in caplog.text) == ("rating failed" in caplog.text) == bool(fail)
