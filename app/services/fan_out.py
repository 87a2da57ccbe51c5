"""What follows a committed change of a table: the cache keeps it, the other processes hear of it, the bots are
poked and this process's sockets get it; in the background, a finished game is rated and the people it concerns are
notified."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from app.services.record import TableRecord, TableStatus
from app.services.table_cache import TableCache

log = logging.getLogger("app.fan_out")


class Announcer(Protocol):
    """Tells the other processes the table changed (the broker)."""

    async def after_commit(self, table_id: str, version: int) -> None: ...


class Bots(Protocol):
    """The bots of this process (services/bots.BotRunner)."""

    def poke(self, rec: TableRecord) -> None:
        """Start driving the table's bots if one of them is awaited."""


class Sockets(Protocol):
    """This process's sockets of the table (the hub)."""

    def publish_now(self, rec: TableRecord) -> bool:
        """Send the sockets `rec` at once if everything needed is at hand; False when it must go the long way."""

    async def publish(self, table_id: str, version: int) -> None:
        """Send the sockets the newest version, at least `version`."""


class ChangeFanOut:
    """Tells everything that follows a committed change of it, the slow parts in the background."""

    def __init__(
        self,
        *,
        cache: TableCache,
        announcer: Announcer,
        bots: Bots,
        sockets: Sockets,
        settle_rating: Callable[[str], Awaitable[object]],
        may_notify: Callable[[TableRecord], bool],
        notify: Callable[[TableRecord], Awaitable[object]],
        spawn: Callable[[Coroutine[Any, Any, Any]], asyncio.Task[Any]],
    ) -> None:
        self.cache = cache
        self.announcer = announcer
        self.bots = bots
        self.sockets = sockets
        self.settle_rating = settle_rating  # rate a finished table's game, once (Ratings.settle)
        # Whether the change may make a mail or a push (Notifications.concerns): only then is `notify` spawned, which
        # makes them (Notifications.after_change).
        self.may_notify = may_notify
        self.notify = notify
        self.spawn = spawn  # run in the background, cancelled when the process stops

    async def after_change(self, rec: TableRecord) -> None:
        """A committed change: tell other processes, this process's sockets, and the bots."""
        self.cache.put(rec)
        try:
            await self.announcer.after_commit(rec.id, rec.version)
        finally:
            self.bots.poke(rec)
            try:
                published = self.sockets.publish_now(rec)
            except Exception:  # noqa: BLE001 - the change is durable; its publication is tried again
                log.exception("publish failed", extra={"table_id": rec.id})
                published = False
            if not published:
                self.spawn(self.sockets.publish(rec.id, rec.version))
            if rec.status == TableStatus.FINISHED and rec.rated is None:
                # Once per game, after its end is published: the final move waits for none of it.
                self.spawn(self._settle_rating(rec.id))
            if self.may_notify(rec):
                self.spawn(self._notify(rec))

    async def _notify(self, rec: TableRecord) -> None:
        try:
            await self.notify(rec)
        except Exception:  # noqa: BLE001 - a notice lost is a mail not sent, never a change undone
            log.exception("notification failed", extra={"table_id": rec.id})

    async def _settle_rating(self, table_id: str) -> None:
        try:
            await self.settle_rating(table_id)
        except Exception:  # noqa: BLE001 - the sweep tries again
            log.exception("rating failed", extra={"table_id": table_id})
