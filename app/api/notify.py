"""Notifications: email (my address and preferences, the links mails carry: confirm, unsubscribe; invitations) and Web
Push (the server's VAPID key, my browsers' subscriptions)."""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import parse_qs

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import current_user, get_reads, get_rt, get_session
from app.api.schemas import (
    InviteEmailIn,
    NotificationsIn,
    NotificationsOut,
    OkOut,
    PushEndpointIn,
    PushKeyOut,
    PushStatusOut,
    PushSubscriptionIn,
)
from app.db.models import User
from app.runtime import Runtime
from app.services import notify, push
from app.services.errors import ServiceError, not_found
from app.services.loading import load_record

router = APIRouter(prefix="/api")

WORDS = {
    notify.Notice.TURN: "your turn in a turn-based game",
    notify.Notice.FINISHED: "a game of yours finished",
    notify.Notice.INVITE: "invitations to a table",
}


def page(title: str, text: str, form: str = "") -> HTMLResponse:
    """A small page of its own for a link opened from a mail (no script, no style of its own)."""
    html = (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f'<link rel="stylesheet" href="/style.css"></head><body><main class="page"><h1>{escape(title)}</h1>'
            f'<p>{escape(text)}</p>{form}<p><a href="/">Food Truck Games</a></p></main></body></html>')
    return HTMLResponse(html)


@router.get("/me/notifications", response_model=NotificationsOut)
async def my_notifications(rt: Runtime = Depends(get_rt), user: User = Depends(current_user)) -> dict[str, Any]:
    """My address for notifications, whether it is confirmed, and which mails I get."""
    return rt.notifications.preferences(user)


@router.put("/me/notifications", response_model=NotificationsOut)
async def set_notifications(
    body: NotificationsIn,
    rt: Runtime = Depends(get_rt),
    session: AsyncSession = Depends(get_session),
    user: User = Depends(current_user),
) -> dict[str, Any]:
    """Change my address (a confirmation link is mailed to a new one) or which mails I get."""
    changed = await rt.notifications.update(session, user, body.model_dump(exclude_unset=True))
    return rt.notifications.preferences(changed)


@router.get("/email/verify", response_class=HTMLResponse)
async def verify(token: str = "", rt: Runtime = Depends(get_rt),
                 session: AsyncSession = Depends(get_session)) -> HTMLResponse:
    """The confirmation link of a mail."""
    try:
        user = await rt.notifications.verify(session, token)
    except ServiceError as exc:
        return page("Not confirmed", exc.message)
    return page("Address confirmed", f"Notifications for {user.name} will be sent to {user.email}.")


@router.get("/email/unsubscribe", response_class=HTMLResponse)
async def unsubscribe_page(token: str = "") -> HTMLResponse:
    """The unsubscribe link of a mail: a button, so a mail scanner opening the link changes nothing."""
    form = (f'<form method="post"><input type="hidden" name="token" value="{escape(token)}">'
            '<button type="submit" class="primary">Unsubscribe</button></form>')
    return page("Unsubscribe", "Get no more mails of this kind?", form)


@router.post("/email/unsubscribe", response_class=HTMLResponse)
async def unsubscribe(
    request: Request, token: str = "", rt: Runtime = Depends(get_rt), session: AsyncSession = Depends(get_session),
) -> HTMLResponse:
    """Unsubscribe: the page's button (the token in the form), or a mail client's one click (RFC 8058: the token in
    the link, the body `List-Unsubscribe=One-Click`)."""
    form = parse_qs((await request.body())[:4096].decode("utf-8", "replace"))
    try:
        kind = await rt.notifications.unsubscribe(session, token or (form.get("token") or [""])[0])
    except ServiceError as exc:
        return page("Not unsubscribed", exc.message)
    return page("Unsubscribed", f"No more mails about {WORDS[kind]}. Your profile's page turns them back on.")


@router.post("/tables/{table_id}/invite_email", response_model=OkOut)
async def invite_email(
    table_id: str, body: InviteEmailIn, rt: Runtime = Depends(get_rt), user: User = Depends(current_user)
) -> OkOut:
    """The host invites a registered person to the open table by email (the same answer whether a mail goes)."""
    async with rt.reads() as session:
        rec = await load_record(session, table_id)
    if not rec.can_see(user.id, None):
        raise not_found()  # a private table is not there for those who may not see it
    await rt.notifications.invite(rec, user, body.username)
    return OkOut(ok=True)


@router.get("/push/key", response_model=PushKeyOut)
async def push_key(rt: Runtime = Depends(get_rt)) -> PushKeyOut:
    """The server's VAPID public key, which a browser subscribes with (`applicationServerKey`); 503
    `push_unavailable` when the server runs without Web Push."""
    if rt.vapid is None:
        raise push.unavailable()
    return PushKeyOut(public_key=rt.vapid.public_key)


@router.get("/me/push", response_model=PushStatusOut)
async def my_push(session: AsyncSession = Depends(get_reads), user: User = Depends(current_user)) -> PushStatusOut:
    """How many browsers I get Web Push notifications on."""
    return PushStatusOut(subscriptions=await push.count(session, user))


@router.post("/me/push", response_model=OkOut)
async def push_subscribe(
    body: PushSubscriptionIn,
    rt: Runtime = Depends(get_rt),
    session: AsyncSession = Depends(get_session),
    user: User = Depends(current_user),
) -> OkOut:
    """Get "your turn" pushes on this browser: its PushSubscription (endpoint, keys.p256dh, keys.auth); 503
    `push_unavailable` when the server runs without Web Push."""
    async with rt.database.single_writer():
        await rt.push.subscribe(session, user, body.endpoint, body.keys.p256dh, body.keys.auth)
    return OkOut(ok=True)


@router.delete("/me/push", response_model=OkOut)
async def push_unsubscribe(
    body: PushEndpointIn,
    rt: Runtime = Depends(get_rt),
    session: AsyncSession = Depends(get_session),
    user: User = Depends(current_user),
) -> OkOut:
    """Get no more pushes on the browser of this endpoint."""
    async with rt.database.single_writer():
        await push.unsubscribe(session, user, body.endpoint)
    return OkOut(ok=True)
