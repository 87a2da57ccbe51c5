"""One person, or a crowd of fresh identities, cannot flood a table's chat or sockets."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.conftest import Database, Server
from tests.hardening.helpers import close_all, guests
from tests.platform.client import Player, Socket


async def _say(who: Player, tid: str, text: str) -> httpx.Response:
    return await who.post(f"/api/tables/{tid}/chat", {"text": text}, ok=False)


async def test_a_crowd_of_fresh_guests_cannot_flood_the_chat_or_roll_the_players_out(
    fresh_db: Database, tmp_path: Path
) -> None:
    server = Server(fresh_db, tmp_path, real_limits=True, LIMIT_GUESTS="1000/hour").start()
    try:
        host, ben = await guests(server, "Host", "Ben")
        t = await host.table(seats=2)
        await ben.post(f"/api/tables/{t['id']}/join", {})
        assert (await _say(host, t["id"], "Welcome, play nice")).status_code == 200
        crowd = [await Player.guest(server.url, f"Spam {i}") for i in range(30)]
        answers = []
        for who in crowd:
            for n in range(5):
                answers.append(await _say(who, t["id"], f"spam {n}"))
        posted = [r for r in answers if r.status_code == 200]
        busy = [r for r in answers if r.status_code == 429 and r.json()["error"]["code"] == "chat_busy"]
        # Five new voices a minute, each with its burst of five: the other 25 are turned away at every try.
        assert len(posted) == 25 and len(busy) == 125 and all(r.headers.get("retry-after") for r in busy)
        assert (await _say(ben, t["id"], "players still talk")).status_code == 200
        # The players' lines stay in the history however much the others say.
        history = (await host.http.get(f"/api/tables/{t['id']}/chat")).json()["messages"]
        texts = [m["text"] for m in history]
        assert "Welcome, play nice" in texts and "players still talk" in texts
        await close_all(host, ben, *crowd)
    finally:
        server.stop()


async def test_the_host_keeps_the_chat_to_accounts_or_players(server: Server) -> None:
    host, ben, watcher = await guests(server, "Host", "Ben", "Watcher")
    member = await Player.account(server.url, "Member")
    t = await host.table(seats=2)
    await ben.post(f"/api/tables/{t['id']}/join", {})
    refused = await ben.http.put(f"/api/tables/{t['id']}/chat/mode", json={"mode": "players"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_host"
    bad = await host.http.put(f"/api/tables/{t['id']}/chat/mode", json={"mode": "nobody"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_chat_mode"

    sock = await Socket.open(server.ws_url, t["id"], watcher.token)
    await sock.expect("snapshot")
    changed = (await host.http.put(f"/api/tables/{t['id']}/chat/mode", json={"mode": "accounts"})).json()
    assert changed["chat_mode"] == "accounts"
    assert (await sock.until_version(changed["version"]))["table"]["chat_mode"] == "accounts"
    assert (await _say(watcher, t["id"], "hi")).json()["error"]["code"] == "chat_closed"
    assert (await sock.chat("hi"))["code"] == "chat_closed"  # the socket's door too
    assert (await _say(member, t["id"], "hello")).status_code == 200
    assert (await _say(ben, t["id"], "a guest, but a player")).status_code == 200

    await host.http.put(f"/api/tables/{t['id']}/chat/mode", json={"mode": "players"})
    assert (await _say(member, t["id"], "again")).json()["error"]["code"] == "chat_closed"
    assert (await _say(host, t["id"], "just us")).status_code == 200
    await close_all(sock, host, ben, watcher, member)


async def test_sockets_are_capped_per_person_per_table_and_per_address(fresh_db: Database, tmp_path: Path) -> None:
    server = Server(fresh_db, tmp_path, real_limits=True, WS_PER_PERSON_PER_TABLE="3", WS_PER_ADDRESS="5").start()
    try:
        ana, ben = await guests(server, "Ana", "Ben")
        t = await ana.table(seats=2)
        mine = [await Socket.open(server.ws_url, t["id"], ana.token) for _ in range(3)]
        for s in mine:
            await s.expect("snapshot")
        fourth = await Socket.open(server.ws_url, t["id"], ana.token)
        assert (await fourth.expect("error"))["code"] == "too_many_sockets"
        assert (await fourth.recv())["type"] == "closed" and fourth.ws.close_code == 4429
        # Another person has their own allowance, until the address runs out of its.
        others = [await Socket.open(server.ws_url, t["id"], ben.token) for _ in range(2)]
        for s in others:
            await s.expect("snapshot")
        sixth = await Socket.open(server.ws_url, t["id"])
        assert (await sixth.expect("error"))["code"] == "too_many_sockets"
        # A socket closed gives its place back.
        await mine[0].close()
        again = await Socket.open(server.ws_url, t["id"], ana.token)
        for _ in range(50):
            msg = await again.recv()
            if msg["type"] in ("snapshot", "error"):
                break
        assert msg["type"] == "snapshot"
        await close_all(*mine, fourth, *others, sixth, again, ana, ben)
    finally:
        server.stop()
