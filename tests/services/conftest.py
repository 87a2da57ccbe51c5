"""What the services' own tests share: a database with one open table, reached through sessions of its own
(no runtime), for the classes that read it; and a runtime on a fresh database, for the use cases."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import GameTable, User
from app.db.session import make_engine, make_sessionmaker
from app.games import GAMES
from app.main import run_migrations
from app.runtime import Runtime
from tests.conftest import SECRET, Database
from tests.platform.tiny_game import install

TABLE = "a" * 16


@pytest.fixture
def tiny_game() -> Iterator[None]:
    """The tiny test game, offered only to the modules that ask for it (`pytestmark`): other tests go through every
    registered game."""
    had = "tiny" in GAMES  # a server in a thread of this process keeps it
    install()
    yield
    if not had:
        GAMES.pop("tiny", None)


@dataclass
class World:
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    reads: async_sessionmaker[AsyncSession]

    async def store(self, **values: Any) -> None:
        """Change the table's row as another process would, behind the cache's back."""
        async with self.sessions() as session:
            await session.execute(update(GameTable).where(GameTable.id == TABLE).values(**values))
            await session.commit()


@pytest.fixture
async def world(fresh_db: Database) -> AsyncIterator[World]:
    settings = Settings(database_url=fresh_db.url, secret_key=SECRET)
    await asyncio.to_thread(run_migrations, settings.effective_database_url)
    engine = make_engine(settings)
    sessions = make_sessionmaker(engine)
    async with sessions() as session:
        session.add(User(id="ana", name="Ana", username="ana", password_hash="x"))
        await session.flush()
        session.add(GameTable(
            id=TABLE, game="tiny", name="first", host_id="ana", visibility="public", status="open", seat_count=2,
            options={}, seed=7, seed_commitment="c", version=1,
        ))
        await session.commit()
    try:
        yield World(engine, sessions, make_sessionmaker(engine, autocommit=True))
    finally:
        await engine.dispose()


@pytest.fixture
async def rt(fresh_db: Database) -> AsyncIterator[Runtime]:
    """A runtime on a fresh database (not started: the lobby's writes and the reads need none of its loops)."""
    settings = Settings(database_url=fresh_db.url, secret_key=SECRET)
    await asyncio.to_thread(run_migrations, settings.effective_database_url)
    runtime = Runtime(settings)
    try:
        yield runtime
    finally:
        await runtime.stop()
