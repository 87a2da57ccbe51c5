"""Table chat: one chat per table for the people at it and watching it, stored, and delivered live.

A line is stored before anyone sees it; the process that stored it sends it to its own sockets of the
table (`Hub.chat`) and announces it to the other processes on the broker's side channel, not the moves'
channel, so the moves' path is untouched. A line never changes the table's version: a player's move sent
while someone chats is not made stale by it.

The table's host moderates its chat: a line removed (kept as an emptied tombstone, `remove` says why) and a person
muted (`chat_mutes`) are announced the same way as a line, on the side channel, to every process.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from sqlalchemy import ColumnElement, func, or_, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ChatMessage, ChatMute, User
from app.messages import ChatMuteNotice, ChatNotice, ChatRemovedNotice, Person
from app.services import pagination
from app.services.errors import ServiceError
from app.services.play import check_client_id
from app.services.record import TableRecord

if TYPE_CHECKING:
    from app.clock import Clock
    from app.services.database import Database
    from app.services.ports import Publisher

MAX_CHARS = 300  # per line, counted in code points after cleaning
HISTORY = 100  # lines of the players (and host), and as many of the others, a reader gets on load


class ChatMode(StrEnum):
    """Who may chat at a table, as its host chose."""

    EVERYONE = "everyone"
    ACCOUNTS = "accounts"  # registered people, and the players and host whatever they are
    PLAYERS = "players"  # the players and the host only
# A text this long is refused before it is cleaned (the cleaning looks at every character).
MAX_RAW = 20 * MAX_CHARS
# Characters that reorder the text around them: in a chat line they make one person's words look like another's.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
LINE_BREAKS = frozenset("\n\r\u2028\u2029")  # all kept, as newlines
BLANK_LINES = re.compile(r"\n{3,}")


def _kept(ch: str) -> bool:
    """Whether a character stays in a chat line: not a control character, half a surrogate or a bidi control."""
    return unicodedata.category(ch) not in ("Cc", "Cs") and ch not in BIDI_CONTROLS


def too_long() -> ServiceError:
    return ServiceError("chat_too_long", f"A chat message holds at most {MAX_CHARS} characters.", 422)


def clean_text(raw: Any) -> str:
    """The text as it is stored: control characters other than newline removed, trimmed, 1..MAX_CHARS long.

    A tab becomes a space (so the words on either side stay apart) and more than one empty line in a row
    becomes one."""
    if not isinstance(raw, str):
        raise ServiceError("bad_message", "The chat text must be a string.", 422)
    if len(raw) > MAX_RAW:
        raise too_long()
    text = raw.replace("\r\n", "\n").replace("\t", " ")
    text = "".join("\n" if ch in LINE_BREAKS else ch for ch in text if ch in LINE_BREAKS or _kept(ch))
    text = unicodedata.normalize("NFC", text)
    text = BLANK_LINES.sub("\n\n", "\n".join(line.rstrip() for line in text.split("\n"))).strip()
    if not text:
        raise ServiceError("chat_empty", "A chat message needs some text.", 422)
    if len(text) > MAX_CHARS:
        raise too_long()
    return text


def allowance_now(left: float | None, at: datetime, now: datetime, rate: float, burst: int) -> float:
    """The tokens a person has now, from those left after their last line at the table (`left`, at `at`).

    A token bucket: `burst` lines in a row, then `rate` a second. A line stored before the allowance was kept
    (`left` None) counts as the first of a burst."""
    if left is None:
        left = burst - 1.0
    elapsed = max(0.0, (now - _aware(at)).total_seconds())  # another machine's clock may be a little ahead
    return min(float(burst), left + elapsed * rate)


def _aware(at: datetime) -> datetime:
    # SQLite gives back the stored UTC time without its zone.
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _iso(at: datetime) -> str:
    return _aware(at).isoformat()


def message_json(row: ChatMessage) -> dict[str, Any]:
    """A line as the API shows it."""
    return {
        "id": row.id,
        "user": {"id": row.user_id, "name": row.name},
        "seat": row.seat,
        "text": row.text,
        "created_at": _iso(row.created_at),
    }


async def history(
    session: AsyncSession, table_id: str, since: datetime | None = None, host_id: str | None = None
) -> list[dict[str, Any]]:
    """The table's last HISTORY lines of its players and host, and its last HISTORY lines of everyone else (those
    posted since `since`, if given), merged oldest first: a crowd of watchers cannot push the players' words out."""
    query = select(ChatMessage).where(ChatMessage.table_id == table_id, ChatMessage.removed_at.is_(None))
    if since is not None:
        query = query.where(ChatMessage.created_at >= since)
    at_table: ColumnElement[bool] = ChatMessage.seat.is_not(None)
    if host_id is not None:
        at_table = or_(at_table, ChatMessage.user_id == host_id)
    players = (await session.scalars(query.where(at_table).order_by(ChatMessage.id.desc()).limit(HISTORY))).all()
    others = (await session.scalars(query.where(~at_table).order_by(ChatMessage.id.desc()).limit(HISTORY))).all()
    return [message_json(row) for row in sorted([*players, *others], key=lambda row: row.id)]


async def history_page(
    session: AsyncSession, table_id: str, host_id: str | None, cursor: str | None, limit: int = HISTORY
) -> tuple[list[dict[str, Any]], str | None]:
    """A page of the table's chat going back in time, oldest first, and the cursor of the page of older lines.

    As in `history`, the players' (and host's) lines and everyone else's are two lists, each paged by its own
    keyset: a page holds up to `limit` of each, so the first page is what `history` gives a reader on load. The
    cursor holds where each list stopped (0 once it has no more)."""
    name = f"chat:{table_id}"
    after = pagination.decode(name, cursor, ["int", "int"]) or (None, None)
    query = select(ChatMessage).where(ChatMessage.table_id == table_id, ChatMessage.removed_at.is_(None))
    at_table: ColumnElement[bool] = ChatMessage.seat.is_not(None)
    if host_id is not None:
        at_table = or_(at_table, ChatMessage.user_id == host_id)
    rows: list[ChatMessage] = []
    stops: list[int] = []
    for side, below in zip((at_table, ~at_table), after, strict=True):
        if below == 0:  # this list is over
            stops.append(0)
            continue
        part = query.where(side) if below is None else query.where(side, ChatMessage.id < below)
        got = (await session.scalars(part.order_by(ChatMessage.id.desc()).limit(limit + 1))).all()
        rows += got[:limit]
        stops.append(got[limit - 1].id if len(got) > limit else 0)
    more = any(stops)
    return [message_json(row) for row in sorted(rows, key=lambda row: row.id)], (
        pagination.encode(name, stops) if more else None
    )


async def _stored(session: AsyncSession, table_id: str, user_id: str, client_id: str) -> dict[str, Any] | None:
    row = await session.scalar(
        select(ChatMessage).where(
            ChatMessage.table_id == table_id, ChatMessage.user_id == user_id, ChatMessage.client_id == client_id
        )
    )
    if row is None:
        return None
    if row.removed_at is not None:  # a retry of a line the host removed meanwhile: it stays removed
        raise ServiceError("chat_removed", "The host removed this message.", 409)
    return message_json(row)


def _limited(wait: float) -> ServiceError:
    if not math.isfinite(wait):  # CHAT_RATE_PER_SECOND=0: the burst is all a person may say at a table
        return ServiceError("rate_limited", "You have sent all the chat messages this table allows.", 429)
    return ServiceError("rate_limited", f"Too many chat messages; wait {math.ceil(wait)} s before the next one.", 429)


def _muted() -> ServiceError:
    return ServiceError("muted", "The host has muted you in this table's chat.", 403)


def _check_mode(rec: TableRecord, user_id: str, registered: bool) -> None:
    """Refuse a line the host's chat mode does not allow from this person."""
    at_table = rec.seat_of(user_id) is not None or user_id == rec.host_id
    if rec.chat_mode == ChatMode.PLAYERS and not at_table:
        raise ServiceError("chat_closed", "The host keeps this table's chat to its players.", 403)
    if rec.chat_mode == ChatMode.ACCOUNTS and not (at_table or registered):
        raise ServiceError("chat_closed", "The host keeps this table's chat to registered players: sign up to chat.",
                           403)


async def _check_newcomer(
    session: AsyncSession, rec: TableRecord, user_id: str, now: datetime, per_minute: int
) -> None:
    """A watcher's first line here is refused while `per_minute` other watchers already began chatting at the table in
    the last minute: a crowd of fresh identities cannot flood it (each would have a fresh allowance)."""
    if rec.seat_of(user_id) is not None or user_id == rec.host_id:
        return
    spoke = await session.scalar(
        select(ChatMessage.id).where(ChatMessage.table_id == rec.id, ChatMessage.user_id == user_id).limit(1)
    )
    if spoke is not None:
        return
    first_lines = (
        select(ChatMessage.user_id, func.min(ChatMessage.created_at).label("first"))
        .where(ChatMessage.table_id == rec.id, ChatMessage.seat.is_(None))
        .group_by(ChatMessage.user_id).subquery()
    )
    recent = await session.scalar(
        select(func.count()).select_from(first_lines).where(first_lines.c.first > now - timedelta(minutes=1))
    )
    if (recent or 0) >= per_minute:
        raise ServiceError("chat_busy", "Many new people are chatting here; wait a minute before your first line.", 429,
                           retry_after=60)


async def is_muted(session: AsyncSession, table_id: str, user_id: str | None) -> bool:
    """Whether the host muted this person in the table's chat."""
    if user_id is None:
        return False
    return await session.get(ChatMute, (table_id, user_id)) is not None


def _require_host(rec: TableRecord, user_id: str) -> None:
    if user_id != rec.host_id:
        raise ServiceError("not_host", "Only the table's host can moderate its chat.", 403)


async def removed_since(session: AsyncSession, table_id: str, since: datetime) -> list[int]:
    """The ids of the table's lines posted since `since` that the host has removed, oldest first."""
    rows = await session.scalars(
        select(ChatMessage.id)
        .where(ChatMessage.table_id == table_id, ChatMessage.created_at >= since, ChatMessage.removed_at.is_not(None))
        .order_by(ChatMessage.id)
    )
    return list(rows)


def _mute_json(user_id: str, name: str, at: datetime) -> dict[str, Any]:
    return {"user": {"id": user_id, "name": name}, "created_at": _iso(at)}


async def mutes(session: AsyncSession, rec: TableRecord, user_id: str) -> list[dict[str, Any]]:
    """The people muted in the table's chat, first muted first: for its host only."""
    _require_host(rec, user_id)
    rows = (await session.execute(
        select(ChatMute.user_id, User.name, ChatMute.created_at)
        .join(User, User.id == ChatMute.user_id)
        .where(ChatMute.table_id == rec.id)
        .order_by(ChatMute.created_at, ChatMute.user_id)
    )).all()
    return [_mute_json(uid, name, at) for uid, name, at in rows]


async def carry_mutes(session: AsyncSession, old_table: str, new_table: str, new_host: str) -> None:
    """Mute at the rematch `new_table` everyone muted at the finished `old_table` it follows, but its host.

    Whoever opens the rematch hosts it, not necessarily the host who muted: the mutes come along all the same.
    Otherwise the first player to press "Play again" would decide, by being first, whether the person everyone had
    to mute gets their voice back; carried, the new host sees them in their list of the muted and may unmute them.
    Nobody can mute a host, so a muted player who opens the rematch is not muted there. Each mute keeps who made it
    and when (the host's list stays in the order they were muted in). In the transaction that opens the rematch."""
    rows = await session.scalars(
        select(ChatMute).where(ChatMute.table_id == old_table, ChatMute.user_id != new_host)
    )
    for row in rows.all():
        session.add(ChatMute(table_id=new_table, user_id=row.user_id, muted_by=row.muted_by, created_at=row.created_at))


@dataclass(frozen=True)
class ChatLimits:
    """How much one person may chat at one table: `burst` lines in a row, then `per_second`; and how many watchers
    may write their first line there in a minute (`newcomers_per_minute`)."""

    burst: int
    per_second: float
    newcomers_per_minute: int


class Chat:
    """A table's chat as its people write it and its host moderates it: each change stored, then told to every
    process (`publisher`)."""

    def __init__(
        self, *, database: Database, publisher: Publisher, clock: Clock, origin: str, limits: ChatLimits
    ) -> None:
        self.database = database
        self.publisher = publisher
        self.clock = clock  # the time a line is stored at, and its rate limit counted on
        self.origin = origin  # names this process in its side notices: its own come back from the broker
        self.limits = limits

    async def _lock_author(self, session: AsyncSession, table_id: str, user_id: str) -> None:
        """Serialise one person's lines at one table across every server process, until the transaction ends.

        Two lines sent at once through two processes would otherwise both start from the same last line and both
        spend its allowance. On SQLite there is one process, and `single_writer` already orders its writes."""
        if self.database.is_postgres:
            await session.execute(
                text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))"), {"key": f"chat:{table_id}:{user_id}"}
            )

    async def post(
        self,
        rec: TableRecord,
        user_id: str,
        raw: Any,
        client_id: Any = None,
        on_durable: Callable[[dict[str, Any]], None] | None = None,
    ) -> dict[str, Any]:
        """Store a line of `user_id` at the table `rec` (which they may see), then deliver it everywhere.

        Refused for a person the host muted (`muted`), or one past the rate limit (`rate_limited`), decided from
        their last stored line at the table in the transaction that stores this one, so it holds across processes.
        `on_durable` hears the stored line before any socket gets it, so the sender's ack comes first. A
        client_id already stored for this person and table answers that line again, delivered to no one."""
        text_ = clean_text(raw)
        check_client_id(client_id)
        limits = self.limits
        async with self.database.write() as session:
            await self._lock_author(session, rec.id, user_id)
            if client_id is not None and (known := await _stored(session, rec.id, user_id, client_id)) is not None:
                if on_durable is not None:
                    on_durable(known)
                return known
            if await is_muted(session, rec.id, user_id):
                raise _muted()
            author = (await session.execute(select(User.name, User.username).where(User.id == user_id))).first()
            if author is None:
                raise ServiceError("bad_token", "Your session is not valid; sign in again.", 401)
            name = author[0]
            _check_mode(rec, user_id, author[1] is not None)
            now = self.clock.now()
            await _check_newcomer(session, rec, user_id, now, limits.newcomers_per_minute)
            last = (await session.execute(
                select(ChatMessage.allowance, ChatMessage.created_at)
                .where(ChatMessage.table_id == rec.id, ChatMessage.user_id == user_id)
                .order_by(ChatMessage.id.desc()).limit(1)
            )).first()
            burst, rate = limits.burst, limits.per_second
            tokens = float(burst) if last is None else allowance_now(last[0], last[1], now, rate, burst)
            if tokens < 1:
                raise _limited((1 - tokens) / rate if rate > 0 else math.inf)
            row = ChatMessage(
                table_id=rec.id, user_id=user_id, name=name, seat=rec.seat_of(user_id), client_id=client_id,
                text=text_, created_at=now, allowance=tokens - 1,
            )
            session.add(row)
            try:
                await session.flush()
                line = message_json(row)
                payload = ChatNotice(origin=self.origin, table_id=rec.id, message=line).payload()
                await self.publisher.notice_in_tx(session, payload)
                await session.commit()
            except IntegrityError:
                # The same line sent twice at once (a retry racing the original): answer with the stored one.
                await session.rollback()
                known = await _stored(session, rec.id, user_id, client_id) if client_id is not None else None
                if known is None:
                    raise
                if on_durable is not None:
                    on_durable(known)
                return known
        if on_durable is not None:
            on_durable(line)
        self.publisher.chat_line(rec.id, line)
        await self.publisher.notice_after_commit(payload)
        return line

    async def remove(self, rec: TableRecord, user_id: str, message_id: int) -> dict[str, Any]:
        """The host removes one line: gone from the history, and from every screen at once.

        The row stays as a tombstone with its text emptied, rather than being deleted: a retry of that line under
        its client_id is then answered rather than posted again, the line still counts for its author's rate limit
        (removing a line must not refill it), and a process that missed the live notice (its broker was away)
        learns of the removal again when it resends the lines posted meanwhile (`removed_since`). Removing a line
        twice answers the same."""
        _require_host(rec, user_id)
        payload = None
        async with self.database.write() as session:
            row = await session.scalar(
                select(ChatMessage).where(ChatMessage.id == message_id, ChatMessage.table_id == rec.id)
            )
            if row is None:
                raise ServiceError("no_such_message", "This table's chat has no such line.", 404)
            if row.removed_at is None:
                row.removed_at, row.text = datetime.now(UTC), ""
                await session.flush()
                payload = ChatRemovedNotice(origin=self.origin, table_id=rec.id, id=message_id).payload()
                await self.publisher.notice_in_tx(session, payload)
                await session.commit()
        if payload is not None:
            self.publisher.chat_removed(rec.id, message_id)
            await self.publisher.notice_after_commit(payload)
        return {"id": message_id, "removed": True}

    async def mute(self, rec: TableRecord, user_id: str, target: str) -> dict[str, Any]:
        """The host mutes a person at the table (a player, someone who chatted here, or someone watching it now, who
        may not have written yet): their next lines are refused until the host unmutes them. Nobody can mute the
        host. Muting twice answers the same."""
        _require_host(rec, user_id)
        if target == rec.host_id:
            raise ServiceError("cannot_mute_host", "Nobody can mute the table's host.", 403)
        payload = None
        async with self.database.write() as session:
            name = await session.scalar(select(User.name).where(User.id == target)) if len(target) <= 32 else None
            # Muted already (a watcher who has left since too): the same answer.
            if name is not None and (existing := await session.get(ChatMute, (rec.id, target))) is not None:
                return _mute_json(target, name, existing.created_at)
            # At the table: seated, watching now (a socket open there on any server process, as presence knows it;
            # the stand-in wait asks the same), or has written in its chat.
            if name is None or not (
                rec.seat_of(target) is not None
                or self.publisher.connected(rec.id, target)
                or await session.scalar(
                    select(ChatMessage.id).where(ChatMessage.table_id == rec.id, ChatMessage.user_id == target)
                    .limit(1)
                ) is not None
            ):
                raise ServiceError(
                    "not_at_table",
                    "That person is not at this table: they have no seat here, have not written in its chat and "
                    "are not watching it now.",
                    404,
                )
            at = datetime.now(UTC)
            session.add(ChatMute(table_id=rec.id, user_id=target, muted_by=user_id, created_at=at))
            payload = ChatMuteNotice(origin=self.origin, table_id=rec.id, user=Person(id=target, name=name),
                                     muted=True, host_id=rec.host_id).payload()
            try:
                await session.flush()
                await self.publisher.notice_in_tx(session, payload)
                await session.commit()
            except IntegrityError:  # muted at the same moment through another request
                await session.rollback()
                existing = await session.get(ChatMute, (rec.id, target))
                if existing is None:
                    raise
                return _mute_json(target, name, existing.created_at)
        self.publisher.chat_mute(rec.id, {"id": target, "name": name}, True, rec.host_id)
        await self.publisher.notice_after_commit(payload)
        return _mute_json(target, name, at)

    async def unmute(self, rec: TableRecord, user_id: str, target: str) -> dict[str, Any]:
        """The host lets a muted person chat again (someone not muted: nothing changes, the same answer)."""
        _require_host(rec, user_id)
        payload = None
        async with self.database.write() as session:
            existing = await session.get(ChatMute, (rec.id, target)) if len(target) <= 32 else None
            if existing is not None:
                name = await session.scalar(select(User.name).where(User.id == target)) or "?"
                await session.delete(existing)
                payload = ChatMuteNotice(origin=self.origin, table_id=rec.id, user=Person(id=target, name=name),
                                         muted=False, host_id=rec.host_id).payload()
                await session.flush()
                await self.publisher.notice_in_tx(session, payload)
                await session.commit()
        if payload is not None:
            self.publisher.chat_mute(rec.id, {"id": target, "name": name}, False, rec.host_id)
            await self.publisher.notice_after_commit(payload)
        return {"user_id": target, "muted": False}
