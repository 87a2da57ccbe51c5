"""`alembic upgrade head --sql` (offline mode: the script a database administrator reviews and runs) for Postgres,
through every migration; on the Postgres pass the script is run on an empty database and leaves it at the head, with
the schema the online migrations make."""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path

import pytest
from alembic import command
from alembic.script import ScriptDirectory

from app.paths import MIGRATIONS, alembic_config
from tests.conftest import IS_POSTGRES, Database


def offline_script(url: str) -> str:
    out = io.StringIO()
    cfg = alembic_config(url)
    cfg.output_buffer = out
    command.upgrade(cfg, "head", sql=True)
    return out.getvalue()


def test_every_migration_writes_its_postgres_sql() -> None:
    sql = offline_script("postgresql+asyncpg://operator@db.invalid/foodgames")
    script = ScriptDirectory(str(MIGRATIONS))
    revisions = [r.revision for r in script.walk_revisions()]
    ran = re.findall(r"-- Running upgrade\s+(?:\S+\s+)?-> (\S+)", sql)
    assert sorted(ran) == sorted(revisions) and len(ran) == len(revisions)
    assert f"UPDATE alembic_version SET version_num='{script.get_current_head()}'" in sql
    assert "BEGIN;" in sql and sql.rstrip().endswith("COMMIT;")


async def _schema(url: str) -> dict[str, list[tuple[str, str, str]]]:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns"
            " WHERE table_schema = 'public' ORDER BY table_name, column_name"
        )
        indexes = await conn.fetch("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'")
    finally:
        await conn.close()
    schema: dict[str, list[tuple[str, str, str]]] = {}
    for r in rows:
        schema.setdefault(r["table_name"], []).append((r["column_name"], r["data_type"], r["is_nullable"]))
    schema["~indexes"] = sorted((r["indexname"], r["indexdef"], "") for r in indexes)
    return schema


def test_the_postgres_script_migrates_an_empty_database_like_the_server_does(tmp_path: Path) -> None:
    if not IS_POSTGRES:
        pytest.skip("needs Postgres: runs when DATABASE_URL is a Postgres URL")
    import asyncpg

    from app.paths import run_migrations

    offline, online = Database(tmp_path), Database(tmp_path)
    try:
        sql = offline_script(offline.url.replace("postgresql://", "postgresql+asyncpg://", 1))

        async def apply() -> None:
            conn = await asyncpg.connect(offline.url)
            try:
                await conn.execute(sql)
            finally:
                await conn.close()

        asyncio.run(apply())
        run_migrations(online.url.replace("postgresql://", "postgresql+asyncpg://", 1))
        assert asyncio.run(_schema(offline.url)) == asyncio.run(_schema(online.url))
    finally:
        offline.drop()
        online.drop()
