"""Shared request plumbing: the runtime, the signed-in user, sessions."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import User
from app.runtime import Runtime
from app.services.auth import Claims, token_user
from app.services.errors import SESSION_ENDED_MESSAGE, ServiceError, banned
from app.services.record import valid_id

COOKIE = "session"


# Dependencies are coroutines, even those that never wait: FastAPI runs a plain function in a worker thread, a
# hand-off to and from the thread pool on every request.
async def get_rt(request: Request) -> Runtime:
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


def token_from(request_headers: dict[str, str] | None, cookies: dict[str, str]) -> str | None:
    """The session token from a bearer header, else the cookie. Never from a URL: addresses end up in logs, histories
    and Referer headers."""
    if request_headers:
        auth = request_headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            return auth[7:].strip() or None
    return cookies.get(COOKIE) or None


@dataclass(frozen=True)
class SignedIn:
    """A request's person and the session their token belongs to."""

    user: User
    claims: Claims


async def signed_in(rt: Runtime, token: str | None) -> SignedIn | None:
    """The person and session a token names; None without a token; an error for a bad, expired, signed-out or
    revoked one."""
    if not token:
        return None
    claims = rt.signer.claims(token)
    if not valid_id(claims.user_id):
        raise ServiceError("bad_token", "Your session is not valid; sign in again.", 401)
    user, revoked = await token_user(rt.database, claims)
    if user is None:
        raise ServiceError("bad_token", "Your session is not valid; sign in again.", 401)
    # A password change or a sign-out everywhere bumps the epoch; a sign-out revokes the one session.
    if revoked or claims.epoch != (user.token_epoch or 0):
        raise ServiceError("session_revoked", SESSION_ENDED_MESSAGE, 401)
    if user.banned_at is not None:  # a ban bumps the epoch too; this holds should a token of the new one exist
        raise banned()
    return SignedIn(user, claims)


async def user_for_token(rt: Runtime, token: str | None) -> User | None:
    """The user a token names; None without a token; an error for a bad one."""
    found = await signed_in(rt, token)
    return found.user if found is not None else None


async def optional_signed_in(request: Request, rt: Runtime = Depends(get_rt)) -> SignedIn | None:
    # Its own short read: a connection held for the whole request while the route opens a
    # second one could exhaust the pool under many concurrent requests.
    token = token_from(dict(request.headers), dict(request.cookies))
    if not token:
        return None
    return await signed_in(rt, token)


async def optional_user(found: SignedIn | None = Depends(optional_signed_in)) -> User | None:
    return found.user if found is not None else None


async def current_session(found: SignedIn | None = Depends(optional_signed_in)) -> SignedIn:
    if found is None:
        raise ServiceError("not_signed_in", "Sign in first (as a guest or with an account).", 401)
    return found


async def current_user(user: User | None = Depends(optional_user)) -> User:
    if user is None:
        raise ServiceError("not_signed_in", "Sign in first (as a guest or with an account).", 401)
    return user


def client_keys(request: Request, user: User | None) -> tuple[str, ...]:
    """Who is trying, for rate limits: the client address (a trusted proxy's word for it, app.http), and the person
    when signed in, so that neither new guests from one address nor one person from many addresses get a fresh
    allowance."""
    address = f"ip:{request.client.host if request.client else '?'}"
    return (address, f"u:{user.id}") if user is not None else (address,)
