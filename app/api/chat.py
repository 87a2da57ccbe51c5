"""Table chat over REST: the history, posting a line (the table's socket takes `chat` messages too), and the
host's moderation: removing a line, muting and unmuting a person, choosing who may chat."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Path, Query, Request

from app.api.deps import current_user, get_rt
from app.api.paging import PageIn, paged
from app.api.schemas import (
    ChatIn,
    ChatMessageOut,
    ChatModeIn,
    ChatMuteOut,
    ChatMutesOut,
    ChatOut,
    ChatRemovedOut,
    ChatUnmuteOut,
    TableOut,
)
from app.api.tables import Viewing, viewing, visible_table
from app.db.models import User
from app.runtime import Runtime
from app.services import chat, lobby
from app.services.record import TableRecord

router = APIRouter(prefix="/api", tags=["chat"])
MAX_ID = 2**63 - 1  # the largest line id a database holds: a larger one names no line


CHAT_PAGES = paged(chat.HISTORY, chat.HISTORY)


@router.get("/tables/{table_id}/chat", response_model=ChatOut)
async def chat_history(v: Viewing = Depends(viewing), page: PageIn = Depends(CHAT_PAGES)) -> dict[str, Any]:
    """A page of the table's chat going back in time, shown oldest first: up to `limit` lines of the players (and
    host) and as many of everyone else, so watchers cannot push the players' words out (a private table needs a
    seat, the host, or ?invite=); and whether the reader is muted."""
    messages, after = await chat.history_page(v.session, v.rec.id, v.rec.host_id, page.cursor, page.limit)
    return {"messages": messages, "muted": await chat.is_muted(v.session, v.rec.id, v.user_id), "next": after}


async def _seen(request: Request, rt: Runtime, table_id: str, user: User, invite: str | None) -> TableRecord:
    # Its own short read: the write that follows takes a connection of its own.
    async with rt.reads() as session:
        return await visible_table(request, rt, session, table_id, user, invite)


@router.post("/tables/{table_id}/chat", response_model=ChatMessageOut)
async def post_chat(
    request: Request,
    table_id: str,
    body: ChatIn,
    invite: str | None = Query(default=None, max_length=200),
    rt: Runtime = Depends(get_rt),
    user: User = Depends(current_user),
) -> dict[str, Any]:
    """Post a line to the table's chat as a player or a spectator; every socket of the table gets it."""
    rec = await _seen(request, rt, table_id, user, invite)
    return await rt.chat.post(rec, user.id, body.text, body.client_id)


@router.delete("/tables/{table_id}/chat/{message_id:int}", response_model=ChatRemovedOut)
async def remove_line(
    request: Request,
    table_id: str,
    message_id: int = Path(ge=1, le=MAX_ID),
    rt: Runtime = Depends(get_rt),
    user: User = Depends(current_user),
) -> dict[str, Any]:
    """The host removes one line: gone from the history and, at once, from every socket of the table."""
    rec = await _seen(request, rt, table_id, user, None)
    return await rt.chat.remove(rec, user.id, message_id)


@router.get("/tables/{table_id}/chat/mutes", response_model=ChatMutesOut)
async def list_mutes(
    request: Request, table_id: str, rt: Runtime = Depends(get_rt), user: User = Depends(current_user)
) -> dict[str, Any]:
    """The people muted in the table's chat (host only)."""
    rec = await _seen(request, rt, table_id, user, None)
    async with rt.reads() as session:
        return {"mutes": await chat.mutes(session, rec, user.id)}


@router.put("/tables/{table_id}/chat/mutes/{user_id}", response_model=ChatMuteOut)
async def mute(
    request: Request,
    table_id: str,
    user_id: str = Path(max_length=64),
    rt: Runtime = Depends(get_rt),
    user: User = Depends(current_user),
) -> dict[str, Any]:
    """The host mutes a player or a spectator who has chatted here: their lines are refused (`muted`)."""
    rec = await _seen(request, rt, table_id, user, None)
    return await rt.chat.mute(rec, user.id, user_id)


@router.delete("/tables/{table_id}/chat/mutes/{user_id}", response_model=ChatUnmuteOut)
async def unmute(
    request: Request,
    table_id: str,
    user_id: str = Path(max_length=64),
    rt: Runtime = Depends(get_rt),
    user: User = Depends(current_user),
) -> dict[str, Any]:
    """The host lets a muted person chat again."""
    rec = await _seen(request, rt, table_id, user, None)
    return await rt.chat.unmute(rec, user.id, user_id)


@router.put("/tables/{table_id}/chat/mode", response_model=TableOut)
async def chat_mode(
    table_id: str, body: ChatModeIn, rt: Runtime = Depends(get_rt), user: User = Depends(current_user)
) -> dict[str, Any]:
    """The host opens the table's chat to everyone, or keeps it to accounts (and the players), or to the players."""
    rec = await rt.lobby.change(table_id, user, None, lambda s, r: lobby.set_chat_mode(s, r, user, body.mode))
    return rt.presenter.table_json(rec, user.id)
