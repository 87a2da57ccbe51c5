"""Backing up and restoring the SQLite database with `foodgames backup` / `foodgames restore` (docs/operations.md):
a copy taken while the server runs and writes holds everything acknowledged before it, and a server started on the
restored file serves it, with the sessions signed by the key that was backed up beside it."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.conftest import IS_POSTGRES, ROOT, Database, Server
from tests.platform.client import Player


def foodgames(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


async def test_a_backup_taken_while_serving_restores_tables_chat_and_sessions(tmp_path: Path) -> None:
    if IS_POSTGRES:
        pytest.skip("SQLite's file; Postgres is backed up with pg_dump")
    db = Database(tmp_path)
    # No SECRET_KEY: the server generates one beside the database, which the backup must carry.
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"} | {"DATABASE_URL": db.url}
    server = Server(db, tmp_path, SECRET_KEY="").start()
    backup = tmp_path / "backups" / "one.sqlite3"
    backup.parent.mkdir()
    try:
        ana = await Player.guest(server.url, "Ana")
        t = await ana.table(seats=2)
        await ana.post(f"/api/tables/{t['id']}/chat", {"text": "before the backup", "client_id": "c1"})
        done = foodgames(env, "backup", str(backup))
        assert done.returncode == 0, done.stderr
        assert stat.S_IMODE(backup.stat().st_mode) == 0o600  # it holds password hashes
        key_copy = backup.with_name("one.sqlite3.secret_key")
        assert key_copy.read_text() == (Path(db.name).parent / "secret_key").read_text()
        again = foodgames(env, "backup", str(backup))
        assert again.returncode == 1 and "exists" in again.stderr
        # A change after the backup is not in it.
        await ana.post(f"/api/tables/{t['id']}/chat", {"text": "after the backup", "client_id": "c2"})
    finally:
        server.stop()

    # Disaster: the data folder is lost.
    for f in Path(db.name).parent.iterdir():
        if f.is_file():
            f.unlink()
    done = foodgames(env, "restore", str(backup))
    assert done.returncode == 0, done.stderr
    server.start()
    try:
        me = await ana.http.get("/api/me")  # the token still verifies: the key came back with the database
        assert me.status_code == 200, me.text
        async with httpx.AsyncClient(base_url=server.url) as c:
            chat = (await c.get(f"/api/tables/{t['id']}/chat")).json()
        texts = [m["text"] for m in chat["messages"]]
        assert texts == ["before the backup"]
    finally:
        await ana.close()
        server.stop()


def test_backup_refuses_postgres_and_restore_refuses_a_damaged_file(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": "postgresql://nobody@127.0.0.1:9/none"}
    done = foodgames(env, "backup", str(tmp_path / "x.sqlite3"))
    assert done.returncode == 1 and "not_sqlite" in done.stderr and "pg_dump" in done.stderr
    broken = tmp_path / "broken.sqlite3"
    broken.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}"}
    done = foodgames(env, "restore", str(broken))
    assert done.returncode == 1 and "corrupt" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "db.sqlite3").exists()
