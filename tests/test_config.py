"""Settings: the signing key and the Web Push (VAPID) key, generated when none is configured."""

from __future__ import annotations

from pathlib import Path

import pytest

from app import config
from app.config import Settings
from app.services.push import VapidKeys


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


def test_a_vapid_key_is_generated_once_beside_the_database_unless_configured(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/db.sqlite3", vapid_private_key="")
    first = VapidKeys.load(settings)
    assert (tmp_path / "vapid_key").stat().st_mode & 0o777 == 0o600
    again = VapidKeys.load(settings)
    assert again.public_key == first.public_key and len(first.public_key) == 87  # 65 bytes, base64url
    assert first.subject == settings.effective_public_url
    # A configured key wins, and its public half is derived from it.
    raw = (tmp_path / "vapid_key").read_text()
    other = tmp_path / "other"
    configured = Settings(database_url=f"sqlite+aiosqlite:///{other}/db.sqlite3", vapid_private_key=raw,
                          vapid_subject="mailto:ops@example.test")
    keys = VapidKeys.load(configured)
    assert keys.public_key == first.public_key and keys.subject == "mailto:ops@example.test"
    assert not other.exists()
