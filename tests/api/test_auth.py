"""Identity over real HTTP: guests, accounts, tokens."""

from __future__ import annotations

import time

import httpx
from itsdangerous import TimestampSigner, URLSafeTimedSerializer

from tests.conftest import SECRET, Server
from tests.platform.client import Player


class _OldSigner(TimestampSigner):
    def get_timestamp(self) -> int:
        return int(time.time()) - 365 * 24 * 3600


async def test_health_names_the_database(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as c:
        r = await c.get("/api/health")
    assert r.status_code == 200
    expected = "postgresql" if server.db.url.startswith("postgres") else "sqlite"
    assert r.json() == {"status": "ok", "database": expected, "broker": "ok"}


async def test_guest_sign_in_sets_cookie_and_token_works(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as c:
        r = await c.post("/api/auth/guest", json={"name": "  Ana  "})
        assert r.status_code == 200
        body = r.json()
        assert body["user"]["name"] == "Ana"
        cookie = r.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie
        me = await c.get("/api/me")  # the cookie alone
        assert me.json()["id"] == body["user"]["id"]
    async with httpx.AsyncClient(base_url=server.url) as c:
        me = await c.get("/api/me", headers={"Authorization": f"Bearer {body['token']}"})
        assert me.status_code == 200 and me.json()["name"] == "Ana"


async def test_bad_names_are_refused(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as c:
        for name in ["", "   ", "x" * 41, "\x00\x01"]:
            r = await c.post("/api/auth/guest", json={"name": name})
            assert r.status_code == 422, name
            assert r.json()["error"]["code"] in ("bad_name", "invalid_request")
        r = await c.post("/api/auth/guest", content=b"{not json", headers={"content-type": "application/json"})
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"


async def test_forged_tampered_and_expired_tokens_are_refused(server: Server) -> None:
    ana = await Player.guest(server.url)
    forged = URLSafeTimedSerializer("another key", salt="session-v1").dumps({"uid": ana.user["id"]})
    expired = URLSafeTimedSerializer(SECRET, salt="session-v1", signer=_OldSigner).dumps({"uid": ana.user["id"]})
    payload, stamp, sig = ana.token.split(".")
    tampered = ".".join([payload[:-3] + ("xyz" if payload[-3:] != "xyz" else "abc"), stamp, sig])
    async with httpx.AsyncClient(base_url=server.url) as c:
        for token, code in [(forged, "bad_token"), (tampered, "bad_token"), (expired, "token_expired")]:
            r = await c.get("/api/me", headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 401
            assert r.json()["error"]["code"] == code
        r = await c.get("/api/me")
        assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in"
    await ana.close()


async def test_session_status_is_answered_signed_in_or_not(server: Server) -> None:
    """A page asks who it is on every load: a visitor who is not signed in is an answer (200), not an error, and a
    refused token is named with its cookie cleared."""
    ana = await Player.guest(server.url, "Ana")
    expired = URLSafeTimedSerializer(SECRET, salt="session-v1", signer=_OldSigner).dumps({"uid": ana.user["id"]})
    async with httpx.AsyncClient(base_url=server.url) as c:
        r = await c.get("/api/auth/session")
        assert r.status_code == 200
        assert r.json() == {"user": None, "session": None, "refused": None}
        assert "set-cookie" not in r.headers
        r = await c.get("/api/auth/session", headers={"Authorization": f"Bearer {ana.token}"})
        assert r.status_code == 200
        body = r.json()
        assert body["user"] == {"id": ana.user["id"], "name": "Ana", "username": None}
        assert body["session"] == (await ana.http.get("/api/me")).json()["session"] and body["refused"] is None
        for token, code in [(expired, "token_expired"), (ana.token[:-4] + "abcd", "bad_token")]:
            c.cookies.set("session", token)
            r = await c.get("/api/auth/session")
            assert r.status_code == 200, r.text
            assert r.json()["user"] is None and r.json()["refused"]["code"] == code
            assert 'session=""' in r.headers["set-cookie"] and "Max-Age=0" in r.headers["set-cookie"]
    assert (await ana.post("/api/auth/logout", {})).status_code == 200
    async with httpx.AsyncClient(base_url=server.url, headers={"Authorization": f"Bearer {ana.token}"}) as c:
        r = await c.get("/api/auth/session")
        assert r.status_code == 200
        assert r.json()["user"] is None and r.json()["refused"]["code"] == "session_revoked"
    await ana.close()


async def test_register_login_and_guest_keeps_identity(server: Server) -> None:
    guest = await Player.guest(server.url, "Ben")
    uname = "ben" + guest.user["id"][:6]
    r = await guest.post("/api/auth/register", {"username": uname, "password": "correct horse"})
    assert r.json()["user"]["id"] == guest.user["id"]
    assert r.json()["user"]["username"] == uname
    async with httpx.AsyncClient(base_url=server.url) as c:
        ok = await c.post("/api/auth/login", json={"username": uname.upper(), "password": "correct horse"})
        assert ok.status_code == 200 and ok.json()["user"]["id"] == guest.user["id"]
        bad = await c.post("/api/auth/login", json={"username": uname, "password": "wrong horse"})
        assert bad.status_code == 401 and bad.json()["error"]["code"] == "bad_credentials"
        dup = await c.post("/api/auth/register", json={"username": uname, "password": "another pw"})
        assert dup.status_code == 409 and dup.json()["error"]["code"] == "username_taken"
        weak = await c.post("/api/auth/register", json={"username": uname + "x", "password": "short"})
        assert weak.status_code == 422 and weak.json()["error"]["code"] == "weak_password"
    await guest.close()
