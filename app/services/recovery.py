"""Accounts people can recover: a password reset link mailed to the account's confirmed address (services/notify.py).

Asking (`request_reset`) names the account by its username or its confirmed address, and is answered the same whether
or not such an account exists, has a confirmed address, or was mailed: only the mailbox learns. The link carries a
random token (256 bits); the database keeps only its SHA-256 (`password_resets`), so a copy of the table resets
nothing. A link works once and for `PASSWORD_RESET_MAX_AGE` seconds; using it sets the new password, drops every other
link of the account and bumps its token epoch, which ends every session of it on every process (services/account.py).
Asking is limited per client address and per name asked about, like sign-ins (services/ratelimits.py); a wrong token
counts as a wrong password.

The token travels in the link's fragment (`/reset.html#token=…`), which browsers do not send to the server: it stays
out of access logs and of any Referer.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import delete, func, select

from app.db.models import PasswordReset, User
from app.services import auth, notify
from app.services.account import end_sessions
from app.services.errors import ServiceError

if TYPE_CHECKING:
    from app.clock import Clock
    from app.services.database import Database
    from app.services.ports import Publisher

TOKEN_BYTES = 32


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _aware(at: datetime) -> datetime:
    # SQLite gives back the stored UTC time without its zone.
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def asked_about(who: object) -> str:
    """The name a request asks about, as the rate limits count it (an address's case does not make another)."""
    return who.strip().lower()[:254] if isinstance(who, str) else ""


class Recovery:
    """Password reset links: mailed on request, and used once to set a new password."""

    def __init__(
        self,
        *,
        database: Database,
        publisher: Publisher,
        clock: Clock,
        origin: str,
        mail_enabled: bool,
        public_url: str,
        link_max_age: int,
    ) -> None:
        self.database = database
        self.publisher = publisher
        self.clock = clock  # the time a link is made at and checked against
        self.origin = origin  # names this process in its side notices: its own come back from the broker
        self.mail_enabled = mail_enabled  # the server sends mail (notify.enabled): else no link can be mailed
        self.public_url = public_url  # the site's address, which the mailed link starts with
        self.link_max_age = link_max_age  # seconds a link works (PASSWORD_RESET_MAX_AGE)

    async def request_reset(self, who: object) -> None:
        """Mail a reset link to the account named by `who` (a username, or a confirmed address) if there is one with a
        confirmed address; nothing is said either way."""
        if not self.mail_enabled:
            raise ServiceError("email_off", "This server sends no email, so a password cannot be reset by mail.", 403)
        name = asked_about(who)
        if not name:
            raise ServiceError("bad_request", "Give your username or your confirmed email address.", 422)
        column = func.lower(User.email) if "@" in name else User.username
        async with self.database.write() as session:
            users = list(await session.scalars(
                select(User).where(column == name, User.email_verified.is_(True), User.username.is_not(None))
            ))
            now = self.clock.now()
            # Expired links go as new ones are made (few: asking is rate limited).
            await session.execute(delete(PasswordReset).where(PasswordReset.expires_at <= now))
            for user in users:  # one, or none: a confirmed address is one account's, but nothing enforces it
                if user.banned_at is not None or not user.password_hash:
                    continue
                token = secrets.token_urlsafe(TOKEN_BYTES)
                expires = now + timedelta(seconds=self.link_max_age)
                session.add(PasswordReset(token_hash=_digest(token), user_id=user.id, created_at=now,
                                          expires_at=expires))
                minutes = max(1, self.link_max_age // 60)
                body = (f"Hello {user.name},\n\nSomeone, hopefully you, asked to reset the password of the Food Truck "
                        f"Games account {user.username}. To choose a new one, open this link:\n\n"
                        f"{self.public_url}/reset.html#token={token}\n\n"
                        f"It works once, for {minutes} minutes. Setting a new password signs the account out "
                        "everywhere. If you did not ask for this, ignore this mail: your password stays as it is.\n")
                await notify.enqueue(session, f"reset:{user.id}:{secrets.token_hex(8)}", user,
                                     "Reset your password", body, None)
            await session.commit()

    async def reset(self, token: object, password: object) -> User:
        """Set a new password by a reset link's token: the link is used up, and every session of the account ends."""
        if not isinstance(token, str) or not 20 <= len(token) <= 100:
            raise ServiceError("bad_link", "This reset link is not valid, or was used already.", 400)
        auth.check_password(password)
        assert isinstance(password, str)
        # Before any row is locked: hashing takes a while.
        new_hash = await auth.hash_password(password)
        async with self.database.write() as session:
            row = await session.get(PasswordReset, _digest(token), with_for_update=True)
            if row is None:
                raise ServiceError("bad_link", "This reset link is not valid, or was used already.", 400)
            if _aware(row.expires_at) <= self.clock.now():
                await session.delete(row)
                await session.commit()
                raise ServiceError("link_expired", "This reset link has expired: ask for a new one.", 410)
            user = await auth.registered_user(session, row.user_id)
            # Every link of the account goes: this one is used, and the others were asked for before the new
            # password.
            await session.execute(delete(PasswordReset).where(PasswordReset.user_id == user.id))
            user.password_hash = new_hash
            user.token_epoch = (user.token_epoch or 0) + 1
            await end_sessions(self.publisher, self.origin, session, user)
        return user
