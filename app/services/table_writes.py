"""How a use case changes a table: under the table's lock, on its record, with the other processes told in the
transaction and everything that follows (cache, sockets, bots, rating, notices) told after the commit."""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.database import Database
from app.services.record import TableRecord
from app.services.table_cache import TableCache
from app.services.table_records import TableRecords


class InTransaction(Protocol):
    """Tells the other processes, in the transaction that commits it, that the table reached `version` (the
    broker: one NOTIFY with the commit on Postgres)."""

    async def __call__(self, session: AsyncSession, table_id: str, version: int, /) -> None: ...


class TableWrites:
    """The tables' locks, records and change notices, shared by every use case that changes a table."""

    def __init__(
        self,
        *,
        database: Database,
        records: TableRecords,
        cache: TableCache,
        notify_in_tx: InTransaction,
        after_change: Callable[[TableRecord], Awaitable[None]],
    ) -> None:
        self.database = database
        self.records = records
        self.cache = cache
        self._notify_in_tx = notify_in_tx
        self._after_change = after_change  # services/fan_out.ChangeFanOut.after_change
        # Versions this process is writing now: the broker's echo of our own write is not news (remote_changes).
        self.writing: dict[str, int] = {}
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock(self, table_id: str) -> asyncio.Lock:
        """The lock serialising this process's writes to one table (on SQLite, the one lock of all writes).

        Kept only while in use: a table nobody writes to costs no lock."""
        if self.database.write_lock is not None:
            return self.database.write_lock
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    @contextlib.asynccontextmanager
    async def write(self, table_id: str) -> AsyncIterator[AsyncSession]:
        """A session to change the table in, holding its lock."""
        async with self.lock(table_id), self.database.sessions() as session:
            yield session

    async def record(self, session: AsyncSession, table_id: str) -> TableRecord:
        return await self.records.record(session, table_id)

    async def record_fresh(self, session: AsyncSession, table_id: str) -> TableRecord:
        return await self.records.record_fresh(session, table_id)

    async def reload(self, table_id: str) -> TableRecord:
        return await self.records.reload(table_id)

    async def record_at_least(self, table_id: str, version: int) -> TableRecord:
        return await self.records.record_at_least(table_id, version)

    @contextlib.contextmanager
    def own_write(self, table_id: str, version: int) -> Iterator[None]:
        """While this process commits `version` of a table and caches it with its events, the broker's echo of it
        is not news: acted on, it would publish a fresh read of that version, which lacks the change's events.
        (A move, on the hot path, sets `writing` by hand: Play._apply_once.)"""
        self.writing[table_id] = version
        try:
            yield
        finally:
            self.writing.pop(table_id, None)

    async def notify_in_tx(self, session: AsyncSession, table_id: str, version: int) -> None:
        await self._notify_in_tx(session, table_id, version)

    async def after_change(self, rec: TableRecord) -> None:
        """A committed change: the cache, the other processes, this process's sockets and bots, then in the
        background its rating and notices."""
        await self._after_change(rec)
