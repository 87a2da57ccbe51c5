"""Limits on what one client may do in a while (sign-ins, new guests and accounts, new tables, invite guesses), kept
where every server process sees them: Redis when the deployment has one (BROKER_URL), else Postgres; SQLite is
served by one process, which keeps them in memory (no disk flush per counted attempt beside the moves' commits).

The counting is the `limits` library's (fixed windows, `RateLimitItem` parsed from settings such as "10/minute");
`DatabaseStorage` is its storage on our own database, so the limits hold across processes without Redis too.
A refusal is `too_many_requests` 429 with the seconds to wait (the API sends them as `Retry-After`)."""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage, Storage
from limits.aio.strategies import FixedWindowRateLimiter
from limits.storage import storage_from_string
from sqlalchemy import delete, select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import RateCounter
from app.services.errors import ServiceError

_INCR = text(
    "INSERT INTO rate_counters (key, count, expires_at) VALUES (:key, :amount, :expires) "
    "ON CONFLICT (key) DO UPDATE SET "
    "count = CASE WHEN rate_counters.expires_at <= :now THEN :amount ELSE rate_counters.count + :amount END, "
    "expires_at = CASE WHEN rate_counters.expires_at <= :now THEN :expires ELSE rate_counters.expires_at END "
    "RETURNING count"
)


KEY_LENGTH = 200  # rate_counters.key


def stored_key(key: str) -> str:
    """The key as the table holds it: a key too long for the column (one made from a long name someone typed) keeps
    its start, for reading, and a hash of the whole, for telling keys apart."""
    if len(key) <= KEY_LENGTH:
        return key
    return f"{key[:KEY_LENGTH - 65]}#{hashlib.sha256(key.encode()).hexdigest()}"


class DatabaseStorage(Storage):
    """A `limits` storage on the `rate_counters` table (migration 0016): one row a key, its count and when its window
    ends. Expired rows are deleted now and then as counts are taken."""

    STORAGE_SCHEME = None

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        single_writer: Callable[[], contextlib.AbstractAsyncContextManager[Any]],
    ) -> None:
        super().__init__()
        self._sessions = sessions
        self._single_writer = single_writer
        self._counted = itertools.count()

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return DBAPIError

    async def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        async with self._single_writer(), self._sessions() as session:
            if next(self._counted) % 500 == 0:
                await session.execute(delete(RateCounter).where(RateCounter.expires_at <= now))
            count = (await session.execute(
                _INCR, {"key": stored_key(key), "amount": amount, "expires": now + expiry, "now": now}
            )).scalar_one()
            await session.commit()
        return int(count)

    async def _row(self, key: str) -> tuple[int, float] | None:
        async with self._sessions() as session:
            row = (await session.execute(
                select(RateCounter.count, RateCounter.expires_at).where(RateCounter.key == stored_key(key))
            )).first()
        if row is None or row[1] <= time.time():
            return None
        return int(row[0]), float(row[1])

    async def get(self, key: str) -> int:
        row = await self._row(key)
        return row[0] if row else 0

    async def get_expiry(self, key: str) -> float:
        row = await self._row(key)
        return row[1] if row else time.time()

    async def check(self) -> bool:
        return True

    async def reset(self) -> int | None:
        async with self._single_writer(), self._sessions() as session:
            result = await session.execute(delete(RateCounter))
            await session.commit()
        return int(getattr(result, "rowcount", 0) or 0)

    async def clear(self, key: str) -> None:
        async with self._single_writer(), self._sessions() as session:
            await session.execute(delete(RateCounter).where(RateCounter.key == stored_key(key)))
            await session.commit()


@dataclass(frozen=True)
class Rule:
    """One limit: its name (the counters' prefix), how many in how long, and what the refusal says."""

    name: str
    item: RateLimitItem
    message: str


class RateLimits:
    """The limits of one deployment, counted in its shared storage."""

    def __init__(self, storage: Storage, settings: Settings) -> None:
        self._limiter = FixedWindowRateLimiter(storage)
        per_minute = f"{settings.invite_failures_per_minute}/minute"
        self.login_failures = Rule("login", parse(settings.limit_login_failures),
                                   "Too many wrong sign-ins; wait a while and try again.")
        self.registrations = Rule("register", parse(settings.limit_registrations),
                                  "Too many new accounts from here; wait a while.")
        self.guests = Rule("guest", parse(settings.limit_guests), "Too many new guests from here; wait a while.")
        self.tables = Rule("table", parse(settings.limit_tables), "Too many new tables; wait a while.")
        self.password_resets = Rule("reset", parse(settings.limit_password_resets),
                                    "Too many password resets asked for; wait a while.")
        self.invite_failures = Rule("invite", parse(per_minute), "Too many wrong invite codes; wait a minute.")

    async def _refusal(self, rule: Rule, keys: tuple[str, ...]) -> ServiceError:
        reset = max([(await self._limiter.get_window_stats(rule.item, rule.name, k)).reset_time for k in keys])
        wait = max(1, math.ceil(reset - time.time()))
        code = "too_many_attempts" if rule.name in ("invite", "login") else "too_many_requests"
        return ServiceError(code, rule.message, 429, retry_after=wait)

    async def check(self, rule: Rule, *keys: str) -> None:
        """Refuse if any of these keys (a client address, an account) has used up the rule's allowance."""
        for key in keys:
            if not await self._limiter.test(rule.item, rule.name, key):
                raise await self._refusal(rule, keys)

    async def hit(self, rule: Rule, *keys: str) -> None:
        """Count one against each key; refuse if that went past the allowance of any."""
        allowed = [await self._limiter.hit(rule.item, rule.name, key) for key in keys]
        if not all(allowed):
            raise await self._refusal(rule, keys)

    async def note(self, rule: Rule, *keys: str) -> None:
        """Count one failure against each key (it is the next attempt that is refused)."""
        for key in keys:
            await self._limiter.hit(rule.item, rule.name, key)


def make_rate_limits(
    settings: Settings,
    sessions: async_sessionmaker[AsyncSession],
    single_writer: Callable[[], contextlib.AbstractAsyncContextManager[Any]],
) -> RateLimits:
    """Counted in Redis when the deployment's broker is Redis, else in Postgres, or in memory on SQLite (one process)."""
    if settings.broker_url.startswith("redis"):
        prefix = f"{settings.effective_broker_namespace}:limits"
        found = storage_from_string(
            "async+" + settings.broker_url, key_prefix=prefix, implementation="redispy"  # the redis package we have
        )
        assert isinstance(found, Storage)  # an async+ scheme gives an async storage
        storage: Storage = found
    elif settings.is_postgres:
        storage = DatabaseStorage(sessions, single_writer)
    else:
        storage = MemoryStorage()
    return RateLimits(storage, settings)

