"""A rematch: the first player of a finished game to ask opens a table like it, the others take their old seats."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import GameTable, User
from app.services import chat
from app.services.errors import ServiceError
from app.services.events import TableEvent
from app.services.loading import load_record
from app.services.lobby import Events, Lobby, join, keep_events
from app.services.options import get_game
from app.services.record import TableRecord, TableStatus, invite_code
from app.services.table_writes import TableWrites


class Rematcher:
    """Rematches: a finished table's players asking to play again."""

    def __init__(self, *, tables: TableWrites, lobby: Lobby, secret_key: str) -> None:
        self.tables = tables
        self.lobby = lobby  # opens the new table, and seats the other players at it
        self.secret_key = secret_key  # the rematch's invite code, which its players need not know

    async def rematch(self, table_id: str, user: User) -> TableRecord:
        """Play again: the first player of a finished game to ask opens a table like it (game, options,
        visibility, bots in their seats, themselves in their own seat, as its host), and the finished table
        points to it, its chat's mutes carried (chat.carry_mutes); every other player who asks takes their old seat
        there (no invite needed)."""
        async with self.tables.write(table_id) as session:
            old = await load_record(session, table_id, for_update=True)
            seat = old.seat_of(user.id)
            if old.status != TableStatus.FINISHED:
                raise ServiceError("not_finished", "A rematch can be asked for once the game is over.", 409)
            if seat is None:
                raise ServiceError("not_seated", "Only the players of this game can ask for a rematch.", 403)
            opened = None if old.rematch_id else await self._open(session, old, user, seat)
        if opened is not None:
            finished, new = opened
            await self.tables.after_change(finished)
            return new
        assert old.rematch_id is not None
        return await self._join(old.rematch_id, user, seat)

    async def _open(
        self, session: AsyncSession, old: TableRecord, user: User, seat: str
    ) -> tuple[TableRecord, TableRecord]:
        """The new table and the finished one pointing to it, committed; (finished, new)."""
        # A bot that stood in for a player leaves the seat to them.
        seating = [(user.id if s.seat == seat else None, s.bot and s.user_id is None, s.bot_level)
                   for s in old.seats]
        new = await self.lobby.add_table(session, get_game(old.game), old.name, user, old.visibility, old.options,
                                         seating, old.time_control)
        await chat.carry_mutes(session, old.id, new.id, user.id)  # the host's moderation stands at the rematch
        await session.execute(
            update(GameTable).where(GameTable.id == old.id)
            .values(rematch_id=new.id, version=old.version + 1, updated_at=datetime.now(UTC))
        )
        events: Events = [{"type": TableEvent.REMATCH, "seat": seat, "table_id": new.id, "visible_to": None}]
        await keep_events(session, old.id, old.version + 1, events)
        with self.tables.own_write(old.id, old.version + 1):
            await self.tables.notify_in_tx(session, old.id, old.version + 1)
            await session.commit()
            finished = self.tables.cache.put(await load_record(session, old.id))
            finished.remember_events(finished.version, events)
        return finished, self.tables.cache.put(new)

    async def _join(self, rematch_id: str, user: User, seat: str) -> TableRecord:
        """A player of the finished game takes their old seat at its rematch (any free one if that is taken)."""
        current = await self.tables.reload(rematch_id)
        if current.seat_of(user.id) is not None:
            return current  # asked twice
        mine = next((s.seat for s in current.seats if s.seat == seat and s.user_id is None and not s.bot), None)
        code = invite_code(self.secret_key, rematch_id)  # the player does not need to know it
        return await self.lobby.change(rematch_id, user, code, lambda s, r: join(s, r, user, mine, code))
