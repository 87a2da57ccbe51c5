"""Shared request plumbing: the runtime, the signed-in user, sessions."""

from __future__ import annotations

from collections.abc import AsyncIterator

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import User
from app.runtime import Runtime
from app.services.auth import SESSION_ENDED_MESSAGE
from app.services.errors import ServiceError
from app.services.records import valid_id

COOKIE = "session"


def get_rt(request: Request) -> Runtime:
    rt: Runtime = request.app.state.runtime
    return rt


async def get_session(rt: Runtime = Depends(get_rt)) -> AsyncIterator[AsyncSession]:
    """A transactional session for a route that writes."""
    async with rt.sessions() as session:
        yield session


async def get_reads(rt: Runtime = Depends(get_rt)) -> AsyncIterator[AsyncSession]:
    """An autocommit session for a route that only reads (no BEGIN/ROLLBACK round trips)."""
    async with rt.reads() as session:
        yield session


def token_from(request_headers: dict[str, str] | None, cookies: dict[str, str], query_token: str | None) -> str | None:
    """The session token from a bearer header, a query parameter or the cookie, in that order."""
    if request_headers:
        auth = request_headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            return auth[7:].strip() or None
    return query_token or cookies.get(COOKIE) or None


async def user_for_token(rt: Runtime, session: AsyncSession, token: str | None) -> User | None:
    """The user a token names; None without a token; an error for a bad one."""
    if not token:
        return None
    user_id, epoch = rt.signer.claims(token)
    if not valid_id(user_id):
        raise ServiceError("bad_token", "Your session is not valid; sign in again.", 401)
    user = await session.get(User, user_id)
    if user is None:
        raise ServiceError("bad_token", "Your session is not valid; sign in again.", 401)
    # The row is read anyway, so checking the epoch costs nothing: a password change or a sign-out everywhere bumps it.
    if epoch != (user.token_epoch or 0):
        raise ServiceError("session_revoked", SESSION_ENDED_MESSAGE, 401)
    return user


async def optional_user(request: Request, rt: Runtime = Depends(get_rt)) -> User | None:
    # Its own short session: a connection held for the whole request while the route opens a
    # second one could exhaust the pool under many concurrent requests.
    token = token_from(dict(request.headers), dict(request.cookies), None)
    if not token:
        return None
    async with rt.reads() as session:
        return await user_for_token(rt, session, token)


async def current_user(user: User | None = Depends(optional_user)) -> User:
    if user is None:
        raise ServiceError("not_signed_in", "Sign in first (as a guest or with an account).", 401)
    return user


def client_key(request: Request, user: User | None) -> str:
    """Who is trying (for rate limits): the user, else the client address."""
    if user is not None:
        return f"u:{user.id}"
    return f"ip:{request.client.host if request.client else '?'}"
