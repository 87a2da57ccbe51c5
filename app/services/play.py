"""`apply_action`: one move, validated by the engine, durable before it is acknowledged, never applied twice."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from app.clock import Clock
from app.db.models import Move
from app.games import GAMES
from app.games.base import IllegalAction
from app.games.toolkit import is_listed
from app.messages import BAD_CLIENT_ID, CLIENT_ID_PATTERN
from app.metrics import COMMAND_LATENCY, COMMANDS_APPLIED, COMMANDS_REFUSED
from app.services import clocks
from app.services.database import Database
from app.services.drafts import Drafts, is_draft, stored_ack
from app.services.errors import ServiceError
from app.services.ports import Publisher
from app.services.record import TableRecord, TableStatus
from app.services.table_writes import TableWrites
from app.services.writer import MoveWrite, PostgresBatchWriter, SessionWriter, WriteConflict

log = logging.getLogger("app.play")
CLIENT_ID = re.compile(CLIENT_ID_PATTERN)
CONFLICT_RETRIES = 3


@dataclass
class Ack:
    client_id: str | None
    version: int
    duplicate: bool = False
    draft: int | None = None  # a draft's position among its seat's drafts (services/drafts.py); None for a move


def check_client_id(client_id: Any) -> None:
    """Refuse a client_id that is not a short plain string (None is fine)."""
    if client_id is not None and (not isinstance(client_id, str) or CLIENT_ID.fullmatch(client_id) is None):
        raise ServiceError(
            "bad_client_id",
            BAD_CLIENT_ID[1],
            422,
        )


def _check_shape(action: Any, client_id: Any, expected_version: Any) -> None:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ServiceError("bad_action", "An action must be an object with a 'type'.", 422)
    check_client_id(client_id)
    if expected_version is not None and (
        not isinstance(expected_version, int) or isinstance(expected_version, bool)
    ):
        raise ServiceError("bad_version", "expected_version must be a whole number.", 422)


class Play:
    """The move path: a player's (or a bot's) action checked by the engine, written by the move writer under the
    table's lock, cached, acknowledged, then published."""

    def __init__(
        self,
        *,
        tables: TableWrites,
        database: Database,
        writer: SessionWriter | PostgresBatchWriter,
        drafts: Drafts,
        publisher: Publisher,
        clock: Clock,
        snapshot_every: int,
        spawn: Callable[[Coroutine[Any, Any, Any]], Any],
    ) -> None:
        self.tables = tables
        self.database = database
        self.writer = writer
        self.drafts = drafts
        self.publisher = publisher
        self.clock = clock
        self.snapshot_every = snapshot_every  # moves between state snapshots
        self.spawn = spawn  # runs a coroutine in the background, cancelled when the process stops
        # Read on every move: held here rather than looked up through `tables` each time.
        self.cache = tables.cache
        self.writing = tables.writing

    async def _previous_ack(self, table_id: str, seat: str | None, client_id: str | None) -> Ack | None:
        """The ack of a move this seat already made under this client_id (a retry after a lost ack). Another seat's move
        under the same id is no answer: an id is its sender's."""
        if client_id is None or seat is None:
            return None
        async with self.database.reads() as session:
            version = await session.scalar(
                select(Move.version).where(Move.table_id == table_id, Move.seat == seat, Move.client_id == client_id)
            )
            if version is None:
                draft = await stored_ack(session, table_id, seat, client_id)
                if draft is not None:
                    return Ack(client_id, self.cache.known_version(table_id) or 0, duplicate=True, draft=draft)
        return Ack(client_id, version, duplicate=True) if version is not None else None

    async def apply_action(
        self,
        table_id: str,
        seat: str | None,
        action: Any,
        client_id: str | None = None,
        expected_version: int | None = None,
        on_durable: Callable[[Ack], None] | None = None,
    ) -> Ack:
        """Apply one player's action to a table, durably, and publish the change.

        `on_durable` hears the ack as soon as the move is committed, before the change is published, so a
        mover learns of its move's success before seeing its effect."""
        started = time.perf_counter()
        try:
            _check_shape(action, client_id, expected_version)
            if seat is None:
                raise ServiceError("not_seated", "Spectators cannot act; take a seat to play.", 403)
            async with self.tables.lock(table_id):
                for _attempt in range(CONFLICT_RETRIES):
                    rec = self.cache.get(table_id) or await self.tables.reload(table_id)
                    try:
                        new, draft = await self._apply_once(rec, seat, action, client_id, expected_version)
                        break
                    except WriteConflict:
                        # Another process moved the table (or saw this client_id): start again from the database.
                        # Its notice may have been taken for our own write's echo, so publish what we found.
                        fresh = await self.tables.reload(table_id)
                        self.publisher.table_changed(table_id, fresh.version)
                        previous = await self._previous_ack(table_id, seat, client_id)
                        if previous:
                            return previous
                else:
                    raise ServiceError("conflict", "The table is busy; resync and try again.", 409)
        except ServiceError as exc:
            if exc.code not in ("bad_action", "bad_client_id", "bad_version", "not_seated"):
                previous = await self._previous_ack(table_id, seat, client_id)
                if previous:
                    return previous
            COMMANDS_REFUSED.labels(code=exc.code).inc()
            raise
        COMMAND_LATENCY.observe(time.perf_counter() - started)
        COMMANDS_APPLIED.inc()
        if draft is not None:  # for its author's eyes only: no version, nothing for anyone else
            ack = Ack(client_id, new.version, draft=len(new.live_drafts(seat)))
            if on_durable is not None:
                on_durable(ack)
            self.publisher.draft_shown(new, seat, draft)
            return ack
        ack = Ack(client_id, new.version)
        if on_durable is not None:
            on_durable(ack)
        await self.tables.after_change(new)
        return ack

    async def _apply_once(
        self,
        rec: TableRecord,
        seat: str,
        action: dict[str, Any],
        client_id: str | None,
        expected_version: int | None,
    ) -> tuple[TableRecord, list[dict[str, Any]] | None]:
        """Validate and apply against the known record, write it, and return the new record, with the step's events
        when it was kept as a draft (None for a move)."""
        if rec.status != TableStatus.PLAYING or rec.state is None:
            raise ServiceError("not_playing", "The game is not running.", 409)
        if expected_version is not None and expected_version != rec.version:
            raise ServiceError(
                "stale_version",
                f"The table has moved on (version {rec.version}, you sent {expected_version}); resync.",
                409,
            )
        game = GAMES[rec.game]
        if seat not in rec.awaiting:
            raise ServiceError("not_your_turn", "It is not your turn.", 409)
        now = self.clock.now()
        clocks.check_in_time(rec, seat, now)
        # The contract says an action is legal exactly when it is listed, so every engine is held to the list
        # (`toolkit.is_listed`: JSON equality, so true and 1.0 are not 1), and a listed action is applied without
        # the engine listing the options again.
        before = rec.state_for(seat)  # with the seat's own drafts
        if is_listed(action, rec.actions_for(seat)):
            applied = game.apply_listed(before, seat, action)
        else:
            try:
                game.apply(before, seat, action)  # for the engine's own words on why it is refused
            except IllegalAction as exc:
                raise ServiceError(exc.code, exc.message, 422) from exc
            except Exception:  # noqa: BLE001 - unlisted, so illegal whatever the engine tripped on
                log.warning("engine failed on an unlisted action", exc_info=True,
                            extra={"table_id": rec.id, "game": rec.game})
                raise ServiceError("illegal_action", "That is not one of your legal moves.", 422) from None
            # The engine accepted a look-alike (true for 1, 1.0 for 1, extra fields).
            raise ServiceError("illegal_action", "That is not one of your legal moves.", 422)
        if is_draft(rec, seat, before, applied):
            return await self.drafts.keep(rec, seat, action, client_id, applied), applied.events
        carried = rec.live_drafts(seat)
        state = applied.state
        outcome = game.outcome(state)
        seq = rec.move_count + 1
        # The final state is kept as it is; otherwise every few moves the state *before* this move, so the
        # moves after a snapshot are never none: a load replays at least the last one and learns whether it
        # may be taken back, and taking it back finds its previous state without replaying the whole game.
        if outcome is not None:
            snapshot, snapshot_seq = state, seq
        elif seq - 1 - rec.state_seq >= self.snapshot_every:
            snapshot, snapshot_seq = rec.state, seq - 1
        else:
            snapshot, snapshot_seq = None, rec.state_seq
        item = MoveWrite(
            table_id=rec.id,
            old_version=rec.version,
            version=rec.version + 1,
            seq=seq,
            seat=seat,
            client_id=client_id,
            action=action,
            steps=[d.action for d in carried] or None,
            events=[e for d in carried for e in d.events] + applied.events if carried else applied.events,
            state=snapshot,
            state_seq=snapshot_seq,
            awaiting=[] if outcome is not None else game.awaiting(state),
            outcome=dict(outcome) if outcome is not None else None,
            status=TableStatus.FINISHED if outcome is not None else TableStatus.PLAYING,
            at=now,
        )
        item.clock, item.deadline = clocks.after_move(rec, item.awaiting, now)
        self.writing[rec.id] = item.version
        try:
            await self.writer.write(item)
        finally:
            self.writing.pop(rec.id, None)
        new = rec.evolve(
            state=state,
            version=item.version,
            state_seq=snapshot_seq,
            move_count=seq,
            awaiting=item.awaiting,
            outcome=item.outcome,
            status=item.status,
            updated_at=item.at,
            abandon=None if outcome is not None else rec.abandon,  # the game's end ends a proposal to abandon it
            undo_seat=seat if applied.undoable and outcome is None else None,
            drafts={k: v for k, v in rec.drafts.items() if k != seat} if seat in rec.drafts else rec.drafts,
            clock=item.clock if item.clock is not None else rec.clock,
            deadline=item.deadline if item.clock is not None else rec.deadline,
        )
        new.remember_events(item.version, item.events)
        if carried:
            self.spawn(self.drafts.forget_carried(rec.id, seat, seq))
        return self.cache.put(new), None
