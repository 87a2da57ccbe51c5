"""Sign-in routes: guests, accounts, the current user."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Response
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import COOKIE, current_user, get_rt, get_session, optional_user
from app.api.schemas import AuthOut, GuestIn, LoginIn, OkOut, PasswordIn, RegisterIn, RenameIn, UserOut
from app.db.models import User
from app.runtime import Runtime
from app.services import account, auth

router = APIRouter(prefix="/api", tags=["identity"])


def _signed_in(rt: Runtime, response: Response, user: User) -> AuthOut:
    token = rt.signer.issue(user.id, user.token_epoch or 0)
    response.set_cookie(
        COOKIE,
        token,
        max_age=rt.settings.token_max_age,
        httponly=True,
        samesite="lax",
        secure=rt.settings.cookie_secure,
        path="/",
    )
    return AuthOut(token=token, user=UserOut(id=user.id, name=user.name, username=user.username))


@router.post("/auth/guest", response_model=AuthOut)
async def guest(
    body: GuestIn, response: Response, rt: Runtime = Depends(get_rt), session: AsyncSession = Depends(get_session)
) -> AuthOut:
    """Sign in as a guest with a display name."""
    return _signed_in(rt, response, await auth.create_guest(session, body.name))


@router.post("/auth/register", response_model=AuthOut)
async def register(
    body: RegisterIn,
    response: Response,
    rt: Runtime = Depends(get_rt),
    session: AsyncSession = Depends(get_session),
    user: User | None = Depends(optional_user),
) -> AuthOut:
    """Create an account (a signed-in guest keeps their tables)."""
    registered = await account.register(rt, session, body.username, body.password, body.name, user)
    return _signed_in(rt, response, registered)


@router.post("/auth/login", response_model=AuthOut)
async def login(
    body: LoginIn, response: Response, rt: Runtime = Depends(get_rt), session: AsyncSession = Depends(get_session)
) -> AuthOut:
    """Sign in with a username and password."""
    return _signed_in(rt, response, await auth.login(session, body.username, body.password))


@router.post("/auth/logout", response_model=OkOut)
async def logout(response: Response) -> OkOut:
    """Forget the session cookie."""
    response.delete_cookie(COOKIE, path="/")
    return OkOut(ok=True)


@router.post("/auth/logout_all", response_model=OkOut)
async def logout_all(response: Response, rt: Runtime = Depends(get_rt), user: User = Depends(current_user)) -> OkOut:
    """Sign my account out everywhere, here too: every token of it is refused and its open sockets close."""
    await account.sign_out_everywhere(rt, user.id)
    response.delete_cookie(COOKIE, path="/")
    return OkOut(ok=True)


@router.get("/me", response_model=UserOut)
async def me(user: User = Depends(current_user)) -> UserOut:
    """The signed-in user."""
    return UserOut(id=user.id, name=user.name, username=user.username)


@router.patch("/me", response_model=UserOut)
async def rename(body: RenameIn, rt: Runtime = Depends(get_rt), user: User = Depends(current_user)) -> UserOut:
    """Change my display name; the open and running tables I sit at or host show it at once."""
    renamed = await account.rename(rt, user, body.name)
    return UserOut(id=renamed.id, name=renamed.name, username=renamed.username)


@router.post("/me/password", response_model=AuthOut)
async def change_password(
    body: PasswordIn,
    response: Response,
    rt: Runtime = Depends(get_rt),
    user: User = Depends(current_user),
) -> AuthOut:
    """Change my account's password: my other sessions are signed out (their sockets close), this one gets a new
    token."""
    changed = await account.change_password(rt, user.id, body.current, body.new)
    return _signed_in(rt, response, changed)
