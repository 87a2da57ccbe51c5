"""The table-side use cases built as the runtime builds them, but by hand: each from a real `Database` on a SQLite
file of its own, the table writes, a clock and a publisher that records what it is told, with no `Runtime` around
them. Each does one real thing and tells what it should."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from app.clock import FakeClock
from app.config import Settings
from app.db.models import Move, MoveDraft, RatingChange, User
from app.db.session import make_engine, make_sessionmaker
from app.games import GAMES
from app.main import run_migrations
from app.services import lobby
from app.services.bots import BotRunner
from app.services.database import Database
from app.services.drafts import Drafts
from app.services.errors import ServiceError
from app.services.events import TableEvent
from app.services.listings import Listings
from app.services.loading import moves_after
from app.services.lobby import Lobby
from app.services.play import Ack, Play
from app.services.ratings import Ratings
from app.services.record import TableRecord, TableStatus
from app.services.rematch import Rematcher
from app.services.table_cache import TableCache
from app.services.table_records import TableRecords
from app.services.table_writes import TableWrites
from app.services.timeouts import Timeouts
from app.services.undo import Undoer
from app.services.writer import SessionWriter
from tests.conftest import SECRET

pytestmark = pytest.mark.usefixtures("tiny_game")

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
LEAN = {"type": "lean", "n": 2}
PICK = {"type": "pick", "n": 1}


class RecordingPublisher:
    """The live side as a list of what it was told (`told`: the call's name and its arguments)."""

    def __init__(self) -> None:
        self.told: list[tuple[str, tuple[Any, ...]]] = []

    async def notice_in_tx(self, session: AsyncSession, notice: str) -> None:
        self.told.append(("notice_in_tx", (notice,)))

    async def notice_after_commit(self, notice: str) -> None:
        self.told.append(("notice_after_commit", (notice,)))

    def chat_line(self, table_id: str, line: dict[str, Any]) -> None:
        self.told.append(("chat_line", (table_id, line)))

    def chat_removed(self, table_id: str, message_id: int) -> None:
        self.told.append(("chat_removed", (table_id, message_id)))

    def chat_mute(self, table_id: str, user: dict[str, Any], muted: bool, host_id: str) -> None:
        self.told.append(("chat_mute", (table_id, user, muted, host_id)))

    def sessions_ended(self, user_id: str, epoch: int) -> None:
        self.told.append(("sessions_ended", (user_id, epoch)))

    def session_revoked(self, user_id: str, sid: str) -> None:
        self.told.append(("session_revoked", (user_id, sid)))

    def renamed(self, user_id: str, name: str) -> None:
        self.told.append(("renamed", (user_id, name)))

    def draft_shown(self, rec: TableRecord, seat: str, events: list[dict[str, Any]]) -> None:
        self.told.append(("draft_shown", (rec.id, seat, [e["type"] for e in events])))

    def table_changed(self, table_id: str, version: int) -> None:
        self.told.append(("table_changed", (table_id, version)))

    def connected(self, table_id: str, user_id: str) -> bool:
        return False


class Changes:
    """What the table writes tell beyond the database: the other processes, in the transaction (`in_tx`), and the
    fan-out after the commit (`after`)."""

    def __init__(self) -> None:
        self.in_tx: list[tuple[str, int]] = []
        self.after: list[TableRecord] = []

    async def notify_in_tx(self, session: AsyncSession, table_id: str, version: int, /) -> None:
        self.in_tx.append((table_id, version))

    async def after_change(self, rec: TableRecord) -> None:
        self.after.append(rec)


class Background:
    """The tasks a use case spawns, awaited before the test looks at their effect."""

    def __init__(self) -> None:
        self.tasks: list[asyncio.Task[Any]] = []

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.append(task)
        return task

    async def finish(self) -> None:
        await asyncio.gather(*self.tasks)


@dataclass
class World:
    engine: AsyncEngine
    database: Database
    cache: TableCache
    records: TableRecords
    changes: Changes
    tables: TableWrites
    clock: FakeClock
    publisher: RecordingPublisher
    writer: SessionWriter
    background: Background
    ana: User
    bo: User

    def lobby(self, max_open_tables: int = 5) -> Lobby:
        return Lobby(tables=self.tables, clock=self.clock, secret_key=SECRET, max_open_tables=max_open_tables)

    def drafts(self) -> Drafts:
        return Drafts(database=self.database, cache=self.cache)

    def play(self) -> Play:
        return Play(
            tables=self.tables, database=self.database, writer=self.writer, drafts=self.drafts(),
            publisher=self.publisher, clock=self.clock, snapshot_every=16, spawn=self.background.spawn,
        )

    async def table(self, options: dict[str, Any] | None = None, time_control: dict[str, Any] | None = None,
                    bot: bool = False) -> TableRecord:
        """A started two-seat tiny table: Ana in seat 0, Bo (or a bot) in seat 1."""
        tables = self.lobby()
        async with self.database.sessions() as session:
            rec = await tables.create_table(session, self.ana, "tiny", 2, options or {}, "public", None, time_control)
        if bot:
            await tables.change(rec.id, self.ana, None, lambda s, r: lobby.add_bot(s, r, self.ana, 1))
        else:
            await tables.change(rec.id, self.bo, None, lambda s, r: lobby.join(s, r, self.bo, None, None))
        return await tables.change(rec.id, self.ana, None, lambda s, r: lobby.start(s, r, self.ana, self.clock.now()))

    async def finished(self) -> TableRecord:
        """A tiny game of Ana and Bo played to its end (one round to a target of 1)."""
        rec = await self.table({"target": 1})
        play = self.play()
        while rec.awaiting:
            seat = rec.awaiting[0]
            await play.apply_action(rec.id, seat, rec.actions_for(seat)[0])
            rec = await self.tables.reload(rec.id)
        assert rec.status == TableStatus.FINISHED
        return rec


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}", secret_key=SECRET)
    await asyncio.to_thread(run_migrations, settings.effective_database_url)
    engine = make_engine(settings)
    sessions, reads = make_sessionmaker(engine), make_sessionmaker(engine, autocommit=True)
    database = Database(sessions=sessions, reads=reads, is_postgres=False)
    clock = FakeClock(T0)
    cache = TableCache(clock=clock.monotonic)
    records = TableRecords(cache=cache, reads=reads, shared=False, engine=engine, moves_query=moves_after)
    changes = Changes()
    tables = TableWrites(database=database, records=records, cache=cache, notify_in_tx=changes.notify_in_tx,
                         after_change=changes.after_change)
    long_ago = datetime.now(UTC) - timedelta(days=365)  # established accounts, as the ratings count them
    ana = User(id="ana", name="Ana", username="ana", password_hash="x", created_at=long_ago)
    bo = User(id="bo", name="Bo", username="bo", password_hash="x", created_at=long_ago)
    async with sessions() as session:
        session.add_all([ana, bo])
        await session.commit()
    writer = SessionWriter(sessions)
    await writer.start()
    background = Background()
    try:
        yield World(engine, database, cache, records, changes, tables, clock, RecordingPublisher(), writer,
                    background, ana, bo)
    finally:
        await background.finish()
        await writer.stop()
        await engine.dispose()


async def test_the_lobby_seats_a_player_and_tells_of_the_change(world: World) -> None:
    tables = world.lobby(max_open_tables=1)
    async with world.database.sessions() as session:
        rec = await tables.create_table(session, world.ana, "tiny", 2, {}, "public", None)
    world.clock.advance(30)
    joined = await tables.change(rec.id, world.bo, None, lambda s, r: lobby.join(s, r, world.bo, None, None))
    assert joined.version == 2 and joined.seat_of("bo") == "1"
    assert joined.updated_at == T0 + timedelta(seconds=30)  # the lobby's clock, which the stand-in wait reads
    assert world.changes.in_tx == [(rec.id, 2)] and world.changes.after == [joined]
    assert world.cache.get(rec.id) is joined
    with pytest.raises(ServiceError) as refused:  # the host's one waiting table is the limit given
        async with world.database.sessions() as session:
            await tables.create_table(session, world.ana, "tiny", 2, {}, "public", None)
    assert refused.value.code == "too_many_open_tables"


async def test_the_listings_page_the_public_tables(world: World) -> None:
    rec = await world.table()
    listings = Listings(records=world.records)
    async with world.database.reads() as session:
        page, after = await listings.public_tables(session, TableStatus.PLAYING, "tiny", None, 10)
        mine, _ = await listings.my_tables(session, world.bo, None, 10)
    assert [r.id for r in page] == [rec.id] and after is None
    assert [r.id for r in mine] == [rec.id]


async def test_play_shows_a_draft_to_its_author_alone_then_publishes_the_move_that_carries_it(world: World) -> None:
    rec = await world.table({"leans": True})
    world.changes.after.clear()
    play = world.play()
    acks: list[Ack] = []
    drafted = await play.apply_action(rec.id, "0", LEAN, "c1", rec.version, acks.append)
    assert drafted.draft == 1 and drafted.version == rec.version
    assert world.publisher.told == [("draft_shown", (rec.id, "0", ["leaned"]))]
    assert world.changes.after == []  # nobody else hears of a draft
    moved = await play.apply_action(rec.id, "0", PICK, "c2", rec.version, acks.append)
    assert acks == [drafted, moved] and moved.version == rec.version + 1
    [published] = world.changes.after
    assert published.version == moved.version and published.live_drafts("0") == ()
    await world.background.finish()  # the carried draft's row is deleted in the background
    async with world.database.reads() as session:
        move = (await session.scalars(select(Move).where(Move.table_id == rec.id))).one()
        assert move.steps == [LEAN]
        assert await session.scalar(select(func.count()).select_from(MoveDraft)) == 0
    assert await play.apply_action(rec.id, "0", PICK, "c2") == Ack("c2", moved.version, duplicate=True)


async def test_the_drafts_are_stored_and_taken_back(world: World) -> None:
    rec = await world.table({"leans": True})
    drafts = Drafts(database=world.database, cache=world.cache)
    applied = GAMES["tiny"].apply(rec.state_for("0"), "0", LEAN)
    kept = await drafts.keep(rec, "0", LEAN, "c1", applied)
    assert [d.action for d in kept.live_drafts("0")] == [LEAN] and world.cache.get(rec.id) is kept
    dropped = await drafts.drop_last(kept, "0")
    assert dropped.live_drafts("0") == () and dropped.version == rec.version
    async with world.database.reads() as session:
        assert await session.scalar(select(func.count()).select_from(MoveDraft)) == 0


async def test_the_undoer_takes_back_a_move_and_a_draft(world: World) -> None:
    rec = await world.table({"leans": True})
    play = world.play()
    undo = Undoer(tables=world.tables, drafts=world.drafts(), publisher=world.publisher)
    moved = await play.apply_action(rec.id, "0", PICK)
    world.changes.after.clear()
    undone = await undo.take_back(rec.id, "0", None, moved.version)
    assert undone.version == moved.version + 1
    [published] = world.changes.after
    assert published.move_count == 0 and published.awaiting == ["0", "1"]
    assert (rec.id, undone.version) in world.changes.in_tx
    drafted = await play.apply_action(rec.id, "1", LEAN)
    world.publisher.told.clear()
    taken = await undo.take_back(rec.id, "1", None, drafted.version)
    assert taken.draft == 0 and world.publisher.told == [("draft_shown", (rec.id, "1", []))]


async def test_the_rematcher_opens_a_table_like_the_finished_one_and_seats_the_others(world: World) -> None:
    old = await world.finished()
    world.changes.after.clear()
    rematches = Rematcher(tables=world.tables, lobby=world.lobby(), secret_key=SECRET)
    new = await rematches.rematch(old.id, world.ana)
    assert new.status == TableStatus.OPEN and new.host_id == "ana" and new.options == old.options
    [finished] = world.changes.after
    assert finished.id == old.id and finished.rematch_id == new.id
    joined = await rematches.rematch(old.id, world.bo)
    assert joined.id == new.id and joined.seat_of("bo") == old.seat_of("bo")


async def test_the_ratings_settle_a_finished_game_once(world: World) -> None:
    old = await world.finished()
    world.changes.after.clear()
    ratings = Ratings(tables=world.tables, database=world.database, min_age_days=3, min_games=3, repeat_hours=24)
    rated = await ratings.settle(old.id)
    assert rated is not None and rated.version == old.version + 1
    assert world.changes.after == [rated] and (old.id, rated.version) in world.changes.in_tx
    assert [e["type"] for e in rated.recent_events[rated.version]] == [TableEvent.RATED]
    assert await ratings.settle(old.id) is None and await ratings.sweep() == 0
    async with world.database.reads() as session:
        assert await session.scalar(select(func.count()).select_from(RatingChange)) == 2


async def test_the_timeouts_let_a_bot_play_a_turn_that_ran_out(world: World) -> None:
    rec = await world.table(time_control={"kind": "turn", "per_move": 60, "bank": 60})
    world.changes.after.clear()
    timeouts = Timeouts(tables=world.tables, database=world.database)
    assert await timeouts.due(T0 + timedelta(seconds=119)) == []
    assert await timeouts.sweep(T0 + timedelta(seconds=120)) == 1
    [published] = world.changes.after
    assert published.version > rec.version and (rec.id, published.version) in world.changes.in_tx
    timed_out = [e["seat"] for events in published.recent_events.values() for e in events
                 if e["type"] == TableEvent.TIMEOUT]
    assert sorted(timed_out) == ["0", "1"]


async def test_the_bot_runner_plays_a_bots_turn_through_the_move_path(world: World) -> None:
    rec = await world.table(bot=True)
    world.changes.after.clear()
    bots = BotRunner(play=world.play(), records=world.records, database=world.database, clock=world.clock,
                     workers=1, playouts=0, delay=0)
    try:
        bots.poke(rec)
        await bots.running[rec.id]
    finally:
        await bots.stop()
    [published] = world.changes.after
    assert published.awaiting == ["0"] and published.version == rec.version + 1
    async with world.database.reads() as session:
        move = (await session.scalars(select(Move).where(Move.table_id == rec.id))).one()
    assert move.seat == "1" and move.action == {"type": "pick", "n": 3}  # the tiny game's bot
