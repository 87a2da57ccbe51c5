"""Settings: the signing key generated when none is configured."""

from __future__ import annotations

from pathlib import Path

import pytest

from app import config
from app.config import Settings


def _key_in(folder: str) -> str:
    return Settings(database_url=f"sqlite+aiosqlite:///{folder}/db.sqlite3", secret_key="").effective_secret_key()


def test_a_generated_key_is_kept_beside_the_database(tmp_path: Path) -> None:
    first = _key_in(str(tmp_path))
    assert len(first) >= 48
    assert (tmp_path / "secret_key").read_text() == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600
    assert _key_in(str(tmp_path)) == first
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]  # no draft left behind


def test_processes_starting_together_agree_on_one_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Several server processes on one data folder (docker-compose.yml's app1 and app2) must sign alike,
    # or a token one of them issued would be refused by the other. Here another process writes its key
    # while this one is making its own.
    def token_while_another_process_wins(nbytes: int) -> str:
        (tmp_path / "secret_key").write_text("the-other-process-key")
        return "x" * 64

    monkeypatch.setattr(config.secrets, "token_urlsafe", token_while_another_process_wins)
    assert _key_in(str(tmp_path)) == "the-other-process-key"
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]


def test_a_configured_key_wins(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/db.sqlite3", secret_key="s" * 40)
    assert settings.effective_secret_key() == "s" * 40
    assert not (tmp_path / "secret_key").exists()
