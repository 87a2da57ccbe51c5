"""Table chat: one chat per table for the people at it and watching it, stored, and delivered live.

A line is stored before anyone sees it; the process that stored it sends it to its own sockets of the
table (`Hub.chat`) and announces it to the other processes on the broker's side channel, not the moves'
channel, so the moves' path is untouched. A line never changes the table's version: a player's move sent
while someone chats is not made stale by it.
"""

from __future__ import annotations

import math
import re
import time
import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import orjson
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ChatMessage, User
from app.services.errors import ServiceError
from app.services.play import check_client_id
from app.services.records import TableRecord

if TYPE_CHECKING:
    from app.runtime import Runtime

MAX_CHARS = 300  # per line, counted in code points after cleaning
HISTORY = 100  # lines a reader gets on load
# A text this long is refused before it is cleaned (the cleaning looks at every character).
MAX_RAW = 20 * MAX_CHARS
# Characters that reorder the text around them: in a chat line they make one person's words look like another's.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
LINE_BREAKS = frozenset("\n\r\u2028\u2029")  # all kept, as newlines
BLANK_LINES = re.compile(r"\n{3,}")
LIMITER_SIZE = 10_000  # buckets kept before the idle ones are forgotten


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


class ChatLimiter:
    """A token bucket per (user, table): a burst of messages, then a steady rate."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.buckets: dict[tuple[str, str], tuple[float, float]] = {}  # key -> (tokens, when counted)

    def wait(self, user_id: str, table_id: str) -> float:
        """Take one message's token: 0 when allowed, else the seconds until the next one is."""
        now = time.monotonic()
        key = (user_id, table_id)
        tokens, stamp = self.buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - stamp) * self.rate)
        if tokens < 1:
            self.buckets[key] = (tokens, now)
            return (1 - tokens) / self.rate if self.rate > 0 else math.inf
        self.buckets[key] = (tokens - 1, now)
        if len(self.buckets) > LIMITER_SIZE:
            self._forget_idle(now)
        return 0.0

    def _forget_idle(self, now: float) -> None:
        """Drop the buckets that have filled up again (their owners may chat as if new)."""
        self.buckets = {
            key: (tokens, stamp) for key, (tokens, stamp) in self.buckets.items()
            if tokens + (now - stamp) * self.rate < self.burst
        }
        if len(self.buckets) > LIMITER_SIZE:  # a flood of distinct senders: start afresh rather than grow
            self.buckets.clear()


def _iso(at: datetime) -> str:
    # SQLite gives back the stored UTC time without its zone.
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).isoformat()


def message_json(row: ChatMessage) -> dict[str, Any]:
    """A line as the API shows it."""
    return {
        "id": row.id,
        "user": {"id": row.user_id, "name": row.name},
        "seat": row.seat,
        "text": row.text,
        "created_at": _iso(row.created_at),
    }


async def history(session: AsyncSession, table_id: str, since: datetime | None = None) -> list[dict[str, Any]]:
    """The table's last HISTORY lines (those posted since `since`, if given), oldest first."""
    query = select(ChatMessage).where(ChatMessage.table_id == table_id)
    if since is not None:
        query = query.where(ChatMessage.created_at >= since)
    rows = (await session.scalars(query.order_by(ChatMessage.id.desc()).limit(HISTORY))).all()
    return [message_json(row) for row in reversed(rows)]


async def _stored(session: AsyncSession, table_id: str, user_id: str, client_id: str) -> dict[str, Any] | None:
    row = await session.scalar(
        select(ChatMessage).where(
            ChatMessage.table_id == table_id, ChatMessage.user_id == user_id, ChatMessage.client_id == client_id
        )
    )
    return message_json(row) if row is not None else None


async def post(
    rt: Runtime,
    rec: TableRecord,
    user_id: str,
    raw: Any,
    client_id: Any = None,
    on_durable: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Store a line of `user_id` at the table `rec` (which they may see), then deliver it everywhere.

    `on_durable` hears the stored line before any socket gets it, so the sender's ack comes first. A
    client_id already stored for this person and table answers that line again, delivered to no one."""
    text = clean_text(raw)
    check_client_id(client_id)
    async with rt.single_writer(), rt.sessions() as session:
        if client_id is not None and (known := await _stored(session, rec.id, user_id, client_id)) is not None:
            if on_durable is not None:
                on_durable(known)
            return known
        wait = rt.chat_limits.wait(user_id, rec.id)
        if wait:
            raise ServiceError(
                "rate_limited", f"Too many chat messages; wait {math.ceil(wait)} s before the next one.", 429
            )
        name = await session.scalar(select(User.name).where(User.id == user_id))
        if name is None:
            raise ServiceError("bad_token", "Your session is not valid; sign in again.", 401)
        row = ChatMessage(
            table_id=rec.id, user_id=user_id, name=name, seat=rec.seat_of(user_id), client_id=client_id,
            text=text, created_at=datetime.now(UTC),
        )
        session.add(row)
        try:
            await session.flush()
            line = message_json(row)
            payload = orjson.dumps({"kind": "chat", "origin": rt.origin, "table_id": rec.id, "message": line}).decode()
            await rt.broker.side_in_tx(session, payload)
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
    rt.hub.chat(rec.id, line)
    await rt.broker.side_after_commit(payload)
    return line
