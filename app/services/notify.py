"""Email notifications: your turn in a turn-based game, a game finished, an invitation to a table.

Off while `SMTP_HOST` is empty. A person gives an address (`PUT /api/me/notifications`), confirms it by the link mailed
there, and chooses which notices they want (all by default); every mail but the confirmation ends with a link that
turns its kind off without signing in (also as the one-click `List-Unsubscribe` header, RFC 8058).

A notice is a row of `email_outbox` with a `key` naming what it is about, written once whatever writes it twice:
`turn:{table}:{seat}:{turn start}` (one per turn: a turn is identified by when its clock started, services/clocks.py),
`finished:{table}:{user}`, `invite:{table}:{user}:{invite round}`, `verify:{user}:{nonce}`. Notices are made after the
change is committed and published (`fan_out.ChangeFanOut`), never on the move path. Every process sends what the
outbox holds every `EMAIL_SWEEP_SECONDS`: on Postgres each row is claimed `FOR UPDATE SKIP LOCKED` for its sending and
marked sent in that transaction, so two processes never send one mail; SQLite has one process.

Whose turn deserves a notice (`turns_started`) is decided here for the Web Push notices too (services/push.py), which
go whether or not the server sends mail.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import smtplib
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from itsdangerous import BadSignature, SignatureExpired, URLSafeSerializer, URLSafeTimedSerializer
from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.models import EmailOut, User
from app.games import GAMES
from app.services.clocks import ClockKind
from app.services.errors import ServiceError
from app.services.push import PushNotices
from app.services.record import TableRecord, TableStatus, Visibility, invite_code

if TYPE_CHECKING:
    from app.services.database import Database
    from app.services.ports import Publisher

log = logging.getLogger("app.notify")
ADDRESS = re.compile(r"[^@\s\"<>,;]{1,64}@[^@\s\"<>,;]{1,188}\.[A-Za-z0-9-]{2,63}")
VERIFY_MAX_AGE = 2 * 24 * 3600  # seconds a confirmation link works
VERIFY_PER_DAY = 3  # confirmation mails a person may have sent in a day: an address is not a way to mail anyone
MAX_ATTEMPTS = 5  # a mail the SMTP server keeps refusing is given up after this many tries
BATCH = 20


class Notice(StrEnum):
    TURN = "turn"  # your turn in a turn-based game
    FINISHED = "finished"  # a game of yours finished
    INVITE = "invite"  # a host invites you to their table


def enabled(settings: Settings) -> bool:
    return bool(settings.smtp_host)


def wants(user: User, kind: Notice) -> bool:
    """Whether the person gets this kind of mail: a confirmed address, and the kind not turned off."""
    return bool(user.email and user.email_verified and (user.notify or {}).get(kind.value, True))


async def enqueue(
    session: AsyncSession, key: str, user: User, subject: str, body: str, unsubscribe: str | None
) -> None:
    """Add a mail to the outbox unless one with this key is there (in the caller's transaction)."""
    assert user.email is not None
    insert = pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    if unsubscribe is not None:
        body += f"\n--\nTo get no more of these mails: {unsubscribe}\n"
    await session.execute(
        insert(EmailOut).values(key=key, user_id=user.id, address=user.email, subject=subject[:200], body=body,
                                unsubscribe=unsubscribe, created_at=datetime.now(UTC))
        .on_conflict_do_nothing(index_elements=["key"])
    )


def _title(rec: TableRecord) -> str:
    game = GAMES.get(rec.game)
    return f"{rec.name} ({game.title if game is not None else rec.game})"


def _message(settings: Settings, row: EmailOut) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = settings.smtp_from
    msg["To"] = row.address
    msg["Subject"] = row.subject
    if row.unsubscribe:
        msg["List-Unsubscribe"] = f"<{row.unsubscribe}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg.set_content(row.body)
    return msg


def _send(settings: Settings, messages: list[EmailMessage]) -> list[str | None]:
    """Send over one SMTP connection; each mail's failure (None: sent)."""
    out: list[str | None] = []
    with smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=20) as smtp:
        if settings.smtp_starttls:
            smtp.starttls()
        if settings.smtp_user:
            smtp.login(settings.smtp_user, settings.smtp_password)
        for msg in messages:
            try:
                smtp.send_message(msg)
                out.append(None)
            except smtplib.SMTPException as exc:
                out.append(str(exc)[:500])
    return out


class Notifications:
    """The notices people get away from the site: the mails (the outbox and its sending, each person's address and
    choices, the links in the mails) and, for a turn of theirs, the Web Push notices (`push`)."""

    def __init__(
        self, *, database: Database, publisher: Publisher, push: PushNotices, settings: Settings, secret_key: str
    ) -> None:
        self.database = database
        self.publisher = publisher  # who is at a table now: they get no notice of their turn
        self.push = push
        self.settings = settings  # the SMTP server, the site's address in links
        self.secret_key = secret_key  # signs the links in mails
        self.sending = asyncio.Lock()  # one sending of the email outbox at a time in this process

    def preferences(self, user: User) -> dict[str, Any]:
        prefs = user.notify or {}
        return {"enabled": enabled(self.settings), "push": self.push.vapid is not None,
                "email": user.email, "email_verified": bool(user.email_verified),
                **{kind.value: bool(prefs.get(kind.value, True)) for kind in Notice}}

    def _verifier(self) -> URLSafeTimedSerializer:
        return URLSafeTimedSerializer(self.secret_key, salt="email-verify")

    def _unsubscriber(self) -> URLSafeSerializer:
        return URLSafeSerializer(self.secret_key, salt="email-unsubscribe")

    def link(self, path: str) -> str:
        return self.settings.effective_public_url + path

    def unsubscribe_link(self, user_id: str, kind: Notice) -> str:
        return self.link(f"/api/email/unsubscribe?token={self._unsubscriber().dumps([user_id, kind.value])}")

    async def update(self, session: AsyncSession, user: User, changes: dict[str, Any]) -> User:
        """Change the person's address (a new one waits for its confirmation; empty or null removes it) and which
        notices they want; refused whole when any part is wrong."""
        if not user.username:
            raise ServiceError("not_registered", "Create an account first: guests get no email.", 403)
        prefs = dict(user.notify or {})
        for kind in Notice:
            if kind.value in changes:
                if not isinstance(changes[kind.value], bool):
                    raise ServiceError("bad_notify", f"{kind.value} must be true or false.", 422)
                prefs[kind.value] = changes[kind.value]
        address = changes.get("email", user.email)
        if address == "":
            address = None
        if address is not None and (not isinstance(address, str) or ADDRESS.fullmatch(address) is None):
            raise ServiceError("bad_email", "That is not an email address.", 422)
        row = await session.get(User, user.id, with_for_update=True)
        assert row is not None
        row.notify = prefs
        if address != row.email:
            row.email, row.email_verified = address, False
            if address is not None:
                await self._confirmation(session, row)
        await session.commit()
        return row

    async def _confirmation(self, session: AsyncSession, user: User) -> None:
        since = datetime.now(UTC) - timedelta(days=1)
        sent = await session.scalar(
            select(func.count()).select_from(EmailOut)
            .where(EmailOut.user_id == user.id, EmailOut.key.like(f"verify:{user.id}:%"), EmailOut.created_at >= since)
        )
        if (sent or 0) >= VERIFY_PER_DAY:
            raise ServiceError("rate_limited", "Too many confirmation mails today; try again tomorrow.", 429)
        assert user.email is not None
        token = self._verifier().dumps([user.id, user.email])
        body = (f"Hello {user.name},\n\nTo get Food Truck Games notifications at this address, confirm it:\n\n"
                f"{self.link(f'/api/email/verify?token={token}')}\n\nThe link works for two days. If you did not "
                "ask for this, ignore this mail: nothing will be sent here.\n")
        await enqueue(session, f"verify:{user.id}:{secrets.token_hex(8)}", user, "Confirm your email address", body,
                      None)

    async def verify(self, session: AsyncSession, token: str) -> User:
        """Confirm the address a link was mailed to (if it is still the person's)."""
        try:
            user_id, address = self._verifier().loads(token, max_age=VERIFY_MAX_AGE)
        except SignatureExpired as exc:
            raise ServiceError("link_expired", "This confirmation link has expired: ask for a new one.", 410) from exc
        except (BadSignature, ValueError) as exc:
            raise ServiceError("bad_link", "This link is not valid.", 400) from exc
        row = await session.get(User, str(user_id), with_for_update=True)
        if row is None or row.email != address:
            raise ServiceError("bad_link", "This link is for an address the account no longer has.", 400)
        row.email_verified = True
        await session.commit()
        return row

    async def unsubscribe(self, session: AsyncSession, token: str) -> Notice:
        """Turn off the kind of notice a mail's link names."""
        try:
            user_id, kind = self._unsubscriber().loads(token)
            notice = Notice(kind)
        except (BadSignature, ValueError) as exc:
            raise ServiceError("bad_link", "This link is not valid.", 400) from exc
        row = await session.get(User, str(user_id), with_for_update=True)
        if row is None:
            raise ServiceError("bad_link", "This link is not valid.", 400)
        row.notify = {**(row.notify or {}), notice.value: False}
        await session.commit()
        return notice

    def turns_started(self, rec: TableRecord) -> list[tuple[str, str]]:
        """The turns this change started in a turn-based game for people away from the table: (the turn's key, user
        id). Someone at the table now sees it is their turn: a mail or a push is for a person who is away."""
        tc, clock = rec.time_control, rec.clock
        if rec.status != TableStatus.PLAYING or tc is None or tc["kind"] != ClockKind.TURN or clock is None:
            return []
        people = {s.seat: s.user_id for s in rec.seats if s.user_id is not None and not s.bot}
        return [(f"turn:{rec.id}:{seat}:{since}", people[seat]) for seat, since in clock["since"].items()
                if seat in people and not self.publisher.connected(rec.id, people[seat])]

    def concerns(self, rec: TableRecord) -> bool:
        """Whether a committed change may make a notice (a mail, a push): `after_change` is spawned only for these."""
        turn_based = rec.time_control is not None and rec.time_control["kind"] == ClockKind.TURN
        return turn_based or (
            enabled(self.settings) and (rec.time_control is not None or rec.status == TableStatus.FINISHED)
        )

    async def after_change(self, rec: TableRecord) -> None:
        """The notices a committed change makes: a turn starting in a turn-based game (a mail, a push), the end of a
        game (a mail)."""
        turns = self.turns_started(rec)
        if enabled(self.settings):
            await self._mail(rec, turns)
        if turns:
            message = {"title": "Your turn", "body": f"Your turn at {_title(rec)}", "url": f"/t/{rec.id}"}
            await self.push.send([(key, user_id, message) for key, user_id in turns])

    async def _mail(self, rec: TableRecord, turns: list[tuple[str, str]]) -> None:
        url = self.link(f"/t/{rec.id}")
        wanted: list[tuple[str, str, Notice, str, str]] = []  # key, user id, kind, subject, body
        for key, user_id in turns:
            wanted.append((key, user_id, Notice.TURN, f"Your turn: {_title(rec)}",
                           f"It is your turn at {_title(rec)}.\n\nPlay: {url}\n"))
        if rec.status == TableStatus.FINISHED and rec.outcome is not None:
            names = {s.seat: s.user_name or f"Bot {int(s.seat) + 1}" for s in rec.seats}
            winners = ", ".join(names.get(seat, seat) for seat in rec.outcome.get("winners") or []) or "nobody"
            for user_id in {s.user_id for s in rec.seats if s.user_id is not None}:
                wanted.append((f"finished:{rec.id}:{user_id}", user_id, Notice.FINISHED, f"Game over: {_title(rec)}",
                               f"{_title(rec)} is over. Won by {winners}.\n\nSee the result: {url}\n"))
        if not wanted:
            return
        async with self.database.write() as session:
            users = {u.id: u for u in await session.scalars(select(User).where(User.id.in_({w[1] for w in wanted})))}
            for key, user_id, kind, subject, body in wanted:
                user = users.get(user_id)
                if user is not None and wants(user, kind):
                    await enqueue(session, key, user, subject, f"Hello {user.name},\n\n{body}",
                                  self.unsubscribe_link(user.id, kind))
            await session.commit()

    async def invite(self, rec: TableRecord, host: User, username: Any) -> None:
        """The host invites a registered person to their table by email (if that person takes invitations by email:
        the answer is the same either way, so it tells nobody who has an address)."""
        if rec.host_id != host.id:
            raise ServiceError("not_host", "Only the host can do that.", 403)
        if rec.status != TableStatus.OPEN:
            raise ServiceError("already_started", "The game has already started.", 409)
        if not isinstance(username, str) or not username:
            raise ServiceError("bad_username", "Name the account to invite by its username.", 422)
        async with self.database.write() as session:
            user = await session.scalar(select(User).where(User.username == username.strip().lower()))
            if user is None or not wants(user, Notice.INVITE) or user.id == host.id:
                return
            url = self.link(f"/t/{rec.id}")
            if rec.visibility == Visibility.PRIVATE:
                url += f"?invite={invite_code(self.secret_key, rec.id, rec.invite_round)}"
            await enqueue(session, f"invite:{rec.id}:{user.id}:{rec.invite_round}", user,
                          f"{host.name} invites you to {_title(rec)}",
                          f"Hello {user.name},\n\n{host.name} invites you to play at {_title(rec)}.\n\n"
                          f"Take a seat: {url}\n",
                          self.unsubscribe_link(user.id, Notice.INVITE))
            await session.commit()

    async def send_due(self) -> int:
        """Send the outbox's waiting mails; how many were sent."""
        async with self.sending:
            return await self._send_due()

    async def _send_due(self) -> int:
        unsent = (EmailOut.sent_at.is_(None)) & (EmailOut.attempts < MAX_ATTEMPTS)
        query = select(EmailOut).where(unsent).order_by(EmailOut.id).limit(BATCH)
        if self.database.is_postgres:
            async with self.database.sessions() as session:
                rows = list(await session.scalars(query.with_for_update(skip_locked=True)))
                sent = await self._deliver(rows)
                await session.commit()
                return sent
        # SQLite: one process, whose single write lock must not wait on an SMTP server.
        async with self.database.sessions() as session:
            rows = list(await session.scalars(query))
            session.expunge_all()
        sent = await self._deliver(rows)
        async with self.database.write() as session:
            for row in rows:
                await session.merge(row)
            await session.commit()
        return sent

    async def _deliver(self, rows: list[EmailOut]) -> int:
        if not rows:
            return 0
        settings = self.settings
        try:
            failures = await asyncio.to_thread(_send, settings, [_message(settings, r) for r in rows])
        except (OSError, smtplib.SMTPException) as exc:
            failures = [str(exc)[:500]] * len(rows)
        now = datetime.now(UTC)
        for row, failure in zip(rows, failures, strict=True):
            if failure is None:
                row.sent_at = now
            else:
                row.attempts += 1
                row.last_error = failure
                log.warning("mail not sent", extra={"mail_id": row.id, "error": failure})
        return sum(f is None for f in failures)
