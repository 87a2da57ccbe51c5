"""Password reset by an emailed link, end to end against a local SMTP server (aiosmtpd): the link works once and for
PASSWORD_RESET_MAX_AGE seconds, only for an account whose address is confirmed, ends every session of the account,
and the asking never tells whether an account or an address exists. Asking is rate limited like sign-ins."""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.services.ratelimits import KEY_LENGTH, stored_key
from tests.api.test_email import body, confirmed
from tests.conftest import Database, Server
from tests.mail import Inbox
from tests.platform.client import Player

PASSWORD = "correct horse"  # Player.account's


@pytest.fixture
def recovering(fresh_db: Database, tmp_path: Path, smtp: tuple[Inbox, int]) -> Iterator[Server]:
    srv = Server(fresh_db, tmp_path, SMTP_HOST="127.0.0.1", SMTP_PORT=str(smtp[1]), SMTP_STARTTLS="false",
                 EMAIL_SWEEP_SECONDS="0.05", PASSWORD_RESET_MAX_AGE="60", LIMIT_PASSWORD_RESETS="20/minute").start()
    yield srv
    srv.stop()


@pytest.fixture
async def anyone(recovering: Server) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=recovering.url, timeout=30) as client:
        yield client


async def stored_hashes(server: Server) -> list[str]:
    engine = create_async_engine(server.db.url.replace("postgresql://", "postgresql+asyncpg://", 1))
    try:
        async with engine.connect() as conn:
            return sorted((await conn.execute(text("SELECT token_hash FROM password_resets"))).scalars())
    finally:
        await engine.dispose()


def token_in(mail_text: str) -> str:
    found = re.search(r"https?://\S+/reset\.html#token=([A-Za-z0-9_-]+)", mail_text)
    assert found, mail_text
    return found.group(1)


async def login(client: httpx.AsyncClient, username: str, password: str) -> int:
    return (await client.post("/api/auth/login", json={"username": username, "password": password})).status_code


async def test_a_link_resets_once_and_ends_every_session(
    recovering: Server, smtp: tuple[Inbox, int], anyone: httpx.AsyncClient
) -> None:
    inbox = smtp[0]
    ana = await Player.account(recovering.url, "Ana")
    await confirmed(ana, inbox, "Ana@Example.test")
    username = ana.user["username"]
    assert (await ana.http.get("/api/me")).status_code == 200

    # By the address (its case does not matter) and by the username: a link each, and either works.
    for who in ("ana@example.TEST", username):
        r = await anyone.post("/api/auth/forgot", json={"who": who})
        assert r.status_code == 200 and r.json() == {"ok": True}, r.text
    mails = await inbox.wait("Ana@Example.test", "Reset your password", count=2)
    first, second = (token_in(body(m)) for m in mails)
    assert first != second
    assert username in body(mails[0])

    # Only the tokens' hashes are stored.
    assert await stored_hashes(recovering) == sorted(hashlib.sha256(t.encode()).hexdigest() for t in (first, second))

    # A bad new password changes nothing and uses nothing up.
    r = await anyone.post("/api/auth/reset", json={"token": first, "password": "short"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "weak_password"
    r = await anyone.post("/api/auth/reset", json={"token": first, "password": "a new secret"})
    assert r.status_code == 200 and r.json() == {"ok": True}, r.text

    # Every session ended; the old password no longer works, the new one does.
    r = await ana.http.get("/api/me")
    assert r.status_code == 401 and r.json()["error"]["code"] == "session_revoked", r.text
    assert await login(anyone, username, PASSWORD) == 401
    assert await login(anyone, username, "a new secret") == 200

    # Single use, and the other link of the account went with it.
    for token in (first, second):
        r = await anyone.post("/api/auth/reset", json={"token": token, "password": "yet another one"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_link", r.text
    assert await login(anyone, username, "a new secret") == 200
    assert await stored_hashes(recovering) == []
    await ana.close()


async def test_a_link_expires(recovering: Server, smtp: tuple[Inbox, int], anyone: httpx.AsyncClient) -> None:
    ana = await Player.account(recovering.url, "Ana")
    await confirmed(ana, smtp[0], "ana@example.test")
    await anyone.post("/api/auth/forgot", json={"who": ana.user["username"]})
    [mail] = await smtp[0].wait("ana@example.test", "Reset your password")
    await recovering.advance(60.5)  # PASSWORD_RESET_MAX_AGE=60
    r = await anyone.post("/api/auth/reset", json={"token": token_in(body(mail)), "password": "a new secret"})
    assert r.status_code == 410 and r.json()["error"]["code"] == "link_expired", r.text
    assert await login(anyone, ana.user["username"], PASSWORD) == 200
    assert (await ana.http.get("/api/me")).status_code == 200  # nothing ended
    await ana.close()


async def test_the_answer_never_tells_who_exists(
    recovering: Server, smtp: tuple[Inbox, int], anyone: httpx.AsyncClient
) -> None:
    inbox = smtp[0]
    ana, bo = await Player.account(recovering.url, "Ana"), await Player.account(recovering.url, "Bo")
    await confirmed(ana, inbox, "ana@example.test")
    # Bo gives an address but never confirms it: no reset goes there.
    await bo.http.put("/api/me/notifications", json={"email": "bo@example.test"})
    await inbox.wait("bo@example.test", "Confirm your email address")
    answers = []
    for who in ("nobody-here", "nobody@example.test", bo.user["username"], "bo@example.test", ana.user["username"]):
        r = await anyone.post("/api/auth/forgot", json={"who": who})
        answers.append((r.status_code, r.text))
    assert len(set(answers)) == 1 and answers[0][0] == 200, answers
    await inbox.wait("ana@example.test", "Reset your password")
    await asyncio.sleep(0.3)
    assert [str(m["Subject"]) for m in inbox.mails if "Reset" in str(m["Subject"])] == ["Reset your password"]

    # Forged or malformed tokens: refused alike, nothing changes.
    for token in ("x" * 43, "short", ""):
        r = await anyone.post("/api/auth/reset", json={"token": token, "password": "a new secret"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_link", r.text
    r = await anyone.post("/api/auth/forgot", json={"who": ""})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request"
    assert await login(anyone, ana.user["username"], PASSWORD) == 200
    await ana.close()
    await bo.close()


async def test_asking_is_rate_limited_per_name_and_address(
    fresh_db: Database, tmp_path: Path, smtp: tuple[Inbox, int]
) -> None:
    srv = Server(fresh_db, tmp_path, SMTP_HOST="127.0.0.1", SMTP_PORT=str(smtp[1]), SMTP_STARTTLS="false",
                 LIMIT_PASSWORD_RESETS="3/minute").start()
    try:
        async with httpx.AsyncClient(base_url=srv.url, timeout=30) as client:
            codes = [(await client.post("/api/auth/forgot", json={"who": f"someone{i % 2}"})).status_code
                     for i in range(4)]
            assert codes == [200, 200, 200, 429]
            r = await client.post("/api/auth/forgot", json={"who": "someone-else"})
            assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_requests"
            assert int(r.headers["Retry-After"]) >= 1
    finally:
        srv.stop()


async def test_without_mail_there_is_no_reset(fresh_db: Database, tmp_path: Path) -> None:
    srv = Server(fresh_db, tmp_path).start()
    try:
        async with httpx.AsyncClient(base_url=srv.url, timeout=30) as client:
            r = await client.post("/api/auth/forgot", json={"who": "ana"})
            assert r.status_code == 403 and r.json()["error"]["code"] == "email_off"
    finally:
        srv.stop()


async def test_a_name_longer_than_any_key_is_counted_like_any_other(
    fresh_db: Database, tmp_path: Path, smtp: tuple[Inbox, int]
) -> None:
    """The longest name the form takes (300 characters) makes a rate-limit key longer than the counters' column
    (Postgres): it is stored by its hash, and the asking is answered and counted as any other."""
    srv = Server(fresh_db, tmp_path, SMTP_HOST="127.0.0.1", SMTP_PORT=str(smtp[1]), SMTP_STARTTLS="false",
                 LIMIT_PASSWORD_RESETS="2/minute").start()
    try:
        async with httpx.AsyncClient(base_url=srv.url, timeout=30) as client:
            codes = [(await client.post("/api/auth/forgot", json={"who": "0" * 299 + str(i)})).status_code
                     for i in range(3)]
            assert codes == [200, 200, 429]
    finally:
        srv.stop()


def test_a_key_with_a_character_no_text_column_holds_is_stored_by_its_hash() -> None:
    nul, surrogate = stored_key("LIMITER/reset/who:a\x00b"), stored_key("LIMITER/reset/who:a\ud800b")
    assert nul.startswith("LIMITER/reset/who:a?b#") and surrogate.startswith("LIMITER/reset/who:a?b#")
    assert nul != surrogate and "\x00" not in nul
    surrogate.encode()  # UTF-8 all through


def test_a_long_rate_limit_key_keeps_its_start_and_is_told_apart_by_its_hash() -> None:
    short = "LIMITER/reset/who:ana"
    assert stored_key(short) == short
    one, two = stored_key("x" * 300 + "1"), stored_key("x" * 300 + "2")
    assert len(one) == len(two) == KEY_LENGTH and one != two and one.startswith("x" * 100)
