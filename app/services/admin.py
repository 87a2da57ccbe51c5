"""An operator's use cases (`foodgames admin …`, app/cli.py): make an admin, ban and unban a person, close a table,
purge inactive guests and old chat.

They run in a process of their own against the deployment's database and tell the server processes through the
broker, as a server process tells the others: a ban ends the person's sessions (a `session_ended` notice, so every
process closes their sockets), a closed table is a lobby change every process publishes. On SQLite there is no broker
between processes: a ban still refuses the person's tokens at once, and the server takes up the rest from the
database within seconds (`services/outside_changes.OutsideChanges`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, delete, exists, or_, select, update

from app.db.models import (
    ChatMessage,
    ChatMute,
    GameTable,
    RenameLog,
    RevokedSession,
    Seat,
    TableLogEntry,
    User,
)
from app.messages import SessionEndedNotice
from app.services.auth import locked_user
from app.services.errors import ServiceError
from app.services.events import TableEvent
from app.services.loading import load_record
from app.services.lobby import keep_events
from app.services.record import TableStatus, valid_id

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession

    from app.services.database import Database
    from app.services.ports import Publisher
    from app.services.table_writes import TableWrites

MAX_DAYS = 36_500


def no_such_person(who: str) -> ServiceError:
    return ServiceError("no_such_person", f"Nobody has the id or username {who!r}.", 404)


def check_days(days: Any) -> int:
    """A whole number of days from 1 to 100 years: what the purges count back."""
    if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= MAX_DAYS:
        raise ServiceError("bad_days", f"Days must be a whole number from 1 to {MAX_DAYS}.", 422)
    return days


async def find_person(session: AsyncSession, who: str) -> User:
    """The person whose id, or account's username, is `who`."""
    who = who.strip()
    if not who or len(who) > 40:
        raise no_such_person(who)
    user = await session.scalar(select(User).where(or_(User.id == who, User.username == who.lower())))
    if user is None:
        raise no_such_person(who)
    return user


@dataclass(frozen=True)
class Purged:
    guests: int
    tables: int
    chat_lines: int


def _count(result: Any) -> int:
    """The rows a DELETE removed (a cursor result's `rowcount`, which the typed `Result` does not declare)."""
    return int(getattr(result, "rowcount", 0) or 0)


class Admin:
    """An operator's verbs on the deployment: admins, bans, closed tables, purges."""

    def __init__(self, *, database: Database, tables: TableWrites, publisher: Publisher, origin: str) -> None:
        self.database = database
        self.tables = tables  # a closed table is a table's change like any other
        self.publisher = publisher
        self.origin = origin  # names this process in its side notices

    async def set_admin(self, who: str, admin: bool = True) -> User:
        """Make the account an admin, or no longer one. A guest cannot be one: anybody can take a guest's place by
        copying its token, and nobody can sign in as it again."""
        async with self.database.write() as session:
            user = await find_person(session, who)
            if admin and user.username is None:
                raise ServiceError("guest", "A guest cannot be an admin; the person registers first.", 409)
            user.is_admin = admin
            await session.commit()
        return user

    async def ban(self, who: str) -> User:
        """Ban the person: their tokens are refused from now on (the token epoch moves on, as for "sign out
        everywhere"), they cannot sign in, and their sockets close on every process (the broker's `session_ended`
        notice)."""
        async with self.database.write() as session:
            user = await locked_user(session, (await find_person(session, who)).id)
            if user.banned_at is not None:
                raise ServiceError("already_banned", "That person is already banned.", 409)
            user.banned_at = datetime.now(UTC)
            user.token_epoch = (user.token_epoch or 0) + 1
            notice = SessionEndedNotice(origin=self.origin, user_id=user.id, epoch=user.token_epoch).payload()
            await self.publisher.notice_in_tx(session, notice)
            await session.commit()
        self.publisher.sessions_ended(user.id, user.token_epoch)
        await self.publisher.notice_after_commit(notice)
        return user

    async def unban(self, who: str) -> User:
        """Lift the person's ban: they may sign in again (the tokens the ban ended stay ended)."""
        async with self.database.write() as session:
            user = await find_person(session, who)
            if user.banned_at is None:
                raise ServiceError("not_banned", "That person is not banned.", 409)
            user.banned_at = None
            await session.commit()
        return user

    async def close_table(self, table_id: str) -> str:
        """End the table as abandoned (no winner, nothing rated), whether its game runs or it still waits for players;
        every process tells its sockets at once. Returns the status it had."""
        if not valid_id(table_id):
            raise ServiceError("not_found", "No such table.", 404)
        tables = self.tables
        async with tables.write(table_id) as session:
            rec = await load_record(session, table_id, for_update=True)
            if rec.status == TableStatus.FINISHED:
                raise ServiceError("already_finished", "That table's game is already over.", 409)
            version = rec.version + 1
            columns: dict[str, Any] = {
                "version": version,
                "updated_at": datetime.now(UTC),
                "status": TableStatus.FINISHED,
                "abandoned": True,
                "abandon_vote": None,
                "outcome": None,
                "awaiting": [],
                "rated": False,
            }
            if rec.state is not None:
                # The state as it stands is the final snapshot, as when the players abandon a game (lobby._abandon).
                columns |= {"state": rec.state, "state_seq": rec.move_count}
            abandoned = {"type": TableEvent.ABANDONED, "visible_to": None}
            await keep_events(session, rec.id, version, [abandoned], columns)
            fresh = await load_record(session, table_id)
            with tables.own_write(rec.id, version):
                await tables.notify_in_tx(session, rec.id, version)
                await session.commit()
                fresh = tables.cache.put(fresh)
        await tables.after_change(fresh)
        return rec.status

    async def purge_guests(self, days: int, now: datetime | None = None) -> Purged:
        """Delete the guests idle for `days`: made before then, with no chat line since, seated at no game that
        started (a finished game keeps the people who played it) and hosting only tables that never started and have
        not changed since. Those tables go with them, as do their chat lines, mutes, renames and signed-out
        sessions."""
        cutoff = (now or datetime.now(UTC)) - timedelta(days=check_days(days))
        stale_open = and_(GameTable.status == TableStatus.OPEN, GameTable.updated_at < cutoff)
        played = exists().where(Seat.user_id == User.id, Seat.table_id == GameTable.id, ~stale_open)
        hosts_live = exists().where(GameTable.host_id == User.id, ~stale_open)
        spoke = exists().where(ChatMessage.user_id == User.id, ChatMessage.created_at >= cutoff)
        async with self.database.write() as session:
            ids = list(
                await session.scalars(
                    select(User.id).where(
                        User.username.is_(None), User.created_at < cutoff, ~played, ~hosts_live, ~spoke
                    )
                )
            )
            tables = lines = 0
            for start in range(0, len(ids), 500):  # bounded IN lists
                chunk = ids[start : start + 500]
                hosted = list(await session.scalars(select(GameTable.id).where(GameTable.host_id.in_(chunk))))
                await session.execute(
                    update(Seat)
                    .where(Seat.user_id.in_(chunk))
                    .values(user_id=None)
                    .execution_options(synchronize_session=False)
                )
                if hosted:
                    said = await session.execute(delete(ChatMessage).where(ChatMessage.table_id.in_(hosted)))
                    lines += _count(said)
                    for table_part in (ChatMute, TableLogEntry, Seat):
                        await session.execute(delete(table_part).where(table_part.table_id.in_(hosted)))
                    await session.execute(delete(GameTable).where(GameTable.id.in_(hosted)))
                said = await session.execute(delete(ChatMessage).where(ChatMessage.user_id.in_(chunk)))
                lines += _count(said)
                for user_part in (ChatMute, RenameLog, RevokedSession):
                    await session.execute(delete(user_part).where(user_part.user_id.in_(chunk)))
                await session.execute(delete(User).where(User.id.in_(chunk)))
                tables += len(hosted)
            await session.commit()
        return Purged(len(ids), tables, lines)

    async def purge_chat(self, days: int, now: datetime | None = None) -> int:
        """Delete the chat lines older than `days`, at every table; how many."""
        cutoff = (now or datetime.now(UTC)) - timedelta(days=check_days(days))
        async with self.database.write() as session:
            result = await session.execute(delete(ChatMessage).where(ChatMessage.created_at < cutoff))
            await session.commit()
        return _count(result)
