"""Timeouts: the game clocks that ran out, found by every server process's sweep and applied by exactly one.

Each running table with a clock stores the earliest moment one of its clocks runs out (`game_tables.deadline`,
written with every move). Every process looks for the due ones every `CLOCK_SWEEP_SECONDS` and claims each in a
transaction that locks its row with `FOR UPDATE SKIP LOCKED`: a row another process holds (claiming it, or writing a
move) is skipped, and the claim reads the row again under its lock, so a table that moved meanwhile is no longer due.
The timeout's whole effect is written in that same transaction, with a new version and a notice to the other
processes, like a lobby change: nothing is left half done by a process that dies, and nothing is done twice. SQLite
has one server process, whose single write lock serialises the claim with its moves.

What a timeout does is the host's choice (`time_control.timeout`, services/clocks.TimeoutPolicy):

- `bot_move`: a bot (the normal level) plays the timed-out seat's turn, in the claiming transaction, and the game
  goes on. Such a table is never rated (`TableRecord.counts_for_ratings`). In real time the seat's clock then holds
  only its increment: with none, each of its later turns runs out at once and is played the same way.
- `loss`: with two players the game ends there, the timed-out player losing (both timed out together: a draw); the
  outcome names them (`timeout`). With more players a bot plays the seat to the end (its person may not take it back)
  and the seat is listed in the clocks' `timed_out`: its person is ranked last for the ratings whatever place the
  bot reaches (services/ratings.final_places).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import GameTable, Move, Seat
from app.games import GAMES
from app.games.base import BotLevel, IllegalAction
from app.games.rng import below
from app.services import clocks, drafts
from app.services.bots import bot_seed, choose
from app.services.clocks import TimeoutPolicy
from app.services.database import Database
from app.services.events import TableEvent
from app.services.loading import load_record
from app.services.lobby import keep_events
from app.services.record import TableRecord, TableStatus
from app.services.table_writes import TableWrites

log = logging.getLogger("app.timeouts")
BATCH = 100  # due tables claimed per sweep round, earliest first
MAX_STEPS = 100  # a timed-out turn is played by the bot in at most this many actions

Events = list[dict[str, Any]]


class Timeouts:
    """The clocks that ran out, found in the database and applied under their table's lock, each by one process."""

    def __init__(self, *, tables: TableWrites, database: Database) -> None:
        self.tables = tables
        self.database = database

    async def due(self, now: datetime, limit: int = BATCH) -> list[str]:
        """Running tables with a clock that has run out by `now`, earliest first (through the partial index)."""
        async with self.database.reads() as session:
            ids = await session.scalars(
                select(GameTable.id)
                .where(GameTable.deadline <= now, GameTable.status == TableStatus.PLAYING)
                .order_by(GameTable.deadline)
                .limit(limit)
            )
            return list(ids)

    async def sweep(self, now: datetime) -> int:
        """Claim and apply every timeout due by `now`; how many tables this process claimed."""
        claimed = 0
        for table_id in await self.due(now):
            try:
                claimed += await self.claim(table_id, now) is not None
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - one table's failure must not hold up the others; tried next round
                log.exception("timeout failed", extra={"table_id": table_id})
        return claimed

    async def claim(self, table_id: str, now: datetime) -> TableRecord | None:
        """Apply the table's timeouts due by `now` if this process is first to claim them; the new record, or None
        (not due any more, or another process holds the row)."""
        async with self.tables.write(table_id) as session:
            locked = await session.scalar(
                select(GameTable.id)
                .where(GameTable.id == table_id, GameTable.status == TableStatus.PLAYING, GameTable.deadline <= now)
                .with_for_update(skip_locked=True)
            )
            if locked is None:
                return None
            rec = await load_record(session, table_id)
            tc, clock = rec.time_control, rec.clock
            if tc is None or clock is None or rec.state is None:
                return None
            late = clocks.expired(tc, clock, clocks.epoch_ms(now))
            if not late:
                return None
            if tc["timeout"] == TimeoutPolicy.LOSS and len(rec.seats) == 2:
                changes = await _lose(session, rec, late, now)
            elif tc["timeout"] == TimeoutPolicy.LOSS:
                changes = await _hand_to_bots(session, rec, late, now)
            else:
                changes = await _bot_plays(session, rec, late, now)
            version = max(changes)
            fresh = await load_record(session, table_id)
            with self.tables.own_write(table_id, version):
                await self.tables.notify_in_tx(session, table_id, version)
                await session.commit()
                fresh = self.tables.cache.put(fresh)
                for at, events in sorted(changes.items()):
                    fresh.remember_events(at, events)
        log.info("timeout", extra={"table_id": table_id, "seats": late, "policy": tc["timeout"]})
        await self.tables.after_change(fresh)
        return fresh


def _timeout_event(rec: TableRecord, seat: str, policy: str) -> dict[str, Any]:
    name = next((s.user_name for s in rec.seats if s.seat == seat), None)
    return {"type": TableEvent.TIMEOUT, "seat": seat, "name": name, "policy": policy, "visible_to": None}


async def _lose(session: AsyncSession, rec: TableRecord, late: list[str], now: datetime) -> dict[int, Events]:
    """Two players: the game ends, the timed-out player losing (both at once: a draw)."""
    assert rec.time_control is not None and rec.clock is not None
    winners = [s.seat for s in rec.seats if s.seat not in late]
    ranking = [winners, late] if winners else [late]
    outcome = {"scores": {}, "ranking": ranking, "winners": winners, "details": {}, "timeout": late}
    clock = clocks.finished(clocks.after_step(rec.time_control, rec.clock, [], clocks.epoch_ms(now)))
    version = rec.version + 1
    events = [_timeout_event(rec, seat, TimeoutPolicy.LOSS) for seat in late]
    await keep_events(session, rec.id, version, events, {
        "version": version, "updated_at": now, "status": TableStatus.FINISHED, "outcome": outcome, "awaiting": [],
        "state": rec.state, "state_seq": rec.move_count, "clock": {**clock, "timed_out": late}, "deadline": None,
    })
    return {version: events}


async def _hand_to_bots(
    session: AsyncSession, rec: TableRecord, late: list[str], now: datetime
) -> dict[int, Events]:
    """More players: a bot plays each timed-out seat to the end; its person has lost (ranked last)."""
    assert rec.time_control is not None and rec.clock is not None
    clock = rec.clock
    for seat in late:
        clock = clocks.without_seat(clock, seat)
    await session.execute(
        update(Seat).where(Seat.table_id == rec.id, Seat.seat.in_(late)).values(bot=True, away_since=now)
    )
    version = rec.version + 1
    events = [_timeout_event(rec, seat, TimeoutPolicy.LOSS) for seat in late]
    await keep_events(session, rec.id, version, events, {
        "version": version, "updated_at": now, "clock": clock, "deadline": clocks.deadline(rec.time_control, clock),
    })
    return {version: events}


async def _bot_plays(session: AsyncSession, rec: TableRecord, late: list[str], now: datetime) -> dict[int, Events]:
    """A bot plays each timed-out seat's turn (in seat order), as moves of this transaction, one version each."""
    assert rec.time_control is not None and rec.clock is not None and rec.state is not None
    game = GAMES[rec.game]
    state, clock, version, seq = rec.state, rec.clock, rec.version, rec.move_count
    at = clocks.epoch_ms(now)
    changes: dict[int, Events] = {}
    seats = [s.seat for s in rec.seats]
    for seat in late:
        first = [_timeout_event(rec, seat, TimeoutPolicy.BOT_MOVE)]
        # The bot goes on from the player's drafts, and its own steps that show nobody anything are drafts too: all
        # of them are carried by its next move, so no one can count them (services/drafts.py).
        steps, hidden, carried_from = [], [], state
        for draft in rec.live_drafts(seat):
            try:
                state = game.apply(state, seat, draft.action).state
            except IllegalAction:
                break
            steps.append(draft.action)
            hidden.extend(draft.events)
        for _step in range(MAX_STEPS):
            awaiting = game.awaiting(state)
            if seat not in awaiting or game.outcome(state) is not None:
                break
            seed = bot_seed(rec.seed, version, seat, len(steps))
            action = choose(game, state, seat, seed, BotLevel.NORMAL)
            try:
                applied = game.apply(state, seat, action)
            except IllegalAction:  # the game's bot suggested something illegal: a random legal move instead
                legal = game.actions(state, seat)
                action = legal[below(seed, len(legal))[1]]
                applied = game.apply(state, seat, action)
            if drafts.reveals_nothing(game, seats, awaiting, seat, state, applied):
                state = applied.state
                steps.append(action)
                hidden.extend(applied.events)
                continue
            state = applied.state
            version += 1
            seq += 1
            events = [*first, *hidden, *applied.events]
            session.add(Move(table_id=rec.id, seq=seq, version=version, seat=seat, client_id=f"timeout:{version}:{seat}",
                             action=action, steps=steps or None, events=events, created_at=now))
            first, steps, hidden, carried_from = [], [], [], state
            changes[version] = events
            clock = clocks.after_step(rec.time_control, clock, game.awaiting(state), at)
        state = carried_from  # steps no move carried (the bot stopped mid-choice) are not part of the game
    if not changes:  # the seats' turns had ended by other means: only the clocks are set right
        clock = clocks.after_step(rec.time_control, clock, game.awaiting(state), at)
        version = rec.version + 1
        await keep_events(session, rec.id, version, [], {
            "version": version, "updated_at": now, "clock": clock,
            "deadline": clocks.deadline(rec.time_control, clock),
        })
        return {version: []}
    outcome = game.outcome(state)
    awaiting = [] if outcome is not None else game.awaiting(state)
    if outcome is not None:
        clock = clocks.finished(clock)
    # The snapshot is the state after the bot's moves: none of them is replayed on load, so none may be taken back
    # (the player did not make them).
    result = await session.execute(
        update(GameTable).where(GameTable.id == rec.id, GameTable.version == rec.version).values(
            version=version, move_count=seq, awaiting=awaiting, outcome=dict(outcome) if outcome else None,
            status=TableStatus.FINISHED if outcome is not None else TableStatus.PLAYING, updated_at=now, state=state, state_seq=seq,
            clock=clock, deadline=None if outcome is not None else clocks.deadline(rec.time_control, clock),
        )
    )
    assert result.rowcount == 1  # type: ignore[attr-defined]  # the row is locked (one process on SQLite)
    return changes
