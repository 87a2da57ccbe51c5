"""The server's live parts, wired together once per process: database, cache, hub, broker, bots."""

from __future__ import annotations

import asyncio
import logging
import secrets
from datetime import datetime
from typing import Any

from app.clock import Clock, SystemClock
from app.config import Settings
from app.db.session import make_engine, make_sessionmaker
from app.realtime.broker import make_broker
from app.realtime.hub import Hub
from app.realtime.presence import Presence
from app.realtime.publisher import RealtimePublisher
from app.realtime.side_notices import SideNotices
from app.services import notify
from app.services.account import Accounts
from app.services.admin import Admin
from app.services.auth import TokenSigner
from app.services.bots import BotRunner
from app.services.chat import Chat, ChatLimits
from app.services.database import Database
from app.services.drafts import Drafts
from app.services.fan_out import ChangeFanOut
from app.services.listings import Listings
from app.services.live_reads import LiveReads
from app.services.loading import moves_after
from app.services.lobby import Lobby
from app.services.notify import Notifications
from app.services.outside_changes import OutsideChanges
from app.services.play import Play
from app.services.ports import Publisher
from app.services.presentation import TablePresenter
from app.services.push import PushNotices, VapidKeys
from app.services.ratelimits import make_rate_limits
from app.services.ratings import Ratings
from app.services.record import TableRecord
from app.services.recovery import Recovery
from app.services.rematch import Rematcher
from app.services.remote_changes import RemoteChanges
from app.services.sweeps import Sweeps
from app.services.table_cache import TableCache
from app.services.table_records import TableRecords
from app.services.table_writes import TableWrites
from app.services.timeouts import Timeouts
from app.services.undo import Undoer
from app.services.writer import PostgresBatchWriter, SessionWriter

log = logging.getLogger("app.runtime")
# How often a process with no broker between processes (SQLite) looks in the database for what another process
# changed: an operator's ban or closed table (`foodgames admin`).
OUTSIDE_CHECK_SECONDS = 10.0


class Runtime:
    """Everything a request handler needs, created in the app's lifespan."""

    def __init__(self, settings: Settings, *, clock: Clock | None = None) -> None:
        self.settings = settings
        # The time every wait reads (app/clock.py): tests give a FakeClock and advance it.
        self.clock: Clock = clock or SystemClock()
        self.secret_key = settings.effective_secret_key()
        self.signer = TokenSigner(self.secret_key, settings.token_max_age)
        self.vapid = VapidKeys.load(settings)  # Web Push's signing key (services/push.py)
        self.engine = make_engine(settings)
        self.sessions = make_sessionmaker(self.engine)
        self.reads = make_sessionmaker(self.engine, autocommit=True)
        self.is_postgres = settings.is_postgres
        self.database = Database(sessions=self.sessions, reads=self.reads, is_postgres=self.is_postgres)
        self.cache = TableCache(settings.table_cache_size, settings.table_cache_idle_seconds,
                                settings.table_cache_events, clock=self.clock.monotonic)
        self.presenter = TablePresenter(secret_key=self.secret_key, settings=settings, now=lambda: self.now())
        self.broker = make_broker(
            settings.effective_database_url, settings.broker_url, settings.effective_broker_namespace
        )
        self.records = TableRecords(
            cache=self.cache, reads=self.reads, shared=self.broker.shared, engine=self.engine,
            moves_query=moves_after,
        )
        self.hub = Hub(
            cache=self.cache, records=self.records, reads=LiveReads(reads=self.reads), presenter=self.presenter,
            on_renamed=lambda user_id, name: self.publisher.renamed(user_id, name), publish_later=self.publish_later,
            clock=self.clock,
        )
        self.writer: SessionWriter | PostgresBatchWriter = (
            PostgresBatchWriter(
                settings.effective_database_url,
                settings.writer_connections,
                notify=self.broker.notify_in_writes,
                min_interval=settings.writer_min_interval_ms / 1000,
            )
            if self.is_postgres
            else SessionWriter(self.sessions)
        )
        self.tables = TableWrites(
            database=self.database, records=self.records, cache=self.cache,
            notify_in_tx=self.broker.notify_in_tx, after_change=self._after_change,
        )
        self.limits = make_rate_limits(settings, self.reads, self.database.single_writer)
        self._tasks: set[asyncio.Task[Any]] = set()
        # Names this process in its side notices (chat, presence): its own come back from the broker, not news.
        self.origin = secrets.token_hex(8)
        self.presence = self.hub.presence = Presence(
            self.hub, self.broker, self.origin, self.spawn,
            settings.presence_debounce, settings.presence_refresh, settings.presence_expiry, clock=self.clock,
        )
        self.remote = RemoteChanges(
            cache=self.cache, writing=self.tables.writing, watched=self.hub,
            moves_after=self.records.moves_after if self.is_postgres else None, publish_later=self.publish_later,
            spawn=self.spawn,
        )
        self.publisher: Publisher = RealtimePublisher(
            hub=self.hub, broker=self.broker, presence=self.presence, cache=self.cache, spawn=self.spawn
        )
        # The table-side use cases, each given only what it uses. The bots play through the move path, and the
        # fan-out below pokes them after every change.
        self.lobby = Lobby(
            tables=self.tables, clock=self.clock, secret_key=self.secret_key, max_open_tables=settings.max_open_tables
        )
        self.rematches = Rematcher(tables=self.tables, lobby=self.lobby, secret_key=self.secret_key)
        self.listings = Listings(records=self.records)
        self.drafts = Drafts(database=self.database, cache=self.cache)
        self.play = Play(
            tables=self.tables, database=self.database, writer=self.writer, drafts=self.drafts,
            publisher=self.publisher, clock=self.clock, snapshot_every=settings.snapshot_every, spawn=self.spawn,
        )
        self.undo = Undoer(tables=self.tables, drafts=self.drafts, publisher=self.publisher)
        self.ratings = Ratings(
            tables=self.tables, database=self.database, min_age_days=settings.rated_min_age_days,
            min_games=settings.rated_min_games, repeat_hours=settings.rated_repeat_hours,
        )
        self.timeouts = Timeouts(tables=self.tables, database=self.database)
        self.bots = BotRunner(
            play=self.play, records=self.records, database=self.database, clock=self.clock,
            workers=settings.bot_workers, playouts=settings.bot_playouts, delay=settings.bot_delay,
        )
        self.side_notices = SideNotices(
            hub=self.hub, presence=self.presence, renamed=self.publisher.renamed, origin=self.origin
        )
        self.fan_out = ChangeFanOut(
            cache=self.cache, announcer=self.broker, bots=self.bots, sockets=self.hub,
            settle_rating=self.ratings.settle,
            # The account side's use cases are built last (below): these look them up when called.
            may_notify=lambda rec: self.notifications.concerns(rec),
            notify=lambda rec: self.notifications.after_change(rec),
            spawn=self.spawn,
        )
        self.outside = OutsideChanges(
            cache=self.cache, reads=self.reads, recheck_sessions=self.hub.recheck_sessions,
            on_change=self.remote.on_change, sleep=self.clock.sleep,  # a test's clock brings on the next look
        )
        self.sweeps = Sweeps(
            rate_unrated=lambda idle_for: self.ratings.sweep(idle_for=idle_for),
            time_out=lambda: self.timeouts.sweep(self.now()),
            send_mail=lambda: self.notifications.send_due(),
            sleep=asyncio.sleep,
        )
        # The account side's use cases, each given only what it uses.
        self.push = PushNotices(
            database=self.database, vapid=self.vapid, insecure_endpoints=settings.push_insecure_endpoints
        )
        self.notifications: Notifications = Notifications(
            database=self.database, publisher=self.publisher, push=self.push, settings=settings,
            secret_key=self.secret_key,
        )
        self.chat = Chat(
            database=self.database, publisher=self.publisher, clock=self.clock, origin=self.origin,
            limits=ChatLimits(
                burst=settings.chat_rate_burst, per_second=settings.chat_rate_per_second,
                newcomers_per_minute=settings.chat_newcomers_per_minute,
            ),
        )
        self.accounts = Accounts(
            database=self.database, publisher=self.publisher, origin=self.origin,
            token_max_age=settings.token_max_age,
            lobby_change=self.lobby.change,
        )
        self.recovery = Recovery(
            database=self.database, publisher=self.publisher, clock=self.clock, origin=self.origin,
            mail_enabled=notify.enabled(settings), public_url=settings.effective_public_url,
            link_max_age=settings.password_reset_max_age,
        )
        self.admin = Admin(database=self.database, tables=self.tables, publisher=self.publisher, origin=self.origin)

    def now(self) -> datetime:
        """What time it is for this process (its clock's time)."""
        return self.clock.now()

    async def start(self) -> None:
        await self.writer.start()
        self.spawn(self.hub.sweep_idle(self.settings.ws_idle_timeout))
        self.spawn(self.bots.sweep(self.settings.bot_sweep_seconds))
        self.spawn(self.sweeps.ratings(self.settings.rating_sweep_seconds))
        self.spawn(self.sweeps.clocks(self.settings.clock_sweep_seconds))
        if notify.enabled(self.settings):
            self.spawn(self.sweeps.mail(self.settings.email_sweep_seconds))
        await self.broker.start(self.remote.on_change, self.on_broker_back, self.side_notices)
        if not self.broker.shared:
            self.spawn(self.outside.run(OUTSIDE_CHECK_SECONDS))
        self.spawn(self.presence.run())
        await self.bots.resume_all()

    async def stop(self) -> None:
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            # Their connections go back to the pool before it is disposed, rather than to the garbage collector.
            await asyncio.wait(tasks, timeout=5)
        await self.bots.stop()
        self.hub.close_all()
        await self.presence.stop()
        await self.broker.stop()
        await self.writer.stop()
        await self.engine.dispose()

    async def on_broker_back(self) -> None:
        """After a broker reconnect: what this process missed meanwhile (moves, chat, the others' presence, sessions
        ended, names changed)."""
        self.spawn(self.presence.announce_all(ask=True))
        self.spawn(self.hub.recheck_sessions())
        await self.hub.resync_all()

    def publish_later(self, table_id: str, version: int) -> None:
        """Bring the table's sockets here up to `version` in the background."""
        self.spawn(self._publish_remote(table_id, version))

    async def _publish_remote(self, table_id: str, version: int) -> None:
        try:
            await self.hub.publish(table_id, version)
        except Exception:  # noqa: BLE001 - a notice we cannot act on now is caught up by the next one
            log.exception("remote change failed", extra={"table_id": table_id})

    async def _after_change(self, rec: TableRecord) -> None:
        await self.fan_out.after_change(rec)  # the fan-out is built after the table writes: it needs the bots

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        """Run a coroutine in the background, cancelled when the runtime stops."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task
