"""Fixtures shared by every test: which database this run uses, and real server processes.

The suite runs once per database: with DATABASE_URL unset (SQLite) or set to a
Postgres URL, in which case every server started here gets a fresh database
created from it and dropped afterwards.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
BASE_URL = os.environ.get("DATABASE_URL", "")
IS_POSTGRES = BASE_URL.startswith("postgres")
SECRET = "test-secret-" + "x" * 32
METRICS_TOKEN = "test-metrics-token"
METRICS_HEADERS = {"Authorization": f"Bearer {METRICS_TOKEN}"}
# Every test client comes from 127.0.0.1, so the per-address limits on sign-ins, guests, tables and invite guesses
# would soon refuse the suite itself: test servers allow plenty, except those started with `real_limits`.
GENEROUS_LIMITS = {
    "LIMIT_LOGIN_FAILURES": "100000/minute", "LIMIT_REGISTRATIONS": "100000/minute",
    "LIMIT_GUESTS": "100000/minute", "LIMIT_TABLES": "100000/minute", "MAX_OPEN_TABLES": "100000",
    "INVITE_FAILURES_PER_MINUTE": "100000", "CHAT_NEWCOMERS_PER_MINUTE": "100000",
    "WS_PER_PERSON_PER_TABLE": "100000", "WS_PER_ADDRESS": "100000",
    # Every new account's games count, and a pair's repeats count in full (the rating tests play few, fresh people).
    "RATED_MIN_GAMES": "0", "RATED_REPEAT_HOURS": "0",
}


def _pg_admin_url() -> str:
    url = BASE_URL.replace("postgresql+asyncpg://", "postgresql://").replace("postgres://", "postgresql://")
    return url


async def _pg_exec(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(_pg_admin_url())
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


class Database:
    """A fresh database for one or more server processes."""

    def __init__(self, tmp: Path) -> None:
        if IS_POSTGRES:
            self.name = "foodgames_test_" + secrets.token_hex(4)
            asyncio.run(_pg_exec(f'CREATE DATABASE "{self.name}"'))
            head, _, _ = _pg_admin_url().rpartition("/")
            self.url = f"{head}/{self.name}"
        else:
            self.name = str(tmp / "db.sqlite3")
            self.url = f"sqlite+aiosqlite:///{self.name}"

    def drop(self) -> None:
        if IS_POSTGRES:
            asyncio.run(_pg_exec(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A real server process (uvicorn) on a free port, with the tiny test game registered."""

    def __init__(self, db: Database, tmp: Path, real_limits: bool = False, **env: str) -> None:
        self.db = db
        self.port = free_port()
        self.tmp = tmp
        self.env = {
            **os.environ,
            **({} if real_limits else GENEROUS_LIMITS),
            "DATABASE_URL": db.url,
            "SECRET_KEY": SECRET,
            "METRICS_TOKEN": METRICS_TOKEN,
            "PORT": str(self.port),
            "BOT_DELAY": "0",
            "LOG_LEVEL": "warning",
            **env,
        }
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = tmp / f"server-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.platform.serve"],
            cwd=ROOT,
            env=self.env,
            stdout=open(self.log, "ab"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-3000:]}")
            try:
                if httpx.get(self.url + "/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("server did not start: " + self.log.read_text()[-3000:])

    async def advance(self, seconds: float) -> None:
        """Move the server's clock `seconds` forward (tests/platform/serve.py): its waits end as if that much time
        had passed, without the test sleeping through them."""
        async with httpx.AsyncClient(base_url=self.url) as client:
            (await client.post("/_test/clock", json={"advance": seconds})).raise_for_status()

    def stop(self, kill: bool = False) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the browser tests last: Playwright's sync API keeps an event loop running on the main
    thread, which would stop the asyncio tests that follow it."""
    items.sort(key=lambda item: "tests/e2e/" in str(item.fspath).replace("\\", "/"))


@pytest.fixture(scope="session")
def database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    db = Database(tmp_path_factory.mktemp("db"))
    yield db
    db.drop()


@pytest.fixture(scope="session")
def server(database: Database, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(database, tmp_path_factory.mktemp("server")).start()
    yield srv
    srv.stop()


@pytest.fixture
def fresh_db(tmp_path: Path) -> Iterator[Database]:
    db = Database(tmp_path)
    yield db
    db.drop()


@pytest.fixture
def limited_server(fresh_db: Database, tmp_path: Path) -> Iterator[Server]:
    """A server of its own with the default rate limits (and counters nobody else has used)."""
    srv = Server(fresh_db, tmp_path, real_limits=True).start()
    yield srv
    srv.stop()


def requires_postgres() -> None:
    """Skip on SQLite runs (these run in the Postgres pass); in CI a Postgres pass is mandatory."""
    if not IS_POSTGRES:
        pytest.skip("needs Postgres: runs when DATABASE_URL is a Postgres URL")


REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def requires_redis() -> str:
    """The Redis URL for broker tests (Postgres pass only); skipped without a Redis server, except in CI."""
    requires_postgres()
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        if os.environ.get("CI"):
            raise AssertionError(f"CI needs Redis at {REDIS_URL}: {exc}") from exc
        pytest.skip(f"needs Redis at {REDIS_URL}")
    return REDIS_URL
