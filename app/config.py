"""Settings from the environment (pydantic-settings)."""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict

DATA_DIR = Path("data")


class Settings(BaseSettings):
    """Server configuration; every field can be set by an environment variable of the same name."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = ""
    secret_key: str = ""
    broker_url: str = ""  # "" = in-process (SQLite) or Postgres LISTEN/NOTIFY; "redis://..." = Redis pub/sub
    host: str = "127.0.0.1"
    port: int = 8000
    log_level: str = "info"
    token_max_age: int = 60 * 60 * 24 * 30
    # The session cookie is Secure on every request that came over HTTPS (directly, or as a trusted proxy's
    # X-Forwarded-Proto says); this makes it Secure on plain HTTP too (a proxy that does not say).
    cookie_secure: bool = False
    # Addresses (IPs or CIDR ranges, comma-separated; "*" for any) of the proxies whose X-Forwarded-For,
    # X-Forwarded-Proto and X-Request-ID are believed. Empty: none, so a client cannot claim another's address.
    forwarded_allow_ips: str = ""
    # Where /metrics is served: "" = not at all on the public port; a token = at /metrics with
    # `Authorization: Bearer <token>`. METRICS_PORT serves it unauthenticated on another port (internal network).
    metrics_token: str = ""
    metrics_port: int = 0
    metrics_host: str = "127.0.0.1"
    metrics_refresh: float = 15.0  # seconds between counts of the tables by status (a GROUP BY), not per scrape
    api_docs: bool = False  # serve the interactive API pages (/docs, /redoc); the schema stays at /openapi.json
    # Prefix of the Redis channels, so deployments sharing one Redis hear only their own (pub/sub ignores the
    # database number). Empty: derived from the database's name.
    broker_namespace: str = ""
    # SQLite's PRAGMA synchronous: FULL flushes the log at every commit, so an acknowledged move survives a
    # power loss (NORMAL may lose the last ones; the group commit amortises the flush).
    sqlite_synchronous: str = "FULL"
    allowed_origins: str = ""  # comma-separated extra origins allowed to open websockets
    bot_delay: float = 0.4  # seconds between bot moves, so people can follow them
    # How long a running table may wait on an awaited player before any other player at it may hand that
    # seat to a bot (the player takes it back on return): one who vanished would otherwise strand the game.
    # A player still connected to the table may be thinking, not gone: they get longer.
    stand_in_after: float = 300.0
    stand_in_after_online: float = 900.0
    bot_sweep_seconds: float = 20.0  # how often a process looks for bots left waiting by a dead process
    # Bots think in this many worker processes, off the event loop (a hard bot searches for up to a second).
    bot_workers: int = 1
    bot_playouts: int = 0  # the hard level's playouts per decision; 0 keeps each game's default (<= 1 s)
    # How often a process looks for finished games left unrated by a dead process (services/ratings.py).
    rating_sweep_seconds: float = 30.0
    # How often a process looks for game clocks that ran out (services/timeouts.py); a timeout is applied at most
    # this late.
    clock_sweep_seconds: float = 1.0
    # Email notifications (services/notify.py): off while SMTP_HOST is empty. PUBLIC_URL is the site's address as the
    # links in the mails give it (empty: http://127.0.0.1 and PORT).
    smtp_host: str = ""
    smtp_port: int = 587
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_starttls: bool = True
    smtp_from: str = "Food Truck Games <noreply@localhost>"
    public_url: str = ""
    email_sweep_seconds: float = 5.0  # how often a process sends the mails waiting in the outbox
    # Seconds a password reset link works (services/recovery.py); each link works once.
    password_reset_max_age: int = 3600
    # Web Push (services/push.py): the VAPID private key, its raw 32 bytes as base64url (the public key is derived).
    # Empty: one generated once and kept beside the database, like the secret key. VAPID_SUBJECT is the contact push
    # services are given (mailto: or https:); empty: the site's address (PUBLIC_URL).
    vapid_private_key: str = ""
    vapid_subject: str = ""
    # Accept push endpoints over plain http:// (a push service is always https://): for tests and local development
    # only, since the server posts to whatever endpoint a browser gives.
    push_insecure_endpoints: bool = False
    ws_max_message: int = 64 * 1024
    ws_idle_timeout: float = 120.0  # a socket silent this long (no message, no ping) is closed
    # uvicorn's websocket implementation: framed (ours, app.realtime.protocol) | websockets-sansio | websockets
    ws_impl: str = "framed"
    ws_rate_per_second: float = 20.0
    ws_rate_burst: int = 40
    invite_failures_per_minute: int = 10  # per person and per client address, whichever runs out first
    # Limits per client address (and per account where there is one), across every server process
    # (services/ratelimits.py): "N/second|minute|hour|day", or "N/M minutes".
    limit_login_failures: str = "10/minute"  # wrong passwords, per address and per username
    limit_registrations: str = "10/hour"
    limit_guests: str = "30/hour"
    limit_tables: str = "30/hour"  # new tables, per person and per address
    limit_password_resets: str = "5/hour"  # reset links asked for, per address and per username or email asked about
    max_open_tables: int = 5  # tables one person may host at once while they wait for players
    # Ratings count an account's games once it is this old, or has played this many finished games; and the same
    # two people's rated games within this many hours count less and less (services/ratings.py).
    rated_min_age_days: float = 3.0
    rated_min_games: int = 3
    rated_repeat_hours: float = 24.0
    # Table chat, per person per table: a burst of this many messages, then one every 1/rate seconds.
    chat_rate_burst: int = 5
    chat_rate_per_second: float = 0.5
    # Watchers (not seated, not the host) who may say their first line at one table in a minute.
    chat_newcomers_per_minute: int = 5
    # Sockets one signed-in person may hold open at one table, and one client address at one server process.
    ws_per_person_per_table: int = 8
    ws_per_address: int = 200
    # Table records kept in each process's memory (services/table_cache.TableCache): at most this many, and none unused for
    # this many seconds (0: kept until pushed out by newer ones). One left out is read again from the database.
    table_cache_size: int = 10000
    table_cache_idle_seconds: float = 600.0
    # Versions whose events a cached table keeps for sockets a few versions behind (at most 64); one further behind
    # gets a snapshot. Most of a played table's memory in the cache (bench/table_memory.py).
    table_cache_events: int = 16
    # Presence (who is at a table now, realtime/presence.py): seconds to gather socket changes into one message,
    # between a process's re-announcements of its tables to the others, and until the others forget it.
    presence_debounce: float = 0.5
    presence_refresh: float = 30.0
    presence_expiry: float = 90.0
    db_pool_size: int = 5
    db_pool_timeout: float = 10.0  # seconds a request waits for a pooled connection before `server_busy`
    run_migrations: bool = True
    snapshot_every: int = 16  # rewrite the whole state document every this many moves (and at the end)
    # Group commits in flight at once on Postgres, each on its own connection. One keeps the batches bigger
    # and Postgres' CPU lower: on 2 cores shared with Postgres that halved the ack p99 at moderate load, at
    # no measurable cost at saturation (docs/performance.md). A database on a machine
    # of its own may do better with more; that was not measured.
    writer_connections: int = 1
    # A connection's next group commit starts at least this long after its last one began: moves arriving
    # meanwhile join it. Postgres' cost is mostly per commit (~300 µs of its CPU, against ~15 µs a move), so
    # on 2 cores shared with Postgres, at 200 tables x 2, 6 ms took commits from ~900/s of ~6 moves to ~280/s of
    # ~19, Postgres' CPU from ~41 % to ~27 % of a core, and the ack p99 down in 7 of 7 interleaved pairs
    # (docs/performance.md). It adds at most this much to an ack, and only when
    # another commit began that recently. 0 commits whenever a batch is waiting.
    writer_min_interval_ms: float = 6.0

    @property
    def effective_database_url(self) -> str:
        if self.database_url:
            url = self.database_url
            if url.startswith("postgres://"):
                url = "postgresql://" + url[len("postgres://") :]
            if url.startswith("postgresql://"):
                url = "postgresql+asyncpg://" + url[len("postgresql://") :]
            return url
        private_dir(DATA_DIR)
        return f"sqlite+aiosqlite:///{(DATA_DIR / 'foodgames.sqlite3').resolve()}"

    @property
    def effective_broker_namespace(self) -> str:
        """The prefix of this deployment's Redis channels and keys: BROKER_NAMESPACE, else the database's name (the
        SQLite file's stem)."""
        if self.broker_namespace:
            return self.broker_namespace
        tail = self.effective_database_url.rsplit("/", 1)[-1].split("?", 1)[0]
        return (tail.rsplit(".", 1)[0] if tail.endswith((".sqlite3", ".sqlite", ".db")) else tail) or "foodgames"

    @property
    def is_postgres(self) -> bool:
        return self.effective_database_url.startswith("postgresql")

    @property
    def effective_public_url(self) -> str:
        return (self.public_url or f"http://127.0.0.1:{self.port}").rstrip("/")

    def effective_secret_key(self) -> str:
        """The signing key: from the environment, else generated once and kept beside the database."""
        return self.secret_key or _kept(_secret_path(self), lambda: secrets.token_urlsafe(48))

    def effective_vapid_private_key(self, new_key: Callable[[], str]) -> str:
        """The Web Push (VAPID) private key, raw as base64url: from the environment, else made once by `new_key` (the
        key's format is the push module's business) and kept beside the database."""
        if self.vapid_private_key:
            return self.vapid_private_key
        return _kept(_secret_path(self).with_name("vapid_key"), new_key)


def _kept(path: Path, make: Callable[[], str]) -> str:
    """A secret kept in a file readable by its owner only, made by `make` the first time."""
    if not path.exists():
        private_dir(path.parent)
        # Written aside and linked into place, which fails if it is there already: processes starting
        # together on one data folder all end up with the value the first of them wrote.
        draft = path.with_name(f".{path.name}.{os.getpid()}")
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(make())
        with contextlib.suppress(FileExistsError):
            os.link(draft, path)
        draft.unlink()
    return path.read_text().strip()


def private_dir(path: Path) -> None:
    """Create a data folder readable by its owner only (it holds the database, with password hashes, and the key)."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)


def _secret_path(settings: Settings) -> Path:
    url = settings.effective_database_url
    if url.startswith("sqlite") and ":///" in url:
        return Path(url.split(":///", 1)[1]).parent / "secret_key"
    return DATA_DIR / "secret_key"


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings."""
    return Settings()
