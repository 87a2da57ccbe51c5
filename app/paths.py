"""Where the server's files beside the code are: the frontend, the migrations and alembic.ini.

In the source tree they sit next to `app/`; an installed wheel carries them inside the `app` package (pyproject.toml's
force-include), so the package's own copy is preferred and the source tree's is the fallback."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

PACKAGE = Path(__file__).resolve().parent
SOURCE_ROOT = PACKAGE.parent


def resource(name: str) -> Path:
    """The installed copy of `name` when the package carries one, else the source tree's."""
    inside = PACKAGE / name
    return inside if inside.exists() else SOURCE_ROOT / name


FRONTEND = resource("frontend")
MIGRATIONS = resource("migrations")
ALEMBIC_INI = resource("alembic.ini")


def alembic_config(url: str) -> Config:
    """Alembic's configuration for the database at `url`, with this installation's migrations."""
    cfg = Config(str(ALEMBIC_INI))
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def run_migrations(url: str) -> None:
    """Bring the database schema up to date (Alembic, `migrations/`)."""
    command.upgrade(alembic_config(url), "head")
