"""What the use cases need from the process they run in, as protocols the services own.

The use cases never import the hub, the broker or presence (`app/realtime`) nor the wiring (`app/runtime.py`): they
tell a `Publisher` what happened, and reach the database, the cache and the writer through a `Context`. The
runtime implements `Context`, realtime implements `Publisher` (`app/realtime/publisher.py`); `lint-imports` keeps it
so (the contracts in pyproject.toml).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clock import Clock
from app.config import Settings
from app.services.auth import TokenSigner
from app.services.push import VapidKeys
from app.services.record import TableRecord
from app.services.table_cache import TableCache
from app.services.writer import PostgresBatchWriter, SessionWriter


class Publisher(Protocol):
    """The live side of the site, told what a use case changed: this process's sockets and, through the broker, the
    other processes'.

    A side notice (a chat line, a session ended …) is a JSON text the other processes act on: sent inside the
    transaction that makes the change (`notice_in_tx`, on Postgres one NOTIFY with the commit) and after it
    (`notice_after_commit`, for a broker outside the database); its effect on this process's sockets is told
    directly, after the commit."""

    async def notice_in_tx(self, session: AsyncSession, notice: str) -> None: ...

    async def notice_after_commit(self, notice: str) -> None: ...

    def chat_line(self, table_id: str, line: dict[str, Any]) -> None: ...

    def chat_removed(self, table_id: str, message_id: int) -> None: ...

    def chat_mute(self, table_id: str, user: dict[str, Any], muted: bool, host_id: str) -> None: ...

    def sessions_ended(self, user_id: str, epoch: int) -> None:
        """The person's sockets opened with a token older than `epoch` close."""

    def session_revoked(self, user_id: str, sid: str) -> None:
        """The sockets opened with the session `sid` close."""

    def renamed(self, user_id: str, name: str) -> None:
        """The person took a new name: the watchers' list and the finished tables that name them show it."""

    def draft_shown(self, rec: TableRecord, seat: str, events: list[dict[str, Any]]) -> None:
        """The seat's own sockets see its new draft (nobody else hears of it)."""

    def table_changed(self, table_id: str, version: int) -> None:
        """The table's sockets here are brought up to `version` (at least) in the background."""

    def connected(self, table_id: str, user_id: str) -> bool:
        """Whether the person has a socket open at the table on any process (as presence knows it)."""


class Context(Protocol):
    """The process a use case runs in: settings and clock, the database, the table records, the move writer, the
    publisher."""

    settings: Settings
    clock: Clock  # the time every wait reads: tests set their own
    secret_key: str
    signer: TokenSigner
    vapid: VapidKeys | None  # None without the push extra
    sessions: async_sessionmaker[AsyncSession]
    reads: async_sessionmaker[AsyncSession]  # autocommit sessions for reads alone
    is_postgres: bool
    cache: TableCache
    writer: SessionWriter | PostgresBatchWriter
    writing: dict[str, int]  # versions this process is writing now (their broker echo is not news)
    mail_lock: asyncio.Lock
    origin: str  # names this process in its side notices
    publisher: Publisher

    def now(self) -> datetime: ...

    def table_lock(self, table_id: str) -> asyncio.Lock: ...

    def single_writer(self) -> contextlib.AbstractAsyncContextManager[Any]: ...

    async def record(self, session: AsyncSession, table_id: str) -> TableRecord: ...

    async def record_fresh(self, session: AsyncSession, table_id: str) -> TableRecord: ...

    async def reload(self, table_id: str) -> TableRecord: ...

    async def record_at_least(self, table_id: str, version: int) -> TableRecord: ...

    async def after_change(self, rec: TableRecord) -> None: ...

    def own_write(self, table_id: str, version: int) -> contextlib.AbstractContextManager[None]: ...

    async def notify_in_tx(self, session: AsyncSession, table_id: str, version: int) -> None: ...

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]: ...
