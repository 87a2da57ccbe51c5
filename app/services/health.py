"""The database reads of the operations endpoints: whether it answers, and how many tables are in each status."""

from __future__ import annotations

from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import GameTable


async def database_answers(session: AsyncSession) -> None:
    """A trivial statement: raises when the database does not answer."""
    await session.execute(text("SELECT 1"))


async def tables_by_status(session: AsyncSession) -> dict[str, int]:
    """How many tables are in each status (one GROUP BY over every table)."""
    rows = await session.execute(select(GameTable.status, func.count()).group_by(GameTable.status))
    return {status: n for status, n in rows}
