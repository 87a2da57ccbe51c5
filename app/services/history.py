"""The move list and lobby log, replays and the fairness check, redacted for the viewer while a game runs."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import and_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import GameTable, Move, TableLogEntry
from app.games import GAMES
from app.services.errors import ServiceError
from app.services.loading import initial_state
from app.services.record import TableRecord, TableStatus, redact_events, seed_commitment


def canonical(doc: Any) -> str:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


async def stored_moves(session: AsyncSession, table_id: str, limit: int | None = None) -> list[Move]:
    query = select(Move).where(Move.table_id == table_id).order_by(Move.seq)
    if limit is not None:
        query = query.limit(limit)
    return list((await session.scalars(query)).all())


async def moves_for(session: AsyncSession, rec: TableRecord, seat: str | None) -> list[dict[str, Any]]:
    """The move log as this viewer may see it: others' actions stay hidden until the end."""
    finished = rec.status == TableStatus.FINISHED
    return [
        {
            "seq": m.seq,
            "version": m.version,
            "seat": m.seat,
            "action": m.action if finished or m.seat == seat else None,
            # The secret steps the move carried (its mover's drafts), as hidden as its action.
            "steps": m.steps if finished or m.seat == seat else None,
            "events": redact_events(m.events, seat, finished),
            "created_at": m.created_at.isoformat(),
        }
        for m in await stored_moves(session, rec.id)
    ]


async def lobby_log_for(session: AsyncSession, rec: TableRecord, seat: str | None) -> list[dict[str, Any]]:
    """The table's lobby changes (seats, bots, votes, renames …) with the version each made, as this viewer may
    see their events."""
    rows = await session.scalars(
        select(TableLogEntry).where(TableLogEntry.table_id == rec.id).order_by(TableLogEntry.version)
    )
    finished = rec.status == TableStatus.FINISHED
    return [
        {"version": r.version, "events": redact_events(r.events, seat, finished), "created_at": r.created_at.isoformat()}
        for r in rows
    ]


def _replay_state(rec: TableRecord, moves: list[Move]) -> dict[str, Any]:
    game = GAMES[rec.game]
    state = initial_state(rec)
    for m in moves:
        for step in m.steps or ():
            state = game.apply(state, m.seat, step).state
        state = game.apply(state, m.seat, m.action).state
    return state


async def replay_step(
    session: AsyncSession, rec: TableRecord, step: int, seat: str | None = None
) -> dict[str, Any]:
    """The view after `step` moves, with that move's events: the spectator's, or once the game is over the view of
    `seat` (each player's hand as it was then; a player of a running game sees only what a spectator sees, so a
    replay never shows what the live game hides).

    The moves and the count of moves the table has now are read by one statement, one snapshot: a move taken back
    meanwhile cannot leave a view of fewer moves labelled `step`."""
    if rec.state is None:
        raise ServiceError("not_started", "The game has not started yet.", 409)
    finished = rec.status == TableStatus.FINISHED
    if seat is not None:
        if not finished:
            raise ServiceError(
                "game_not_over", "A player's own view of the replay is shown once the game is over.", 409
            )
        if seat not in {s.seat for s in rec.seats}:
            raise ServiceError("bad_seat", "No such seat at this table.", 422)
    current = and_(Move.table_id == GameTable.id, Move.seq <= step, Move.seq <= GameTable.move_count)
    rows = (await session.execute(
        select(GameTable.move_count, Move).outerjoin(Move, current).where(GameTable.id == rec.id).order_by(Move.seq)
    )).all()
    total = rows[0][0] if rows else rec.move_count
    if not 0 <= step <= total:
        raise ServiceError("bad_step", f"Step must be between 0 and {total}.", 422)
    moves = [move for _, move in rows if move is not None]
    state = _replay_state(rec, moves)
    events = redact_events(moves[-1].events, seat, finished) if moves else []
    return {
        "step": len(moves),
        "total": total,
        "seat": seat,
        "view": GAMES[rec.game].view(state, seat),
        "events": events,
    }


async def verify(session: AsyncSession, rec: TableRecord) -> dict[str, Any]:
    """Replay the stored moves from the revealed seed and compare with the stored final state (for a game its
    players abandoned, the state they left it in: it is over, so its seed is revealed too)."""
    if rec.status != TableStatus.FINISHED:
        return {
            "ok": False,
            "abandoned": False,
            "seed": None,
            "commitment": rec.seed_commitment,
            "commitment_ok": False,
            "moves": rec.move_count,
            "detail": "The seed is revealed when the game ends.",
        }
    commitment_ok = seed_commitment(rec.id, rec.seed) == rec.seed_commitment
    moves = await stored_moves(session, rec.id)
    same = canonical(_replay_state(rec, moves)) == canonical(rec.state)
    detail = "Replaying the moves from the seed gives the stored final state."
    if rec.abandoned:
        detail = "Replaying the moves from the seed gives the stored state at which the players abandoned the game."
    if not same:
        detail = "The replayed state differs from the stored state."
    if not commitment_ok:
        detail = "The seed does not match the published commitment."
    return {
        "ok": same and commitment_ok,
        "abandoned": rec.abandoned,
        "seed": rec.seed,
        "commitment": rec.seed_commitment,
        "commitment_ok": commitment_ok,
        "moves": len(moves),
        "detail": detail,
    }
