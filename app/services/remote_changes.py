"""Changes another process made, announced by the broker as `table_id:version`: the tables watched here are brought
forward (their new moves read in one query for all of them, replayed on the cached states) and published; the
others are only dropped from the cache, to be read again when someone asks."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from app.services.loading import advance
from app.services.record import TableRecord, TableStatus
from app.services.table_cache import TableCache

log = logging.getLogger("app.remote")


class Watched(Protocol):
    """This process's sockets, as far as a change elsewhere concerns them (the hub)."""

    def watched_at(self, table_id: str) -> int | None:
        """The version the table's sockets here were last sent; None when none watches it."""

    def publish_now(self, rec: TableRecord) -> bool:
        """Send the sockets `rec` at once if everything needed is at hand; False when it must go the long way."""


class RemoteChanges:
    """Takes up the broker's notices of changes, coalescing those that arrive together into one catch-up."""

    def __init__(
        self,
        *,
        cache: TableCache,
        writing: dict[str, int],
        watched: Watched,
        moves_after: Callable[[dict[str, int]], Awaitable[dict[str, list[Any]]]] | None,
        publish_later: Callable[[str, int], None],
        spawn: Callable[[Coroutine[Any, Any, Any]], asyncio.Task[Any]],
    ) -> None:
        self.cache = cache
        self.writing = writing  # versions this process is writing now: their echo is not news
        self.watched = watched
        self.moves_after = moves_after  # the moves after each table's count (Postgres); None: no such read
        self.publish_later = publish_later
        self.spawn = spawn
        # Changes announced, waiting for one catch-up read: table id -> newest version.
        self._pending: dict[str, int] = {}
        self._catching_up: asyncio.Task[None] | None = None

    def on_change(self, table_id: str, version: int) -> None:
        """A change announced by the broker (maybe from another process)."""
        if self.writing.get(table_id, -1) >= version:
            return  # our own write: its local publish follows
        last = self.watched.watched_at(table_id)
        if last is None:
            known = self.cache.known_version(table_id)
            if known is None or known < version:
                # Nobody watches it here: reload lazily, and never keep an older record after it. That holds
                # for a table not cached too: a read of it may be under way (a socket joining), begun before
                # this change committed, and its record must not be kept as the newest.
                self.cache.drop(table_id, newer=version)
            return
        if last < version:
            self._pending[table_id] = max(version, self._pending.get(table_id, 0))
            if self._catching_up is None:
                self._catching_up = self.spawn(self._catch_up_pending())

    async def _catch_up_pending(self) -> None:
        """Bring the watched tables that other processes moved up to date, then publish them."""
        try:
            await asyncio.sleep(0)  # the notices of this turn of the loop go together
            while self._pending:
                changes, self._pending = self._pending, {}
                await self.catch_up(changes)
        finally:
            self._catching_up = None

    async def catch_up(self, changes: dict[str, int]) -> None:
        """One read of the new moves of all these tables (replayed on the cached states); a table that
        cannot be brought forward so (not cached, or changed otherwise than by moves) goes the long way."""
        behind = {
            tid: rec for tid, version in changes.items()
            if (rec := self.cache.get(tid)) is not None and rec.version < version
            and rec.status == TableStatus.PLAYING and rec.state is not None
        }
        if behind and self.moves_after is not None:
            try:
                found = await self.moves_after({t: r.move_count for t, r in behind.items()})
                for tid, rec in behind.items():
                    new = advance(rec, found[tid])
                    if new is not None:
                        self.cache.put(new)
            except Exception:  # noqa: BLE001 - each table then catches up on its own
                log.exception("catch-up read failed")
        for tid, version in changes.items():
            rec = self.cache.get(tid)
            if rec is None or rec.version < version or not self.watched.publish_now(rec):
                self.publish_later(tid, version)
