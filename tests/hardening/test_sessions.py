"""Sessions and tokens on the open internet: no token in a URL or a log, sign-out revokes, Secure cookies over HTTPS."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from bench.proxy import Proxy
from tests.conftest import Database, Server, free_port
from tests.deploy.test_proxy import requires_nginx
from tests.hardening.helpers import close_all, guests
from tests.platform.client import Player, Socket


async def _play_tiny_to_the_end(socks: dict[str, Socket]) -> None:
    """Both seats pick, then bump in turn (the seeded generator chose who starts): with target 1 the game ends after
    one round."""
    for seat in ("0", "1"):
        assert (await socks[seat].act({"type": "pick", "n": 1}))["type"] == "ack"
    first = await socks["0"].act({"type": "bump"})
    order = ["1", "0"] if first["type"] == "error" else ["1"]
    for seat in order:
        assert (await socks[seat].act({"type": "bump"}))["type"] == "ack"


async def test_a_full_game_leaves_no_token_and_no_invite_code_in_any_log(fresh_db: Database, tmp_path: Path) -> None:
    requires_nginx()
    server = Server(fresh_db, tmp_path, LOG_LEVEL="info", FORWARDED_ALLOW_IPS="127.0.0.1").start()
    proxy = Proxy([f"127.0.0.1:{server.port}"], free_port(), tmp_path / "nginx", access_log=True).start()
    ws_base = proxy.url.replace("http", "ws", 1)
    try:
        host, guest, watcher = [await Player.guest(proxy.url, name) for name in ("Host", "Guest", "Watcher")]
        t = await host.table(seats=2, visibility="private", options={"target": 1})
        code = t["invite_code"]
        # Every door an invite code goes through: the page's address, the table, joining, watching.
        async with httpx.AsyncClient(base_url=proxy.url) as anon:
            assert (await anon.get(f"/t/{t['id']}?invite={code}")).status_code == 200
        assert (await guest.http.get(f"/api/tables/{t['id']}", params={"invite": code})).status_code == 200
        await guest.post(f"/api/tables/{t['id']}/join", {"invite_code": code})
        await host.post(f"/api/tables/{t['id']}/start")
        socks = {"0": await Socket.open(ws_base, t["id"], host.token),
                 "1": await Socket.open(ws_base, t["id"], guest.token)}
        watching = await Socket.open(ws_base, t["id"], watcher.token, invite=code)
        for s in (*socks.values(), watching):
            await s.expect("snapshot")
        await _play_tiny_to_the_end(socks)
        assert (await watching.until_version(t["version"] + 5))["table"]["status"] == "finished"

        # An old client that still puts its token in the address is refused, and the token is not logged either.
        async with websockets.connect(f"{ws_base}/ws/tables/{t['id']}?token={host.token}") as old:
            refusal = await asyncio.wait_for(old.recv(), 5)
            assert '"token_in_url"' in str(refusal)
        await close_all(*socks.values(), watching, host, guest, watcher)
    finally:
        proxy.stop()
        server.stop()
    tokens = [host.token, guest.token, watcher.token]
    logs = {"app": server.log.read_text(), "nginx": (tmp_path / "nginx" / "access.log").read_text()}
    assert "/ws/tables/" in logs["app"] and "/api/tables/" in logs["nginx"], "the logs hold no requests at all"
    for name, text in logs.items():
        for secret in (*tokens, code):
            assert secret not in text, f"the {name} log holds a secret: {secret[:8]}…"
        for token in tokens:
            assert token.split(".")[-1] not in text  # not even its signature
    assert "invite=[redacted]" in logs["app"] and "token=[redacted]" in logs["app"]


async def test_signing_out_revokes_that_session_everywhere_and_only_that_one(server: Server) -> None:
    ana = await Player.account(server.url, "Ana")
    me = (await ana.http.get("/api/me")).json()
    assert me["session"] and len(me["session"]) == 32
    table = await ana.table(seats=2)
    sock = await Socket.open(server.ws_url, table["id"], ana.token)
    await sock.expect("snapshot")
    (other,) = await guests(server, "Other")
    other_sock = await Socket.open(server.ws_url, table["id"], other.token)
    await other_sock.expect("snapshot")

    r = await ana.http.post("/api/auth/logout")
    assert r.status_code == 200 and "Max-Age=0" in r.headers["set-cookie"]
    async with httpx.AsyncClient(base_url=server.url, headers={"Authorization": f"Bearer {ana.token}"}) as copy:
        refused = await copy.get("/api/me")
        assert refused.status_code == 401 and refused.json()["error"]["code"] == "session_revoked"
        # Signing out again with the ended token is no error (a page that lost track of its state).
        assert (await copy.post("/api/auth/logout")).status_code == 200
    # Its open socket is closed as "your session ended", and it cannot open another.
    error = await sock.expect("error")
    assert error["code"] == "session_revoked"
    assert (await sock.recv())["type"] == "closed" and sock.ws.close_code == 4401
    again = await Socket.open(server.ws_url, table["id"], ana.token)
    assert (await again.expect("error"))["code"] == "session_revoked"
    # Another person's session is untouched.
    assert (await other.http.get("/api/me")).status_code == 200
    assert (await other_sock.chat("still here"))["type"] == "ack"
    await close_all(sock, again, other_sock, ana, other)


async def test_one_session_signed_out_leaves_the_accounts_other_sessions(server: Server) -> None:
    username = f"u{free_port()}x"
    async with httpx.AsyncClient(base_url=server.url) as c:
        r = await c.post("/api/auth/register", json={"username": username, "password": "correct horse"})
        laptop = r.json()["token"]
        r = await c.post("/api/auth/login", json={"username": username, "password": "correct horse"})
        phone = r.json()["token"]
    assert laptop != phone
    async with httpx.AsyncClient(base_url=server.url, headers={"Authorization": f"Bearer {laptop}"}) as c:
        assert (await c.post("/api/auth/logout")).status_code == 200
        assert (await c.get("/api/me")).status_code == 401
    async with httpx.AsyncClient(base_url=server.url, headers={"Authorization": f"Bearer {phone}"}) as c:
        assert (await c.get("/api/me")).status_code == 200


def _cookie(response: httpx.Response) -> str:
    return response.headers["set-cookie"]


@pytest.mark.parametrize("trusted", [True, False])
async def test_the_cookie_is_secure_over_https_as_a_trusted_proxy_says(
    fresh_db: Database, tmp_path: Path, trusted: bool
) -> None:
    env = {"FORWARDED_ALLOW_IPS": "127.0.0.1"} if trusted else {}
    server = Server(fresh_db, tmp_path, **env).start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as c:
            plain = await c.post("/api/auth/guest", json={"name": "Plain"})
            https = await c.post("/api/auth/guest", json={"name": "Tls"}, headers={"X-Forwarded-Proto": "https"})
            page = await c.get("/", headers={"X-Forwarded-Proto": "https"})
    finally:
        server.stop()
    assert "secure" not in _cookie(plain).lower()
    assert "httponly" in _cookie(https).lower()
    # Only a trusted proxy's word makes the request an HTTPS one (and only then is HSTS sent).
    assert ("secure" in _cookie(https).lower()) is trusted
    assert ("strict-transport-security" in page.headers) is trusted


async def test_cookie_secure_setting_makes_it_secure_on_plain_http(fresh_db: Database, tmp_path: Path) -> None:
    server = Server(fresh_db, tmp_path, COOKIE_SECURE="true").start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as c:
            r = await c.post("/api/auth/guest", json={"name": "Ana"})
    finally:
        server.stop()
    assert "secure" in _cookie(r).lower()


async def test_a_socket_authenticates_with_the_cookie_and_never_a_url_token(server: Server) -> None:
    (ana,) = await guests(server, "Ana")
    t = await ana.table(seats=2)
    url = f"{server.ws_url}/ws/tables/{t['id']}"
    async with websockets.connect(url, additional_headers={"Cookie": f"session={ana.token}"}) as ws:
        snapshot = await asyncio.wait_for(ws.recv(), 5)
        assert '"seat":"0"' in str(snapshot).replace(" ", "")
    async with websockets.connect(f"{url}?token={ana.token}") as ws:
        refusal = await asyncio.wait_for(ws.recv(), 5)
        assert "token_in_url" in str(refusal)
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 5)
        assert ws.close_code == 4400
    await ana.close()
