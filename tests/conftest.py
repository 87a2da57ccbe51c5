"""Fixtures shared by every test: which database this run uses, and real servers (in a thread of this process, or
in processes of their own).

The suite runs once per database: with DATABASE_URL unset (SQLite) or set to a
Postgres URL, in which case every server started here gets a fresh database
created from it and dropped afterwards.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import logging
import os
import secrets
import shutil
import signal
import socket
import sqlite3
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import warnings
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, Self, TypeVar

import certifi
import httpx
import pytest
import uvicorn
from argon2 import PasswordHasher, profiles
from fastapi import FastAPI

from app.clock import FakeClock
from app.config import Settings
from app.logs import JsonFormatter
from app.main import create_app, served, uvicorn_options
from app.paths import run_migrations
from app.runtime import Runtime
from app.services import auth

T = TypeVar("T")
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
    "LIMIT_PASSWORD_RESETS": "100000/minute",
    "INVITE_FAILURES_PER_MINUTE": "100000", "CHAT_NEWCOMERS_PER_MINUTE": "100000",
    "WS_PER_PERSON_PER_TABLE": "100000", "WS_PER_ADDRESS": "100000",
    # Every new account's games count, and a pair's repeats count in full (the rating tests play few, fresh people).
    "RATED_MIN_GAMES": "0", "RATED_REPEAT_HOURS": "0",
}
# For a test of the chat's limit: one line a minute after the burst, which no machine is slow enough to earn during
# the test on the server's running clock; the test jumps the clock past it.
CHAT_LINE_A_MINUTE = {"CHAT_RATE_PER_SECOND": str(1 / 60)}


# A password hashed at the deployment's cost takes ~50-250 ms of CPU here, and the suite signs up and signs in hundreds
# of people: the servers in this process hash at argon2's cheapest setting instead. Servers in processes of their own
# hash at the deployment's, and tests/services/test_passwords.py checks that setting.
REAL_HASHER = auth._hasher
auth._hasher = PasswordHasher.from_parameters(profiles.CHEAPEST)


# httpx builds a TLS context for every client it makes, loading certifi's certificate bundle each time (~18 ms of CPU:
# a quarter of the API tests' own CPU went there), though the tests' clients speak plain HTTP to servers on this
# machine. Every client the tests make shares one context instead, made once the way httpx makes it.
SHARED_TLS = ssl.create_default_context(cafile=certifi.where())


def _with_shared_tls(init: Any) -> Any:
    @functools.wraps(init)
    def wrapped(self: Any, *args: Any, verify: Any = True, **kwargs: Any) -> None:
        init(self, *args, verify=SHARED_TLS if verify is True else verify, **kwargs)

    return wrapped


httpx.Client.__init__ = _with_shared_tls(httpx.Client.__init__)  # type: ignore[method-assign]
httpx.AsyncClient.__init__ = _with_shared_tls(httpx.AsyncClient.__init__)  # type: ignore[method-assign]


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
    """A fresh database for one or more servers: the run's kind, or a SQLite file whatever the run's kind is. With
    `migrated`, a SQLite file starts at the newest migration (`_sqlite_at_head`); a server migrates it either way."""

    def __init__(self, tmp: Path, *, sqlite: bool = False, migrated: bool = False) -> None:
        self.postgres = IS_POSTGRES and not sqlite
        if self.postgres:
            self.name = "foodgames_test_" + secrets.token_hex(4)
            asyncio.run(_pg_exec(f'CREATE DATABASE "{self.name}"'))
            head, _, _ = _pg_admin_url().rpartition("/")
            self.url = f"{head}/{self.name}"
        else:
            self.name = str(tmp / "db.sqlite3")
            self.url = f"sqlite+aiosqlite:///{self.name}"
            if migrated:
                shutil.copyfile(_sqlite_at_head(), self.name)

    def drop(self) -> None:
        if self.postgres:
            asyncio.run(_pg_exec(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'))


@functools.cache
def _sqlite_at_head() -> Path:
    """A SQLite database at the newest migration, made once per test process (and removed at its exit): a fresh
    database is a copy of it, where running every migration took ~0.25 s of CPU for each of ~150 in a run."""
    folder = Path(tempfile.mkdtemp(prefix="foodgames-schema-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    built, template = folder / "built.sqlite3", folder / "head.sqlite3"
    run_migrations(f"sqlite+aiosqlite:///{built}")
    with contextlib.closing(sqlite3.connect(built)) as conn:
        conn.execute("VACUUM INTO ?", (str(template),))  # one file, whatever the write-ahead log still held
    return template


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """The application served by uvicorn on a free port, in a thread of the test process, with the tiny test game
    registered: a real socket and the configured websocket implementation, without a process to start (a fifth of
    the time). Its clock is a running `FakeClock` the test moves forward (`advance`) instead of sleeping through a
    wait. Tests whose point is more than one process, a killed one or the process's own output use `ServerProcess`."""

    tiny_game = True  # registered in this process before the first server starts (`install_tiny_game`)

    def __init__(self, db: Database, tmp: Path, real_limits: bool = False, ping: float = 5, **env: str) -> None:
        self.db = db
        self.ping = ping  # seconds between the server's pings to each socket, and how long it waits for the pong
        self.port = free_port()
        self.tmp = tmp
        # The environment a server process would get: what the test says over the suite's defaults.
        self.overrides = {
            **({} if real_limits else GENEROUS_LIMITS),
            "DATABASE_URL": db.url,
            "SECRET_KEY": SECRET,
            "METRICS_TOKEN": METRICS_TOKEN,
            "PORT": str(self.port),
            "BOT_DELAY": "0",
            "LOG_LEVEL": "warning",
            **env,
        }
        self.log = tmp / f"server-{self.port}.log"
        self.clock = FakeClock(running=True)
        self._web: FastAPI | None = None
        self._uvicorn: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._failure: BaseException | None = None
        self._stuck = ""  # the tasks the last run left that did not end when cancelled (`_end_loop`)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def settings(self) -> Settings:
        fields = {name.lower(): value for name, value in self.overrides.items()}
        unknown = set(fields) - set(Settings.model_fields)
        assert not unknown, f"no such settings: {sorted(unknown)}"
        return Settings(**fields)

    def start(self) -> Self:
        settings = self.settings()
        if self.tiny_game:
            install_tiny_game()
        self._web = create_app(settings, clock=self.clock)
        server_logs.follow(self)
        config = uvicorn.Config(
            served(self._web, settings), host="127.0.0.1", port=self.port, log_level=settings.log_level,
            log_config=None, lifespan="on",
            **{**uvicorn_options(settings), "ws_ping_interval": self.ping, "ws_ping_timeout": self.ping},
        )
        self._uvicorn = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._serve, name=f"server-{self.port}", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._uvicorn.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"server did not start: {self._failure!r}\n" + self.read_log()[-3000:])
            time.sleep(0.01)
        return self

    def _serve(self) -> None:
        server_logs.threads[threading.get_ident()] = self
        self._loop = loop = asyncio.new_event_loop()
        try:
            assert self._uvicorn is not None
            loop.run_until_complete(self._uvicorn.serve())
        except BaseException as exc:  # noqa: BLE001 - reported by start() or in the log
            self._failure = exc
        finally:
            self._stuck = _end_loop(loop)
            server_logs.threads.pop(threading.get_ident(), None)

    def read_log(self) -> str:
        return self.log.read_text() if self.log.exists() else ""

    @property
    def runtime(self) -> Runtime:
        """The running server's runtime: for a test that sets up what the server then finds, on its own loop (`call`)."""
        assert self._web is not None, "the server is not running"
        runtime: Runtime = self._web.state.runtime
        return runtime

    def call(self, work: Coroutine[Any, Any, T], timeout: float = 60) -> T:
        """Run `work` on the server's loop, from the test's thread, and give its result."""
        assert self._loop is not None, "the server is not running"
        return asyncio.run_coroutine_threadsafe(work, self._loop).result(timeout)

    async def advance(self, seconds: float) -> None:
        """Move the server's clock `seconds` forward: its waits end as if that much time had passed."""
        assert self._loop is not None
        await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(_advance(self.clock, seconds), self._loop))

    def jump(self, seconds: float) -> None:
        """`advance`, from a test that is not a coroutine (a browser test: Playwright's loop holds its thread)."""
        self.call(_advance(self.clock, seconds))

    def stop(self, kill: bool = False) -> None:
        assert not kill, "a server in a thread cannot be killed: use ServerProcess"
        if self._uvicorn is not None and self._thread is not None:
            self._uvicorn.should_exit = True
            self._thread.join(10)
            if self._thread.is_alive():
                # What a server process gets after its 10 s of grace (`ServerProcess.stop`): uvicorn stops waiting
                # for open connections and background tasks.
                self._uvicorn.force_exit = True
                self._thread.join(10)
            frame = sys._current_frames().get(self._thread.ident or 0)
            if frame is not None:
                # A thread cannot be killed: its listening socket is closed, and where it hangs is told.
                warnings.warn("a server's thread did not stop:\n" + "".join(traceback.format_stack(frame)), stacklevel=2)
            if self._stuck:
                warnings.warn("a server left tasks that did not end when cancelled:\n" + self._stuck, stacklevel=2)
        self._uvicorn = self._thread = self._web = None
        server_logs.forget(self)


def _end_loop(loop: asyncio.AbstractEventLoop, timeout: float = 2) -> str:
    """What `asyncio.run` does once its coroutine returned (cancel the tasks left, let them end, close the loop), but
    waiting `timeout` seconds at most: a task that never ends its cancellation is left behind, as a process's exit
    leaves it, and told (where each such task waits; "" when none): such a task costs a warning, not the whole run."""
    tasks = [task for task in asyncio.all_tasks(loop) if not task.done()]
    for task in tasks:
        task.cancel()
    if tasks:
        loop.run_until_complete(asyncio.wait(tasks, timeout=timeout))
    stuck = "".join(
        f"task {task.get_name()}:\n" + "".join(traceback.format_list(_task_frames(task)))
        for task in tasks if not task.done()
    )
    loop.run_until_complete(loop.shutdown_asyncgens())
    if not stuck:  # else an executor's thread may be what the task waits for
        loop.run_until_complete(loop.shutdown_default_executor())
        loop.close()
    return stuck


def _task_frames(task: asyncio.Task[Any]) -> traceback.StackSummary:
    """Where a task waits: the frames of its coroutine and of those it awaits, outermost first."""
    frames = []
    awaited: Any = task.get_coro()
    while (frame := getattr(awaited, "cr_frame", None) or getattr(awaited, "gi_frame", None)) is not None:
        frames.append((frame, frame.f_lineno))
        awaited = getattr(awaited, "cr_await", None) or getattr(awaited, "gi_yieldfrom", None)
    return traceback.StackSummary.extract(frames)


async def _advance(clock: FakeClock, seconds: float) -> None:
    clock.advance(seconds)


class ServerLogs:
    """What each server in a thread logs goes to its own `log` file too, as a server process's output would: one
    handler on the root logger files each record by the thread it was made in. `setup_logging`, run by every app
    built, resets the root logger's handlers, so the handler goes back on after each."""

    def __init__(self) -> None:
        self.threads: dict[int, Server] = {}
        self.files: dict[int, logging.Handler] = {}
        self.handler = _ByThread(self)

    def follow(self, server: Server) -> None:
        self.files[id(server)] = logging.FileHandler(server.log, encoding="utf-8")
        self.files[id(server)].setFormatter(JsonFormatter())
        root = logging.getLogger()
        if self.handler not in root.handlers:
            root.addHandler(self.handler)

    def forget(self, server: Server) -> None:
        handler = self.files.pop(id(server), None)
        if handler is not None:
            handler.close()


class _ByThread(logging.Handler):
    def __init__(self, logs: ServerLogs) -> None:
        super().__init__()
        self.logs = logs

    def emit(self, record: logging.LogRecord) -> None:
        server = self.logs.threads.get(record.thread or 0)
        handler = self.logs.files.get(id(server)) if server is not None else None
        if handler is not None:
            handler.handle(record)


server_logs = ServerLogs()


def install_tiny_game() -> None:
    """The tiny test game, in this process's registry from the first server in a thread on: tests that go through
    every game read the registry when they are collected, before any server starts."""
    from tests.platform.tiny_game import install

    install()


class ServerProcess(Server):
    """The server in a process of its own (`tests/platform/serve.py`): for tests of more than one process, of a
    killed one, or of what the process writes."""

    def __init__(self, db: Database, tmp: Path, real_limits: bool = False, **env: str) -> None:
        super().__init__(db, tmp, real_limits, **env)  # pings every 5 s (tests/platform/serve.py)
        self.env = {**os.environ, **self.overrides}
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Self:
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
                raise RuntimeError(f"server exited: {self.read_log()[-3000:]}")
            try:
                if httpx.get(self.url + "/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("server did not start: " + self.read_log()[-3000:])

    async def advance(self, seconds: float) -> None:
        """Move the server's clock `seconds` forward (`POST /_test/clock`, tests/platform/serve.py)."""
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
    db = Database(tmp_path_factory.mktemp("db"), migrated=True)
    yield db
    db.drop()


@pytest.fixture(scope="session")
def server(database: Database, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(database, tmp_path_factory.mktemp("server")).start()
    yield srv
    srv.stop()


@pytest.fixture
def fresh_db(tmp_path: Path) -> Iterator[Database]:
    db = Database(tmp_path, migrated=True)
    yield db
    db.drop()


@pytest.fixture
def empty_db(tmp_path: Path) -> Iterator[Database]:
    """A fresh database without a table yet: for a test of the migrations themselves."""
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
