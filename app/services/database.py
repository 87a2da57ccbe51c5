"""The database as the use cases reach it: sessions that write, autocommit sessions that only read, and the one-writer
order SQLite needs."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.session import unpinged

T = TypeVar("T")


class Database:
    """Sessions on one database, and the order its writes need."""

    def __init__(
        self,
        *,
        sessions: async_sessionmaker[AsyncSession],
        reads: async_sessionmaker[AsyncSession],
        is_postgres: bool,
    ) -> None:
        self.sessions = sessions
        self.reads = reads  # autocommit sessions for reads alone
        self.is_postgres = is_postgres
        # SQLite has one writer: serialising writes here avoids its busy errors entirely.
        self.write_lock: asyncio.Lock | None = None if is_postgres else asyncio.Lock()

    def single_writer(self) -> contextlib.AbstractAsyncContextManager[Any]:
        """Serialise a write made outside the move and lobby paths with all the others where the database has a
        single writer (SQLite); nothing on Postgres, where it would only make the table's moves wait."""
        return self.write_lock if self.write_lock is not None else contextlib.nullcontext()

    async def read(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        """`work` in a read session whose connection is not pinged first: a round trip saved on every request, each of
        which reads its person so. Should the connection turn out dead (Postgres restarted, or ended it), `work` is
        made again on a pinged one, so it must only read."""
        try:
            with unpinged():
                async with self.reads() as session:
                    return await work(session)
        except DBAPIError as exc:
            if not exc.connection_invalidated:
                raise
        async with self.reads() as session:
            return await work(session)

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """A session to write in, in its turn among the writers (`single_writer`)."""
        async with self.single_writer(), self.sessions() as session:
            yield session
