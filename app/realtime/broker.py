"""Tells every server process that a table changed (`(table_id, version)` and nothing more), and the rest.

In-process for SQLite (one process); Postgres LISTEN/NOTIFY when the database is
Postgres, sent inside the move's transaction so it is delivered only on commit (a
group commit sends one notification listing the pairs of all its moves); Redis
pub/sub when BROKER_URL names a Redis server. A payload is `table_id:version`
pairs separated by commas.

Everything else travels on a side channel (`SIDE_CHANNEL`), one JSON document per
notice naming its `kind` and the process that sent it (`origin`): a chat line posted
(services/chat.py: NOTIFY in the transaction that stores it, or a PUBLISH after it),
a person's sessions ended (services/account.py, sent the same way), and who is at a
table now (realtime/presence.py: soft state, announced as it changes, with no transaction). The moves' channel, payload and parsing stay as they were: a
process that listens to moves only never sees a side notice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.channels import CHANNEL, SIDE_CHANNEL

log = logging.getLogger("app.broker")
CLIENT_NAME = "foodgames"  # Redis' CLIENT LIST names a server's connections CLIENT_NAME-<its pid>
PUBLISH_BATCH = 256  # changes per Redis message

# Called synchronously for each announced change: most are this process's own echo and cost nothing.
Handler = Callable[[str, int], None]
Reconnected = Callable[[], Coroutine[Any, Any, None]]
# Called with each side notice, this process's own included (realtime/side_notices.SideNotices tells them apart).
SideHandler = Callable[[str], None]


def parse_changes(payload: str) -> list[tuple[str, int]]:
    """The `(table_id, version)` pairs of a payload; malformed pairs are skipped."""
    changes = []
    for pair in payload.split(","):
        table_id, _, version = pair.partition(":")
        if table_id and version.isdigit():
            changes.append((table_id, int(version)))
    return changes


class Broker:
    """In-process: the writer's own hub is told directly, so there is nothing to carry."""

    notify_in_writes = False  # whether committed moves must NOTIFY (only LISTEN/NOTIFY carries them so)
    shared = False  # whether other server processes may write the same tables

    async def start(self, handler: Handler, reconnected: Reconnected, side: SideHandler | None = None) -> None:
        return None

    async def notify_in_tx(self, session: AsyncSession, table_id: str, version: int) -> None:
        return None

    async def after_commit(self, table_id: str, version: int) -> None:
        return None

    async def side_in_tx(self, session: AsyncSession, payload: str) -> None:
        """Send a side notice of something stored inside the transaction that stores it (delivered on commit)."""
        return None

    async def side_after_commit(self, payload: str) -> None:
        """Send a side notice of something stored, once it is (where `side_in_tx` could not)."""
        return None

    async def announce(self, payload: str) -> None:
        """Send a side notice of soft state now, outside any transaction; lost if the broker is away."""
        return None

    async def ready(self) -> bool:
        """Whether moves made here reach the other processes now (readiness)."""
        return True

    async def drain(self) -> None:
        """Wait until the changes announced so far are sent (a short-lived process, `foodgames admin`, before
        it stops)."""
        return None

    async def stop(self) -> None:
        return None


class ListeningBroker(Broker, ABC):
    """A broker whose task listens for the other processes' notices; `start` returns once it listens (or after
    10 s, the task going on trying)."""

    _task: asyncio.Task[None] | None = None

    async def start(self, handler: Handler, reconnected: Reconnected, side: SideHandler | None = None) -> None:
        ready = asyncio.Event()
        self._task = asyncio.create_task(self._listen(handler, reconnected, ready, side))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ready.wait(), 10)

    @abstractmethod
    async def _listen(
        self, handler: Handler, reconnected: Reconnected, ready: asyncio.Event, side: SideHandler | None = None
    ) -> None:
        """Listen until cancelled, reconnecting after a loss; set `ready` once listening."""


class PostgresBroker(ListeningBroker):
    """LISTEN/NOTIFY on a dedicated asyncpg connection, re-established after a loss."""

    notify_in_writes = True
    shared = True

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn.replace("postgresql+asyncpg://", "postgresql://")
        self._conn: Any = None
        self._busy = asyncio.Lock()  # one statement at a time on the listening connection (probes, announcements)

    async def _listen(
        self, handler: Handler, reconnected: Reconnected, ready: asyncio.Event, side: SideHandler | None = None
    ) -> None:
        import asyncpg

        first = True
        delay = 0.2
        while True:
            lost = asyncio.Event()
            try:
                conn = await asyncpg.connect(self.dsn, server_settings={"application_name": "foodgames-broker"})
                self._conn = conn

                def on_notify(_c: Any, _pid: int, _channel: str, payload: str) -> None:
                    for table_id, version in parse_changes(payload):
                        handler(table_id, version)

                conn.add_termination_listener(lambda _c, lost=lost: lost.set())
                async with self._busy:
                    await conn.add_listener(CHANNEL, on_notify)
                    if side is not None:
                        await conn.add_listener(SIDE_CHANNEL, lambda _c, _pid, _ch, payload: side(payload))
                ready.set()
                delay = 0.2
                if not first:
                    log.info("broker reconnected")
                    await reconnected()
                first = False
                while not lost.is_set():
                    # A cheap probe also notices a server that vanished without closing the socket.
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(lost.wait(), 5)
                    if not lost.is_set():
                        try:
                            async with self._busy:
                                await asyncio.wait_for(conn.execute("SELECT 1"), 5)
                        except Exception:  # noqa: BLE001
                            lost.set()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001
                log.warning("broker connection failed: %s", exc)
            with contextlib.suppress(Exception):
                if self._conn is not None:
                    await self._conn.close(timeout=1)
            self._conn = None
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)

    async def ready(self) -> bool:
        conn = self._conn
        return conn is not None and not conn.is_closed()

    async def notify_in_tx(self, session: AsyncSession, table_id: str, version: int) -> None:
        await session.execute(text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": f"{table_id}:{version}"})

    async def side_in_tx(self, session: AsyncSession, payload: str) -> None:
        await session.execute(text("SELECT pg_notify(:c, :p)"), {"c": SIDE_CHANNEL, "p": payload})

    async def announce(self, payload: str) -> None:
        # On the listening connection: a notice takes no connection from the pool and waits for no write.
        conn = self._conn
        if conn is None:
            return
        try:
            async with self._busy:
                await asyncio.wait_for(conn.execute("SELECT pg_notify($1, $2)", SIDE_CHANNEL, payload), 5)
        except Exception as exc:  # noqa: BLE001 - soft state: the next announcement says it again
            log.warning("broker announcement failed: %s", exc)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close(timeout=1)


class RedisBroker(ListeningBroker):
    """Redis pub/sub, for deployments past one database's NOTIFY rate (BROKER_URL=redis://...).

    The changes committed during one turn of the event loop go out as one PUBLISH. Pub/sub keeps
    nothing for a subscriber that is away, so after a reconnect every room is resynced from the database.
    """

    shared = True

    def __init__(self, url: str, namespace: str) -> None:
        self.url = url
        # Pub/sub ignores the database number: every channel carries the deployment's name.
        self.channel = f"{namespace}:{CHANNEL}"
        self.side_channel = f"{namespace}:{SIDE_CHANNEL}"
        self._redis: Any = None
        self._pending: list[str] = []
        self._flusher: asyncio.Task[None] | None = None
        self._reconnected: Reconnected | None = None
        self._catching_up: set[asyncio.Task[None]] = set()

    async def start(self, handler: Handler, reconnected: Reconnected, side: SideHandler | None = None) -> None:
        import redis.asyncio as aioredis

        self._redis = aioredis.from_url(self.url, client_name=f"{CLIENT_NAME}-{os.getpid()}", health_check_interval=5)
        await super().start(handler, reconnected, side)

    async def _listen(
        self, handler: Handler, reconnected: Reconnected, ready: asyncio.Event, side: SideHandler | None = None
    ) -> None:
        side_handlers = {self.side_channel: _relay_side(side)} if side is not None else {}
        first = True
        while True:
            pubsub = self._redis.pubsub()
            try:
                await pubsub.subscribe(self.channel)
                if side_handlers:
                    # With a handler of its own, pub/sub hands side notices to it and never to the loop below.
                    await pubsub.subscribe(**side_handlers)
                ready.set()
                if not first:
                    log.info("redis broker reconnected")
                    await reconnected()
                first = False
                # redis-py reconnects a subscription's connection by itself (and subscribes again), so a lost
                # connection need not reach this loop; the notices published meanwhile are lost all the same.
                self._reconnected = reconnected
                pubsub.connection.register_connect_callback(self._on_reconnect)
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    data = message["data"]
                    for table_id, version in parse_changes(data.decode() if isinstance(data, bytes) else str(data)):
                        handler(table_id, version)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001
                log.warning("redis broker connection failed: %s", exc)
            with contextlib.suppress(Exception):
                if pubsub.connection is not None:  # it goes back to the pool, where it must not call us
                    pubsub.connection.deregister_connect_callback(self._on_reconnect)
                await pubsub.aclose()
            await asyncio.sleep(1)

    def _on_reconnect(self, _connection: Any) -> None:
        """redis-py connected the subscription again by itself: catch up as after any broker reconnect."""
        if self._reconnected is None:
            return
        log.info("redis broker reconnected")
        task = asyncio.get_running_loop().create_task(self._reconnected())
        self._catching_up.add(task)
        task.add_done_callback(self._catching_up.discard)

    async def ready(self) -> bool:
        if self._task is None or self._task.done():
            return False
        try:
            return bool(await asyncio.wait_for(self._redis.ping(), 2))
        except Exception:  # noqa: BLE001 - unreachable is not ready
            return False

    async def after_commit(self, table_id: str, version: int) -> None:
        self._pending.append(f"{table_id}:{version}")
        if self._flusher is None:
            self._flusher = asyncio.create_task(self._flush())

    async def side_after_commit(self, payload: str) -> None:
        await self.announce(payload)

    async def announce(self, payload: str) -> None:
        try:
            await self._redis.publish(self.side_channel, payload)
        except Exception as exc:  # noqa: BLE001 - what it told is stored (a reload shows it) or said again soon
            log.warning("redis side publish failed: %s", exc)

    async def _flush(self) -> None:
        try:
            await asyncio.sleep(0)  # let the other moves committed in this turn join the message
            while self._pending:
                batch, self._pending = self._pending[:PUBLISH_BATCH], self._pending[PUBLISH_BATCH:]
                try:
                    await self._redis.publish(self.channel, ",".join(batch))
                except Exception as exc:  # noqa: BLE001 - subscribers resync when their own connection returns
                    log.warning("redis publish failed: %s", exc)
        finally:
            self._flusher = None

    async def drain(self) -> None:
        if self._flusher is not None:
            await asyncio.shield(self._flusher)

    async def stop(self) -> None:
        for task in (self._task, self._flusher, *self._catching_up):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()


def _relay_side(side: SideHandler) -> Callable[[dict[str, Any]], None]:
    """A Redis pub/sub message handler passing a side notice on as text."""

    def relay(message: dict[str, Any]) -> None:
        data = message["data"]
        side(data.decode() if isinstance(data, bytes) else str(data))

    return relay


def make_broker(database_url: str, broker_url: str, namespace: str = "foodgames") -> Broker:
    """Pick the broker for this deployment (`namespace`: the prefix of its Redis channels)."""
    if broker_url.startswith("redis"):
        return RedisBroker(broker_url, namespace)
    if database_url.startswith("postgresql"):
        return PostgresBroker(database_url)
    return Broker()
