"""The `foodgames` command: serve, migrate, verify a table, and the operator's verbs (`foodgames admin …`).

Every command reads the same settings as the server (environment variables, README's table), so it acts on the
deployment whose environment it runs in. Refusals print the server's error code and message and exit with status 1.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import urllib.request
from collections.abc import Awaitable, Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from app.config import Settings
from app.services.errors import ServiceError

if TYPE_CHECKING:
    from app.runtime import Runtime

T = TypeVar("T")


def _version() -> str:
    try:
        return version("foodgames")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(_version(), "--version", "-V", prog_name="foodgames")
def main() -> None:
    """Food Truck Games: the game server and its operator's tools.

    Settings come from the environment (DATABASE_URL, SECRET_KEY, PORT, …; README's table)."""


@main.command()
@click.option("--host", help="Address to listen on (overrides HOST).")
@click.option("--port", type=click.IntRange(1, 65535), help="Port to listen on (overrides PORT).")
def serve(host: str | None, port: int | None) -> None:
    """Run the server (migrations first, unless RUN_MIGRATIONS=false)."""
    if host is not None:
        os.environ["HOST"] = host
    if port is not None:
        os.environ["PORT"] = str(port)
    from app.main import main as run_server

    run_server()


@main.command()
def migrate() -> None:
    """Bring the database schema up to date, then exit."""
    from app.paths import run_migrations

    url = Settings().effective_database_url
    run_migrations(url)
    click.echo(f"migrated: {url.split('@')[-1]}")


@main.command()
@click.option(
    "--timeout", type=click.FloatRange(0.1, 60), default=3.0, show_default=True, help="Seconds to wait."
)
def health(timeout: float) -> None:
    """Exit 0 when the server on this host's configured HOST and PORT is ready, else 1 (a container's healthcheck)."""
    settings = Settings()
    host = (
        "127.0.0.1" if settings.host in ("", "0.0.0.0") else "::1" if settings.host == "::" else settings.host
    )
    url = f"http://{f'[{host}]' if ':' in host else host}:{settings.port}/api/health/ready"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            ready = response.status == 200
    except (OSError, ValueError) as exc:
        raise click.ClickException(f"not ready: {url}: {exc}") from exc
    if not ready:
        raise click.ClickException(f"not ready: {url}")
    click.echo(f"ready: {url}")


@main.command()
@click.argument("table_id")
def verify(table_id: str) -> None:
    """Replay a finished table from its revealed seed and check its final state (exit 1 if it differs)."""
    from app.verify import check

    result = _run(lambda: check(table_id))
    click.echo(json.dumps(result, indent=2))
    if not result["ok"]:
        raise SystemExit(1)


def _sqlite_file(settings: Settings) -> Path:
    url = settings.effective_database_url
    if not url.startswith("sqlite") or ":///" not in url:
        raise click.ClickException("not_sqlite: this database is backed up with pg_dump (docs/operations.md)")
    return Path(url.split(":///", 1)[1].split("?", 1)[0])


def _copy_sqlite(source: Path, target: Path) -> None:
    """SQLite's online backup: a consistent copy, though the server writes meanwhile (pages changed during the copy
    are copied again), that includes what is still in the write-ahead log."""
    with (
        contextlib.closing(sqlite3.connect(source)) as src,
        contextlib.closing(sqlite3.connect(target)) as dst,
    ):
        src.backup(dst)


def _write_private(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)


@main.command()
@click.argument("dest", type=click.Path(dir_okay=False, path_type=Path))
def backup(dest: Path) -> None:
    """SQLite: copy the database to DEST while the server runs (Postgres: pg_dump, docs/operations.md).

    Without SECRET_KEY, the generated key kept beside the database is copied to DEST.secret_key: tokens and invite
    codes are signed with it."""
    settings = Settings()
    source = _sqlite_file(settings)
    if not source.exists():
        raise click.ClickException(f"no_database: {source} does not exist")
    try:
        os.close(
            os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        )  # password hashes: the owner's only
    except FileExistsError as exc:
        raise click.ClickException(f"exists: {dest} is there already; choose a new name") from exc
    _copy_sqlite(source, dest)
    key = source.parent / "secret_key"
    if not settings.secret_key and key.exists():
        _write_private(dest.with_name(dest.name + ".secret_key"), key.read_bytes())
    click.echo(f"backed up {source} to {dest}")


@main.command()
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def restore(source: Path) -> None:
    """SQLite: replace the database with the backup SOURCE (stop the server first), and its secret key if it has one."""
    settings = Settings()
    target = _sqlite_file(settings)
    try:
        with contextlib.closing(sqlite3.connect(source)) as check:
            ok = check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    except sqlite3.DatabaseError:
        ok = False
    if not ok:
        raise click.ClickException(f"corrupt: {source} fails SQLite's integrity check")
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    _copy_sqlite(source, target)
    key = source.with_name(source.name + ".secret_key")
    if not settings.secret_key and key.exists():
        _write_private(target.parent / "secret_key", key.read_bytes())
    click.echo(f"restored {target} from {source}")


@main.group()
def admin() -> None:
    """Operator's verbs on the deployment's database; the running servers are told through the broker."""


@admin.command("grant")
@click.argument("who")
def grant(who: str) -> None:
    """Make the account WHO (id or username) an admin."""
    user = _with_runtime(lambda rt: rt.admin.set_admin(who, True))
    click.echo(f"{user.name} ({user.id}) is an admin")


@admin.command("revoke")
@click.argument("who")
def revoke(who: str) -> None:
    """Make the account WHO an admin no longer."""
    user = _with_runtime(lambda rt: rt.admin.set_admin(who, False))
    click.echo(f"{user.name} ({user.id}) is no longer an admin")


@admin.command("ban")
@click.argument("who")
def ban(who: str) -> None:
    """Ban WHO (id or username): their tokens stop working, their sockets close, they cannot sign in."""
    user = _with_runtime(lambda rt: rt.admin.ban(who))
    click.echo(f"banned {user.name} ({user.id})")


@admin.command("unban")
@click.argument("who")
def unban(who: str) -> None:
    """Lift WHO's ban: they may sign in again."""
    user = _with_runtime(lambda rt: rt.admin.unban(who))
    click.echo(f"unbanned {user.name} ({user.id})")


@admin.command("close-table")
@click.argument("table_id")
def close_table(table_id: str) -> None:
    """End the table TABLE_ID as abandoned (no winner, not rated), running or still open."""
    was = _with_runtime(lambda rt: rt.admin.close_table(table_id))
    click.echo(f"closed {table_id} (it was {was})")


@admin.command("purge-guests")
@click.option("--inactive-days", "days", type=int, required=True, help="Idle for at least this many days.")
def purge_guests(days: int) -> None:
    """Delete the guests idle for N days who played no game, with the tables they opened that never started."""
    done = _with_runtime(lambda rt: rt.admin.purge_guests(days))
    click.echo(f"purged {done.guests} guests, {done.tables} tables, {done.chat_lines} chat lines")


@admin.command("purge-chat")
@click.option("--older-than-days", "days", type=int, required=True, help="Lines at least this many days old.")
def purge_chat(days: int) -> None:
    """Delete the chat lines older than N days, at every table."""
    count = _with_runtime(lambda rt: rt.admin.purge_chat(days))
    click.echo(f"purged {count} chat lines")


def _run(make: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine; a refusal is printed as `code: message` and exits 1."""

    async def go() -> T:
        return await make()

    try:
        return asyncio.run(go())
    except ServiceError as exc:
        raise click.ClickException(f"{exc.code}: {exc.message}") from exc


def _with_runtime(use_case: Callable[[Runtime], Awaitable[T]]) -> T:
    """Run an operator's use case with this process's runtime: the database, and the broker started so that the
    server processes hear of the change."""
    from app.runtime import Runtime

    async def go() -> T:
        rt = Runtime(Settings())
        await rt.broker.start(_ignore_changes, _nothing)
        try:
            result = await use_case(rt)
            await rt.broker.drain()
            return result
        finally:
            await rt.broker.stop()
            await rt.engine.dispose()

    return _run(go)


def _ignore_changes(_table_id: str, _version: int) -> None:
    """This process serves no sockets: the others' changes are not its concern."""


async def _nothing() -> None:
    return None


if __name__ == "__main__":
    main()
