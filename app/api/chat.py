"""Table chat over REST: the history, and posting a line (the table's socket takes `chat` messages too)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query, Request

from app.api.deps import current_user, get_rt
from app.api.schemas import ChatIn, ChatMessageOut, ChatOut
from app.api.tables import Viewing, viewing, visible_table
from app.db.models import User
from app.runtime import Runtime
from app.services import chat

router = APIRouter(prefix="/api", tags=["chat"])


@router.get("/tables/{table_id}/chat", response_model=ChatOut)
async def chat_history(v: Viewing = Depends(viewing)) -> dict[str, Any]:
    """The table's last 100 chat lines, oldest first (a private table needs a seat, the host, or ?invite=)."""
    return {"messages": await chat.history(v.session, v.rec.id)}


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
    # Its own short read: the write that follows takes a connection of its own.
    async with rt.reads() as session:
        rec = await visible_table(request, rt, session, table_id, user, invite)
    return await chat.post(rt, rec, user.id, body.text, body.client_id)
