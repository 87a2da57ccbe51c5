"""Durable writes of moves.

One move changes a table row (version, awaiting, status, sometimes the state
snapshot) and appends a `moves` row. `state` is only rewritten every few moves
(`SNAPSHOT_EVERY`) and at the end: the engines are deterministic, so a table's
state is its snapshot plus the moves after it, replayed on load.

On Postgres the moves of many tables are committed together (group commit): a
single statement per batch updates the table rows with an optimistic version
check, inserts the moves whose table row was updated, and notifies the other
processes with one notification listing every written `table_id:version`. A move is acknowledged only after its batch has committed. On SQLite
(one writer) each move is its own short transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import GameTable, Move
from app.realtime.broker import CHANNEL

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
            values["state_seq"] = item.seq
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
                    events=item.events,
                    created_at=item.at,
                )
            )
            try:
                await session.commit()
            except IntegrityError as exc:
                raise WriteConflict(item.table_id) from exc


_BATCH_SQL = f"""
WITH d AS (
    SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::text[], $6::text[],
                         $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[])
        AS d(id, old_version, version, seq, seat, client_id, action, events, state, awaiting, outcome, status)
),
upd AS (
    UPDATE game_tables g SET
        version = d.version,
        move_count = d.seq,
        awaiting = d.awaiting::jsonb,
        outcome = d.outcome::jsonb,
        status = d.status,
        updated_at = now(),
        state = CASE WHEN d.state IS NULL THEN g.state ELSE d.state::jsonb END,
        state_seq = CASE WHEN d.state IS NULL THEN g.state_seq ELSE d.seq END
    FROM d
    WHERE g.id = d.id AND g.version = d.old_version
      AND (d.client_id IS NULL OR NOT EXISTS (
            SELECT 1 FROM moves m WHERE m.table_id = d.id AND m.client_id = d.client_id))
    RETURNING g.id
),
ins AS (
    INSERT INTO moves (table_id, seq, version, seat, client_id, action, events, created_at)
    SELECT d.id, d.seq, d.version, d.seat, d.client_id, d.action::jsonb, d.events::jsonb, now()
    FROM d JOIN upd ON upd.id = d.id
    RETURNING table_id, version
)
SELECT array_agg(table_id) AS written,
       CASE WHEN count(*) > 0
            THEN pg_notify('{CHANNEL}', string_agg(table_id || ':' || version, ',')) END AS notified
FROM ins
"""


def _json(value: Any) -> str | None:
    return None if value is None else orjson.dumps(value).decode()


class PostgresBatchWriter:
    """Group commit: moves waiting while a batch commits go together in the next one."""

    def __init__(self, dsn: str, in_flight: int = 2) -> None:
        self.dsn = dsn.replace("postgresql+asyncpg://", "postgresql://")
        self.in_flight = in_flight
        self.queue: asyncio.Queue[tuple[MoveWrite, asyncio.Future[None]]] = asyncio.Queue()
        self._pool: Any = None
        self._pool_lock = asyncio.Lock()
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        # The pool is made on first use, so a server can start while Postgres is still coming up.
        self._tasks = [asyncio.create_task(self._run()) for _ in range(self.in_flight)]

    async def _connection_pool(self) -> Any:
        async with self._pool_lock:
            if self._pool is None:
                import asyncpg

                self._pool = await asyncpg.create_pool(self.dsn, min_size=0, max_size=self.in_flight)
        return self._pool

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        if self._pool is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._pool.close(), 5)

    async def write(self, item: MoveWrite) -> None:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((item, fut))
        await fut

    async def _run(self) -> None:
        while True:
            batch = [await self.queue.get()]
            while len(batch) < MAX_BATCH and not self.queue.empty():
                batch.append(self.queue.get_nowait())
            try:
                written = await self._commit([item for item, _ in batch])
            except Exception as exc:  # noqa: BLE001
                if len(batch) == 1:
                    _, fut = batch[0]
                    if not fut.done():
                        fut.set_exception(exc)
                    continue
                # One bad move must not sink the others: commit them one by one.
                for item, fut in batch:
                    try:
                        self._settle(item, fut, await self._commit([item]))
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

    async def _commit(self, items: list[MoveWrite]) -> set[str]:
        columns: list[list[Any]] = [[] for _ in range(12)]
        for it in items:
            row = (
                it.table_id, it.old_version, it.version, it.seq, it.seat, it.client_id,
                _json(it.action), _json(it.events), _json(it.state), _json(it.awaiting),
                _json(it.outcome), it.status,
            )
            for col, value in zip(columns, row, strict=True):
                col.append(value)
        pool = await self._connection_pool()
        async with pool.acquire() as conn:
            written = await conn.fetchval(_BATCH_SQL, *columns)
        return set(written or ())

