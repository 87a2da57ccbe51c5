"""A table's record read in one statement (its seats aggregated as JSON) holds the seats as they are stored."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import update

from app.config import Settings
from app.db.models import Seat
from app.main import run_migrations
from app.runtime import Runtime
from app.services import loading
from app.services.auth import create_guest, register
from app.services.options import get_game
from tests.conftest import SECRET, Database


@pytest.fixture
async def rt(fresh_db: Database) -> AsyncIterator[Runtime]:
    settings = Settings(database_url=fresh_db.url, secret_key=SECRET)
    await asyncio.to_thread(run_migrations, settings.effective_database_url)
    runtime = Runtime(settings)
    try:
        yield runtime
    finally:
        await runtime.stop()


async def test_a_record_holds_each_seat_as_stored(rt: Runtime) -> None:
    async with rt.sessions() as session:
        host = await create_guest(session, "Ana")
        member = await register(session, "bo", "correct horse", "Bo", None)
    # Seat 0: a guest; seat 1: an account; seat 2: a bot at a level; seat 3: empty. Then a bot stands in at seat 1.
    async with rt.sessions() as session:
        seating = [(host.id, False, None), (None, False, None), (None, True, "hard"), (None, False, None)]
        table_id = (await rt.lobby.add_table(session, get_game("food-truck"), "Lunch", host, "public", {},
                                             seating)).id
        await session.execute(update(Seat).where(Seat.table_id == table_id, Seat.seat == "1").values(user_id=member.id))
        away = datetime(2026, 12, 6, 16, 30, 5, 123456, tzinfo=UTC)
        await session.execute(
            update(Seat).where(Seat.table_id == table_id, Seat.seat == "1").values(bot=True, away_since=away)
        )
        await session.commit()

    async with rt.reads() as session:
        record = await loading.load_record(session, table_id)
        assert record.seats == await loading._seats(session, table_id)
    assert [(s.user_name, s.guest, s.bot, s.bot_level) for s in record.seats] == [
        ("Ana", True, False, None), ("Bo", False, True, None), (None, False, True, "hard"), (None, False, False, None),
    ]
    stood_in = record.seats[1].away_since
    assert stood_in is not None and loading.as_utc(stood_in) == away
    assert record.host_name == "Ana"
