"""Table chat over real HTTP and websockets: posting, history, limits, who may chat, and the game untouched."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from tests.conftest import CHAT_LINE_A_MINUTE, Database, Server
from tests.platform.client import Player, Socket


async def _started(server: Server, target: int = 50) -> tuple[Player, Player, str]:
    ana, ben = await Player.guest(server.url, "Ana"), await Player.guest(server.url, "Ben")
    t = await ana.table(seats=2, options={"target": target})
    await ben.post(f"/api/tables/{t['id']}/join", {})
    await ana.post(f"/api/tables/{t['id']}/start")
    return ana, ben, t["id"]


async def _history(server: Server, tid: str, token: str | None = None, invite: str | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(base_url=server.url, headers=headers) as c:
        return await c.get(f"/api/tables/{tid}/chat", params={"invite": invite} if invite else None)


async def _version(server: Server, tid: str) -> int:
    async with httpx.AsyncClient(base_url=server.url) as c:
        return int((await c.get(f"/api/tables/{tid}")).json()["version"])


async def _error(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json() == {"error": {"code": code, "message": r.json()["error"]["message"]}}
    assert r.json()["error"]["message"]


async def test_players_and_spectators_chat_live_and_read_the_history(server: Server) -> None:
    ana, ben, tid = await _started(server)
    cy = await Player.guest(server.url, "Cy")  # signed in, watching
    sa = await Socket.open(server.ws_url, tid, ana.token)
    sc = await Socket.open(server.ws_url, tid, cy.token)
    anon = await Socket.open(server.ws_url, tid)  # signed out, watching: reads, may not post
    for s in (sa, sc, anon):
        await s.expect("snapshot")

    posted = (await ana.post(f"/api/tables/{tid}/chat", {"text": "  Good luck,\tall!  \n"})).json()
    assert posted["text"] == "Good luck, all!" and posted["seat"] == "0"
    assert posted["user"] == {"id": ana.user["id"], "name": "Ana"}
    assert isinstance(posted["id"], int) and posted["created_at"]
    for s in (sa, sc, anon):
        live = await s.expect("chat")
        assert live["message"] == posted

    ack = await sc.chat("Go <b>Ben</b>!\nI'm watching")
    assert ack["type"] == "ack" and ack["message"]["seat"] is None
    assert ack["message"]["text"] == "Go <b>Ben</b>!\nI'm watching"
    assert ack["message"]["user"]["name"] == "Cy"
    for s in (sa, sc, anon):
        assert (await s.expect("chat"))["message"] == ack["message"]

    refused = await anon.chat("hello")
    assert refused["type"] == "error" and refused["code"] == "not_signed_in" and refused["message"]

    # Everyone who may see the table reads the same history, oldest first, as it came live.
    for token in (ana.token, cy.token, None):
        r = await _history(server, tid, token)
        assert r.status_code == 200, r.text
        assert r.json()["messages"] == [posted, ack["message"]]
    # The sockets are still open and the game goes on.
    assert (await sa.act({"type": "pick", "n": 1}))["type"] == "ack"
    for s in (sa, sc, anon):
        await s.close()
    for p in (ana, ben, cy):
        await p.close()


async def test_text_limits_and_cleaning(server: Server) -> None:
    ana, ben, tid = await _started(server)
    path = f"/api/tables/{tid}/chat"
    await _error(await ana.post(path, {"text": "   \n\t "}, ok=False), 422, "chat_empty")
    await _error(await ana.post(path, {"text": "\x00\x07\u202e"}, ok=False), 422, "chat_empty")
    await _error(await ana.post(path, {"text": "x" * 301}, ok=False), 422, "chat_too_long")
    await _error(await ana.post(path, {"text": "x" * 100_000}, ok=False), 422, "chat_too_long")
    await _error(await ana.post(path, {"text": "hi", "client_id": "bad id!"}, ok=False), 422, "bad_client_id")
    await _error(await ana.post(path, {"text": 5}, ok=False), 422, "invalid_request")
    longest = (await ana.post(path, {"text": "  " + "é" * 300 + "  "})).json()
    assert longest["text"] == "é" * 300
    cleaned = (await ben.post(path, {"text": "a\x00b\x1bc\u202ed\r\ne\n\n\n\n\nf 🍔"})).json()
    assert cleaned["text"] == "abcd\ne\n\nf 🍔"

    # Over the socket: each refusal answers its client_id and the socket stays open.
    sb = await Socket.open(server.ws_url, tid, ben.token)
    await sb.expect("snapshot")
    for text, code in (("", "chat_empty"), (" \n ", "chat_empty"), ("y" * 301, "chat_too_long"),
                       (None, "bad_message"), (["hi"], "bad_message")):
        reply = await sb.chat(text)
        assert reply["type"] == "error" and reply["code"] == code, (text, reply)
    assert (await sb.chat("still here"))["type"] == "ack"
    await sb.close()
    await ana.close()
    await ben.close()


async def test_a_resent_line_is_stored_once(server: Server) -> None:
    ana, ben, tid = await _started(server)
    sa = await Socket.open(server.ws_url, tid, ana.token)
    await sa.expect("snapshot")
    first = await sa.chat("only once", client_id="line-1")
    again = await sa.chat("only once", client_id="line-1")
    assert first["type"] == again["type"] == "ack" and first["message"] == again["message"]
    by_rest = (await ana.post(f"/api/tables/{tid}/chat", {"text": "only once", "client_id": "line-1"})).json()
    assert by_rest == first["message"]
    # Another person's client_id is theirs alone.
    other = (await ben.post(f"/api/tables/{tid}/chat", {"text": "me too", "client_id": "line-1"})).json()
    assert other["id"] != first["message"]["id"]
    assert [m["text"] for m in (await _history(server, tid)).json()["messages"]] == ["only once", "me too"]
    await sa.close()
    await ana.close()
    await ben.close()


async def test_who_may_chat_at_a_private_table(server: Server) -> None:
    host, guest, stranger = [await Player.guest(server.url, n) for n in ("Host", "Guest", "Stranger")]
    t = await host.table(seats=3, visibility="private")
    tid, code = t["id"], t["invite_code"]
    path = f"/api/tables/{tid}/chat"
    await host.post(path, {"text": "Welcome"})
    # Without the code the table does not exist for a stranger, to read or to post.
    await _error(await _history(server, tid, stranger.token), 404, "not_found")
    await _error(await _history(server, tid), 404, "not_found")
    await _error(await stranger.post(path, {"text": "let me in"}, ok=False), 404, "not_found")
    await _error(await stranger.post(path + "?invite=wrong", {"text": "let me in"}, ok=False), 404, "not_found")
    # With the code a watcher reads and posts; a seated player needs no code.
    r = await _history(server, tid, stranger.token, invite=code)
    assert [m["text"] for m in r.json()["messages"]] == ["Welcome"]
    watched = (await stranger.post(f"{path}?invite={code}", {"text": "hi from the rail"})).json()
    assert watched["seat"] is None
    await guest.post(f"/api/tables/{tid}/join", {"invite_code": code})
    seated = (await guest.post(path, {"text": "seated"})).json()
    assert seated["seat"] == "1"
    # Signed out: a clear refusal to post, even with the code.
    async with httpx.AsyncClient(base_url=server.url) as anon:
        await _error(await anon.post(f"{path}?invite={code}", json={"text": "hi"}), 401, "not_signed_in")
        pub = await host.table(seats=2)
        await _error(await anon.post(f"/api/tables/{pub['id']}/chat", json={"text": "hi"}), 401, "not_signed_in")
        assert (await anon.get(f"/api/tables/{pub['id']}/chat")).json() == {"messages": [], "muted": False, "next": None}
    for p in (host, guest, stranger):
        await p.close()


async def test_open_and_finished_tables_have_a_chat(server: Server) -> None:
    ana = await Player.guest(server.url, "Ana")
    t = await ana.table(seats=1, options={"target": 1})
    path = f"/api/tables/{t['id']}/chat"
    assert (await ana.post(path, {"text": "before the start"})).json()["seat"] == "0"
    await ana.post(f"/api/tables/{t['id']}/start")
    sa = await Socket.open(server.ws_url, t["id"], ana.token)
    await sa.expect("snapshot")
    await sa.act({"type": "pick", "n": 3})
    await sa.act({"type": "bump"})
    assert (await _history_table(server, t["id"]))["status"] == "finished"
    assert (await sa.chat("gg"))["type"] == "ack"
    assert [m["text"] for m in (await _history(server, t["id"])).json()["messages"]] == ["before the start", "gg"]
    await sa.close()
    await ana.close()


async def _history_table(server: Server, tid: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.url) as c:
        return dict((await c.get(f"/api/tables/{tid}")).json())


async def test_chat_is_rate_limited_per_person_and_table(fresh_db: Database, tmp_path: Path) -> None:
    server = Server(fresh_db, tmp_path, **CHAT_LINE_A_MINUTE).start()
    try:
        ana, ben, tid = await _started(server)
        path = f"/api/tables/{tid}/chat"
        for i in range(5):  # the burst
            await ana.post(path, {"text": f"spam {i}"})
        await _error(await ana.post(path, {"text": "one more"}, ok=False), 429, "rate_limited")
        sa = await Socket.open(server.ws_url, tid, ana.token)
        await sa.expect("snapshot")
        reply = await sa.chat("and by socket")
        assert reply["type"] == "error" and reply["code"] == "rate_limited"
        # Others at the table, and Ana at another table, are not held back.
        await ben.post(path, {"text": "I can talk"})
        other = await ana.table(seats=2)
        await ana.post(f"/api/tables/{other['id']}/chat", {"text": "elsewhere"})
        # One more line when the minute is over; the socket stayed open throughout.
        await server.advance(61)
        assert (await sa.chat("patiently"))["type"] == "ack"
        texts = [m["text"] for m in (await _history(server, tid)).json()["messages"]]
        assert texts == [*(f"spam {i}" for i in range(5)), "I can talk", "patiently"]
        await sa.close()
        await ana.close()
        await ben.close()
    finally:
        server.stop()


async def test_chat_leaves_the_game_version_alone(server: Server) -> None:
    ana, ben, tid = await _started(server)
    sa, sb = await Socket.open(server.ws_url, tid, ana.token), await Socket.open(server.ws_url, tid, ben.token)
    v = (await sa.expect("snapshot"))["version"]
    await sb.expect("snapshot")
    await ben.post(f"/api/tables/{tid}/chat", {"text": "hurry up"})
    assert (await sb.chat("please"))["type"] == "ack"
    await sa.expect("chat")
    assert await _version(server, tid) == v
    # A move sent with the version seen before the chat is not stale.
    ack = await sa.act({"type": "pick", "n": 2}, expected_version=v)
    assert ack["type"] == "ack" and ack["version"] == v + 1
    for s in (sa, sb):
        await s.close()
    await ana.close()
    await ben.close()


async def test_the_history_holds_the_last_hundred_lines(fresh_db: Database, tmp_path: Path) -> None:
    srv = Server(fresh_db, tmp_path, CHAT_RATE_BURST="1000").start()
    try:
        ana = await Player.guest(srv.url, "Ana")
        t = await ana.table(seats=2)
        for i in range(105):
            await ana.post(f"/api/tables/{t['id']}/chat", {"text": f"line {i}"})
        lines = (await _history(srv, t["id"])).json()["messages"]
        assert [m["text"] for m in lines] == [f"line {i}" for i in range(5, 105)]
        assert [m["id"] for m in lines] == sorted(m["id"] for m in lines)
        await ana.close()
    finally:
        srv.stop()
