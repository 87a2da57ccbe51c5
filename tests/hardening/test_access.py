"""Who may do what: seats, hosts, private tables and invite codes, tokens, cookies, origins, hostile strings."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any
from urllib.parse import quote

import httpx
import pytest
import websockets
from itsdangerous import TimestampSigner, URLSafeTimedSerializer
from websockets.exceptions import InvalidStatus

from tests.conftest import SECRET, Server
from tests.hardening.helpers import close_all, db_rows, guests, moves, started_tiny, table_state
from tests.platform.client import Socket

HOSTILE = [
    "'); DROP TABLE users; --",
    '" OR 1=1 --',
    "Robert'); DELETE FROM moves;--",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "{{7*7}} ${7*7} %s %n",
    "Zoë 🍔 你好 ڪ",
    "e\u0301\u0301\u0301",
    "\u202eevil\u202c",
    "tab\there\nnewline",
    "nul\x00byte",
    "\\x00 \\u0000",
    "𝕏" * 40,
]


class _OldSigner(TimestampSigner):
    def get_timestamp(self) -> int:
        return int(time.time()) - 365 * 24 * 3600


async def test_only_the_awaited_seat_acts_and_only_for_itself(server: Server) -> None:
    players, tid = await started_tiny(server, seats=2)
    (stranger,) = await guests(server, "Stranger")
    sa, sb = [await Socket.open(server.ws_url, tid, p.token) for p in players]
    spectator = await Socket.open(server.ws_url, tid)
    outsider = await Socket.open(server.ws_url, tid, stranger.token)
    for s in (sa, sb, spectator, outsider):
        await s.expect("snapshot")
    before = await table_state(server, tid)
    for s in (spectator, outsider):
        reply = await s.act({"type": "pick", "n": 1})
        assert reply["code"] == "not_seated", reply
    # Both pick; then exactly one seat may bump.
    await sa.act({"type": "pick", "n": 0})
    await sb.act({"type": "pick", "n": 0})
    state = await table_state(server, tid)
    turn = state["awaiting"][0]
    idle, mover = (sa, sb) if turn == "1" else (sb, sa)
    # The idle seat names the mover's seat in every way it could think of: the server ignores it.
    raw = {"type": "act", "action": {"type": "bump", "seat": turn, "player": turn}, "client_id": "imp",
           "seat": turn, "player": turn, "as": turn}
    await idle.send_raw(json.dumps(raw))
    err = await idle.expect("error")
    assert err["code"] in ("not_your_turn", "illegal"), err
    assert (await table_state(server, tid))["version"] == state["version"]
    # REST: only the host manages the table.
    t = await players[1].table(seats=3)
    for path, body in [("start", {}), ("kick", {"seat": "0"}), ("bots", {"seat": "1"})]:
        r = await players[0].post(f"/api/tables/{t['id']}/{path}", body, ok=False)
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_host", r.text
    r = await stranger.post(f"/api/tables/{t['id']}/leave", ok=False)
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_seated"
    assert (await mover.act({"type": "bump"}))["type"] == "ack"
    assert (await table_state(server, tid))["version"] == before["version"] + 3
    await close_all(sa, sb, spectator, outsider, stranger, *players)


async def test_private_tables_hide_and_ask_for_the_code(server: Server) -> None:
    host, guest, nosy = await guests(server, "Host", "Guest", "Nosy")
    tables = [await host.table(seats=2, visibility="private") for _ in range(3)]
    codes = [t["invite_code"] for t in tables]
    # Codes: long, unguessable-looking, different per table.
    assert len(set(codes)) == 3 and all(len(c) >= 22 for c in codes)
    tid, code = tables[0]["id"], codes[0]
    async with httpx.AsyncClient(base_url=server.url) as anon:
        for status in (None, "open", "playing", "finished"):
            listed = (await anon.get("/api/tables", params={"status": status} if status else {})).json()["tables"]
            assert tid not in {x["id"] for x in listed}
        # Without a code (no attempt is counted against this address) ...
        for suffix in ("", "/moves", "/replay", "/verify"):
            r = await anon.get(f"/api/tables/{tid}{suffix}")
            assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", (suffix, r.text)
        ok = await anon.get(f"/api/tables/{tid}", params={"invite": code})
        assert ok.status_code == 200 and ok.json().get("invite_code") is None
    # ... and with wrong ones (a signed-in prober, so the shared address keeps its budget).
    for invite in ("wrong", codes[1], code[:-1]):
        for suffix in ("", "/moves", "/replay"):
            r = await nosy.http.get(f"/api/tables/{tid}{suffix}", params={"invite": invite})
            assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", (suffix, r.text)
    # Someone else's listing never shows it either.
    assert tid not in {x["id"] for x in (await nosy.http.get("/api/me/tables")).json()["tables"]}
    r = await guest.post(f"/api/tables/{tid}/join", {}, ok=False)
    assert (r.status_code, r.json()["error"]["code"]) in ((403, "bad_invite"), (404, "not_found")), r.text
    r = await guest.post(f"/api/tables/{tid}/join", {"invite_code": codes[1]}, ok=False)
    assert r.status_code in (403, 404), r.text
    joined = await guest.post(f"/api/tables/{tid}/join", {"invite_code": code})
    assert joined.json()["my_seat"] == "1" and joined.json().get("invite_code") is None
    # Watching needs the code too.
    s = await Socket.open(server.ws_url, tid, nosy.token)
    assert (await s.expect("error"))["code"] == "not_found"
    await s.expect("closed")
    s = await Socket.open(server.ws_url, tid, nosy.token, invite=code)
    assert (await s.expect("snapshot"))["table"]["id"] == tid
    await close_all(s, host, guest, nosy)


@pytest.mark.parametrize("door", [
    "get",
    "join",
    "ws",
])
async def test_wrong_invite_codes_are_rate_limited(limited_server: Server, door: str) -> None:
    server = limited_server
    host, prober = await guests(server, "Host", "Prober")
    t = await host.table(seats=4, visibility="private")
    tid, code = t["id"], t["invite_code"]

    async def guess(invite: str) -> int:
        if door == "get":
            return (await prober.http.get(f"/api/tables/{tid}", params={"invite": invite})).status_code
        if door == "join":
            return (await prober.post(f"/api/tables/{tid}/join", {"invite_code": invite}, ok=False)).status_code
        s = await Socket.open(server.ws_url, tid, prober.token, invite=invite)
        msg = await s.recv()
        await s.close()
        return 200 if msg["type"] == "snapshot" else (429 if msg.get("code") == "too_many_attempts" else 404)

    statuses = [await guess(f"wrong-{i}") for i in range(12)]
    assert 429 in statuses, statuses
    # Once limited, even the right code is refused for a while.
    assert await guess(code) == 429
    await close_all(host, prober)


async def test_bad_tokens_are_refused_everywhere(server: Server) -> None:
    (ana,) = await guests(server, "Ana")
    t = await ana.table(seats=2)
    forged = URLSafeTimedSerializer("another key", salt="session-v1").dumps({"uid": ana.user["id"]})
    expired = URLSafeTimedSerializer(SECRET, salt="session-v1", signer=_OldSigner).dumps({"uid": ana.user["id"]})
    other_salt = URLSafeTimedSerializer(SECRET, salt="other-use").dumps({"uid": ana.user["id"]})
    ghost = URLSafeTimedSerializer(SECRET, salt="session-v1").dumps({"uid": "no-such-user"})
    wrong_shape = URLSafeTimedSerializer(SECRET, salt="session-v1").dumps(["uid", ana.user["id"]])
    payload, stamp, sig = ana.token.split(".")
    tampered = ".".join([payload[::-1], stamp, sig])
    bad = {forged: "bad_token", expired: "token_expired", other_salt: "bad_token", ghost: "bad_token",
           wrong_shape: "bad_token", tampered: "bad_token", "x": "bad_token", "." * 300: "bad_token"}
    calls: list[tuple[str, str, Any]] = [
        ("GET", "/api/me", None),
        ("GET", "/api/me/tables", None),
        ("POST", "/api/tables", {"game": "tiny", "seats": 2}),
        ("POST", f"/api/tables/{t['id']}/join", {}),
        ("POST", f"/api/tables/{t['id']}/start", {}),
        ("GET", f"/api/tables/{t['id']}", None),
    ]
    async with httpx.AsyncClient(base_url=server.url) as c:
        for token, code in bad.items():
            for method, path, body in calls:
                for how in ("bearer", "cookie"):
                    kw: dict[str, Any] = {"json": body} if body is not None else {}
                    if how == "bearer":
                        kw["headers"] = {"Authorization": f"Bearer {token}"}
                    else:
                        c.cookies.set("session", token)
                    r = await c.request(method, path, **kw)
                    c.cookies.clear()
                    assert r.status_code == 401 and r.json()["error"]["code"] == code, (path, how, r.text)
            s = await Socket.open(server.ws_url, t["id"], token)
            err = await s.expect("error")
            assert err["code"] == code
            await s.expect("closed")
            assert s.ws.close_code == 4401
    assert (await table_state(server, t["id"]))["version"] == t["version"]
    await ana.close()


async def test_cookies_are_httponly_and_samesite(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as c:
        r = await c.post("/api/auth/guest", json={"name": "Cookie"})
        uname = "cookie" + r.json()["user"]["id"][:8]
        answers = [r, await c.post("/api/auth/register", json={"username": uname, "password": "long enough pw"}),
                   await c.post("/api/auth/login", json={"username": uname, "password": "long enough pw"})]
        for answer in answers:
            cookie = answer.headers["set-cookie"].lower()
            assert cookie.startswith("session=") and "httponly" in cookie and "samesite=lax" in cookie
            assert "path=/" in cookie
            assert answer.headers["content-type"].startswith("application/json")
        out = await c.post("/api/auth/logout")
        assert 'session=""' in out.headers["set-cookie"] or "max-age=0" in out.headers["set-cookie"].lower()


@pytest.mark.parametrize("origin", [
    "https://evil.example", "null", "http://127.0.0.1.evil.example", "http://localhost:1", "file://",
    "http://127.0.0.1:1",
])
async def test_websocket_upgrades_from_other_origins_are_refused(server: Server, origin: str) -> None:
    (host,) = await guests(server, "Host")
    t = await host.table(seats=2)
    url = f"{server.ws_url}/ws/tables/{t['id']}"
    cookie = {"Cookie": f"session={host.token}"}
    with pytest.raises(InvalidStatus) as refused:
        async with websockets.connect(url, origin=origin, additional_headers=cookie) as ws:  # type: ignore[arg-type]
            await asyncio.wait_for(ws.recv(), 5)
    assert refused.value.response.status_code == 403
    async with websockets.connect(url, origin=server.url, additional_headers=cookie) as ws:  # type: ignore[arg-type]
        assert json.loads(await asyncio.wait_for(ws.recv(), 5))["type"] == "snapshot"
    await host.close()


async def test_hostile_strings_are_stored_as_data(server: Server) -> None:
    """SQL-ish, markup, unicode and control characters in every field: kept as text or refused, never run."""
    accepted = 0
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as c:
        # Where a typed name becomes a rate limit's key (a reset asked for, a failed sign-in), any string is counted:
        # this server mails nothing, which it says once the asking is counted.
        for text in HOSTILE:
            r = await c.post("/api/auth/forgot", json={"who": text})
            assert r.status_code == 403 and r.json()["error"]["code"] == "email_off", r.text
            r = await c.post("/api/auth/login", json={"username": text, "password": "not the password"})
            assert r.status_code in (401, 422) and r.json()["error"]["code"], r.text
        for text in HOSTILE:
            r = await c.post("/api/auth/guest", json={"name": text[:40]})
            if r.status_code != 200:
                assert r.status_code == 422 and r.json()["error"]["code"] == "bad_name"
                continue
            accepted += 1
            body = r.json()
            name = body["user"]["name"]
            # Names with control or format characters are refused (test_names); everything else comes back exactly.
            assert not any(ch in name for ch in "\x00\u202e\u202c\t\n")
            token = body["token"]
            stored = await db_rows(server, "SELECT name FROM users WHERE id = :id", id=body["user"]["id"])
            assert stored == [(name,)]
            auth = {"Authorization": f"Bearer {token}"}
            assert (await c.get("/api/me", headers=auth)).json()["name"] == name
            t = await c.post("/api/tables", headers=auth,
                             json={"game": "tiny", "seats": 2, "name": text[:80], "options": {"target": 5}})
            assert t.status_code == 200, t.text
            table = t.json()
            assert table["host"]["name"] == name
            assert await db_rows(server, "SELECT name FROM game_tables WHERE id = :id", id=table["id"]) == [
                (table["name"],)]
            again = await c.get(f"/api/tables/{table['id']}", params={"invite": text})
            assert again.json()["name"] == table["name"] and again.headers["content-type"] == "application/json"
            # The same strings where ids, codes, seats, options and filters go.
            calls: list[tuple[str, str, dict[str, Any]]] = [
                ("GET", "/api/tables/" + quote(text, safe=""), {}),
                ("POST", f"/api/tables/{table['id']}/join", {"json": {"seat": text, "invite_code": text}}),
                ("POST", f"/api/tables/{table['id']}/kick", {"json": {"seat": text}}),
                ("POST", "/api/tables", {"json": {"game": text, "seats": 2}}),
                ("POST", "/api/tables", {"json": {"game": "tiny", "seats": 2, "options": {text: 1}}}),
                ("POST", "/api/tables", {"json": {"game": "food-truck", "seats": 2, "options": {"trucks": text}}}),
                ("POST", "/api/auth/login", {"json": {"username": text, "password": text}}),
            ]
            for method, path, kw in calls:
                r = await c.request(method, path, headers=auth, **kw)
                assert r.status_code in (400, 401, 403, 404, 409, 422), (method, path, r.status_code, r.text)
                assert r.json()["error"]["code"]
            found = await c.get("/api/tables", params={"game": text, "status": "open"})
            assert found.status_code == 200 and found.json() == {"tables": [], "next": None}
            ws = await Socket.open(server.ws_url, table["id"], token)
            snap = await ws.expect("snapshot")
            assert snap["table"]["host"]["name"] == name and snap["table"]["name"] == table["name"]
            reply = await ws.act({"type": text}, client_id=text[:64] or "x")
            assert reply["type"] == "error" and reply["code"] in ("not_playing", "bad_client_id")
            await ws.close()
        # Very long input: refused with a clear error, not truncated into the database.
        for field, size in [("name", 41), ("name", 10_000), ("name", 1_000_000)]:
            r = await c.post("/api/auth/guest", json={field: "x" * size})
            assert r.status_code == 422 and r.json()["error"]["code"] in ("bad_name", "invalid_request")
        # Everything still works: the users, tables and moves tables are intact.
        for table_name in ("users", "game_tables", "moves", "seats"):
            assert (await db_rows(server, f"SELECT COUNT(*) FROM {table_name}"))[0][0] >= 0
        assert (await c.get("/api/health")).status_code == 200
        assert len((await c.get("/api/tables", params={"status": "open"})).json()["tables"]) >= accepted
    assert accepted >= len(HOSTILE) - 2


async def test_a_seat_cannot_read_another_seats_moves(server: Server) -> None:
    players, tid = await started_tiny(server, seats=2)
    sa = await Socket.open(server.ws_url, tid, players[0].token)
    await sa.expect("snapshot")
    await sa.act({"type": "pick", "n": 3})
    theirs = await moves(server, tid, players[1].token)
    assert theirs[0]["action"] is None and all(e["type"] != "picked" for e in theirs[0]["events"])
    await close_all(sa, *players)
