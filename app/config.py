"""Settings from the environment (pydantic-settings)."""

from __future__ import annotations

import contextlib
import os
import secrets
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
    cookie_secure: bool = False
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
    ws_max_message: int = 64 * 1024
    ws_idle_timeout: float = 120.0  # a socket silent this long (no message, no ping) is closed
    # uvicorn's websocket implementation: framed (ours, app.realtime.protocol) | websockets-sansio | websockets
    ws_impl: str = "framed"
    ws_rate_per_second: float = 20.0
    ws_rate_burst: int = 40
    invite_failures_per_minute: int = 10
    # Table chat, per person per table: a burst of this many messages, then one every 1/rate seconds.
    chat_rate_burst: int = 5
    chat_rate_per_second: float = 0.5
    # Presence (who is at a table now, realtime/presence.py): seconds to gather socket changes into one message,
    # between a process's re-announcements of its tables to the others, and until the others forget it.
    presence_debounce: float = 0.5
    presence_refresh: float = 30.0
    presence_expiry: float = 90.0
    db_pool_size: int = 5
    run_migrations: bool = True
    snapshot_every: int = 16  # rewrite the whole state document every this many moves (and at the end)
    # Group commits in flight at once on Postgres, each on its own connection. One keeps the batches bigger
    # and Postgres' CPU lower: on 2 cores shared with Postgres that halved the ack p99 at moderate load, at
    # no measurable cost at saturation (docs/performance.md, "The third session"). A database on a machine
    # of its own may do better with more; that was not measured.
    writer_connections: int = 1
    # A connection's next group commit starts at least this long after its last one began: moves arriving
    # meanwhile join it. Postgres' cost is mostly per commit (~300 µs of its CPU, against ~15 µs a move), so
    # on 2 cores shared with Postgres, at 200 tables x 2, 6 ms took commits from ~900/s of ~6 moves to ~280/s of
    # ~19, Postgres' CPU from ~41 % to ~27 % of a core, and the ack p99 down in 7 of 7 interleaved pairs
    # (docs/performance.md, "The twenty-first session"). It adds at most this much to an ack, and only when
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
        DATA_DIR.mkdir(parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{(DATA_DIR / 'foodgames.sqlite3').resolve()}"

    @property
    def is_postgres(self) -> bool:
        return self.effective_database_url.startswith("postgresql")

    def effective_secret_key(self) -> str:
        """The signing key: from the environment, else generated once and kept beside the database."""
        if self.secret_key:
            return self.secret_key
        path = _secret_path(self)
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            # Written aside and linked into place, which fails if it is there already: processes starting
            # together on one data folder all end up with the key the first of them wrote.
            draft = path.with_name(f".{path.name}.{os.getpid()}")
            draft.write_text(secrets.token_urlsafe(48))
            draft.chmod(0o600)
            with contextlib.suppress(FileExistsError):
                os.link(draft, path)
            draft.unlink()
        return path.read_text().strip()


def _secret_path(settings: Settings) -> Path:
    url = settings.effective_database_url
    if url.startswith("sqlite") and ":///" in url:
        return Path(url.split(":///", 1)[1]).parent / "secret_key"
    return DATA_DIR / "secret_key"


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings."""
    return Settings()
