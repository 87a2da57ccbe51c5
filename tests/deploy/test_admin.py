"""The operator's verbs, `foodgames admin …`, run beside a running server on its database."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import traceback
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from app.cli import main
from app.config import Settings
from app.db.models import ChatMessage, GameTable, User
from app.runtime import OUTSIDE_CHECK_SECONDS, Runtime
from app.services.errors import ServiceError
from tests.conftest import IS_POSTGRES, ROOT, SECRET, Database, Server
from tests.platform.client import Player, Socket


def foodgames(db: Database, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the `foodgames` command on the test database, in a thread of this process: it opens its own connections,
    so the running server learns of what it did only as it would of another process's doing."""
    env = {"DATABASE_URL": db.url, "SECRET_KEY": SECRET, "LOG_LEVEL": "warning"}
    with ThreadPoolExecutor(1) as pool:  # the command runs its own event loop; the test's is running here
        result = pool.submit(CliRunner().invoke, main, list(args), env=env).result(timeout=60)
    crash = result.exc_info if result.exception and not isinstance(result.exception, SystemExit) else None
    stderr = result.stderr + ("".join(traceback.format_exception(*crash)) if crash else "")
    return subprocess.CompletedProcess(["foodgames", *args], result.exit_code, result.stdout, stderr)


async def look_outside(srv: Server) -> None:
    """On SQLite, bring on the server's next look in the database for what another process changed (Postgres' broker
    tells it at once)."""
    if not IS_POSTGRES:
        await srv.advance(OUTSIDE_CHECK_SECONDS)


@pytest.fixture
def srv(fresh_db: Database, tmp_path: Path) -> Iterator[Server]:
    server = Server(fresh_db, tmp_path).start()
    yield server
    server.stop()


@pytest.fixture
async def rt(fresh_db: Database, srv: Server) -> AsyncIterator[Runtime]:
    runtime = Runtime(Settings(database_url=fresh_db.url, secret_key=SECRET))
    yield runtime
    await runtime.engine.dispose()


async def test_a_ban_refuses_tokens_and_sign_in_and_closes_sockets(fresh_db: Database, srv: Server) -> None:
    ana = await Player.account(srv.url, "Ana")
    ben = await Player.guest(srv.url, "Ben")
    try:
        t = await ana.table(seats=2)
        await ben.post(f"/api/tables/{t['id']}/join", {})
        sock = await Socket.open(srv.ws_url, t["id"], ana.token)
        await sock.expect("snapshot")

        done = foodgames(fresh_db, "admin", "ban", ana.user["username"])
        assert done.returncode == 0, done.stderr
        assert ana.user["id"] in done.stdout

        me = await ana.http.get("/api/me")
        assert me.status_code == 401 and me.json()["error"]["code"] == "session_revoked"
        async with httpx.AsyncClient(base_url=srv.url) as c:
            body = {"username": ana.user["username"], "password": "correct horse"}
            login = await c.post("/api/auth/login", json=body)
            assert login.status_code == 403 and login.json()["error"]["code"] == "banned"
            # The broker carries the ban to the server's sockets at once; on SQLite, which has none between
            # processes, the server finds it in the database at its next look, OUTSIDE_CHECK_SECONDS on.
            await look_outside(srv)
            closed = await sock.expect("error", code="session_revoked")
            assert closed["code"] == "session_revoked"
            # Others are untouched.
            assert (await ben.http.get("/api/me")).status_code == 200

            again = foodgames(fresh_db, "admin", "ban", ana.user["id"])
            assert again.returncode == 1 and "already_banned" in again.stderr

            assert foodgames(fresh_db, "admin", "unban", ana.user["username"]).returncode == 0
            login = await c.post("/api/auth/login", json=body)
            assert login.status_code == 200
            assert (
                await c.get("/api/me", headers={"Authorization": f"Bearer {login.json()['token']}"})
            ).status_code == 200
        # The tokens the ban ended stay ended.
        assert (await ana.http.get("/api/me")).status_code == 401
        assert "not_banned" in foodgames(fresh_db, "admin", "unban", ana.user["id"]).stderr
        await sock.close()
    finally:
        await ana.close()
        await ben.close()


async def test_grant_makes_an_account_an_admin_but_not_a_guest(
    fresh_db: Database, srv: Server, rt: Runtime
) -> None:
    ana = await Player.account(srv.url, "Ana")
    ben = await Player.guest(srv.url, "Ben")
    try:
        assert foodgames(fresh_db, "admin", "grant", ana.user["username"]).returncode == 0
        refused = foodgames(fresh_db, "admin", "grant", ben.user["id"])
        assert refused.returncode == 1 and "guest:" in refused.stderr
        unknown = foodgames(fresh_db, "admin", "grant", "nobody-here")
        assert unknown.returncode == 1 and "no_such_person" in unknown.stderr
        async with rt.sessions() as s:
            assert (await s.get(User, ana.user["id"])).is_admin  # type: ignore[union-attr]
            assert not (await s.get(User, ben.user["id"])).is_admin  # type: ignore[union-attr]
        assert foodgames(fresh_db, "admin", "revoke", ana.user["id"]).returncode == 0
        async with rt.sessions() as s:
            assert not (await s.get(User, ana.user["id"])).is_admin  # type: ignore[union-attr]
    finally:
        await ana.close()
        await ben.close()


async def test_close_table_ends_a_running_game_and_an_open_table(fresh_db: Database, srv: Server) -> None:
    ana, ben = await Player.guest(srv.url, "Ana"), await Player.guest(srv.url, "Ben")
    try:
        running = await ana.table(seats=2)
        await ben.post(f"/api/tables/{running['id']}/join", {})
        await ana.post(f"/api/tables/{running['id']}/start")
        watcher = await Socket.open(srv.ws_url, running["id"])
        first = await watcher.expect("snapshot")
        waiting = await ana.table(seats=2)

        done = foodgames(fresh_db, "admin", "close-table", running["id"])
        assert done.returncode == 0, done.stderr
        assert "it was playing" in done.stdout
        assert foodgames(fresh_db, "admin", "close-table", waiting["id"]).returncode == 0

        # The server's sockets hear of it through the broker at once; on SQLite, which has none between
        # processes, the server finds the change in the database at its next look, OUTSIDE_CHECK_SECONDS on.
        await look_outside(srv)
        latest = await watcher.until_version(first["version"] + 1)
        assert latest["table"]["status"] == "finished"
        # The two closes are two CLI runs: on SQLite a look between them finds only the first, and the next look
        # the second.
        deadline = asyncio.get_running_loop().time() + 10
        for tid in (running["id"], waiting["id"]):
            while True:
                table = (await ana.http.get(f"/api/tables/{tid}")).json()
                if table["status"] == "finished" or asyncio.get_running_loop().time() > deadline:
                    break
                await look_outside(srv)
                await asyncio.sleep(0.1)
            assert table["status"] == "finished" and table["abandoned"] is True, table
        # A move is refused, and the replay checks out.
        sock = await Socket.open(srv.ws_url, running["id"], ana.token)
        await sock.expect("snapshot")
        refused = await sock.act({"type": "pick", "n": 1})
        assert refused["type"] == "error" and refused["code"] == "not_playing", refused
        await sock.close()
        assert (await ana.http.get(f"/api/tables/{running['id']}/verify")).json()["ok"] is True
        again = foodgames(fresh_db, "admin", "close-table", running["id"])
        assert again.returncode == 1 and "already_finished" in again.stderr
        bad = foodgames(fresh_db, "admin", "close-table", "not-an-id")
        assert bad.returncode == 1 and "not_found" in bad.stderr
        await watcher.close()
    finally:
        await ana.close()
        await ben.close()


async def test_purge_guests_keeps_players_of_games_and_the_recently_active(srv: Server, rt: Runtime) -> None:
    idle = await Player.guest(srv.url, "Idle")  # hosts a table nobody joined
    player = await Player.guest(srv.url, "Player")  # played a game
    other = await Player.guest(srv.url, "Other")
    talker = await Player.guest(srv.url, "Talker")  # idle, but said something at the player's table later
    member = await Player.account(srv.url, "Member")  # an account: never purged
    try:
        idle_table = await idle.table(seats=2)
        await idle.post(f"/api/tables/{idle_table['id']}/chat", {"text": "anyone?", "client_id": "c1"})
        game = await player.table(seats=2)
        await other.post(f"/api/tables/{game['id']}/join", {})
        await player.post(f"/api/tables/{game['id']}/start")
        later = datetime.now(UTC) + timedelta(days=40)
        async with rt.sessions() as s:
            s.add(
                ChatMessage(
                    table_id=game["id"],
                    user_id=talker.user["id"],
                    name="Talker",
                    text="hi",
                    client_id="late",
                    created_at=later - timedelta(days=5),
                )
            )
            await s.commit()

        purged = await rt.admin.purge_guests(30, now=later)
        assert (purged.guests, purged.tables, purged.chat_lines) == (1, 1, 1)
        async with rt.sessions() as s:
            left = set(await s.scalars(select(User.id)))
            assert idle.user["id"] not in left
            assert {player.user["id"], other.user["id"], talker.user["id"], member.user["id"]} <= left
            assert await s.get(GameTable, idle_table["id"]) is None
            assert await s.get(GameTable, game["id"]) is not None
        # Nothing is idle for 30 days as of today.
        assert (await rt.admin.purge_guests(30)).guests == 0
        with pytest.raises(ServiceError) as bad:
            await rt.admin.purge_guests(0)
        assert bad.value.code == "bad_days"
    finally:
        for p in (idle, player, other, talker, member):
            await p.close()


async def test_purge_chat_deletes_the_old_lines_only(fresh_db: Database, srv: Server, rt: Runtime) -> None:
    ana = await Player.guest(srv.url, "Ana")
    try:
        t = await ana.table(seats=2)
        for i in range(3):
            await ana.post(f"/api/tables/{t['id']}/chat", {"text": f"line {i}", "client_id": f"c{i}"})
        async with rt.sessions() as s:
            s.add(
                ChatMessage(
                    table_id=t["id"],
                    user_id=ana.user["id"],
                    name="Ana",
                    text="old",
                    client_id="old",
                    created_at=datetime.now(UTC) - timedelta(days=100),
                )
            )
            await s.commit()
        done = foodgames(fresh_db, "admin", "purge-chat", "--older-than-days", "90")
        assert done.returncode == 0 and "purged 1 chat lines" in done.stdout, done.stderr
        async with rt.sessions() as s:
            assert await s.scalar(select(func.count()).select_from(ChatMessage)) == 3
        bad = foodgames(fresh_db, "admin", "purge-chat", "--older-than-days", "-1")
        assert bad.returncode == 1 and "bad_days" in bad.stderr
        assert foodgames(fresh_db, "admin", "purge-guests", "--inactive-days", "1").returncode == 0
    finally:
        await ana.close()


def test_version_and_help(fresh_db: Database) -> None:
    done = foodgames(fresh_db, "--version")
    assert done.returncode == 0 and done.stdout.startswith("foodgames, version ")
    assert "purge-guests" in foodgames(fresh_db, "admin", "--help").stdout


async def test_verify_replays_a_table(fresh_db: Database, srv: Server) -> None:
    ana = await Player.guest(srv.url, "Ana")
    try:
        t = await ana.table(seats=2)
        out = foodgames(fresh_db, "verify", t["id"])  # not finished: nothing to check yet
        assert out.returncode == 1 and '"ok": false' in out.stdout, out
        missing = foodgames(fresh_db, "verify", "0123456789abcdef")
        assert missing.returncode == 1 and "not_found" in missing.stderr
    finally:
        await ana.close()


def test_health_asks_the_configured_port(fresh_db: Database, srv: Server) -> None:
    env = {**os.environ, "DATABASE_URL": fresh_db.url, "SECRET_KEY": SECRET, "HOST": "0.0.0.0"}
    ok = subprocess.run(
        [sys.executable, "-m", "app.cli", "health"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**env, "PORT": str(srv.port)},
        timeout=60,
    )
    assert ok.returncode == 0 and f"127.0.0.1:{srv.port}/api/health/ready" in ok.stdout, ok.stderr
    srv.stop()
    down = subprocess.run(
        [sys.executable, "-m", "app.cli", "health", "--timeout", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**env, "PORT": str(srv.port)},
        timeout=60,
    )
    assert down.returncode == 1 and "not ready" in down.stderr
