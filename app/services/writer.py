"""Durable writes of moves.

One move changes a table row (version, awaiting, status, sometimes the state
snapshot) and appends a `moves` row. `state` is only rewritten every few moves
(`SNAPSHOT_EVERY`) and at the end: the engines are deterministic, so a table's
state is its snapshot plus the moves after it, replayed on load.

On Postgres the moves of many tables are committed together (group commit): a
single statement per batch updates the table rows with an optimistic version
check, inserts the moves whose table row was updated, and notifies the other
processes with one notification listing every written `table_id:version`. A
client_id already stored for the same seat is refused by the unique index on (table_id, seat, client_id);
the batch is then committed again without those moves. A move is acknowledged
only after its batch has committed. A connection starts its next batch no sooner than `min_interval` after the
last one began, since Postgres' cost is mostly per commit. On SQLite (one writer) each move is its own
short transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import asyncpg
import orjson
from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.channels import CHANNEL
from app.db.models import GameTable, Move
from app.metrics import GROUP_COMMIT_MOVES, GROUP_COMMIT_SECONDS

log = logging.getLogger("app.writer")
# Moves per group commit; its one NOTIFY payload (at most 25 bytes a move) stays under Postgres' 8,000.
MAX_BATCH = 256


class WriteConflict(Exception):
    """The table row was not at the expected version (another process wrote first) or the client_id was seen."""


@dataclass
class MoveWrite:
    table_id: str
    old_version: int
    version: int
    seq: int
    seat: str
    client_id: str | None
    action: dict[str, Any]
    events: list[dict[str, Any]]
    state: dict[str, Any] | None  # None: keep the previous snapshot
    awaiting: list[str]
    outcome: dict[str, Any] | None
    status: str
    at: datetime
    state_seq: int | None = None  # how many moves `state` is after (None: this move's seq)
    steps: list[dict[str, Any]] | None = None  # the mover's drafts the move carries (services/drafts.py)
    # A clocked table's clocks after the move and their next deadline (services/clocks.py); None: no clock.
    clock: dict[str, Any] | None = None
    deadline: datetime | None = None

    @property
    def snapshot_seq(self) -> int:
        return self.seq if self.state_seq is None else self.state_seq


class SessionWriter:
    """One transaction per move through the ORM session (SQLite, or any database)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def write(self, item: MoveWrite) -> None:
        values: dict[str, Any] = {
            "version": item.version,
            "move_count": item.seq,
            "awaiting": item.awaiting,
            "outcome": item.outcome,
            "status": item.status,
            "updated_at": item.at,
        }
        if item.state is not None:
            values["state"] = item.state
            values["state_seq"] = item.snapshot_seq
        if item.clock is not None:
            values["clock"] = item.clock
            values["deadline"] = item.deadline
        async with self.sessions() as session:
            result = await session.execute(
                update(GameTable)
                .where(GameTable.id == item.table_id, GameTable.version == item.old_version)
                .values(**values)
            )
            if result.rowcount != 1:  # type: ignore[attr-defined]
                raise WriteConflict(item.table_id)
            session.add(
                Move(
                    table_id=item.table_id,
                    seq=item.seq,
                    version=item.version,
                    seat=item.seat,
                    client_id=item.client_id,
                    action=item.action,
                    steps=item.steps,
                    events=item.events,
                    created_at=item.at,
                )
            )
            try:
                await session.commit()
            except IntegrityError as exc:
                raise WriteConflict(item.table_id) from exc


def _batch_sql(duplicate_check: str, notify: bool = True) -> str:
    """The group commit: update the table rows at the expected version, insert their moves, notify
    (unless another broker than LISTEN/NOTIFY carries the changes)."""
    notice = (f"CASE WHEN count(*) > 0 THEN pg_notify('{CHANNEL}', string_agg(table_id || ':' || version, ',')) END"
              if notify else "NULL")
    return f"""
WITH d AS (
    SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::text[], $6::text[],
                         $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::int[],
                         $14::text[], $15::text[], $16::timestamptz[], $17::timestamptz[])
        AS d(id, old_version, version, seq, seat, client_id, action, events, state, awaiting, outcome, status,
             state_seq, steps, clock, deadline, at)
),
upd AS (
    UPDATE game_tables g SET
        version = d.version,
        move_count = d.seq,
        awaiting = d.awaiting::jsonb,
        outcome = d.outcome::jsonb,
        status = d.status,
        updated_at = d.at,  -- the move's own time, as the cached record has it (not the commit's)
        state = CASE WHEN d.state IS NULL THEN g.state ELSE d.state::jsonb END,
        state_seq = CASE WHEN d.state IS NULL THEN g.state_seq ELSE d.state_seq END,
        clock = CASE WHEN d.clock IS NULL THEN g.clock ELSE d.clock::jsonb END,
        deadline = CASE WHEN d.clock IS NULL THEN g.deadline ELSE d.deadline END
    FROM d
    WHERE g.id = d.id AND g.version = d.old_version{duplicate_check}
    RETURNING g.id, d.seq, d.version, d.seat, d.client_id, d.action, d.events, d.steps, d.at
),
ins AS (
    INSERT INTO moves (table_id, seq, version, seat, client_id, action, events, steps, created_at)
    SELECT id, seq, version, seat, client_id, action::jsonb, events::jsonb, steps::jsonb, at FROM upd
    RETURNING table_id, version
)
SELECT array_agg(table_id) AS written, {notice} AS notified
FROM ins
"""


# The batch as it is committed. A repeated client_id (a retry after a lost ack whose action is legal
# again) is refused by the unique index ix_moves_client, which the insert checks anyway and no plan can
# get wrong; that fails the statement as a whole, and the batch goes again as _BATCH_SKIPPING_SEEN_SQL.
_BATCH_SQL = _batch_sql("")
# The batch leaving out the moves whose client_id is stored (a NULL client_id matches no row). It runs
# only after such a refusal, planned for the table sizes of that moment (a custom plan).
_SKIP_SEEN = ("\n      AND NOT EXISTS (SELECT FROM moves m WHERE m.table_id = d.id AND m.seat = d.seat"
              " AND m.client_id = d.client_id)")
_BATCH_SKIPPING_SEEN_SQL = _batch_sql(_SKIP_SEEN)

# Settings of the writer's own connections. asyncpg prepares the batch statement once per connection and,
# after five executions, Postgres keeps a generic plan made from the table sizes of that moment. Made on a
# fresh database (game_tables and moves nearly empty), that plan joined game_tables through a hash over
# a sequential scan and, while the client_id check was a NOT EXISTS in the statement, hashed the whole of
# `moves`: work that grew with the tables, batch after batch, and most of Postgres' CPU per move under
# load. Whatever the sizes, the right plan is a nested loop over game_tables' primary key, so these
# connections use neither sequential scans nor hash or merge joins, and no JIT (a plan that still held a
# disabled node would look costly enough to be compiled at every execution).
_SESSION_SETTINGS = {
    "application_name": "foodgames-writer",
    "enable_seqscan": "off",
    "enable_hashjoin": "off",
    "enable_mergejoin": "off",
    "jit": "off",
}


def _json(value: Any) -> str | None:
    return None if value is None else orjson.dumps(value).decode()


def _columns(items: list[MoveWrite]) -> list[list[Any]]:
    """The batch statement's seventeen parameter arrays, in its unnest order."""
    return [
        [it.table_id for it in items],
        [it.old_version for it in items],
        [it.version for it in items],
        [it.seq for it in items],
        [it.seat for it in items],
        [it.client_id for it in items],
        [orjson.dumps(it.action).decode() for it in items],
        [orjson.dumps(it.events).decode() for it in items],
        [_json(it.state) for it in items],
        [orjson.dumps(it.awaiting).decode() for it in items],
        [_json(it.outcome) for it in items],
        [it.status for it in items],
        [it.snapshot_seq for it in items],
        [_json(it.steps) for it in items],
        [_json(it.clock) for it in items],
        [it.deadline for it in items],
        [it.at for it in items],
    ]


class PostgresBatchWriter:
    """Group commit: moves waiting while a batch commits go together in the next one.

    Each of the `in_flight` committing tasks has its own connection (made on first use, so a server can
    start while Postgres is still coming up, and made again after it was lost): no pool to acquire from
    and no session reset per batch.
    """

    def __init__(self, dsn: str, in_flight: int = 1, notify: bool = True, min_interval: float = 0.0) -> None:
        self.dsn = dsn.replace("postgresql+asyncpg://", "postgresql://")
        self.in_flight = in_flight
        # Seconds from one batch's start to the next one's on a connection: moves arriving meanwhile join it.
        self.min_interval = min_interval
        self._sql = _BATCH_SQL if notify else _batch_sql("", notify=False)
        self._sql_skipping_seen = _BATCH_SKIPPING_SEEN_SQL if notify else _batch_sql(_SKIP_SEEN, notify=False)
        self.queue: asyncio.Queue[tuple[MoveWrite, asyncio.Future[None]]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._connections: list[asyncpg.Connection | None] = []

    async def start(self) -> None:
        self._connections = [None] * self.in_flight
        self._tasks = [asyncio.create_task(self._run(slot)) for slot in range(self.in_flight)]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        for conn in self._connections:
            if conn is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(conn.close(), 5)
        self._connections = []

    async def write(self, item: MoveWrite) -> None:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((item, fut))
        await fut

    async def _run(self, slot: int) -> None:
        loop = asyncio.get_running_loop()
        last_start = -1e9
        while True:
            batch = [await self.queue.get()]
            wait = last_start + self.min_interval - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            last_start = loop.time()
            while len(batch) < MAX_BATCH and not self.queue.empty():
                batch.append(self.queue.get_nowait())
            try:
                written = await self._commit(slot, [item for item, _ in batch])
            except Exception as exc:  # noqa: BLE001
                if len(batch) == 1:
                    _, fut = batch[0]
                    if not fut.done():
                        fut.set_exception(exc)
                    continue
                # One bad move must not sink the others: commit them one by one.
                for item, fut in batch:
                    try:
                        self._settle(item, fut, await self._commit(slot, [item]))
                    except Exception as one:  # noqa: BLE001 - that waiter learns of its failure
                        if not fut.done():
                            fut.set_exception(one)
                continue
            for item, fut in batch:
                self._settle(item, fut, written)

    @staticmethod
    def _settle(item: MoveWrite, fut: asyncio.Future[None], written: set[str]) -> None:
        if fut.done():
            return
        if item.table_id in written:
            fut.set_result(None)
        else:
            fut.set_exception(WriteConflict(item.table_id))

    async def _connection(self, slot: int) -> asyncpg.Connection:
        conn = self._connections[slot]
        if conn is None or conn.is_closed():
            self._connections[slot] = None
            conn = await asyncpg.connect(self.dsn, server_settings=_SESSION_SETTINGS)
            self._connections[slot] = conn
        return conn

    async def _commit(self, slot: int, items: list[MoveWrite]) -> set[str]:
        """Commit one batch; the ids of the tables whose move was written (the others conflicted)."""
        columns = _columns(items)
        conn = await self._connection(slot)
        started = time.perf_counter()
        try:
            written = await conn.fetchval(self._sql, *columns)
        except asyncpg.UniqueViolationError as exc:
            if len(items) == 1:
                raise WriteConflict(items[0].table_id) from exc
            async with conn.transaction():
                await conn.execute("SET LOCAL plan_cache_mode = force_custom_plan")
                written = await conn.fetchval(self._sql_skipping_seen, *columns)
        GROUP_COMMIT_SECONDS.observe(time.perf_counter() - started)
        GROUP_COMMIT_MOVES.observe(len(items))
        return set(written or ())
