"""Rate limits counted where every process sees them: the `rate_counters` table on Postgres (several keys of one
attempt in one statement), memory on SQLite. Both refuse at the same count."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import pytest
from limits import parse
from limits.aio.strategies import FixedWindowRateLimiter

from app.config import Settings
from app.services.errors import ServiceError
from app.services.ratelimits import DatabaseStorage, RateLimits, make_rate_limits
from tests.conftest import IS_POSTGRES, SECRET
from tests.services.conftest import World


@contextlib.asynccontextmanager
async def _no_lock() -> AsyncIterator[None]:
    yield


def _limits(world: World, tables: str = "3/hour", invites: int = 2) -> RateLimits:
    settings = Settings(database_url=str(world.engine.url), secret_key=SECRET, limit_tables=tables,
                        invite_failures_per_minute=invites)
    return make_rate_limits(settings, world.reads, _no_lock)


async def test_hits_are_refused_past_the_allowance_of_any_key(world: World) -> None:
    limits = _limits(world)
    for _ in range(3):
        await limits.hit(limits.tables, "ip:1", "u:ana")
    with pytest.raises(ServiceError) as refused:
        await limits.hit(limits.tables, "ip:2", "u:ana")  # a fresh address, the same person
    assert refused.value.status == 429 and refused.value.code == "too_many_requests"
    assert refused.value.retry_after is not None and 1 <= refused.value.retry_after <= 3600
    await limits.hit(limits.tables, "ip:3", "u:bo")  # nobody else is held back


async def test_a_check_refuses_once_the_notes_reach_the_allowance(world: World) -> None:
    limits = _limits(world)
    await limits.check(limits.invite_failures, "ip:1", "u:ana")
    await limits.note(limits.invite_failures, "ip:1", "u:ana")
    await limits.check(limits.invite_failures, "ip:1", "u:ana")  # one of two used
    await limits.note(limits.invite_failures, "ip:9", "u:ana")
    with pytest.raises(ServiceError) as refused:
        await limits.check(limits.invite_failures, "ip:1", "u:ana")
    assert refused.value.code == "too_many_attempts"
    await limits.check(limits.invite_failures, "ip:1")  # the address alone has one left


@pytest.mark.skipif(not IS_POSTGRES, reason="the rate_counters table serves Postgres deployments")
async def test_many_keys_count_as_the_limiter_counts_each(world: World) -> None:
    storage = DatabaseStorage(world.reads, _no_lock)
    item = parse("5/minute")
    limiter = FixedWindowRateLimiter(storage)
    keys = [item.key_for("t", k) for k in ("ip:1", "u:" + "x" * 300, "u:b")]
    assert await storage.incr_many(keys, item.get_expiry()) == [1, 1, 1]
    assert await limiter.hit(item, "t", "ip:1")  # the library's own count, on the same rows
    assert await storage.incr_many(list(reversed(keys)), item.get_expiry()) == [2, 2, 3]
    assert await storage.counts([*keys, item.key_for("t", "nobody")]) == [3, 2, 2, 0]
    assert await limiter.test(item, "t", "u:b") and await storage.get_expiry(keys[0]) > 0


async def test_an_attempt_counts_once_whether_its_work_commits_or_fails(world: World) -> None:
    """On Postgres the count rides in the work's transaction: the rollback of failed work undoes it, and the attempt is
    counted again by itself; in memory it is counted once as it is made. Either way each attempt counts once."""
    limits = _limits(world, tables="3/hour")
    async with world.sessions() as session, limits.attempt(limits.tables, "ip:1", "u:ana", session=session):
        await session.commit()
    with pytest.raises(ServiceError, match="no table for you"):
        async with world.sessions() as session, limits.attempt(limits.tables, "ip:1", "u:ana", session=session):
            raise ServiceError("bad_options", "no table for you", 422)
    async with world.sessions() as session, limits.attempt(limits.tables, "ip:1", session=session):
        await session.commit()
    with pytest.raises(ServiceError) as refused:  # the fourth attempt from the address
        async with world.sessions() as session, limits.attempt(limits.tables, "ip:1", "u:bo", session=session):
            pytest.fail("the work of a refused attempt is not done")
    assert refused.value.code == "too_many_requests"
    async with world.sessions() as session, limits.attempt(limits.tables, "ip:2", "u:ana", session=session):
        await session.commit()  # the person's third
