"""`apply_action`: one move, one transaction, never lost and never applied twice."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import GameTable, Move
from app.games import GAMES
from app.games.base import IllegalAction
from app.metrics import COMMAND_LATENCY, COMMANDS_APPLIED, COMMANDS_REFUSED
from app.services.errors import ServiceError, not_found
from app.services.records import TableRecord, load_record

if TYPE_CHECKING:
    from app.runtime import Runtime

MAX_CLIENT_ID = 64


@dataclass
class Ack:
    client_id: str | None
    version: int
    duplicate: bool = False


def _check_shape(action: Any, client_id: Any, expected_version: Any) -> None:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ServiceError("bad_action", "An action must be an object with a 'type'.", 422)
    if client_id is not None and (not isinstance(client_id, str) or not 0 < len(client_id) <= MAX_CLIENT_ID):
        raise ServiceError("bad_client_id", f"client_id must be text of 1 to {MAX_CLIENT_ID} characters.", 422)
    if expected_version is not None and (
        not isinstance(expected_version, int) or isinstance(expected_version, bool)
    ):
        raise ServiceError("bad_version", "expected_version must be a whole number.", 422)


async def _previous_ack(session: AsyncSession, table_id: str, client_id: str | None) -> Ack | None:
    if client_id is None:
        return None
    version = await session.scalar(
        select(Move.version).where(Move.table_id == table_id, Move.client_id == client_id)
    )
    return Ack(client_id, version, duplicate=True) if version is not None else None


async def _locked_record(rt: Runtime, session: AsyncSession, table_id: str) -> TableRecord:
    """The table's record with its row locked for this transaction (version re-checked against the cache)."""
    query = select(GameTable.version).where(GameTable.id == table_id)
    if rt.is_postgres:
        query = query.with_for_update()
    version = await session.scalar(query)
    if version is None:
        raise not_found()
    cached = rt.cache.get(table_id)
    if cached is not None and cached.version == version:
        return cached
    return rt.cache.put(await load_record(session, table_id))


async def apply_action(
    rt: Runtime,
    table_id: str,
    seat: str | None,
    action: Any,
    client_id: str | None = None,
    expected_version: int | None = None,
) -> Ack:
    """Apply one player's action to a table, durably, and publish the change."""
    started = time.perf_counter()
    try:
        ack, rec = await _apply(rt, table_id, seat, action, client_id, expected_version)
    except ServiceError as exc:
        COMMANDS_REFUSED.labels(code=exc.code).inc()
        raise
    COMMAND_LATENCY.observe(time.perf_counter() - started)
    if rec is not None:
        COMMANDS_APPLIED.inc()
        await rt.after_change(rec)
    return ack


async def _apply(
    rt: Runtime,
    table_id: str,
    seat: str | None,
    action: Any,
    client_id: str | None,
    expected_version: int | None,
) -> tuple[Ack, TableRecord | None]:
    _check_shape(action, client_id, expected_version)
    if seat is None:
        raise ServiceError("not_seated", "Spectators cannot act; take a seat to play.", 403)
    async with rt.table_lock(table_id), rt.sessions() as session:
        rec = await _locked_record(rt, session, table_id)
        if rec.status != "playing" or rec.state is None:
            previous = await _previous_ack(session, table_id, client_id)
            if previous:
                return previous, None
            raise ServiceError("not_playing", "The game is not running.", 409)
        if expected_version is not None and expected_version != rec.version:
            previous = await _previous_ack(session, table_id, client_id)
            if previous:
                return previous, None
            raise ServiceError(
                "stale_version",
                f"The table has moved on (version {rec.version}, you sent {expected_version}); resync.",
                409,
            )
        game = GAMES[rec.game]
        if seat not in game.awaiting(rec.state):
            previous = await _previous_ack(session, table_id, client_id)
            if previous:
                return previous, None
            raise ServiceError("not_your_turn", "It is not your turn.", 409)
        try:
            applied = game.apply(rec.state, seat, action)
        except IllegalAction as exc:
            previous = await _previous_ack(session, table_id, client_id)
            if previous:
                return previous, None
            raise ServiceError(exc.code, exc.message, 422) from exc
        state = applied.state
        outcome = game.outcome(state)
        version = rec.version + 1
        seq = rec.move_count + 1
        awaiting = [] if outcome is not None else game.awaiting(state)
        now = datetime.now(UTC)
        status = "finished" if outcome is not None else "playing"
        result = await session.execute(
            update(GameTable)
            .where(GameTable.id == table_id, GameTable.version == rec.version)
            .values(
                state=state,
                version=version,
                move_count=seq,
                awaiting=awaiting,
                outcome=outcome,
                status=status,
                updated_at=now,
            )
        )
        if result.rowcount != 1:  # type: ignore[attr-defined]
            # Another process wrote first (only possible without row locks); nothing was applied.
            rt.cache.drop(table_id)
            raise ServiceError("conflict", "Another move landed first; resync and try again.", 409)
        session.add(
            Move(
                table_id=table_id,
                seq=seq,
                version=version,
                seat=seat,
                client_id=client_id,
                action=action,
                events=applied.events,
                created_at=now,
            )
        )
        await rt.notify_in_tx(session, table_id, version)
        try:
            await session.commit()
        except IntegrityError:
            await session.rollback()
            previous = await _previous_ack(session, table_id, client_id)
            if previous:
                return previous, None
            raise
        new = replace(
            rec,
            state=state,
            version=version,
            move_count=seq,
            awaiting=awaiting,
            outcome=dict(outcome) if outcome is not None else None,
            status=status,
            updated_at=now,
        )
        new.remember_events(version, applied.events)
        rt.cache.put(new)
    return Ack(client_id, version), new
