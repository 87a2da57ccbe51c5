"""Identity: guest and registered users, signed session tokens, password hashing."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import threading
import time
import unicodedata
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import confusables
from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import ScalarSelect, bindparam, delete, exists, false, inspect, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import make_transient_to_detached
from sqlalchemy.orm.attributes import instance_dict

from app.db.models import REVOKED_SESSIONS, SEATS, USERS, GameTable, RevokedSession, Seat, User
from app.services.database import Database
from app.services.errors import ServiceError, banned

# Argon2id at RFC 9106's second recommended setting (64 MiB, 3 passes, 4 lanes), argon2-cffi's default, named so a
# reader sees what a stored hash costs to guess.
PASSWORD_PARAMETERS = profiles.RFC_9106_LOW_MEMORY
_hasher = PasswordHasher.from_parameters(PASSWORD_PARAMETERS)
# Hashing takes ~50 ms of CPU (on several threads: argon2's lanes) and holds nothing of the event loop when run in a
# thread (argon2-cffi releases the GIL). One at a time, on a thread of lower priority whose lanes inherit it, so a
# flood of sign-ins queues here rather than taking the cores from the games; the sign-in limits
# (services/ratelimits.py) keep that queue short.
_HASHING = asyncio.Semaphore(1)


def _lower_priority() -> None:
    with contextlib.suppress(OSError, AttributeError):  # not every system lets a thread lower its own priority
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)


_HASHER_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="password-hash", initializer=_lower_priority)
_TOKEN_SALT = "session-v1"


async def _hash(password: str) -> str:
    async with _HASHING:
        return await asyncio.get_running_loop().run_in_executor(_HASHER_THREAD, _hasher.hash, password)


async def hash_password(password: str) -> str:
    """Hash a password (checked by `check_password`) on the hashing thread."""
    return await _hash(password)


async def _verify(password_hash: str, password: str) -> None:
    """Raises VerificationError or InvalidHashError for a wrong password."""
    async with _HASHING:
        await asyncio.get_running_loop().run_in_executor(_HASHER_THREAD, _hasher.verify, password_hash, password)


@dataclass(frozen=True)
class Claims:
    """What a valid token says: whose it is, the account's token epoch it was issued under, and its session id
    (None in a token from before sessions had ids)."""

    user_id: str
    epoch: int
    sid: str | None


def new_session_id() -> str:
    return secrets.token_hex(16)


class TokenSigner:
    """Signs and checks session tokens (user id, token epoch, session id, issue time) with the server's secret key."""

    # Tokens already checked, with their issue time: every request and socket checks its token, and checking a
    # signature again costs more CPU than the rest of reading the person. Only valid tokens are kept (a forged one
    # is checked afresh each time); the age is checked on every use.
    VERIFIED_KEPT = 4096

    def __init__(self, secret_key: str, max_age: int) -> None:
        self._serializer = URLSafeTimedSerializer(secret_key, salt=_TOKEN_SALT)
        self.max_age = max_age
        self._verified: dict[str, tuple[Claims, int]] = {}

    def issue(self, user_id: str, epoch: int = 0, sid: str | None = None) -> str:
        """A token for a new session (`sid`, made here when not given) of this user under their current
        `token_epoch` (left out while 0: tokens from before epochs existed carry none)."""
        data: dict[str, str | int] = {"uid": user_id, "sid": sid or new_session_id()}
        if epoch:
            data["e"] = epoch
        return self._serializer.dumps(data)

    def claims(self, token: str) -> Claims:
        """What a valid token says; raises ServiceError for a forged, tampered or expired one."""
        kept = self._verified.get(token)
        if kept is not None:
            found, issued = kept
            if 0 <= int(time.time()) - issued <= self.max_age:
                return found
            del self._verified[token]  # its age is out: checked afresh below, which says so
        try:
            data, when = self._serializer.loads(token, max_age=self.max_age, return_timestamp=True)
        except SignatureExpired as exc:
            raise ServiceError("token_expired", "Your session has expired; sign in again.", 401) from exc
        except BadSignature as exc:
            raise ServiceError("bad_token", "Your session is not valid; sign in again.", 401) from exc
        if not isinstance(data, dict) or not isinstance(data.get("uid"), str):
            raise ServiceError("bad_token", "Your session is not valid; sign in again.", 401)
        epoch = data.get("e", 0)
        sid = data.get("sid")
        if not isinstance(epoch, int) or isinstance(epoch, bool) or not (sid is None or _is_session_id(sid)):
            raise ServiceError("bad_token", "Your session is not valid; sign in again.", 401)
        found = Claims(data["uid"], epoch, sid)
        if len(self._verified) >= self.VERIFIED_KEPT:
            del self._verified[next(iter(self._verified))]  # the oldest kept
        self._verified[token] = (found, int(when.timestamp()))
        return found


def _is_session_id(sid: object) -> bool:
    return isinstance(sid, str) and len(sid) == 32 and all(ch in "0123456789abcdef" for ch in sid)


async def revoke_session(session: AsyncSession, user_id: str, sid: str, max_age: int) -> None:
    """Refuse this session's token from now on (it expires by `max_age` after it was issued, at the latest); the rows of
    sessions that would have expired by now go. Not committed."""
    now = datetime.now(UTC)
    await session.execute(delete(RevokedSession).where(RevokedSession.expires_at < now))
    if await session.get(RevokedSession, sid) is None:
        session.add(RevokedSession(sid=sid, user_id=user_id, expires_at=now + timedelta(seconds=max_age)))


# Characters that print as nothing though Unicode does not call them format characters: fillers of the Hangul and
# braille blocks, and the like, with which a name could look empty or like another.
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5\u034f\u2061\u2062\u2063\u2064")
# More combining marks than this on one letter is "zalgo" text that spills over the lines around it.
MAX_MARKS = 2


def clean_name(name: str, what: str = "name", max_len: int = 40) -> str:
    """A display name people can trust: NFKC (so 𝕏 is X and full-width letters are letters), whitespace squeezed,
    1..max_len characters; refused with invisible, control or format characters, or a pile of combining marks."""
    if not isinstance(name, str):
        raise ServiceError("bad_name", f"The {what} must be text.", 422)
    name = " ".join(unicodedata.normalize("NFKC", name).split())
    if not name:
        raise ServiceError("bad_name", f"The {what} must not be empty.", 422)
    if len(name) > max_len:
        raise ServiceError("bad_name", f"The {what} is longer than {max_len} characters.", 422)
    marks = 0
    for ch in name:
        category = unicodedata.category(ch)
        if category[0] == "C" or ch in _INVISIBLE or (category[0] == "Z" and ch != " "):
            raise ServiceError("bad_name", f"The {what} holds an invisible or control character.", 422)
        marks = marks + 1 if category in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            raise ServiceError("bad_name", f"The {what} piles too many accents on one letter.", 422)
    return name


def confusable(one: str, other: str) -> bool:
    """Whether two names could be taken for each other (Latin a and Cyrillic а, rn and m, l and 1, case): the
    `confusables` package's comparison over Unicode's confusables data."""
    return bool(confusables.is_confusable(one, other))


def check_distinct_name(name: str, others: Iterable[str | None], what: str = "at this table") -> None:
    """Refuse a name that could be taken for one of `others` (the people of a table)."""
    for other in others:
        if other is not None and confusable(name, other):
            raise ServiceError(
                "name_confusable",
                f"Your name could be taken for {other}'s, who is {what}: change your name to take a seat here.",
                409,
            )


def check_password(password: object) -> None:
    """The rules a new password must keep (at registration and at a change)."""
    if not isinstance(password, str) or len(password) < 8:
        raise ServiceError("weak_password", "The password needs at least 8 characters.", 422)
    if len(password) > 256:
        raise ServiceError("weak_password", "The password is longer than 256 characters.", 422)


def is_guest(user: User) -> bool:
    """A guest has no account (no username): their seats are not rated (record.TableRecord.rated_people)."""
    return user.username is None


async def mark_guest_seats(session: AsyncSession, table_id: str) -> None:
    """Mark each seat of an open table by whether its person is a guest as this transaction commits, not as the
    request found them: a guest who registers meanwhile turns only the seats their registration can see (`register`).
    Their user rows are held (FOR SHARE on Postgres; SQLite writes one transaction at a time) so that a registration
    either waits for this commit, and turns the seat, or commits first and is read here."""
    await session.execute(_MARK_GUEST_SEATS, {"of_table": table_id})


def guest_now(user_id: Any) -> ScalarSelect[bool]:
    """Whether this person is a guest as the statement it is part of commits, for the one seat it writes: their row
    is held as `mark_guest_seats` holds it. `user_id` is a value or a bound parameter."""
    return select(USERS.c.username.is_(None)).where(USERS.c.id == user_id).with_for_update(read=True).scalar_subquery()


_SEATED = select(SEATS.c.user_id).where(SEATS.c.table_id == bindparam("of_table"), SEATS.c.user_id.is_not(None))
# One statement, built once: the locking sub-select returns each row as its lock finds it, so a registration that
# committed while this waited is read here.
_PEOPLE = (
    select(USERS.c.id, USERS.c.username).where(USERS.c.id.in_(_SEATED)).with_for_update(read=True).subquery()
)
_MARK_GUEST_SEATS = (
    update(SEATS).where(SEATS.c.table_id == bindparam("of_table"), SEATS.c.user_id == _PEOPLE.c.id)
    .values(guest=_PEOPLE.c.username.is_(None))
)


def new_id() -> str:
    return secrets.token_hex(8)


async def create_guest(session: AsyncSession, name: str) -> User:
    """A new guest user with a display name."""
    user = User(id=new_id(), name=clean_name(name))
    session.add(user)
    await session.commit()
    return user


async def register(
    session: AsyncSession, username: str, password: str, name: str | None, current: User | None
) -> User:
    """Register an account; a signed-in guest keeps their id (and so their tables), and their seats in games not
    settled yet become an account's, rated like anyone's: a game is rated by what its people are when it is settled
    (a finished game keeps what they were)."""
    username = clean_name(username, "username").lower()
    if not all(ch.isalnum() or ch in "._-" for ch in username):
        raise ServiceError("bad_username", "A username may hold letters, digits, '.', '_' and '-'.", 422)
    check_password(password)
    # Before the session takes a connection and any row is locked: hashing takes a while.
    password_hash = await _hash(password)
    taken = await session.scalar(select(User.id).where(User.username == username))
    if taken:
        raise ServiceError("username_taken", "That username is taken.", 409)
    display = clean_name(name) if name else (current.name if current else username)
    if current is not None and is_guest(current):
        # Locked before its seats turn: a seat being taken now is either seen here or reads the account
        # (mark_guest_seats).
        user = await session.get(User, current.id, with_for_update=True)
        assert user is not None
        if not is_guest(user):  # the same guest registering twice at once (two tabs)
            raise ServiceError("already_registered", "This guest has just created an account: sign in to it.", 409)
        unsettled = select(GameTable.id).where(GameTable.rated.is_(None))
        await session.execute(
            update(Seat)
            .where(Seat.user_id == user.id, Seat.guest.is_(True), Seat.table_id.in_(unsettled))
            .values(guest=False)
        )
    else:
        user = User(id=new_id())
        session.add(user)
    user.name = display
    user.username = username
    user.password_hash = password_hash
    await session.commit()
    return user


async def login(reads: async_sessionmaker[AsyncSession], username: str, password: str) -> User:
    """Check a username and password. The account is read in a session of its own, closed before the password is
    checked: a flood of sign-ins waiting for the hashing threads must not hold the database's connections."""
    if not isinstance(username, str) or not isinstance(password, str):
        raise ServiceError("bad_credentials", "Wrong username or password.", 401)
    username = username.strip().lower()
    if not username or len(username) > 40 or not all(ch.isalnum() or ch in "._-" for ch in username):
        await _hash(password[:256])  # same cost either way, so timing reveals nothing
        raise ServiceError("bad_credentials", "Wrong username or password.", 401)
    async with reads() as session:
        user = await session.scalar(select(User).where(User.username == username))
    if user is None or not user.password_hash:
        await _hash(password[:256])  # same cost either way, so timing reveals nothing
        raise ServiceError("bad_credentials", "Wrong username or password.", 401)
    if len(password) > 256:  # no password that long was ever accepted; hashing it would only cost
        await _hash(password[:256])
        raise ServiceError("bad_credentials", "Wrong username or password.", 401)
    try:
        await _verify(user.password_hash, password)
    except (VerificationError, InvalidHashError) as exc:
        raise ServiceError("bad_credentials", "Wrong username or password.", 401) from exc
    if user.banned_at is not None:  # told only to whoever knows the password
        raise banned()
    return user


async def locked_user(session: AsyncSession, user_id: str) -> User:
    """A person's row (a guest's too), locked for a change of their token epoch."""
    user = await session.get(User, user_id, with_for_update=True, populate_existing=True)
    if user is None:
        raise ServiceError("bad_token", "Your session is not valid; sign in again.", 401)
    return user


async def registered_user(session: AsyncSession, user_id: str) -> User:
    """The account's row, locked for a change of its password or token epoch; a guest has neither to change."""
    user = await session.get(User, user_id, with_for_update=True, populate_existing=True)
    if user is None:
        raise ServiceError("bad_token", "Your session is not valid; sign in again.", 401)
    if not user.username or not user.password_hash:
        raise ServiceError("not_registered", "A guest has no password: create an account first.", 409)
    return user


async def new_password_hash(
    reads: async_sessionmaker[AsyncSession], user_id: str, current: object, new: object
) -> tuple[str, str]:
    """Check an account's current password and hash the new one, with no row locked and no connection held (hashing
    takes a while): the stored hash it was checked against, and the new one. A guest has no password to change
    (`not_registered`)."""
    async with reads() as session:
        user = await session.get(User, user_id)
    if user is None:
        raise ServiceError("bad_token", "Your session is not valid; sign in again.", 401)
    if not user.username or not user.password_hash:
        raise ServiceError("not_registered", "A guest has no password: create an account first.", 409)
    if not isinstance(current, str) or not current or len(current) > 256:
        await _hash("-" * 8)  # same cost either way, so timing reveals nothing
        raise ServiceError("wrong_password", "The current password is not right.", 403)
    try:
        await _verify(user.password_hash, current)
    except (VerificationError, InvalidHashError) as exc:
        raise ServiceError("wrong_password", "The current password is not right.", 403) from exc
    check_password(new)
    assert isinstance(new, str)
    return user.password_hash, await _hash(new)


async def change_password(session: AsyncSession, user_id: str, checked_hash: str, new_hash: str) -> User:
    """Store the new password hash (from `new_password_hash`) and bump the account's token epoch so that every session
    signed in before (every other device) is signed out. Refused (`wrong_password`) if the password changed since it
    was checked. Not committed: the caller commits with the notice that closes those sessions' sockets
    (services/account.py) and issues the asking session a new token."""
    user = await registered_user(session, user_id)
    if user.password_hash != checked_hash:
        raise ServiceError("wrong_password", "The current password is not right.", 403)
    user.password_hash = new_hash
    user.token_epoch = (user.token_epoch or 0) + 1
    return user


def user_json(user: User) -> dict[str, str | None]:
    return {"id": user.id, "name": user.name, "username": user.username}


async def token_user(database: Database, claims: Claims) -> tuple[User | None, bool]:
    """The person a token's claims name (None if there is no such person), and whether its session was signed out
    of."""
    if claims.sid is None:
        row = await database.first_row(_PERSON, {"user_id": claims.user_id})
    else:
        row = await database.first_row(_PERSON_AND_SESSION, {"user_id": claims.user_id, "sid": claims.sid})
    if row is None:
        return None, False
    return _detached_user(row), bool(row[len(_USER_KEYS)])


# Built once (every request runs one): a statement made afresh costs more CPU than its execution. The user row is
# read anyway: the signed-out check rides on the same statement.
_PERSON = select(*USERS.c, false().label("signed_out")).where(USERS.c.id == bindparam("user_id"))
_PERSON_AND_SESSION = select(
    *USERS.c, exists().where(REVOKED_SESSIONS.c.sid == bindparam("sid")).label("signed_out")
).where(USERS.c.id == bindparam("user_id"))


def _detached_user(row: Sequence[Any]) -> User:
    """The person of a plain row, as a session that loaded and closed would leave them: every request reads its
    person, and a row costs far less than the ORM's load of an object nobody writes through (a change loads the
    person afresh in its own transaction). The attributes go straight into the object's dict, as the ORM's loading
    puts them: through the constructor, each would be recorded as a change (a third of the cost), which
    `make_transient_to_detached` then forgets."""
    user = _NEW_USER()
    instance_dict(user).update(zip(_USER_KEYS, row[: len(_USER_KEYS)], strict=True))
    make_transient_to_detached(user)
    return user


_NEW_USER = inspect(User).class_manager.new_instance
_USER_KEYS = tuple(column.key for column in USERS.c)  # the rows' first columns (_PERSON, _PERSON_AND_SESSION)
