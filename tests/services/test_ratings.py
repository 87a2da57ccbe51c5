"""Rating finished tables (services/ratings.py) on this run's database, with two runtimes standing for two server
processes: a table is rated once however many of them try, at once or again later; people playing several tables
that end together lose no change; tables that are not rated are marked so; the sweep rates what a dead process left.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import func, select, text, update
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import Settings
from app.db.models import GameTable, PlayerRating, RatingChange, Seat, TableLogEntry, User
from app.main import ROOT, run_migrations
from app.runtime import Runtime
from app.services import glicko2
from tests.conftest import SECRET, Database


@pytest.fixture
async def runtimes(fresh_db: Database) -> AsyncIterator[tuple[Runtime, Runtime]]:
    """Two runtimes on one fresh database (not started: nothing but what rating needs)."""
    # Accounts made here are new: counted at once, as the servers of the API tests count them (tests/conftest.py).
    settings = Settings(database_url=fresh_db.url, secret_key=SECRET, rated_min_games=0, rated_repeat_hours=0)
    await asyncio.to_thread(run_migrations, settings.effective_database_url)
    pair = (Runtime(settings), Runtime(settings))
    async with pair[0].sessions() as session:
        for name in ("ana", "bo", "cy"):
            session.add(User(id=name, name=name.title()))
        await session.commit()
    try:
        yield pair
    finally:
        for rt in pair:
            await rt.stop()


_count = 0


async def finished(rt: Runtime, seats: list[tuple[str | None, bool]], ranking: list[list[str]],
                   visibility: str = "public", abandoned: bool = False, ago: float = 0.0,
                   guests: frozenset[str] = frozenset()) -> str:
    """A finished Food Truck table (its state is never read here) with these seats (user id or None, bot), the
    `guests` among them playing as guests, and this final ranking, not rated yet."""
    global _count
    _count += 1
    table_id = f"{_count:016x}"
    at = datetime.now(UTC) - timedelta(seconds=ago)
    async with rt.sessions() as session:
        session.add(GameTable(
            id=table_id, game="food-truck", name="t", host_id="ana", visibility=visibility, status="finished",
            seat_count=len(seats), options={}, seed=1, seed_commitment="c", state={"over": True}, version=7,
            state_seq=0, move_count=0, awaiting=[], abandoned=abandoned,
            outcome=None if abandoned else {"scores": {}, "ranking": ranking, "winners": ranking[0], "details": {}},
            created_at=at, updated_at=at,
        ))
        await session.flush()
        for i, (user, bot) in enumerate(seats):
            session.add(Seat(table_id=table_id, seat=str(i), user_id=user, bot=bot, guest=user in guests))
        await session.commit()
    return table_id


async def ratings(rt: Runtime) -> dict[str, tuple[int, int, int | None]]:
    """Everyone's Food Truck rating: user -> (rating, rated games, last change)."""
    async with rt.reads() as session:
        rows = await session.scalars(select(PlayerRating).where(PlayerRating.game == "food-truck"))
        return {r.user_id: (r.rating, r.games, r.last_change) for r in rows}


async def table_row(rt: Runtime, table_id: str) -> tuple[int, bool | None, int, int]:
    """The table's version and rated flag, how many rating changes and lobby log entries it has."""
    async with rt.reads() as session:
        row = await session.get(GameTable, table_id)
        assert row is not None
        changes = await session.scalar(select(func.count()).where(RatingChange.table_id == table_id))
        logged = await session.scalar(select(func.count()).where(TableLogEntry.table_id == table_id))
        return row.version, row.rated, int(changes or 0), int(logged or 0)


TWO = [("ana", False), ("bo", False)]


async def test_two_runtimes_racing_rate_a_table_once(runtimes: tuple[Runtime, Runtime]) -> None:
    one, two = runtimes
    tid = await finished(one, TWO, [["0"], ["1"]])
    results = await asyncio.gather(*(rt.ratings.settle(tid) for rt in (one, two, one, two)))
    rated = [r for r in results if r is not None]
    assert len(rated) == 1
    rec = rated[0]
    assert rec.version == 8 and rec.rated is True
    assert rec.ratings == {"0": {"before": 1500, "after": 1662, "change": 162},
                           "1": {"before": 1500, "after": 1338, "change": -162}}
    assert rec.recent_events[8] == [{"type": "rated", "visible_to": None, "changes": [
        {"seat": "0", "name": "Ana", "before": 1500, "after": 1662, "change": 162,
         "provisional": True},
        {"seat": "1", "name": "Bo", "before": 1500, "after": 1338, "change": -162,
         "provisional": True}]}]
    assert await ratings(one) == {"ana": (1662, 1, 162), "bo": (1338, 1, -162)}
    assert await table_row(one, tid) == (8, True, 2, 1)
    # Later tries, and the sweep, find it settled.
    assert await two.ratings.settle(tid) is None and await one.ratings.sweep() == 0
    assert await ratings(one) == {"ana": (1662, 1, 162), "bo": (1338, 1, -162)}
    assert await table_row(two, tid) == (8, True, 2, 1)


async def test_the_stored_changes_refuse_a_second_rating_even_if_the_flag_is_lost(
    runtimes: tuple[Runtime, Runtime],
) -> None:
    one, two = runtimes
    tid = await finished(one, TWO, [["1"], ["0"]])
    assert await one.ratings.settle(tid) is not None
    async with one.sessions() as session:
        await session.execute(update(GameTable).where(GameTable.id == tid).values(rated=None))
        await session.commit()
    two.cache.drop(tid)
    assert await two.ratings.settle(tid) is None
    assert await ratings(one) == {"ana": (1338, 1, -162), "bo": (1662, 1, 162)}
    assert (await table_row(one, tid))[2:] == (2, 1)


async def test_ratings_carry_over_and_tables_ending_together_lose_no_change(
    runtimes: tuple[Runtime, Runtime],
) -> None:
    """Six tables of the same three people end at once, rated by both runtimes: every game counts once, and each
    change starts from the rating the one before it left (no update lost to another)."""
    one, two = runtimes
    three = [("ana", False), ("bo", False), ("cy", False)]
    rankings = [[["0"], ["1"], ["2"]], [["2"], ["0", "1"]], [["1"], ["2"], ["0"]]] * 2
    tables = [await finished(one, three, ranking) for ranking in rankings]
    results = await asyncio.gather(*(rt.ratings.settle(tid) for tid in tables for rt in (one, two)))
    assert sum(r is not None for r in results) == len(tables)
    now = await ratings(one)
    assert {user: games for user, (_, games, _) in now.items()} == {"ana": 6, "bo": 6, "cy": 6}
    # Each game's change started from the rating the one before it left (in the order they were stored).
    async with one.reads() as session:
        changes = (await session.execute(
            select(RatingChange.user_id, RatingChange.before, RatingChange.after).order_by(RatingChange.created_at)
        )).all()
    for user in ("ana", "bo", "cy"):
        rating = round(glicko2.START)
        for change in (c for c in changes if c.user_id == user):
            assert change.before == rating
            rating = change.after
        assert rating == now[user][0]


async def test_a_stand_in_seat_counts_for_its_person_and_a_bots_own_seat_is_left_out(
    runtimes: tuple[Runtime, Runtime],
) -> None:
    one, _ = runtimes
    # The bot of its own came first, Ana's seat (finished by a bot standing in for her) second, Bo last.
    tid = await finished(one, [(None, True), ("ana", True), ("bo", False)], [["0"], ["1"], ["2"]])
    rec = await one.ratings.settle(tid)
    assert rec is not None and set(rec.ratings or {}) == {"1", "2"}
    assert await ratings(one) == {"ana": (1662, 1, 162), "bo": (1338, 1, -162)}


async def test_a_guests_seat_is_left_out_and_the_registered_people_are_rated_between_them(
    runtimes: tuple[Runtime, Runtime],
) -> None:
    one, _ = runtimes
    # Cy, a guest, won; between Ana and Bo, Bo came first.
    tid = await finished(one, [("ana", False), ("bo", False), ("cy", False)], [["2"], ["1"], ["0"]],
                         guests=frozenset({"cy"}))
    rec = await one.ratings.settle(tid)
    assert rec is not None and rec.rated is True
    assert rec.ratings == {"0": {"before": 1500, "after": 1338, "change": -162},
                           "1": {"before": 1500, "after": 1662, "change": 162}}
    assert await ratings(one) == {"ana": (1338, 1, -162), "bo": (1662, 1, 162)}


@pytest.mark.parametrize("case", ["private", "abandoned", "one person", "bots only", "against a guest", "guests"])
async def test_tables_that_are_not_rated_are_marked_so(runtimes: tuple[Runtime, Runtime], case: str) -> None:
    one, _ = runtimes
    seats: list[tuple[str | None, bool]] = {
        "one person": [("ana", False), (None, True)], "bots only": [(None, True), (None, True)],
    }.get(case, TWO)
    guests = {"against a guest": frozenset({"bo"}), "guests": frozenset({"ana", "bo"})}.get(case, frozenset())
    tid = await finished(one, seats, [["0"], ["1"]], visibility="private" if case == "private" else "public",
                         abandoned=case == "abandoned", guests=guests)
    assert await one.ratings.settle(tid) is None
    assert await table_row(one, tid) == (7, False, 0, 0)  # no new version, nothing told
    assert await ratings(one) == {}


async def test_the_sweep_rates_what_a_dead_process_left_and_leaves_the_newest_to_their_process(
    runtimes: tuple[Runtime, Runtime],
) -> None:
    one, two = runtimes
    left = await finished(one, TWO, [["0"], ["1"]], ago=60)
    lonely = await finished(one, [("cy", False), (None, True)], [["0"], ["1"]], ago=60)
    just_now = await finished(one, TWO, [["1"], ["0"]])
    assert await two.ratings.sweep(idle_for=15) == 1
    assert (await table_row(one, left))[1:3] == (True, 2)
    assert (await table_row(one, lonely))[1] is False
    assert (await table_row(one, just_now))[1] is None
    assert await one.ratings.sweep(idle_for=15) == 0
    assert await one.ratings.sweep() == 1  # without the grace period
    # Bo, behind after the first game, wins more than he lost: an upset, and both ratings still unsure.
    assert await ratings(one) == {"ana": (1433, 2, -229), "bo": (1567, 2, 229)}


async def test_a_runtime_rates_the_finished_table_it_hears_of_once_its_change_is_published(
    runtimes: tuple[Runtime, Runtime],
) -> None:
    """`after_change` of a finished table (what the final move calls) settles its rating in the background."""
    one, _ = runtimes
    tid = await finished(one, TWO, [["0"], ["1"]])
    rec = await one.tables.reload(tid)
    await one.tables.after_change(rec)

    async def rated() -> Any:
        return (await table_row(one, tid))[1]

    for _ in range(750):  # up to 15 s: the suite's other workers may hold the cores
        if await rated():
            break
        await asyncio.sleep(0.02)
    assert await ratings(one) == {"ana": (1662, 1, 162), "bo": (1338, 1, -162)}
    cached = one.cache.get(tid)
    assert cached is not None and cached.version == 8 and cached.ratings is not None


async def test_the_migration_marks_the_seats_of_people_who_are_guests(empty_db: Database) -> None:
    """0013_guest_seats fills `seats.guest` from what each seat's person is (no username: a guest)."""
    url = Settings(database_url=empty_db.url, secret_key=SECRET).effective_database_url
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    await asyncio.to_thread(command.upgrade, cfg, "0012_leaderboard")
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(text(
                "INSERT INTO users (id, name, username, token_epoch, created_at) VALUES"
                " ('ana', 'Ana', 'ana', 0, CURRENT_TIMESTAMP), ('gus', 'Gus', NULL, 0, CURRENT_TIMESTAMP)"))
            await conn.execute(text(
                "INSERT INTO game_tables (id, game, name, host_id, visibility, status, seat_count, options, seed,"
                " seed_commitment, version, state_seq, move_count, awaiting, abandoned, created_at, updated_at)"
                " VALUES ('t', 'tiny', 't', 'ana', 'public', 'open', 3, '{}', 1, 'c', 1, 0, 0, '[]', false,"
                " CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"))
            await conn.execute(text(
                "INSERT INTO seats (table_id, seat, user_id, bot) VALUES"
                " ('t', '0', 'ana', false), ('t', '1', 'gus', false), ('t', '2', NULL, true)"))
        await asyncio.to_thread(command.upgrade, cfg, "head")
        async with engine.connect() as conn:
            rows = (await conn.execute(text("SELECT seat, guest FROM seats ORDER BY seat"))).all()
        assert [(seat, bool(guest)) for seat, guest in rows] == [("0", False), ("1", True), ("2", False)]
    finally:
        await engine.dispose()
