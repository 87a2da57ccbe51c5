"""A person manages their own account: making one (a guest keeps their id), their display name (guests too), their
password and their sessions (accounts).

A guest who registers: their seats at tables not settled yet become an account's in the same transaction, so a game
is rated by what its people are when it is settled (`auth.register`); each open or running table they sit at then
makes a lobby change with a `registered` event, as for a rename (below), so every process reloads its seats and its
`rated`.

Where a new name shows:
- Tables name their people by a join with `users` when a record is loaded (`loading.load_record`), and each server
  process caches records (`TableCache`). A rename therefore makes a lobby change of every open or running table the
  person sits at or hosts: its version moves on (not `updated_at`, so neither the lobby's order nor a stand-in's
  waiting time moves), with a `renamed` event, so every process reloads it and every socket at it gets the new
  name at once, as for a seat taken.
- A finished table does not move on (a person may have hundreds). Instead every process is told on the broker's side
  channel (a `renamed` notice, sent like `session_ended` below) and forgets the finished records naming the person
  (`TableCache.drop_finished_of`), so they are read again with the new name; the sockets watching one get a fresh
  snapshot. The same notice renames the person in the "Watching:" lists of the tables they watch (`Hub.rename`:
  presence names a watcher by the name their socket connected with). A process whose broker connection was away
  compares its sockets' names with the database when it comes back (`Hub.recheck_sessions`).
- A guest who registers under a new name is renamed the same way (`_registered_renamed`), not counted against the
  limit below: the tables they sit at hear of it as `registered`, those they only host as `renamed`.
- Chat lines keep the name they were posted under (`chat_messages.name`), so a history reads as it did live;
  events of the game's log keep theirs too.
- Profiles (`services/profiles.py`) read the name from `users` and so show the new one at once.

Ending sessions: a token carries the account's `token_epoch`, which a password change or "sign out everywhere" bumps;
REST refuses an older token at once (`api/deps.user_for_token`). A socket is checked only when it connects, so the
change also closes the person's sockets opened under an older epoch: this process's at once, the others' through
the broker's side channel (a `session_ended` notice, sent like a chat line: NOTIFY in the transaction that bumps
the epoch on Postgres, a PUBLISH after it on Redis). A process whose broker connection was away checks its sockets'
epochs against the database when it comes back (`Hub.recheck_sessions`).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import delete, select

from app.db.models import GameTable, RenameLog, Seat, User
from app.messages import RenamedNotice, SessionEndedNotice, SessionRevokedNotice
from app.services import auth
from app.services.auth import check_distinct_name, clean_name
from app.services.errors import ServiceError
from app.services.events import TableEvent
from app.services.lobby import Change, Changed
from app.services.record import TableRecord, TableStatus

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession

    from app.services.database import Database
    from app.services.ports import Publisher

# Each rename is announced at every live table of the person: at most this many in RENAME_WINDOW seconds, so nobody
# can flood the tables' logs with it. Counted from `rename_log` (migration 0010), so the limit holds however many
# server processes the requests are spread over.
RENAME_LIMIT = 5
RENAME_WINDOW = 600.0


def _aware(at: datetime) -> datetime:
    # SQLite gives back the stored UTC time without its zone.
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


async def _count_rename(session: AsyncSession, user_id: str) -> None:
    """Store one rename of this person, or refuse it when they made RENAME_LIMIT in the last RENAME_WINDOW seconds.

    Called with the person's row locked (Postgres) or under the single writer (SQLite), so two renames sent at once,
    through two processes, cannot both take the last place."""
    now = datetime.now(UTC)
    cutoff = now - timedelta(seconds=RENAME_WINDOW)
    # The rows that no longer count go as the next one comes: a person keeps at most RENAME_LIMIT of them.
    await session.execute(delete(RenameLog).where(RenameLog.user_id == user_id, RenameLog.created_at <= cutoff))
    recent = (
        await session.scalars(
            select(RenameLog.created_at).where(RenameLog.user_id == user_id).order_by(RenameLog.created_at)
        )
    ).all()
    if len(recent) >= RENAME_LIMIT:
        oldest = _aware(recent[-RENAME_LIMIT])
        wait = max(1, math.ceil(RENAME_WINDOW - (now - oldest).total_seconds()))
        raise ServiceError(
            "too_many_renames", f"You changed your name {RENAME_LIMIT} times lately; try again in {wait} s.", 429
        )
    session.add(RenameLog(user_id=user_id, created_at=now))


# Runs one lobby operation on a table in its own transaction and publishes it (services/lobby.Lobby.change):
# the table, who does it, their invite code, and the change.
LobbyChange = Callable[[str, User, str | None, Change], Awaitable[TableRecord]]


async def _names_beside(session: AsyncSession, user_id: str) -> list[str]:
    """The names of the other people at the open or running tables this person sits at or hosts."""
    live = select(GameTable.id).where(
        GameTable.status != TableStatus.FINISHED,
        (GameTable.host_id == user_id) | GameTable.id.in_(select(Seat.table_id).where(Seat.user_id == user_id)),
    )
    seated = select(Seat.user_id).where(Seat.table_id.in_(live), Seat.user_id.is_not(None), Seat.user_id != user_id)
    hosts = select(GameTable.host_id).where(GameTable.id.in_(live), GameTable.host_id != user_id)
    return list(await session.scalars(select(User.name).where(User.id.in_(seated) | User.id.in_(hosts))))


async def _live_tables_of(session: AsyncSession, user_id: str) -> list[str]:
    """The open or running tables that show this person (a seat or the host)."""
    seated = select(Seat.table_id).where(Seat.user_id == user_id)
    return list(
        await session.scalars(
            select(GameTable.id).where(
                GameTable.status != TableStatus.FINISHED, (GameTable.host_id == user_id) | GameTable.id.in_(seated)
            )
        )
    )


class _NotThere(Exception):
    """The person left the table between the change and its announcement (or it ended): nothing to announce."""


async def end_sessions(publisher: Publisher, origin: str, session: AsyncSession, user: User) -> None:
    """Commit the account's bumped token epoch and close its sockets opened under an older one, on every process
    (`origin` names this process in the notice)."""
    epoch = user.token_epoch or 0
    notice = SessionEndedNotice(origin=origin, user_id=user.id, epoch=epoch).payload()
    await publisher.notice_in_tx(session, notice)
    await session.commit()
    publisher.sessions_ended(user.id, epoch)
    await publisher.notice_after_commit(notice)


class Accounts:
    """A person's own account: registering, their name, their password and their sessions."""

    def __init__(
        self,
        *,
        database: Database,
        publisher: Publisher,
        origin: str,
        token_max_age: int,
        lobby_change: LobbyChange,
    ) -> None:
        self.database = database
        self.publisher = publisher
        self.origin = origin  # names this process in its side notices: its own come back from the broker
        self.token_max_age = token_max_age  # seconds a token works: how long a signed-out session is remembered
        self.lobby_change = lobby_change

    async def rename(self, user: User, name: str) -> User:
        """Change the person's display name (cleaned as at sign-up) and refresh the live tables that show it."""
        new = clean_name(name)
        async with self.database.write() as session:
            row = await session.get(User, user.id, with_for_update=True, populate_existing=True)
            if row is None:
                raise ServiceError("bad_token", "Your session is not valid; sign in again.", 401)
            old = row.name
            if new == old:
                return row  # nothing changes, so no table needs telling (and no rename is counted)
            # Nobody may take a name that could be mistaken for another player's at a live table of theirs.
            check_distinct_name(new, await _names_beside(session, user.id), "at a table of yours")
            await _count_rename(session, user.id)
            row.name = new
            notice = RenamedNotice(origin=self.origin, user_id=user.id, name=new).payload()
            await self.publisher.notice_in_tx(session, notice)
            await session.commit()
            live = await _live_tables_of(session, user.id)
        self.publisher.renamed(user.id, new)
        await self.publisher.notice_after_commit(notice)
        for table_id in live:
            await self._announce(row, table_id, old, new)
        return row

    async def _announce(self, user: User, table_id: str, old: str, new: str) -> None:
        """One live table's lobby change for the rename: a new version, reloaded (with the new name) everywhere."""

        async def change(session: AsyncSession, rec: TableRecord) -> Changed:
            seat = rec.seat_of(user.id)
            if seat is None and rec.host_id != user.id:
                raise _NotThere
            # Only the version: `updated_at` is the lobby's order and the stand-in clock, which a rename must not
            # reset.
            event = {"type": TableEvent.RENAMED, "seat": seat, "old": old, "name": new, "visible_to": None}
            return Changed([event], {"version": rec.version + 1})

        # Left meanwhile, or the table is gone: it no longer shows this person.
        with contextlib.suppress(_NotThere, ServiceError):
            await self.lobby_change(table_id, user, None, change)

    async def register(
        self, session: AsyncSession, username: str, password: str, name: str | None, current: User | None
    ) -> User:
        """Create an account (a signed-in guest keeps their id) and, for a guest, tell each running or open table they
        sit at: their seat now counts for ratings (`auth.register` changed it), which may make the table rated."""
        upgrading = current is not None and auth.is_guest(current)
        old_name = current.name if current is not None else None
        user = await auth.register(session, username, password, name, current)
        if upgrading and old_name is not None and user.name != old_name:
            await self._registered_renamed(session, user, old_name)
        if upgrading:
            async with self.database.reads() as reads:
                live = await reads.scalars(
                    select(GameTable.id)
                    .join(Seat, Seat.table_id == GameTable.id)
                    .where(Seat.user_id == user.id, GameTable.status != TableStatus.FINISHED)
                )
                tables = list(live)
            for table_id in tables:
                await self._announce_registered(user, table_id)
        return user

    async def _registered_renamed(self, session: AsyncSession, user: User, old: str) -> None:
        """A guest who registered under a new name is renamed as by `rename` (not counted against its limit): every
        process hears of it, and the live tables they only host say so; those they sit at are told by
        `registered`."""
        notice = RenamedNotice(origin=self.origin, user_id=user.id, name=user.name).payload()
        await self.publisher.notice_in_tx(session, notice)
        await session.commit()
        self.publisher.renamed(user.id, user.name)
        await self.publisher.notice_after_commit(notice)
        hosted = set(await session.scalars(
            select(GameTable.id).where(GameTable.host_id == user.id, GameTable.status != TableStatus.FINISHED)
        ))
        seated = set(await session.scalars(select(Seat.table_id).where(Seat.user_id == user.id)))
        for table_id in sorted(hosted - seated):
            await self._announce(user, table_id, old, user.name)

    async def _announce_registered(self, user: User, table_id: str) -> None:
        """One live table's lobby change for a guest who registered: a new version, reloaded everywhere with the seat
        an account's, and a `registered` event saying whether the game now counts for their rating."""

        async def change(session: AsyncSession, rec: TableRecord) -> Changed:
            seat = rec.seat_of(user.id)
            if seat is None or rec.status == TableStatus.FINISHED:
                raise _NotThere  # a finished game is settled from the seats as stored, which need no announcement
            # Only the version, as for a rename: neither the lobby's order nor a stand-in's waiting time moves.
            rated = seat in rec.rated_people() and rec.counts_for_ratings()
            event = {"type": TableEvent.REGISTERED, "seat": seat, "name": user.name, "rated": rated,
                     "visible_to": None}
            return Changed([event], {"version": rec.version + 1})

        with contextlib.suppress(_NotThere, ServiceError):
            await self.lobby_change(table_id, user, None, change)

    async def change_password(self, user_id: str, current: str, new: str) -> User:
        """Change the account's password; every session of it but the caller's (which gets a new token) ends."""
        checked, new_hash = await auth.new_password_hash(self.database.reads, user_id, current, new)
        async with self.database.write() as session:
            user = await auth.change_password(session, user_id, checked, new_hash)
            await end_sessions(self.publisher, self.origin, session, user)
        return user

    async def sign_out_everywhere(self, user_id: str) -> User:
        """End every session of the person, the caller's included: an account's, or a guest's (whose tokens may have
        been copied; a guest signed out keeps their tables only by registering first, which the page says)."""
        async with self.database.write() as session:
            user = await auth.locked_user(session, user_id)
            user.token_epoch = (user.token_epoch or 0) + 1
            await end_sessions(self.publisher, self.origin, session, user)
        return user

    async def sign_out(self, user_id: str, sid: str | None) -> None:
        """End one session: its token is refused from now on and its sockets close, on every process. A token from
        before sessions had ids cannot be told from the person's others, so all of them end
        (`sign_out_everywhere`)."""
        if sid is None:
            await self.sign_out_everywhere(user_id)
            return
        notice = SessionRevokedNotice(origin=self.origin, user_id=user_id, sid=sid).payload()
        async with self.database.write() as session:
            await auth.revoke_session(session, user_id, sid, self.token_max_age)
            await self.publisher.notice_in_tx(session, notice)
            await session.commit()
        self.publisher.session_revoked(user_id, sid)
        await self.publisher.notice_after_commit(notice)
