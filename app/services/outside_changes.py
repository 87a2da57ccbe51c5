"""Without a broker between processes (SQLite), what another process changes (`foodgames admin ban` or
`close-table`, run beside the server) reaches this one only through the database: now and then, its sockets'
sessions are checked again and its cached tables' versions compared with the stored ones, and a table that moved is
taken up as a broker's notice of it."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.services.loading import stored_versions
from app.services.table_cache import TableCache

log = logging.getLogger("app.outside_changes")
BATCH = 500  # tables compared per read


class OutsideChanges:
    """Looks in the database for the changes no broker announced."""

    def __init__(
        self,
        *,
        cache: TableCache,
        reads: async_sessionmaker[AsyncSession],
        recheck_sessions: Callable[[], Awaitable[None]],
        on_change: Callable[[str, int], None],
        sleep: Callable[[float], Awaitable[None]],
    ) -> None:
        self.cache = cache
        self.reads = reads  # autocommit sessions for reads alone
        self.recheck_sessions = recheck_sessions  # this process's sockets closed whose session ended elsewhere
        self.on_change = on_change  # a table moved elsewhere, taken up as the broker's notice would be
        self.sleep = sleep

    async def run(self, every: float) -> None:
        """Look every `every` seconds, until cancelled."""
        while True:
            await self.sleep(every)
            await self.look()

    async def look(self) -> None:
        """One look: the sessions, then the cached tables' versions."""
        await self.recheck_sessions()
        try:
            cached = self.cache.versions()
            ids = sorted(cached)
            for start in range(0, len(ids), BATCH):
                async with self.reads() as session:
                    rows = await stored_versions(session, ids[start : start + BATCH])
                for table_id, version in rows:
                    if version > cached[table_id]:
                        self.on_change(table_id, version)
        except Exception:  # noqa: BLE001 - try again next round
            log.exception("outside change check failed")
