"""The lobby's lists of tables, a page at a time (services/pagination.py): the public tables, and a person's own.

Both are newest activity first, ties broken by the table's id, so a page boundary never repeats or skips a table that
stays where it is. A table whose activity moves it meanwhile moves to the front of the list: a reader walking the
pages then finds it on the first page again, not twice in one walk.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import exists, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import GameTable, Seat, User
from app.games import GAMES
from app.services import pagination
from app.services.pagination import PageRequest
from app.services.record import TableRecord, TableStatus, Visibility
from app.services.table_records import TableRecords

PAGE = 50  # tables per page, unless asked for fewer or more
MAX_PAGE = 100
KEY: list[pagination.Kind] = ["time", "str"]  # (updated_at, id)
_ORDER = [(GameTable.updated_at, True), (GameTable.id, True)]


class Listings:
    """The lobby's pages of tables, each table as the records (the cache first) know it."""

    def __init__(self, *, records: TableRecords) -> None:
        self.records = records

    async def _page(
        self, session: AsyncSession, query: Any, name: str, page: PageRequest
    ) -> tuple[list[TableRecord], str | None]:
        rows = (
            await session.execute(
                query.where(pagination.after(_ORDER, page.after))
                .order_by(GameTable.updated_at.desc(), GameTable.id.desc())
                .limit(page.limit + 1)
            )
        ).all()
        items, after = pagination.split(rows, page, name, lambda r: (r.updated_at, r.id))
        return [await self.records.record(session, r.id) for r in items], after

    async def public_tables(
        self, session: AsyncSession, status: str | None, game: str | None, cursor: str | None, limit: int
    ) -> tuple[list[TableRecord], str | None]:
        """A page of the public tables (filtered by status and game), and the cursor of the next; an open one with nobody
        seated (its host left) is not listed."""
        page = PageRequest(limit, pagination.decode("tables", cursor, KEY))
        if game and game not in GAMES:
            return [], None
        someone_seated = exists().where(Seat.table_id == GameTable.id, Seat.user_id.is_not(None))
        query = select(GameTable.id, GameTable.updated_at).where(
            GameTable.visibility == Visibility.PUBLIC, (GameTable.status != TableStatus.OPEN) | someone_seated
        )
        if status:
            query = query.where(GameTable.status == status)
        if game:
            query = query.where(GameTable.game == game)
        return await self._page(session, query, "tables", page)

    async def my_tables(
        self, session: AsyncSession, user: User, cursor: str | None, limit: int
    ) -> tuple[list[TableRecord], str | None]:
        """A page of the tables where this person sits or hosts, and the cursor of the next."""
        page = PageRequest(limit, pagination.decode("my-tables", cursor, KEY))
        seated = select(Seat.table_id).where(Seat.user_id == user.id)
        query = select(GameTable.id, GameTable.updated_at).where(
            (GameTable.host_id == user.id) | GameTable.id.in_(seated)
        )
        return await self._page(session, query, "my-tables", page)
