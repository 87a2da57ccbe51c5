"""Game clocks on a controlled clock (services/clocks.py, services/timeouts.py), on this run's database: real time
with increments, turn based with a bank, every awaited seat's clock running at once in a secret step, a late move
refused, each timeout policy and what it does to ratings, a restart mid-clock, and (Postgres) a timeout claimed by
exactly one of two runtimes standing for two server processes. Nothing sleeps: each runtime's `now` is set by hand.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select, update

from app.clock import FakeClock
from app.config import Settings
from app.db.models import GameTable, Move, PlayerRating, User
from app.games.rng import Rng
from app.main import run_migrations
from app.runtime import Runtime
from app.services import clocks, lobby, presentation
from app.services.errors import ServiceError
from app.services.record import TableRecord
from tests.conftest import SECRET, Database, requires_postgres

pytestmark = pytest.mark.usefixtures("tiny_game")

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
PICK = {"type": "pick", "n": 1}


class Clock(FakeClock):
    """A clock that moves only when told, to a moment counted from T0 (back to T0 too: a test starts several tables
    there)."""

    def __init__(self) -> None:
        super().__init__(T0)

    def to(self, seconds: float) -> datetime:
        self.set(T0 + timedelta(seconds=seconds))
        return self.now()


def _settings(db: Database) -> Settings:
    return Settings(database_url=db.url, secret_key=SECRET, bot_delay=0, rated_min_games=0, rated_repeat_hours=0)


async def _runtime(db: Database, clock: Clock) -> Runtime:
    """A runtime whose move writer runs (its sweeps do not: the tests call them at chosen moments)."""
    rt = Runtime(_settings(db), clock=clock)
    await rt.writer.start()
    return rt


@pytest.fixture
async def clock() -> Clock:
    return Clock()


@pytest.fixture
async def rt(fresh_db: Database, clock: Clock) -> AsyncIterator[Runtime]:
    await asyncio.to_thread(run_migrations, _settings(fresh_db).effective_database_url)
    runtime = await _runtime(fresh_db, clock)
    async with runtime.sessions() as session:
        for name in ("ana", "bo", "cy"):
            session.add(User(id=name, name=name.title(), username=name, password_hash="x"))
        await session.commit()
    try:
        yield runtime
    finally:
        await runtime.stop()


async def _user(rt: Runtime, user_id: str) -> User:
    async with rt.reads() as session:
        user = await session.get(User, user_id)
        assert user is not None
        return user


async def started(rt: Runtime, clock: Clock, tc: dict[str, Any], people: tuple[str, ...] = ("ana", "bo"),
                  target: int = 30) -> TableRecord:
    """A public tiny table with this time control, its seats taken by `people` in order, started at T0."""
    host = await _user(rt, people[0])
    async with rt.sessions() as session:
        rec = await rt.lobby.create_table(session, host, "tiny", len(people), {"target": target}, "public", None, tc)
    for person in people[1:]:
        user = await _user(rt, person)
        await rt.lobby.change(rec.id, user, None, lambda s, r, u=user: lobby.join(s, r, u, None, None))
    # A seed with which seat 0 bumps first, so that every run plays the same turns.
    seed = next(n for n in range(1, 100) if Rng(n).below(len(people)) == 0)
    async with rt.sessions() as session:
        await session.execute(update(GameTable).where(GameTable.id == rec.id).values(seed=seed))
        await session.commit()
    await rt.tables.reload(rec.id)
    clock.to(0)
    return await rt.lobby.change(rec.id, host, None, lambda s, r: lobby.start(s, r, host, clock.now()))


async def fresh(rt: Runtime, table_id: str) -> TableRecord:
    return await rt.tables.reload(table_id)


def shown(rt: Runtime, rec: TableRecord) -> dict[str, Any]:
    """The clocks as the API shows them now."""
    return rt.presenter.clock_fields(rec)["clock"]["seats"]


async def timeout_moves(rt: Runtime, table_id: str) -> list[Move]:
    async with rt.reads() as session:
        rows = await session.scalars(
            select(Move).where(Move.table_id == table_id, Move.client_id.like("timeout:%")).order_by(Move.seq))
        return list(rows)


# The arithmetic, without a database.

@pytest.mark.parametrize(("raw", "message"), [
    ("fast", "object"),
    ({"kind": "blitz"}, "kind"),
    ({"kind": "realtime", "base": 60}, "increment"),
    ({"kind": "realtime", "base": 60.5, "increment": 0}, "whole number"),
    ({"kind": "realtime", "base": True, "increment": 0}, "whole number"),
    ({"kind": "realtime", "base": 2, "increment": 0}, "from 5"),
    ({"kind": "realtime", "base": 60, "increment": -1}, "from 0"),
    ({"kind": "realtime", "base": 60, "increment": 0, "bank": 5}, "Unknown"),
    ({"kind": "turn", "per_move": 3600}, "bank"),
    ({"kind": "turn", "per_move": 3600, "bank": 0, "timeout": "forfeit"}, "timeout"),
    ({"kind": "none", "base": 60}, "no other"),
])
def test_a_wrong_time_control_is_refused_with_a_clear_error(raw: Any, message: str) -> None:
    with pytest.raises(ServiceError) as err:
        clocks.check_time_control(raw)
    assert err.value.code == "bad_time_control" and message in err.value.message


def test_a_time_control_is_kept_with_its_policy() -> None:
    assert clocks.check_time_control(None) is None
    assert clocks.check_time_control({"kind": "none"}) is None
    assert clocks.check_time_control({"kind": "realtime", "base": 600, "increment": 10}) == {
        "kind": "realtime", "base": 600, "increment": 10, "timeout": "bot_move"}
    assert clocks.check_time_control({"kind": "turn", "per_move": 86400, "bank": 3600, "timeout": "loss"}) == {
        "kind": "turn", "per_move": 86400, "bank": 3600, "timeout": "loss"}


def test_fischer_increments_and_a_turn_that_goes_on() -> None:
    tc = {"kind": "realtime", "base": 60, "increment": 5, "timeout": "bot_move"}
    c = clocks.start(tc, ["0", "1"], ["0"], 0)
    c = clocks.after_step(tc, c, ["0"], 10_000)  # a step that leaves seat 0 awaited: its turn goes on
    assert c["left"]["0"] == 60_000 and c["since"] == {"0": 0}
    c = clocks.after_step(tc, c, ["1"], 25_000)  # its turn ends: 25 s charged, 5 s added
    assert c["left"] == {"0": 40_000, "1": 60_000} and c["since"] == {"1": 25_000}
    assert clocks.deadline(tc, c) == clocks.from_ms(85_000)
    assert clocks.expired(tc, c, 84_999) == [] and clocks.expired(tc, c, 85_000) == ["1"]


def test_turn_based_draws_on_the_bank_only_beyond_the_turns_allowance() -> None:
    tc = {"kind": "turn", "per_move": 3600, "bank": 600, "timeout": "bot_move"}
    c = clocks.start(tc, ["0", "1"], ["0"], 0)
    c = clocks.after_step(tc, c, ["1"], 3_000_000)  # within the hour: the bank is untouched
    assert c["left"]["0"] == 600_000
    c = clocks.after_step(tc, c, ["0"], 3_000_000 + 3_900_000)  # 5 minutes over the hour
    assert c["left"]["1"] == 300_000
    view = clocks.view(tc, c, 6_900_000 + 3_700_000)  # seat 0, 100 s over its hour
    assert view["seats"]["0"] == {"left": 500_000, "running": True, "bank": 500_000}
    assert view["seats"]["1"] == {"left": 3_900_000, "running": False, "bank": 300_000}


# On the database, through the move path and the sweep.

async def test_a_secret_step_runs_every_awaited_clock_and_a_real_time_timeout_has_a_bot_play(
    rt: Runtime, clock: Clock
) -> None:
    rec = await started(rt, clock, {"kind": "realtime", "base": 60, "increment": 5})
    assert rec.awaiting == ["0", "1"]  # both pick at once
    clock.to(20)
    assert shown(rt, rec) == {"0": {"left": 40_000, "running": True}, "1": {"left": 40_000, "running": True}}
    clock.to(30)
    await rt.play.apply_action(rec.id, "0", PICK)
    rec = await fresh(rt, rec.id)
    assert shown(rt, rec) == {"0": {"left": 35_000, "running": False}, "1": {"left": 30_000, "running": True}}
    assert rec.deadline == T0 + timedelta(seconds=60)
    assert await rt.timeouts.sweep(clock.to(59.999)) == 0
    assert await rt.timeouts.sweep(clock.to(60)) == 1
    rec = await fresh(rt, rec.id)
    [bot] = await timeout_moves(rt, rec.id)
    assert bot.seat == "1" and bot.action == {"type": "pick", "n": 3}
    assert bot.events[0] == {"type": "timeout", "seat": "1", "name": "Bo", "policy": "bot_move", "visible_to": None}
    assert rec.status == "playing" and rec.state is not None and rec.state["phase"] == "bump"
    assert rec.awaiting == ["0"]
    assert rec.undo_seat is None  # the player did not make the bot's move: it cannot be taken back
    # The timed-out seat's clock holds its increment only; the game goes on, unrated.
    assert rec.clock is not None and rec.clock["left"]["1"] == 5_000
    assert not rec.counts_for_ratings()
    assert await rt.timeouts.sweep(clock.to(60)) == 0  # claimed once


async def test_a_move_taken_back_gives_back_no_time_and_no_increment(rt: Runtime, clock: Clock) -> None:
    rec = await started(rt, clock, {"kind": "realtime", "base": 60, "increment": 5})
    clock.to(10)
    ack = await rt.play.apply_action(rec.id, "0", PICK)
    clock.to(12)
    await rt.undo.take_back(rec.id, "0", None, ack.version)
    rec = await fresh(rt, rec.id)
    assert shown(rt, rec)["0"] == {"left": 48_000, "running": True}  # its turn went on running
    assert rec.deadline == T0 + timedelta(seconds=60)
    clock.to(20)
    await rt.play.apply_action(rec.id, "0", PICK)
    rec = await fresh(rt, rec.id)
    assert rec.clock is not None and rec.clock["left"]["0"] == 45_000  # one increment, for the one turn


async def test_a_move_after_the_deadline_is_refused_and_changes_nothing(rt: Runtime, clock: Clock) -> None:
    rec = await started(rt, clock, {"kind": "realtime", "base": 30, "increment": 0})
    clock.to(31)
    with pytest.raises(ServiceError) as err:
        await rt.play.apply_action(rec.id, "1", PICK)
    assert err.value.code == "time_up"
    assert (await fresh(rt, rec.id)).version == rec.version


async def test_turn_based_timeout_with_the_bank_and_a_restart_mid_clock(
    rt: Runtime, clock: Clock, fresh_db: Database
) -> None:
    rec = await started(rt, clock, {"kind": "turn", "per_move": 3600, "bank": 600, "timeout": "bot_move"})
    clock.to(1800)
    await rt.play.apply_action(rec.id, "0", PICK)
    clock.to(3600 + 300)
    await rt.play.apply_action(rec.id, "1", PICK)  # 5 minutes of its bank used
    rec = await fresh(rt, rec.id)
    mover = rec.awaiting[0]
    assert mover == "0"
    assert rec.clock is not None and rec.clock["left"] == {"0": 600_000, "1": 300_000}
    bank = rec.clock["left"][mover]
    # A restart: another runtime reads what the last move stored, and the clock has gone on meanwhile.
    await rt.stop()
    again = await _runtime(fresh_db, clock)
    try:
        clock.to(3900 + 1000)
        rec = await fresh(again, rec.id)
        assert shown(again, rec)[mover] == {"left": 3_600_000 + bank - 1_000_000, "running": True, "bank": bank}
        assert rec.deadline == T0 + timedelta(milliseconds=3_900_000 + 3_600_000 + bank)
        assert await again.timeouts.sweep(clock.to(3900 + 3600 + bank / 1000 - 0.001)) == 0
        assert await again.timeouts.sweep(clock.to(3900 + 3600 + bank / 1000)) == 1
        [bot] = await timeout_moves(again, rec.id)
        assert bot.seat == mover and bot.action == {"type": "bump"}
        rec = await fresh(again, rec.id)
        assert rec.clock is not None and rec.clock["left"][mover] == 0 and mover not in rec.awaiting
    finally:
        await again.stop()


async def _rating(rt: Runtime, user: str) -> int:
    async with rt.reads() as session:
        row = await session.scalar(
            select(PlayerRating).where(PlayerRating.user_id == user, PlayerRating.game == "tiny"))
        return row.rating if row is not None else 1500


async def test_loss_with_two_players_ends_the_game_and_the_ratings_follow(rt: Runtime, clock: Clock) -> None:
    rec = await started(rt, clock, {"kind": "realtime", "base": 60, "increment": 0, "timeout": "loss"})
    assert rec.counts_for_ratings()
    clock.to(10)
    await rt.play.apply_action(rec.id, "0", PICK)
    assert await rt.timeouts.sweep(clock.to(60)) == 1
    rec = await fresh(rt, rec.id)
    assert rec.status == "finished" and rec.deadline is None
    assert rec.outcome == {"scores": {}, "ranking": [["0"], ["1"]], "winners": ["0"], "details": {},
                           "timeout": ["1"]}
    assert rec.clock is not None and rec.clock["timed_out"] == ["1"] and rec.clock["since"] == {}
    await rt.ratings.settle(rec.id)
    ana, bo = await _rating(rt, "ana"), await _rating(rt, "bo")
    assert ana > 1500 > bo and ana + bo == 3000


async def test_loss_with_more_players_hands_the_seat_to_a_bot_and_ranks_it_last(rt: Runtime, clock: Clock) -> None:
    rec = await started(rt, clock, {"kind": "turn", "per_move": 600, "bank": 0, "timeout": "loss"},
                        people=("ana", "bo", "cy"), target=3)
    clock.to(5)
    await rt.play.apply_action(rec.id, "0", PICK)
    await rt.play.apply_action(rec.id, "1", PICK)
    assert await rt.timeouts.sweep(clock.to(600)) == 1
    rec = await fresh(rt, rec.id)
    assert rec.timed_out() == ["2"] and "2" in rec.bot_seats() and rec.status == "playing"
    assert rec.clock is not None and "2" not in rec.clock["left"]
    cy = await _user(rt, "cy")
    with pytest.raises(ServiceError) as err:
        await rt.lobby.change(rec.id, cy, None, lambda s, r: lobby.reclaim(s, r, cy))
    assert err.value.code == "timed_out"
    # The bot plays the seat on (the runner was poked by the change); the people play theirs to the end.
    for _ in range(200):
        rec = await fresh(rt, rec.id)
        if rec.status == "finished":
            break
        mine = [s for s in rec.awaiting if s not in rec.bot_seats()]
        if mine:
            await rt.play.apply_action(rec.id, mine[0], {"type": "pick", "n": 0} if rec.state and rec.state["phase"]
                               == "pick" else {"type": "bump"})
        else:
            await asyncio.sleep(0.01)  # the bot's move, made by the runner
    assert rec.status == "finished" and rec.outcome is not None
    assert rec.outcome["winners"] == ["2"]  # the bot picked 3s for the seat: it finished first
    await rt.ratings.settle(rec.id)
    assert await _rating(rt, "cy") < 1500  # its person ran out of time: last for the ratings


async def test_a_bot_move_tables_ratings_are_not_changed(rt: Runtime, clock: Clock) -> None:
    rec = await started(rt, clock, {"kind": "realtime", "base": 60, "increment": 0}, target=1)
    assert not rec.counts_for_ratings() and presentation.public_table_json(rec)["rated"] is False
    await rt.play.apply_action(rec.id, "0", {"type": "pick", "n": 3})
    await rt.play.apply_action(rec.id, "1", PICK)
    while (rec := await fresh(rt, rec.id)).status == "playing":
        await rt.play.apply_action(rec.id, rec.awaiting[0], {"type": "bump"})
    assert await rt.ratings.settle(rec.id) is None
    async with rt.reads() as session:
        assert (await session.get(GameTable, rec.id)).rated is False  # type: ignore[union-attr]
    assert await _rating(rt, "ana") == 1500


async def test_two_processes_claim_each_timeout_once(rt: Runtime, clock: Clock, fresh_db: Database) -> None:
    requires_postgres()
    other = await _runtime(fresh_db, clock)
    try:
        ids = [(await started(rt, clock, {"kind": "turn", "per_move": 3600, "bank": 60})).id for _ in range(6)]
        due = clock.to(3660)
        counts = await asyncio.gather(*(runtime.timeouts.sweep(due) for runtime in (rt, other, rt, other)))
        assert sum(counts) == len(ids)
        for table_id in ids:
            moves = await timeout_moves(rt, table_id)
            # Each seat's pick made once, by one claim (a bot that picked first may bump too: still its turn).
            assert sorted(m.seat for m in moves if m.action["type"] == "pick") == ["0", "1"]
            assert sorted(e["seat"] for m in moves for e in m.events if e["type"] == "timeout") == ["0", "1"]
        # Both at once on one table, again: the row lock makes the second skip it, and then it is no longer due.
        table_id = (await started(rt, clock, {"kind": "turn", "per_move": 3600, "bank": 60})).id
        both = await asyncio.gather(rt.timeouts.claim(table_id, due), other.timeouts.claim(table_id, due))
        assert sum(r is not None for r in both) == 1
        assert len([m for m in await timeout_moves(rt, table_id) if m.action["type"] == "pick"]) == 2
    finally:
        await other.stop()
