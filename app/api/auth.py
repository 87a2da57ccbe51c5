"""Sign-in routes: guests, accounts, the current user and their sessions."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request, Response
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import (
    COOKIE,
    SignedIn,
    client_keys,
    current_session,
    current_user,
    get_rt,
    get_session,
    optional_user,
    signed_in,
    token_from,
)
from app.api.schemas import (
    AuthOut,
    ForgotIn,
    GuestIn,
    LoginIn,
    MeOut,
    OkOut,
    PasswordIn,
    RefusalOut,
    RegisterIn,
    RenameIn,
    ResetIn,
    SessionOut,
    UserOut,
)
from app.db.models import User
from app.runtime import Runtime
from app.services import auth, recovery
from app.services.auth import new_session_id
from app.services.errors import ServiceError

router = APIRouter(prefix="/api", tags=["identity"])


def cookie_secure(rt: Runtime, request: Request) -> bool:
    """Whether the session cookie is sent over HTTPS only: always with COOKIE_SECURE, else whenever the request came
    over HTTPS (directly, or as a trusted proxy's X-Forwarded-Proto says: app.http)."""
    return rt.settings.cookie_secure or request.url.scheme == "https"


def _signed_in(rt: Runtime, request: Request, response: Response, user: User) -> AuthOut:
    sid = new_session_id()
    token = rt.signer.issue(user.id, user.token_epoch or 0, sid)
    response.set_cookie(
        COOKIE,
        token,
        max_age=rt.settings.token_max_age,
        httponly=True,
        samesite="lax",
        secure=cookie_secure(rt, request),
        path="/",
    )
    return AuthOut(token=token, session=sid, user=UserOut(id=user.id, name=user.name, username=user.username))


def _forget_cookie(rt: Runtime, request: Request, response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", secure=cookie_secure(rt, request), httponly=True, samesite="lax")


@router.post("/auth/guest", response_model=AuthOut)
async def guest(
    body: GuestIn,
    request: Request,
    response: Response,
    rt: Runtime = Depends(get_rt),
    session: AsyncSession = Depends(get_session),
) -> AuthOut:
    """Sign in as a guest with a display name."""
    await rt.limits.hit(rt.limits.guests, *client_keys(request, None))
    return _signed_in(rt, request, response, await auth.create_guest(session, body.name))


@router.post("/auth/register", response_model=AuthOut)
async def register(
    body: RegisterIn,
    request: Request,
    response: Response,
    rt: Runtime = Depends(get_rt),
    session: AsyncSession = Depends(get_session),
    user: User | None = Depends(optional_user),
) -> AuthOut:
    """Create an account (a signed-in guest keeps their tables)."""
    await rt.limits.hit(rt.limits.registrations, *client_keys(request, None))
    registered = await rt.accounts.register(session, body.username, body.password, body.name, user)
    return _signed_in(rt, request, response, registered)


@router.post("/auth/login", response_model=AuthOut)
async def login(body: LoginIn, request: Request, response: Response, rt: Runtime = Depends(get_rt)) -> AuthOut:
    """Sign in with a username and password. Wrong passwords are limited per client address and per username."""
    name = body.username.strip().lower()[:40] if isinstance(body.username, str) else ""
    keys = (*client_keys(request, None), f"name:{name}")
    await rt.limits.check(rt.limits.login_failures, *keys)
    try:
        user = await auth.login(rt.reads, body.username, body.password)
    except ServiceError as exc:
        if exc.code == "bad_credentials":
            await rt.limits.note(rt.limits.login_failures, *keys)
        raise
    return _signed_in(rt, request, response, user)


@router.post("/auth/forgot", response_model=OkOut)
async def forgot_password(body: ForgotIn, request: Request, rt: Runtime = Depends(get_rt)) -> OkOut:
    """Ask for a password reset link, mailed to the account's confirmed address. The answer is `ok` whether or not an
    account by that username or confirmed address exists: only its mailbox learns. Limited per client address and
    per name asked about."""
    keys = (*client_keys(request, None), f"who:{recovery.asked_about(body.who)}")
    await rt.limits.hit(rt.limits.password_resets, *keys)
    await rt.recovery.request_reset(body.who)
    return OkOut(ok=True)


@router.post("/auth/reset", response_model=OkOut)
async def reset_password(body: ResetIn, request: Request, rt: Runtime = Depends(get_rt)) -> OkOut:
    """Set a new password with a reset link's token: the link is used up and every session of the account ends (sign
    in with the new password). A wrong token counts as a wrong sign-in."""
    keys = client_keys(request, None)
    await rt.limits.check(rt.limits.login_failures, *keys)
    try:
        await rt.recovery.reset(body.token, body.password)
    except ServiceError as exc:
        if exc.code == "bad_link":
            await rt.limits.note(rt.limits.login_failures, *keys)
        raise
    return OkOut(ok=True)


@router.post("/auth/logout", response_model=OkOut)
async def logout(request: Request, response: Response, rt: Runtime = Depends(get_rt)) -> OkOut:
    """Sign this session out: its token is refused from now on (wherever a copy of it is) and its sockets close; the
    cookie is cleared. Answered `ok` with no session or one already ended, too."""
    token = token_from(dict(request.headers), dict(request.cookies))
    found: SignedIn | None = None
    try:
        found = await signed_in(rt, token)
    except ServiceError:
        found = None  # signed out already, or a token that was never good: nothing to end
    if found is not None:
        await rt.accounts.sign_out(found.user.id, found.claims.sid)
    _forget_cookie(rt, request, response)
    return OkOut(ok=True)


@router.post("/auth/logout_all", response_model=OkOut)
async def logout_all(
    request: Request, response: Response, rt: Runtime = Depends(get_rt), user: User = Depends(current_user)
) -> OkOut:
    """Sign me out everywhere, here too: every token of mine is refused and my open sockets close (a guest's too)."""
    await rt.accounts.sign_out_everywhere(user.id)
    _forget_cookie(rt, request, response)
    return OkOut(ok=True)


@router.get("/auth/session", response_model=SessionOut)
async def session_status(request: Request, response: Response, rt: Runtime = Depends(get_rt)) -> SessionOut:
    """Who this request is signed in as, answered 200 whether or not anyone is: a page asks it on every load, and a
    visitor who is not signed in is no error. A refused token (its session ended, or it is bad or expired) is said in
    `refused`, and its cookie is cleared, so the browser stops sending it."""
    token = token_from(dict(request.headers), dict(request.cookies))
    try:
        found = await signed_in(rt, token)
    except ServiceError as refusal:
        _forget_cookie(rt, request, response)
        return SessionOut(refused=RefusalOut(code=refusal.code, message=refusal.message))
    if found is None:
        return SessionOut()
    user = found.user
    return SessionOut(user=UserOut(id=user.id, name=user.name, username=user.username), session=found.claims.sid)


@router.get("/me", response_model=MeOut)
async def me(found: SignedIn = Depends(current_session)) -> MeOut:
    """The signed-in user, and the id of this session."""
    user = found.user
    return MeOut(id=user.id, name=user.name, username=user.username, session=found.claims.sid)


@router.patch("/me", response_model=UserOut)
async def rename(body: RenameIn, rt: Runtime = Depends(get_rt), user: User = Depends(current_user)) -> UserOut:
    """Change my display name; the open and running tables I sit at or host show it at once."""
    renamed = await rt.accounts.rename(user, body.name)
    return UserOut(id=renamed.id, name=renamed.name, username=renamed.username)


@router.post("/me/password", response_model=AuthOut)
async def change_password(
    body: PasswordIn,
    request: Request,
    response: Response,
    rt: Runtime = Depends(get_rt),
    user: User = Depends(current_user),
) -> AuthOut:
    """Change my account's password: my other sessions are signed out (their sockets close), this one gets a new
    token."""
    changed = await rt.accounts.change_password(user.id, body.current, body.new)
    return _signed_in(rt, request, response, changed)
