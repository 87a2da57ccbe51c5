"""Lobby routes: games, tables, seats, history."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Depends, Query, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import client_keys, current_user, get_reads, get_rt, get_session, optional_user
from app.api.paging import PageIn, paged
from app.api.schemas import (
    AbandonIn,
    BotIn,
    CreateTableIn,
    GameOut,
    JoinIn,
    MovesOut,
    ReplayOut,
    SeatIn,
    TableOut,
    TablesOut,
    TakebackIn,
    VerifyOut,
)
from app.db.models import User
from app.games import GAMES
from app.runtime import Runtime
from app.services import history, listings, options, takeback
from app.services import lobby as svc
from app.services.errors import ServiceError, not_found
from app.services.record import TableRecord, TableStatus

router = APIRouter(prefix="/api", tags=["lobby"])
TABLE_PAGES = paged(listings.PAGE, listings.MAX_PAGE)


@router.get("/games", response_model=list[GameOut])
async def list_games() -> list[dict[str, Any]]:
    """The games on offer, with player counts and options."""
    return [options.game_json(g) for g in GAMES.values()]


@router.get("/games/{game_id}/catalog", response_model=dict[str, Any])
async def game_catalog(game_id: str) -> dict[str, Any]:
    """The game's static component faces (card texts …) for its renderer; {} when it has none."""
    return dict(options.get_game(game_id).catalog or {})


@router.post("/tables", response_model=TableOut, response_model_exclude_none=False)
async def create_table(
    request: Request,
    body: CreateTableIn,
    rt: Runtime = Depends(get_rt),
    session: AsyncSession = Depends(get_session),
    user: User = Depends(current_user),
) -> dict[str, Any]:
    """Create a table; the host takes the first seat."""
    async with rt.limits.attempt(rt.limits.tables, *client_keys(request, user), session=session):
        rec = await rt.lobby.create_table(session, user, body.game, body.seats, body.options, body.visibility,
                                          body.name, body.time_control)
    await rt.tables.after_change(rec)
    return rt.presenter.table_json(rec, user.id)


@router.get("/tables", response_model=TablesOut)
async def public_tables(
    status: TableStatus | None = None,
    game: str | None = Query(default=None, max_length=100),
    page: PageIn = Depends(TABLE_PAGES),
    rt: Runtime = Depends(get_rt),
    session: AsyncSession = Depends(get_reads),
    user: User | None = Depends(optional_user),
) -> dict[str, Any]:
    """A page of the public tables, newest activity first, filtered by status and game."""
    recs, after = await rt.listings.public_tables(session, status, game, page.cursor, page.limit)
    return {"tables": [rt.presenter.table_json(r, user.id if user else None) for r in recs], "next": after}


@router.get("/me/tables", response_model=TablesOut)
async def mine(
    page: PageIn = Depends(TABLE_PAGES),
    rt: Runtime = Depends(get_rt),
    session: AsyncSession = Depends(get_reads),
    user: User = Depends(current_user),
) -> dict[str, Any]:
    """A page of the tables where I sit or host, newest activity first."""
    recs, after = await rt.listings.my_tables(session, user, page.cursor, page.limit)
    return {"tables": [rt.presenter.table_json(r, user.id) for r in recs], "next": after}


async def visible_table(
    request: Request,
    rt: Runtime,
    session: AsyncSession,
    table_id: str,
    user: User | None,
    invite: str | None,
) -> TableRecord:
    """The table if this user may see it; a private one without the right code is 'not found'."""
    rec = await rt.tables.record_fresh(session, table_id)
    if rec.can_see(user.id if user else None, None):
        return rec
    keys = client_keys(request, user)
    await rt.limits.check(rt.limits.invite_failures, *keys)
    if rec.invite_ok(invite):
        return rec
    if invite:
        await rt.limits.note(rt.limits.invite_failures, *keys)
    raise not_found()


@dataclass
class Viewing:
    """A table the requester may see, with who they are and the request's read session."""

    rec: TableRecord
    user_id: str | None
    session: AsyncSession


async def viewing(
    request: Request,
    table_id: str,
    invite: str | None = Query(default=None, max_length=200),
    rt: Runtime = Depends(get_rt),
    session: AsyncSession = Depends(get_reads),
    user: User | None = Depends(optional_user),
) -> Viewing:
    """Dependency: the table named in the path (a private one needs a seat, the host, or ?invite=)."""
    rec = await visible_table(request, rt, session, table_id, user, invite)
    return Viewing(rec, user.id if user else None, session)


@router.get("/tables/{table_id}", response_model=TableOut)
async def get_table(v: Viewing = Depends(viewing), rt: Runtime = Depends(get_rt)) -> dict[str, Any]:
    """One table (a private one needs a seat, the host, or ?invite=)."""
    return rt.presenter.table_json(v.rec, v.user_id)


@router.post("/tables/{table_id}/join", response_model=TableOut)
async def join(
    request: Request,
    table_id: str,
    body: JoinIn,
    rt: Runtime = Depends(get_rt),
    user: User = Depends(current_user),
) -> dict[str, Any]:
    """Take a seat (the first free one unless named)."""
    keys = client_keys(request, user)
    try:
        rec = await rt.lobby.change(
            table_id, user, body.invite_code, lambda s, r: svc.join(s, r, user, body.seat, body.invite_code),
            # Only a join that brings a code can be a guess at one.
            check=(lambda s: rt.limits.check(rt.limits.invite_failures, *keys, session=s)) if body.invite_code else None,
        )
    except ServiceError as exc:
        if exc.code == "bad_invite" or (exc.code == "not_found" and body.invite_code):
            await rt.limits.note(rt.limits.invite_failures, *keys)
        raise
    return rt.presenter.table_json(rec, user.id)


@router.post("/tables/{table_id}/leave", response_model=TableOut)
async def leave(table_id: str, rt: Runtime = Depends(get_rt), user: User = Depends(current_user)) -> dict[str, Any]:
    """Give up my seat before the start."""
    rec = await rt.lobby.change(table_id, user, None, lambda s, r: svc.leave(s, r, user))
    return rt.presenter.table_json(rec, user.id)


@router.post("/tables/{table_id}/start", response_model=TableOut)
async def start(table_id: str, rt: Runtime = Depends(get_rt), user: User = Depends(current_user)) -> dict[str, Any]:
    """The host starts the game."""
    rec = await rt.lobby.change(table_id, user, None, lambda s, r: svc.start(s, r, user, rt.now()))
    return rt.presenter.table_json(rec, user.id)


@router.post("/tables/{table_id}/bots", response_model=TableOut)
async def add_bot(
    table_id: str, body: BotIn, rt: Runtime = Depends(get_rt), user: User = Depends(current_user)
) -> dict[str, Any]:
    """The host puts a bot in an empty seat, playing at the level chosen (normal unless said)."""
    rec = await rt.lobby.change(table_id, user, None,
                                lambda s, r: svc.add_bot(s, r, user, body.seat, body.level))
    return rt.presenter.table_json(rec, user.id)


@router.post("/tables/{table_id}/kick", response_model=TableOut)
async def kick(
    table_id: str, body: SeatIn, rt: Runtime = Depends(get_rt), user: User = Depends(current_user)
) -> dict[str, Any]:
    """The host empties a seat before the start."""
    rec = await rt.lobby.change(table_id, user, None, lambda s, r: svc.kick(s, r, user, body.seat))
    return rt.presenter.table_json(rec, user.id)


@router.post("/tables/{table_id}/stand_in", response_model=TableOut)
async def stand_in(
    table_id: str, body: SeatIn, rt: Runtime = Depends(get_rt), user: User = Depends(current_user)
) -> dict[str, Any]:
    """A bot plays a player's seat while they are away (the player or the host asks, or any other player once
    the table has waited `stand_in_after` seconds on that seat, `stand_in_after_online` while its player is
    connected)."""
    settings, presence = rt.settings, rt.presence
    rec = await rt.lobby.change(
        table_id, user, None,
        lambda s, r: svc.stand_in(s, r, user, body.seat, settings.stand_in_after, settings.stand_in_after_online,
                                  lambda user_id: presence.connected(table_id, user_id), now=rt.now()),
    )
    return rt.presenter.table_json(rec, user.id)


@router.post("/tables/{table_id}/invite", response_model=TableOut)
async def rotate_invite(
    table_id: str, rt: Runtime = Depends(get_rt), user: User = Depends(current_user)
) -> dict[str, Any]:
    """The host withdraws the private table's invite link; the answer holds the new `invite_code`."""
    rec = await rt.lobby.change(table_id, user, None, lambda s, r: rt.lobby.rotate_invite(s, r, user))
    return rt.presenter.table_json(rec, user.id)


@router.post("/tables/{table_id}/reclaim", response_model=TableOut)
async def reclaim(table_id: str, rt: Runtime = Depends(get_rt), user: User = Depends(current_user)) -> dict[str, Any]:
    """Take my seat back from the bot that played it."""
    rec = await rt.lobby.change(table_id, user, None, lambda s, r: svc.reclaim(s, r, user))
    return rt.presenter.table_json(rec, user.id)


@router.post("/tables/{table_id}/abandon", response_model=TableOut)
async def abandon(
    table_id: str, body: AbandonIn, rt: Runtime = Depends(get_rt), user: User = Depends(current_user)
) -> dict[str, Any]:
    """My say on abandoning the running game: the first "yes" proposes it, every other player whose seat no bot
    plays must agree, any "no" ends the proposal; once all agree the game is over, abandoned, with no winner."""
    rec = await rt.lobby.change(
        table_id, user, None, lambda s, r: svc.vote_abandon(s, r, user, body.vote, body.proposal, rt.settings.stand_in_after,
                                                           now=rt.now())
    )
    return rt.presenter.table_json(rec, user.id)


@router.post("/tables/{table_id}/takeback", response_model=TableOut)
async def takeback_say(
    table_id: str, body: TakebackIn, rt: Runtime = Depends(get_rt), user: User = Depends(current_user)
) -> dict[str, Any]:
    """My say on taking back moves: "ask" (my last move and every one after it), "yes" or "no" to the open request;
    once every other player agrees, the moves are taken back."""
    rec = await rt.lobby.change(table_id, user, None, lambda s, r: takeback.say(s, r, user, body.say, body.proposal))
    return rt.presenter.table_json(rec, user.id)


@router.post("/tables/{table_id}/rematch", response_model=TableOut)
async def rematch(table_id: str, rt: Runtime = Depends(get_rt), user: User = Depends(current_user)) -> dict[str, Any]:
    """Play a finished game again: the new table (opened by the first player to ask, joined by the others)."""
    return rt.presenter.table_json(await rt.rematches.rematch(table_id, user), user.id)


@router.get("/tables/{table_id}/moves", response_model=MovesOut)
async def moves(v: Viewing = Depends(viewing)) -> dict[str, Any]:
    """The move list and the lobby log, redacted for me while the game runs."""
    seat = v.rec.seat_of(v.user_id)
    return {
        "moves": await history.moves_for(v.session, v.rec, seat),
        "lobby": await history.lobby_log_for(v.session, v.rec, seat),
    }


@router.get("/tables/{table_id}/replay", response_model=ReplayOut)
async def replay(
    step: int = Query(default=0, ge=0, le=2**31 - 1),  # a move number: beyond any game, and any SQL integer
    seat: str | None = Query(default=None, max_length=8),
    v: Viewing = Depends(viewing),
) -> dict[str, Any]:
    """The spectator's view after `step` moves; once the game is over, `seat`'s view (that player's hand as it was)."""
    return await history.replay_step(v.session, v.rec, step, seat)


@router.get("/tables/{table_id}/verify", response_model=VerifyOut)
async def verify(v: Viewing = Depends(viewing)) -> dict[str, Any]:
    """Replay a finished game from its revealed seed and confirm the final state."""
    return await history.verify(v.session, v.rec)
