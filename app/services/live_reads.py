"""The database reads the hub needs to keep its sockets right: events older than a record remembers, sessions
signed out of and token epochs and names changed while this process was not told, chat lines a room missed."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Move, RevokedSession, User
from app.services import chat

CHUNK = 500  # ids per `IN (…)` list


class LiveReads:
    """Reads in autocommit sessions of their own, given to the hub when the runtime wires it."""

    def __init__(self, *, reads: async_sessionmaker[AsyncSession]) -> None:
        self.reads = reads

    async def events_after(self, table_id: str, version: int) -> list[dict[str, Any]]:
        """The events of the table's versions after `version`, in order."""
        async with self.reads() as session:
            rows = await session.scalars(
                select(Move.events).where(Move.table_id == table_id, Move.version > version).order_by(Move.seq)
            )
            return [ev for evs in rows for ev in evs]

    async def revoked_among(self, sids: list[str]) -> list[str]:
        """Those of these sessions that were signed out of."""
        gone: list[str] = []
        for start in range(0, len(sids), CHUNK):
            async with self.reads() as session:
                gone += await session.scalars(
                    select(RevokedSession.sid).where(RevokedSession.sid.in_(sids[start : start + CHUNK]))
                )
        return gone

    async def people(self, user_ids: list[str]) -> list[tuple[str, int, str]]:
        """(id, token epoch, name) of these people, as stored."""
        found: list[tuple[str, int, str]] = []
        for start in range(0, len(user_ids), CHUNK):
            async with self.reads() as session:
                rows = await session.execute(
                    select(User.id, User.token_epoch, User.name).where(User.id.in_(user_ids[start : start + CHUNK]))
                )
                found += [(user_id, epoch or 0, name) for user_id, epoch, name in rows]
        return found

    async def chat_since(
        self, table_id: str, since: datetime, host_id: str
    ) -> tuple[list[dict[str, Any]], list[int]]:
        """The table's chat lines posted since `since` (the last chat.HISTORY of them), and the ids of the lines
        removed since then."""
        async with self.reads() as session:
            lines = await chat.history(session, table_id, since, host_id)
            removed = await chat.removed_since(session, table_id, since)
        return lines, removed
