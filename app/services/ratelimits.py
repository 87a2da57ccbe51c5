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
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage, Storage
from limits.aio.strategies import FixedWindowRateLimiter
from limits.storage import storage_from_string
from sqlalchemy import delete, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import RateCounter
from app.services.errors import ServiceError

# Every key of one attempt counted in one statement; `unnest` keeps the statement's text the same for any number of
# keys, so it is prepared once.
_INCR = text(
    "INSERT INTO rate_counters (key, count, expires_at) "
    "SELECT k, :amount, :expires FROM unnest(CAST(:keys AS text[])) AS k "
    "ON CONFLICT (key) DO UPDATE SET "
    "count = CASE WHEN rate_counters.expires_at <= :now THEN :amount ELSE rate_counters.count + :amount END, "
    "expires_at = CASE WHEN rate_counters.expires_at <= :now THEN :expires ELSE rate_counters.expires_at END "
    "RETURNING key, count"
)
_COUNTS = text("SELECT key, count, expires_at FROM rate_counters WHERE key = ANY(CAST(:keys AS text[]))")


KEY_LENGTH = 200  # rate_counters.key
_SURROGATE = re.compile("[\ud800-\udfff]")  # half of a UTF-16 pair, which no text column holds alone


def stored_key(key: str) -> str:
    """The key as the table holds it. Keys are made from names someone typed: one too long for the column, or with a
    character the database cannot hold as text (a NUL, a lone surrogate), keeps its start, for reading, with those
    characters replaced, and a hash of the whole, for telling keys apart."""
    plain = "\x00" not in key and not _SURROGATE.search(key)
    if plain and len(key) <= KEY_LENGTH:
        return key
    start = _SURROGATE.sub("?", key[:KEY_LENGTH - 65].replace("\x00", "?"))
    return f"{start}#{hashlib.sha256(key.encode('utf-8', 'surrogatepass')).hexdigest()}"


class DatabaseStorage(Storage):
    """A `limits` storage on the `rate_counters` table (migration 0016): one row a key, its count and when its window
    ends. Expired rows are deleted now and then as counts are taken.

    Its sessions are autocommit ones: each count is one statement, atomic by itself, so it needs no BEGIN and COMMIT
    round trips. `incr_many` and `counts` serve `RateLimits`, which counts an attempt against the client's address and
    person at once."""

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
        return (await self.incr_many([key], expiry, amount))[0]

    async def incr_many(
        self, keys: list[str], expiry: int, amount: int = 1, session: AsyncSession | None = None
    ) -> list[int]:
        """Count `amount` against each of these distinct keys in one statement; their counts, in order. In `session`'s
        transaction when given (the count holds only if it commits), else in one of the storage's."""
        now = time.time()
        # Rows are locked in one order whatever the caller's, so two attempts sharing keys cannot deadlock.
        stored = sorted({stored_key(k) for k in keys})
        async with contextlib.AsyncExitStack() as stack:
            if session is None:
                await stack.enter_async_context(self._single_writer())
                session = await stack.enter_async_context(self._sessions())
            if next(self._counted) % 500 == 0:
                await session.execute(delete(RateCounter).where(RateCounter.expires_at <= now))
            rows = (await session.execute(
                _INCR, {"keys": stored, "amount": amount, "expires": now + expiry, "now": now}
            )).all()
        counts = {key: int(count) for key, count in rows}
        return [counts[stored_key(k)] for k in keys]

    async def _rows(self, keys: list[str], session: AsyncSession | None = None) -> dict[str, tuple[int, float]]:
        """The live (count, window end) of those of these keys that have one, by key as given; read in `session` when
        given (the request's own, saving a connection's checkout), else in one of the storage's."""
        params = {"keys": sorted({stored_key(k) for k in keys})}
        if session is not None:
            rows = (await session.execute(_COUNTS, params)).all()
        else:
            async with self._sessions() as own:
                rows = (await own.execute(_COUNTS, params)).all()
        now = time.time()
        found = {key: (int(count), float(expires)) for key, count, expires in rows if expires > now}
        return {k: found[stored_key(k)] for k in keys if stored_key(k) in found}

    async def counts(self, keys: list[str], session: AsyncSession | None = None) -> list[int]:
        """The counts of these keys in their current windows (0 for none), in one statement (in `session` if given)."""
        rows = await self._rows(keys, session)
        return [rows[k][0] if k in rows else 0 for k in keys]

    async def get(self, key: str) -> int:
        return (await self.counts([key]))[0]

    async def get_expiry(self, key: str) -> float:
        row = (await self._rows([key])).get(key)
        return row[1] if row else time.time()

    async def check(self) -> bool:
        return True

    async def reset(self) -> int | None:
        async with self._single_writer(), self._sessions() as session:
            result = await session.execute(delete(RateCounter))
        return int(getattr(result, "rowcount", 0) or 0)

    async def clear(self, key: str) -> None:
        async with self._single_writer(), self._sessions() as session:
            await session.execute(delete(RateCounter).where(RateCounter.key == stored_key(key)))


@dataclass(frozen=True)
class Rule:
    """One limit: its name (the counters' prefix), how many in how long, and what the refusal says."""

    name: str
    item: RateLimitItem
    message: str


class RateLimits:
    """The limits of one deployment, counted in its shared storage."""

    def __init__(self, storage: Storage, settings: Settings) -> None:
        self._storage = storage
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

    async def check(self, rule: Rule, *keys: str, session: AsyncSession | None = None) -> None:
        """Refuse if any of these keys (a client address, an account) has used up the rule's allowance. Counts kept in
        the database are read in `session` when given (any transaction sees every count committed)."""
        if isinstance(self._storage, DatabaseStorage):
            counts = await self._storage.counts([rule.item.key_for(rule.name, k) for k in keys], session)
            if any(count >= rule.item.amount for count in counts):  # the limiter's `test` at a cost of 1
                raise await self._refusal(rule, keys)
            return
        for key in keys:
            if not await self._limiter.test(rule.item, rule.name, key):
                raise await self._refusal(rule, keys)

    def _in_database(self, keys: tuple[str, ...]) -> bool:
        """Whether these keys are counted in one statement on the database (which a session's transaction can hold)."""
        return isinstance(self._storage, DatabaseStorage) and len(set(keys)) == len(keys)

    async def _count(self, rule: Rule, keys: tuple[str, ...], session: AsyncSession | None = None) -> list[bool]:
        """Count one against each key (in `session`'s transaction where the counts are in the database); whether each
        is still within the allowance."""
        if self._in_database(keys):
            assert isinstance(self._storage, DatabaseStorage)
            counts = await self._storage.incr_many([rule.item.key_for(rule.name, k) for k in keys],
                                                   rule.item.get_expiry(), session=session)
            return [count <= rule.item.amount for count in counts]  # the limiter's `hit` at a cost of 1
        return [await self._limiter.hit(rule.item, rule.name, key) for key in keys]

    async def hit(self, rule: Rule, *keys: str) -> None:
        """Count one against each key; refuse if that went past the allowance of any."""
        if not all(await self._count(rule, keys)):
            raise await self._refusal(rule, keys)

    @contextlib.asynccontextmanager
    async def attempt(self, rule: Rule, *keys: str, session: AsyncSession) -> AsyncIterator[None]:
        """`hit`, around work done in `session`'s transaction. Where the counts are in the database, the count rides in
        that transaction, which saves it a connection of its own; should the work fail, the transaction is rolled
        back, count and all, and the attempt counted by itself: an attempt refused for another reason counts as one
        that succeeds."""
        in_transaction = self._in_database(keys)
        if not all(await self._count(rule, keys, session)):
            raise await self._refusal(rule, keys)
        try:
            yield
        except Exception:
            if in_transaction:
                # The rollback first: until then the transaction holds the counters' rows the count below updates.
                # Should either fail, the work's own error is the one raised.
                with contextlib.suppress(Exception):
                    await session.rollback()
                    await self.note(rule, *keys)
            raise

    async def note(self, rule: Rule, *keys: str) -> None:
        """Count one failure against each key (it is the next attempt that is refused)."""
        await self._count(rule, keys)


def make_rate_limits(
    settings: Settings,
    sessions: async_sessionmaker[AsyncSession],
    single_writer: Callable[[], contextlib.AbstractAsyncContextManager[Any]],
) -> RateLimits:
    """`sessions` are autocommit ones (`DatabaseStorage`). Counted in Redis when the deployment's broker is Redis, else in Postgres, or in memory on SQLite (one process)."""
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

