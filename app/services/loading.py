"""Reading a table's record from the database, and bringing a record forward by replaying the moves made since."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import Row, bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import GAME_TABLES, SEATS, USERS, GameTable, Move, MoveDraft, RatingChange
from app.games import GAMES
from app.services.errors import not_found
from app.services.record import Draft, SeatInfo, TableRecord, TableStatus, as_utc, valid_id

# Built once: a statement made afresh costs more CPU in its construction and cache key than in its execution. The
# host's name comes with the row: a statement costs more here than the join. Plain rows, not ORM objects: the record
# is built from them and nothing in the session needs them.
_ROW = (
    select(GAME_TABLES, USERS.c.name.label("host_name"))
    .outerjoin(USERS, USERS.c.id == GAME_TABLES.c.host_id)
    .where(GAME_TABLES.c.id == bindparam("table_id"))
)
_LOCKED_ROW = _ROW.with_for_update(of=GAME_TABLES)  # not the users row: the nullable side of the join
# The seats are read in a statement of their own, after the row's lock: a statement that waited for the lock re-reads
# the locked row, but a sub-select in its columns would keep the snapshot the statement began with, and two lobby
# changes racing through two processes would both see the seats as they were before either.
_SEAT_ROWS = (
    select(SEATS.c.seat, SEATS.c.user_id, SEATS.c.bot, SEATS.c.guest, SEATS.c.away_since, SEATS.c.bot_level,
           USERS.c.name.label("user_name"))
    .outerjoin(USERS, USERS.c.id == SEATS.c.user_id)
    .where(SEATS.c.table_id == bindparam("table_id"))
)


async def load_record(session: AsyncSession, table_id: str, *, for_update: bool = False) -> TableRecord:
    """Read a table, its seats and names from the database."""
    if not valid_id(table_id):
        raise not_found()
    row = (await session.execute(_LOCKED_ROW if for_update else _ROW, {"table_id": table_id})).one_or_none()
    if row is None:
        raise not_found()
    return await record_of(session, row)


# What a read of the row gives, for an UPDATE's RETURNING: the row as that statement leaves it, and its host's name.
ROW_COLUMNS = (
    *GAME_TABLES.c,
    select(USERS.c.name).where(USERS.c.id == GAME_TABLES.c.host_id).scalar_subquery().label("host_name"),
)


async def record_of(
    session: AsyncSession, row: Row[*tuple[Any, ...]], *, seats: list[SeatInfo] | None = None,
    drafts: dict[str, tuple[Draft, ...]] | None = None,
) -> TableRecord:
    """The record of a table row read with its host's name (a read by `load_record`, or an UPDATE returning
    `ROW_COLUMNS`), with its seats, and what else it holds, read now in the same transaction; the `seats`, and a
    running game's `drafts`, are read too unless the caller knows them."""
    table_id = row.id
    host_name = row.host_name or "?"
    if seats is None:
        seats = await _seats(session, table_id)
    state, undo_seat = row.state, None
    if state is not None and row.state_seq < row.move_count:
        replayed = await replay_stored(session, row.game, row.id, state, row.state_seq, row.move_count)
        state = replayed.state
        undo_seat = replayed.undo_seat if row.status == TableStatus.PLAYING else None
    rec = TableRecord(
        id=row.id,
        game=row.game,
        name=row.name,
        host_id=row.host_id,
        host_name=host_name,
        visibility=row.visibility,
        invite_hash=row.invite_hash,
        invite_round=row.invite_round or 0,
        chat_mode=row.chat_mode or "everyone",
        status=row.status,
        seat_count=row.seat_count,
        options=dict(row.options or {}),
        seed=row.seed,
        seed_commitment=row.seed_commitment,
        state=state,
        version=row.version,
        state_seq=row.state_seq,
        move_count=row.move_count,
        awaiting=list(row.awaiting or []),
        outcome=row.outcome,
        created_at=as_utc(row.created_at),
        updated_at=as_utc(row.updated_at),
        seats=seats,
        rematch_id=row.rematch_id,
        # The column may outlive the game it was about (a move that ends the game does not clear it).
        abandon=row.abandon_vote if row.status == TableStatus.PLAYING else None,
        abandoned=bool(row.abandoned),
        takeback=row.takeback if row.status == TableStatus.PLAYING else None,
        undo_seat=undo_seat,
        rated=row.rated,
        time_control=row.time_control,
        clock=row.clock,
        deadline=as_utc(row.deadline) if row.deadline is not None else None,
    )
    if row.rated:
        changes = await session.execute(
            select(RatingChange.seat, RatingChange.before, RatingChange.after, RatingChange.change)
            .where(RatingChange.table_id == table_id)
        )
        rec.ratings = {c.seat: {"before": c.before, "after": c.after, "change": c.change} for c in changes}
    if row.status == TableStatus.PLAYING:
        rec.drafts = drafts if drafts is not None else await load_drafts(session, table_id)
    lobby = row.lobby_events
    if lobby and lobby.get("version") == row.version:
        # The events of the lobby change that made this version, which another process may have made.
        rec.remember_events(row.version, list(lobby.get("events") or []))
    return rec


async def _seats(session: AsyncSession, table_id: str) -> list[SeatInfo]:
    """The table's seats in order, with their people's names."""
    seat_rows = (await session.execute(_SEAT_ROWS, {"table_id": table_id})).all()
    return sorted(
        (SeatInfo(s.seat, s.user_id, s.user_name if s.user_id else None, s.bot,
                  bool(s.guest) and s.user_id is not None, away_since=s.away_since if s.bot else None,
                  bot_level=s.bot_level if s.bot and s.user_id is None else None)
         for s in seat_rows),
        key=lambda s: int(s.seat),
    )


async def stored_version(session: AsyncSession, table_id: str) -> int | None:
    """The table's version as committed (None if there is no such table)."""
    return await session.scalar(select(GameTable.version).where(GameTable.id == table_id))


async def stored_versions(session: AsyncSession, table_ids: list[str]) -> list[tuple[str, int]]:
    """(id, committed version) of those of these tables that exist."""
    rows = await session.execute(select(GameTable.id, GameTable.version).where(GameTable.id.in_(table_ids)))
    return [(table_id, version) for table_id, version in rows]


async def load_drafts(session: AsyncSession, table_id: str) -> dict[str, tuple[Draft, ...]]:
    """The table's live drafts by seat, in their order: those no later move of their seat has carried."""
    carried = select(Move.seq).where(
        Move.table_id == MoveDraft.table_id, Move.seat == MoveDraft.seat, Move.seq > MoveDraft.after_seq
    ).exists()
    rows = await session.execute(
        select(MoveDraft.seat, MoveDraft.action, MoveDraft.client_id, MoveDraft.events)
        .where(MoveDraft.table_id == table_id, ~carried)
        .order_by(MoveDraft.seat, MoveDraft.n)
    )
    out: dict[str, tuple[Draft, ...]] = {}
    for seat, action, client_id, events in rows:
        out[seat] = (*out.get(seat, ()), Draft(action, client_id, events))
    return out


@dataclass
class Replayed:
    """A state brought forward by stored moves, and what the last of them leaves."""

    state: dict[str, Any]
    before_last: dict[str, Any]  # the state before the last replayed move (`state` when none was replayed)
    undo_seat: str | None  # the last move's seat, if the engine marked that move undoable


def initial_state(rec: TableRecord) -> dict[str, Any]:
    """The state the table's game started from (its seats are "0".."n-1" once started)."""
    return GAMES[rec.game].new_game([str(i) for i in range(rec.seat_count)], rec.seed, rec.options)


def replay(game_id: str, state: dict[str, Any], moves: Any) -> Replayed:
    """`state` with these `(seat, action, steps)` moves applied in order (engines are deterministic); a move's
    `steps` (its carried drafts, or None) go before its action."""
    game = GAMES[game_id]
    before, undo_seat = state, None
    for seat, action, steps in moves:
        before = state
        for step in steps or ():
            state = game.apply(state, seat, step).state
        applied = game.apply(state, seat, action)
        state, undo_seat = applied.state, seat if applied.undoable else None
    if undo_seat is not None and game.outcome(state) is not None:
        undo_seat = None
    return Replayed(state, before, undo_seat)


async def replay_stored(
    session: AsyncSession, game_id: str, table_id: str, state: dict[str, Any], after_seq: int, upto_seq: int
) -> Replayed:
    """A stored state (`state`, after `after_seq` moves) with the stored moves up to `upto_seq` replayed.

    Reads may not share one snapshot, so moves committed after the row was read are left out."""
    moves = await session.execute(
        select(Move.seat, Move.action, Move.steps)
        .where(Move.table_id == table_id, Move.seq > after_seq, Move.seq <= upto_seq)
        .order_by(Move.seq)
    )
    return replay(game_id, state, moves)


async def catch_up(session: AsyncSession, rec: TableRecord) -> TableRecord | None:
    """Apply the moves stored after `rec` to it; None when something else changed (seats): reload instead."""
    row = (
        await session.execute(
            select(GameTable.version, GameTable.status, GameTable.move_count, GameTable.state_seq,
                   GameTable.awaiting, GameTable.outcome, GameTable.updated_at, GameTable.clock,
                   GameTable.deadline)
            .where(GameTable.id == rec.id)
        )
    ).one_or_none()
    if row is None:
        return None
    # By seq, which the (table_id, seq) index ranges over; versions are checked below.
    moves = (
        await session.execute(
            select(Move.version, Move.seat, Move.action, Move.steps, Move.events)
            .where(Move.table_id == rec.id, Move.seq > rec.move_count, Move.seq <= row.move_count)
            .order_by(Move.seq)
        )
    ).all()
    versions = [m.version for m in moves]
    if versions != list(range(rec.version + 1, row.version + 1)) or rec.state is None:
        return None
    replayed = replay(rec.game, rec.state, ((m.seat, m.action, m.steps) for m in moves))
    new = rec.evolve(
        state=replayed.state,
        version=row.version,
        status=row.status,
        move_count=row.move_count,
        state_seq=row.state_seq,
        awaiting=list(row.awaiting or []),
        outcome=row.outcome,
        updated_at=as_utc(row.updated_at),
        abandon=rec.abandon if row.status == TableStatus.PLAYING else None,
        undo_seat=replayed.undo_seat,
        clock=row.clock,
        deadline=as_utc(row.deadline) if row.deadline is not None else None,
    )
    for m in moves:
        new.remember_events(m.version, m.events)
    return new


# The moves after a known seq, for many tables in one query (Postgres: the tables other processes moved).
# LATERAL keeps it one primary-key range scan per table whatever plan Postgres caches for the statement.
_MOVES_AFTER_SQL = """
SELECT c.id AS table_id, m.seq, m.version, m.seat, m.action, m.steps, m.events, m.created_at
FROM unnest($1::text[], $2::int[]) AS c(id, after)
CROSS JOIN LATERAL (
    SELECT seq, version, seat, action, steps, events, created_at FROM moves
    WHERE table_id = c.id AND seq > c.after ORDER BY seq
) AS m
ORDER BY c.id, m.seq
"""


async def moves_after(conn: Any, known: dict[str, int]) -> dict[str, list[Any]]:
    """Each table's moves after the given seq (an asyncpg connection; rows in order), one query for all."""
    rows = await conn.fetch(_MOVES_AFTER_SQL, list(known), list(known.values()))
    out: dict[str, list[Any]] = {tid: [] for tid in known}
    for row in rows:
        out[row["table_id"]].append(row)
    return out


def advance(rec: TableRecord, moves: list[Any]) -> TableRecord | None:
    """`rec` with stored moves replayed, its other fields derived from the new state as the writer stores
    them; None unless the moves are exactly the versions after `rec` (a seat change also bumps the version:
    reload instead), or for a table with a clock, whose clocks only its row knows."""
    if rec.state is None or rec.time_control is not None or not moves or [m["version"] for m in moves] != list(
        range(rec.version + 1, rec.version + 1 + len(moves))
    ):
        return None
    game = GAMES[rec.game]
    replayed = replay(rec.game, rec.state, ((m["seat"], _doc(m["action"]), _doc(m["steps"])) for m in moves))
    state = replayed.state
    outcome = game.outcome(state)
    new = rec.evolve(
        state=state,
        version=moves[-1]["version"],
        move_count=moves[-1]["seq"],
        awaiting=[] if outcome is not None else game.awaiting(state),
        outcome=dict(outcome) if outcome is not None else None,
        status=TableStatus.FINISHED if outcome is not None else TableStatus.PLAYING,
        updated_at=moves[-1]["created_at"],
        abandon=None if outcome is not None else rec.abandon,
        undo_seat=replayed.undo_seat,
    )
    for m in moves:
        new.remember_events(m["version"], _doc(m["events"]))
    return new


def _doc(value: Any) -> Any:
    """A JSON column as asyncpg returns it (text) or as already decoded."""
    return orjson.loads(value) if isinstance(value, str | bytes) else value
