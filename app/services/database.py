"""The database as the use cases reach it: sessions that write, autocommit sessions that only read, and the one-writer
order SQLite needs."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from functools import lru_cache
from typing import Any, TypeVar

import asyncpg
from sqlalchemy import Dialect, Select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

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
        self.engine: AsyncEngine = reads.kw["bind"]
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

    async def first_row(self, statement: Select[Any], params: dict[str, Any]) -> Sequence[Any] | None:
        """The first row of a read of one statement, as a sequence of its columns' values (None without one). On
        Postgres straight through the driver, on a pooled connection not pinged first: a request's person is read so
        on every request, and through a session, its result and execution context the same read costs twice the CPU
        (~230 against ~115 µs). The driver returns the values as SQLAlchemy would: the pool's connections decode JSON
        and timestamps alike. Should the fast read fail on its connection (Postgres restarted, or ended it), it is made
        again in a read session, which pings, replaces a dead connection and reports an outage as every read does."""
        if self.is_postgres:
            sql, names = _driver_sql(statement, self.engine.dialect)
            with contextlib.suppress(DBAPIError), unpinged():  # a checkout that had to connect, and could not
                async with self.engine.connect() as conn:
                    driver = (await conn.get_raw_connection()).driver_connection
                    assert driver is not None
                    try:
                        return await driver.fetchrow(sql, *(params[name] for name in names))
                    # Not only the connection errors: on a connection Postgres ended, asyncpg may instead find its
                    # protocol mid-operation (InternalClientError). The read is made again in a session either way,
                    # which reports any error that is not the connection's as every read does.
                    except (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError):
                        await conn.invalidate()  # not back to the pool

        async def first(session: AsyncSession) -> Sequence[Any] | None:
            return (await session.execute(statement, params)).first()

        return await self.read(first)

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """A session to write in, in its turn among the writers (`single_writer`)."""
        async with self.single_writer(), self.sessions() as session:
            yield session


@lru_cache(maxsize=32)
def _driver_sql(statement: Select[Any], dialect: Dialect) -> tuple[str, tuple[str, ...]]:
    """A statement as the driver takes it ($1, $2 … for asyncpg) and its parameters' names in that order, compiled
    once."""
    compiled = statement.compile(dialect=dialect)
    return str(compiled), tuple(compiled.positiontup or ())
