"""A table's record as this process should see it: from the cache, loaded on a miss, brought up to a version another
process wrote, or read afresh; and the moves of many tables after the counts known here, in one query."""

from __future__ import annotations

from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.services.loading import catch_up, load_record, stored_version
from app.services.record import TableRecord, TableStatus
from app.services.table_cache import TableCache


class MovesQuery(Protocol):
    """The moves of each table after its known move count, on a driver connection (loading.moves_after)."""

    async def __call__(self, conn: Any, known: dict[str, int], /) -> dict[str, list[Any]]: ...


class TableRecords:
    """The records of the tables, through the cache."""

    def __init__(
        self,
        *,
        cache: TableCache,
        reads: async_sessionmaker[AsyncSession],
        shared: bool,
        engine: AsyncEngine,
        moves_query: MovesQuery,
    ) -> None:
        self.cache = cache
        self.reads = reads  # autocommit sessions for reads alone
        # Whether other processes write the same tables (a broker between processes): a cached record may then be
        # behind the database.
        self.shared = shared
        self.engine = engine
        self.moves_query = moves_query

    async def record(self, session: AsyncSession, table_id: str) -> TableRecord:
        """The table as this process knows it, loaded on a miss."""
        rec = self.cache.get(table_id)
        if rec is None:
            rec = self.cache.put(await load_record(session, table_id))
        return rec  # load_record refuses malformed ids before any SQL

    async def record_fresh(self, session: AsyncSession, table_id: str) -> TableRecord:
        """The table with every change committed before this read, though another process made it.

        A request may reach another process than the one that answered a change, before its notice does."""
        rec = self.cache.get(table_id)
        if rec is None or not self.shared:
            return await self.record(session, table_id)
        stored = await stored_version(session, table_id)
        if stored is not None and stored > rec.version:
            return await self.record_at_least(table_id, stored)
        return rec

    async def reload(self, table_id: str) -> TableRecord:
        """Read the table afresh from the database."""
        async with self.reads() as session:
            return self.cache.put(await load_record(session, table_id))

    async def record_at_least(self, table_id: str, version: int) -> TableRecord:
        """The table at `version` or newer: the cached one, brought forward by the moves made elsewhere."""
        rec = self.cache.get(table_id)
        if rec is not None and rec.version >= version:
            return rec
        if rec is not None and rec.status == TableStatus.PLAYING and rec.state is not None:
            async with self.reads() as session:
                newer = await catch_up(session, rec)
            if newer is not None:
                return self.cache.put(newer)
        return await self.reload(table_id)

    async def moves_after(self, known: dict[str, int]) -> dict[str, list[Any]]:
        """The moves of these tables after their known move counts, in one query (Postgres)."""
        async with self.engine.connect() as conn:
            raw = await conn.get_raw_connection()
            return await self.moves_query(raw.driver_connection, known)
