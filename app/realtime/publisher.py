"""The use cases' `Publisher` (app/services/ports.py) made of this process's hub, broker and presence."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.realtime.broker import Broker
from app.realtime.hub import Hub
from app.realtime.presence import Presence
from app.services.record import TableRecord
from app.services.table_cache import TableCache


@dataclass(frozen=True, kw_only=True, slots=True)
class RealtimePublisher:
    """Tells this process's sockets directly and the other processes through the broker."""

    hub: Hub
    broker: Broker
    presence: Presence | None
    cache: TableCache
    spawn: Callable[[Coroutine[Any, Any, Any]], asyncio.Task[Any]]

    async def notice_in_tx(self, session: AsyncSession, notice: str) -> None:
        await self.broker.side_in_tx(session, notice)

    async def notice_after_commit(self, notice: str) -> None:
        await self.broker.side_after_commit(notice)

    def chat_line(self, table_id: str, line: dict[str, Any]) -> None:
        self.hub.chat(table_id, line)

    def chat_removed(self, table_id: str, message_id: int) -> None:
        self.hub.chat_removed(table_id, message_id)

    def chat_mute(self, table_id: str, user: dict[str, Any], muted: bool, host_id: str) -> None:
        self.hub.chat_mute(table_id, user, muted, host_id)

    def sessions_ended(self, user_id: str, epoch: int) -> None:
        self.hub.end_sessions(user_id, epoch)

    def session_revoked(self, user_id: str, sid: str) -> None:
        self.hub.revoke_session(user_id, sid)

    def renamed(self, user_id: str, name: str) -> None:
        """The open and running tables that show the person are told by a lobby change; here, the watchers' list
        names them anew and the finished tables naming them are read again (those watched here at once, for their
        sockets)."""
        self.hub.rename(user_id, name)
        for table_id in self.cache.drop_finished_of(user_id):
            if table_id in self.hub.rooms:
                self.spawn(self.hub.refresh(table_id))

    def draft_shown(self, rec: TableRecord, seat: str, events: list[dict[str, Any]]) -> None:
        self.hub.show_draft(rec, seat, events)

    def table_changed(self, table_id: str, version: int) -> None:
        self.spawn(self.hub.publish(table_id, version))

    def connected(self, table_id: str, user_id: str) -> bool:
        return self.presence is not None and self.presence.connected(table_id, user_id)
