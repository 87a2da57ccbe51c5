"""The move writers (services/writer.py) on the database of this run: the group commit on Postgres, one
transaction per move on SQLite. Both check the version, refuse a repeated client_id, report conflicts as
WriteConflict and let the rest of a batch commit; on Postgres a batch is one statement whose plan stays on
the indexes even when it was made on a fresh, nearly empty database."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import asyncpg
import pytest
from prometheus_client import REGISTRY
from sqlalchemy import select

from app.config import Settings
from app.db.channels import CHANNEL
from app.db.models import GameTable, Move, User
from app.db.session import make_engine, make_sessionmaker
from app.main import run_migrations
from app.services.writer import (
    _BATCH_SKIPPING_SEEN_SQL,
    _BATCH_SQL,
    _SESSION_SETTINGS,
    MoveWrite,
    PostgresBatchWriter,
    SessionWriter,
    WriteConflict,
    _columns,
)
from tests.conftest import IS_POSTGRES, Database, requires_postgres

TABLES = ["ta", "tb", "tc", "td"]


@dataclass
class Store:
    settings: Settings
    writer: SessionWriter | PostgresBatchWriter
    sessions: Any

    @property
    def dsn(self) -> str:
        return self.settings.effective_database_url.replace("postgresql+asyncpg://", "postgresql://")

    async def table(self, table_id: str) -> GameTable:
        async with self.sessions() as session:
            row = await session.get(GameTable, table_id)
            assert row is not None
            return row

    async def moves(self, table_id: str) -> list[Move]:
        async with self.sessions() as session:
            rows = await session.scalars(select(Move).where(Move.table_id == table_id).order_by(Move.seq))
            return list(rows)


@pytest.fixture
async def store(fresh_db: Database) -> AsyncIterator[Store]:
    settings = Settings(database_url=fresh_db.url)
    await asyncio.to_thread(run_migrations, settings.effective_database_url)
    engine = make_engine(settings)
    sessions = make_sessionmaker(engine)
    now = datetime.now(UTC)
    async with sessions() as session:
        session.add(User(id="host", name="Host", created_at=now))
        await session.flush()
        for tid in TABLES:
            session.add(GameTable(
                id=tid, game="tiny", name=tid, host_id="host", visibility="public", status="playing",
                seat_count=2, options={}, seed=1, seed_commitment="x", state={"n": 0}, version=0,
                state_seq=0, move_count=0, awaiting=["0"], created_at=now, updated_at=now,
            ))
        await session.commit()
    writer = PostgresBatchWriter(settings.effective_database_url) if IS_POSTGRES else SessionWriter(sessions)
    await writer.start()
    try:
        yield Store(settings, writer, sessions)
    finally:
        await writer.stop()
        await engine.dispose()


def move(table_id: str, version: int, client_id: str | None = None, state: dict[str, Any] | None = None,
         status: str = "playing") -> MoveWrite:
    """The move that takes `table_id` from `version` to `version + 1`."""
    return MoveWrite(
        table_id=table_id, old_version=version, version=version + 1, seq=version + 1, seat="0",
        client_id=client_id, action={"type": "pick", "n": version}, events=[{"type": "picked", "n": version}],
        state=state, awaiting=["1"], outcome=None, status=status, at=datetime.now(UTC),
    )


async def write_together(store: Store, *items: MoveWrite) -> list[BaseException | None]:
    """Write the moves at once (on Postgres they share a batch): None for each written, else its error."""
    results = await asyncio.gather(*(store.writer.write(it) for it in items), return_exceptions=True)
    return [r if isinstance(r, BaseException) else None for r in results]


async def test_moves_of_several_tables_are_written_with_their_table_rows(store: Store) -> None:
    assert await write_together(store, *(move(t, 0, f"c-{t}") for t in TABLES)) == [None] * len(TABLES)
    assert await write_together(store, move("ta", 1, "c-ta-2"), move("tb", 1)) == [None, None]
    ta = await store.table("ta")
    assert (ta.version, ta.move_count, ta.awaiting, ta.status) == (2, 2, ["1"], "playing")
    assert [(m.seq, m.version, m.client_id, m.action, m.events) for m in await store.moves("ta")] == [
        (1, 1, "c-ta", {"type": "pick", "n": 0}, [{"type": "picked", "n": 0}]),
        (2, 2, "c-ta-2", {"type": "pick", "n": 1}, [{"type": "picked", "n": 1}]),
    ]
    assert [m.client_id for m in await store.moves("tb")] == ["c-tb", None]
    assert (await store.table("tc")).version == 1


async def test_each_group_commit_is_timed_and_counted_in_the_metrics(store: Store) -> None:
    requires_postgres()

    def observed() -> tuple[float, float, float]:
        return (REGISTRY.get_sample_value("foodgames_group_commit_seconds_count") or 0.0,
                REGISTRY.get_sample_value("foodgames_group_commit_moves_count") or 0.0,
                REGISTRY.get_sample_value("foodgames_group_commit_moves_sum") or 0.0)

    before = observed()
    assert await write_together(store, *(move(t, 0) for t in TABLES)) == [None] * len(TABLES)
    commits, batches, moves = (a - b for a, b in zip(observed(), before, strict=True))
    # However the four moves were grouped, every one is counted once and each batch once per metric.
    assert moves == len(TABLES) and 1 <= commits == batches <= len(TABLES)


async def test_a_commit_waits_out_the_interval_and_the_moves_arriving_meanwhile_join_it(store: Store) -> None:
    requires_postgres()
    interval = 1.0
    paced = PostgresBatchWriter(store.settings.effective_database_url, min_interval=interval)
    await paced.start()

    def commits() -> float:
        return REGISTRY.get_sample_value("foodgames_group_commit_seconds_count") or 0.0

    async def later(item: MoveWrite, delay: float) -> None:
        await asyncio.sleep(delay)
        await paced.write(item)

    try:
        loop = asyncio.get_running_loop()
        started = loop.time()
        await paced.write(move("ta", 0))  # no commit began lately: this one does not wait
        first = loop.time()
        before = commits()
        await asyncio.gather(later(move("tb", 0), 0), later(move("tc", 0), 0.05), later(move("td", 0), 0.1))
        done = loop.time()
    finally:
        await paced.stop()
    assert first - started < interval
    assert done - started >= interval
    assert commits() - before == 1  # the three went together when the interval was out
    assert [(await store.table(t)).version for t in TABLES] == [1, 1, 1, 1]


async def test_a_stale_version_is_a_conflict_and_the_other_moves_are_written(store: Store) -> None:
    results = await write_together(store, move("ta", 0), move("tb", 5), move("tc", 0))
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], WriteConflict)
    assert (await store.table("tb")).version == 0 and await store.moves("tb") == []
    assert (await store.table("ta")).version == 1 == (await store.table("tc")).version


async def test_a_repeated_client_id_is_never_applied_twice(store: Store) -> None:
    assert await write_together(store, move("ta", 0, "same")) == [None]
    # Legal again at the new version, alone and amid other moves: refused each time, the others written.
    alone = await write_together(store, move("ta", 1, "same"))
    amid = await write_together(store, move("tb", 0, "b1"), move("ta", 1, "same"), move("tc", 0, "same"))
    assert isinstance(alone[0], WriteConflict) and isinstance(amid[1], WriteConflict)
    assert amid[0] is None and amid[2] is None  # the same client_id on another table is another move
    assert (await store.table("ta")).version == 1 and len(await store.moves("ta")) == 1
    assert (await store.table("tb")).version == 1 == (await store.table("tc")).version


async def test_a_batch_with_a_repeated_client_id_is_committed_again_without_it(store: Store) -> None:
    """On Postgres the unique index refuses the batch; the rest goes in one more statement, not one by one."""
    requires_postgres()
    assert isinstance(store.writer, PostgresBatchWriter)
    assert await store.writer._commit(0, [move("ta", 0, "same")]) == {"ta"}
    batch = [move("tb", 0, "b1"), move("ta", 1, "same"), move("tc", 0)]
    assert await store.writer._commit(0, batch) == {"tb", "tc"}
    assert (await store.table("ta")).version == 1 and (await store.table("tb")).version == 1


async def test_moves_without_client_id_never_conflict_with_each_other(store: Store) -> None:
    for version in range(3):
        assert await write_together(store, move("ta", version), move("tb", version)) == [None, None]
    assert [m.client_id for m in await store.moves("ta")] == [None, None, None]


async def test_the_state_snapshot_changes_only_when_one_is_written(store: Store) -> None:
    await store.writer.write(move("ta", 0, state={"n": 1}))
    await store.writer.write(move("ta", 1))
    await write_together(store, move("ta", 2), move("tb", 0, state={"n": "b"}))
    ta, tb = await store.table("ta"), await store.table("tb")
    assert (ta.state, ta.state_seq, ta.move_count) == ({"n": 1}, 1, 3)
    assert (tb.state, tb.state_seq) == ({"n": "b"}, 1)
    # A snapshot of the state before the move (as a running game writes them) says so.
    before = move("ta", 3, state={"n": 3})
    before.state_seq = 3
    await store.writer.write(before)
    ta = await store.table("ta")
    assert (ta.state, ta.state_seq, ta.move_count) == ({"n": 3}, 3, 4)
    await store.writer.write(move("ta", 4, state={"n": 5}, status="finished"))
    ta = await store.table("ta")
    assert (ta.state, ta.state_seq, ta.status) == ({"n": 5}, 5, "finished")


async def test_one_failing_move_does_not_sink_its_batch(store: Store) -> None:
    requires_postgres()  # SQLite writes each move alone and does not check string lengths
    results = await write_together(store, move("ta", 0), move("tb", 0, status="x" * 11), move("tc", 0))
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], asyncpg.StringDataRightTruncationError)
    assert (await store.table("tb")).version == 0
    assert (await store.table("ta")).version == 1 == (await store.table("tc")).version


async def test_a_batch_is_announced_by_one_notification_of_its_moves(store: Store) -> None:
    requires_postgres()
    listener = await asyncpg.connect(store.dsn)
    payloads: list[str] = []
    await listener.add_listener(CHANNEL, lambda *args: payloads.append(args[-1]))
    try:
        await write_together(store, *(move(t, 0) for t in TABLES))
        await write_together(store, move("ta", 1), move("tb", 7))  # tb conflicts: not announced
        for _ in range(100):
            if len(payloads) >= 2:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.1)
    finally:
        await listener.close()
    assert [sorted(p.split(",")) for p in payloads] == [[f"{t}:1" for t in TABLES], ["ta:2"]]


async def test_a_writer_for_another_broker_sends_no_notification(store: Store) -> None:
    """With the Redis broker nobody listens: the batches (the one skipping seen client_ids too) send nothing."""
    requires_postgres()
    quiet = PostgresBatchWriter(store.settings.effective_database_url, notify=False)
    await quiet.start()
    listener = await asyncpg.connect(store.dsn)
    payloads: list[str] = []
    await listener.add_listener(CHANNEL, lambda *args: payloads.append(args[-1]))
    try:
        assert await quiet._commit(0, [move("ta", 0, "same"), move("tb", 0)]) == {"ta", "tb"}
        assert await quiet._commit(0, [move("ta", 1, "same"), move("tc", 0)]) == {"tc"}
        await asyncio.sleep(0.3)
    finally:
        await listener.close()
        await quiet.stop()
    assert payloads == []
    assert (await store.table("tc")).version == 1


@pytest.mark.parametrize("sql", [_BATCH_SQL, _BATCH_SKIPPING_SEEN_SQL], ids=["batch", "skipping_seen"])
async def test_the_generic_plan_of_a_fresh_database_stays_on_the_indexes(store: Store, sql: str) -> None:
    """Made while the tables are nearly empty (as on a new server), the plan must still probe
    game_tables by its key: a sequential scan or a hash of a table would grow with it, batch after batch."""
    requires_postgres()
    conn = await asyncpg.connect(store.dsn, server_settings=_SESSION_SETTINGS)
    try:
        await conn.execute("SET plan_cache_mode = force_generic_plan")
        types = ("text[], int[], int[], int[], text[], text[], text[], text[], text[], text[], text[], text[], int[],"
                 " text[], text[], timestamptz[], timestamptz[]")
        await conn.execute(f"PREPARE batch({types}) AS {sql}")
        args = ("'{ta}', '{0}', '{1}', '{1}', '{0}', '{c}', '{\"{}\"}', '{\"[]\"}', '{NULL}', '{\"[]\"}', '{NULL}',"
                " '{playing}', '{1}', '{NULL}', '{NULL}', '{NULL}', '{\"2030-01-01 00:00:00+00\"}'")
        plan = "\n".join(r[0] for r in await conn.fetch(f"EXPLAIN EXECUTE batch({args})"))
    finally:
        await conn.close()
    assert "Index Scan using game_tables_pkey" in plan, plan
    assert "Seq Scan" not in plan and "Hash" not in plan and "Merge" not in plan, plan


async def test_the_schema_is_lean_for_move_writes(store: Store) -> None:
    """moves: keyed by (table_id, seq), no foreign key; game_tables: room for HOT updates, state out of line."""
    requires_postgres()
    conn = await asyncpg.connect(store.dsn)
    try:
        constraints = {r["conname"]: r["contype"] for r in await conn.fetch(
            "SELECT conname, contype::text FROM pg_constraint WHERE conrelid = 'moves'::regclass")}
        pkey = await conn.fetchval("SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'moves_pkey'")
        options = await conn.fetchval("SELECT reloptions FROM pg_class WHERE relname = 'game_tables'")
        columns = await conn.fetch("SELECT attname FROM pg_attribute WHERE attrelid = 'moves'::regclass AND attnum > 0")
    finally:
        await conn.close()
    assert constraints == {"moves_pkey": "p"} and pkey == "PRIMARY KEY (table_id, seq)"
    assert "id" not in {r["attname"] for r in columns}
    assert set(options) >= {"fillfactor=90", "toast_tuple_target=128"}


async def test_a_move_rewrites_its_table_row_in_place(store: Store) -> None:
    """Every move's update of its table row is a HOT update (no new index entries), the snapshots' included: no index
    of game_tables may cover a column a move changes (migration 0014 moved one off `updated_at`)."""
    requires_postgres()
    conn = await asyncpg.connect(store.dsn, server_settings=_SESSION_SETTINGS)
    counts = "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'game_tables'"
    try:
        await conn.execute("SELECT pg_stat_force_next_flush()")
        before = await conn.fetchrow(counts)
        for version in range(4):  # one transaction each, as the writer commits them: each its own now()
            snapshot = {"n": version} if version == 2 else None
            await conn.fetchrow(_BATCH_SQL, *_columns([move("ta", version, f"c{version}", state=snapshot)]))
            await asyncio.sleep(0.002)
        await conn.execute("SELECT pg_stat_force_next_flush()")  # this backend's counts, published when idle
        await conn.execute("SELECT pg_stat_clear_snapshot()")
        after = await conn.fetchrow(counts)
    finally:
        await conn.close()
    assert (await store.table("ta")).version == 4
    assert (after[0] - before[0], after[1] - before[1]) == (4, 4)
