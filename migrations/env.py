"""Alembic environment: runs migrations against DATABASE_URL (or the SQLite default)."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import Settings
from app.db.models import Base

target_metadata = Base.metadata


def _url() -> str:
    configured = context.config.get_main_option("sqlalchemy.url")
    return configured or Settings().effective_database_url


def _run(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        # Several server processes may start together; one migrates at a time.
        connection.execute(text("SELECT pg_advisory_xact_lock(7428001)"))
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    engine = create_async_engine(_url())
    async with engine.begin() as conn:
        await conn.run_sync(_run)
    await engine.dispose()


if context.is_offline_mode():
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    asyncio.run(_run_async())
