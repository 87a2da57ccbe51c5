"""Several server processes on one Postgres, and servers that stop and come back."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from tests.api.test_stand_in import connected_player_gets_longer
from tests.conftest import Database, Server, ServerProcess, requires_postgres
from tests.platform.client import Player, Socket


async def watched_from_two(one: Server, two: Server) -> tuple[Player, Player, dict[str, Any], Socket, int]:
    """Ana and Ben start a tiny table on process one; a watcher on process two has its snapshot's version."""
    ana, ben = await Player.guest(one.url, "Ana"), await Player.guest(one.url, "Ben")
    t = await ana.table(seats=2)
    await ben.post(f"/api/tables/{t['id']}/join", {})
    await ana.post(f"/api/tables/{t['id']}/start")
    watcher = await Socket.open(two.ws_url, t["id"])
    return ana, ben, t, watcher, (await watcher.expect("snapshot"))["version"]


async def moves_cross_processes(one: Server, two: Server) -> None:
    """A move on process one reaches a watcher on process two, and a move on two reaches a socket on one."""
    ana, ben, t, watcher, before = await watched_from_two(one, two)
    sa = await Socket.open(one.ws_url, t["id"], ana.token)
    await sa.expect("snapshot")
    assert (await sa.act({"type": "pick", "n": 1}))["type"] == "ack"
    seen = await watcher.until_version(before + 1)
    assert seen["view"]["picks"]["0"] == "hidden"
    sb = await Socket.open(two.ws_url, t["id"], ben.token)
    await sb.expect("snapshot")
    assert (await sb.act({"type": "pick", "n": 2})).get("type") == "ack"
    seen = await sa.until_version(before + 2)
    assert seen["view"]["phase"] == "bump"
    for s in (watcher, sa, sb):
        await s.close()
    await ana.close()
    await ben.close()


async def abandon_crosses_processes(one: Server, two: Server) -> None:
    """A vote on abandoning, made on either process, reaches the table's sockets on both, proposal and end alike."""
    ana, ben, t, watcher, before = await watched_from_two(one, two)
    sa = await Socket.open(one.ws_url, t["id"], ana.token)
    await sa.expect("snapshot")
    proposed = (await ana.post(f"/api/tables/{t['id']}/abandon", {"vote": "yes"})).json()  # on process one
    seen = await watcher.until_version(before + 1)
    assert seen["table"]["abandon"] == {"id": before + 1, "by": "0", "yes": ["0"], "waiting": ["1"]}
    assert [e["type"] for e in seen["events"]] == ["abandon_proposed"]
    async with httpx.AsyncClient(base_url=two.url, headers={"Authorization": f"Bearer {ben.token}"}) as c:
        r = await c.post(f"/api/tables/{t['id']}/abandon", json={"vote": "yes", "proposal": proposed["abandon"]["id"]})
        assert r.status_code == 200, r.text
        assert r.json()["abandoned"] is True
    for sock in (sa, watcher):  # Ben's vote, on process two, reaches Ana's socket on one
        done = await sock.until_version(before + 2)
        assert done["table"]["status"] == "finished" and done["table"]["abandoned"] is True
        assert done["table"]["abandon"] is None and done["awaiting"] == []
        assert [e["type"] for e in done["events"]] == ["abandon_agreed", "abandoned"]
    for server in (one, two):  # either process answers the same table
        async with httpx.AsyncClient(base_url=server.url) as c:
            assert (await c.get(f"/api/tables/{t['id']}")).json()["abandoned"] is True
    for s in (watcher, sa):
        await s.close()
    await ana.close()
    await ben.close()


async def chats_seen(sock: Socket) -> list[dict[str, Any]]:
    """The chat lines a socket got until now (a ping's pong marks the end of what was sent before it)."""
    await sock.send_raw('{"type": "ping"}')
    lines = []
    while (msg := await sock.recv())["type"] != "pong":
        if msg["type"] == "chat":
            lines.append(msg["message"])
    return lines


async def chat_crosses_processes(one: Server, two: Server) -> None:
    """A line posted on either process reaches the table's sockets on both, once each, and moves no version."""
    ana, ben, t, watcher_anon, before = await watched_from_two(one, two)
    cy = await Player.guest(two.url, "Cy")
    sa = await Socket.open(one.ws_url, t["id"], ana.token)  # a player on process one
    sc = await Socket.open(two.ws_url, t["id"], cy.token)  # a spectator on process two
    for s in (sa, sc):
        await s.expect("snapshot")
    from_one = await sa.chat("hello from one")
    assert from_one["type"] == "ack"
    from_two = await sc.chat("hello from two")
    assert from_two["type"] == "ack"
    by_rest = (await ben.post(f"/api/tables/{t['id']}/chat", {"text": "REST on one"})).json()
    async with httpx.AsyncClient(base_url=two.url, headers={"Authorization": f"Bearer {cy.token}"}) as c:
        r = await c.post(f"/api/tables/{t['id']}/chat", json={"text": "REST on two"})
        assert r.status_code == 200, r.text
    expected = [from_one["message"], from_two["message"], by_rest, r.json()]
    for sock in (sa, sc, watcher_anon):
        got: list[dict[str, Any]] = []
        for _ in range(100):
            got += await chats_seen(sock)
            if len(got) >= len(expected):
                break
            await asyncio.sleep(0.05)
        assert sorted(got, key=lambda m: m["id"]) == sorted(expected, key=lambda m: m["id"])  # each once
    for server in (one, two):  # the same history from either process
        async with httpx.AsyncClient(base_url=server.url) as c:
            assert (await c.get(f"/api/tables/{t['id']}/chat")).json()["messages"] == sorted(
                expected, key=lambda m: m["id"])
            assert (await c.get(f"/api/tables/{t['id']}")).json()["version"] == before
    # The game goes on with the version seen before the chat.
    assert (await sa.act({"type": "pick", "n": 1}, expected_version=before))["type"] == "ack"
    assert (await sc.until_version(before + 1))["version"] == before + 1
    for s in (watcher_anon, sa, sc):
        await s.close()
    for p in (ana, ben, cy):
        await p.close()


# Presence intervals short enough for a test: a killed process's sockets stop counting after about 2 s.
FAST_PRESENCE = {"PRESENCE_REFRESH": "0.3", "PRESENCE_EXPIRY": "1.5"}


async def presence_crosses_processes(one: Server, two: Server) -> None:
    """Each socket is shown the people at the table on both processes, each person once; when process two is
    killed, its sockets stop counting once its announcements expire."""
    ana, ben, t, watcher, _version = await watched_from_two(one, two)  # a signed-out watcher on two
    cy = await Player.guest(one.url, "Cy")
    sa = await Socket.open(one.ws_url, t["id"], ana.token)
    sb = await Socket.open(two.ws_url, t["id"], ben.token)
    cy_one = await Socket.open(one.ws_url, t["id"], cy.token)  # Cy watches from both processes
    cy_two = await Socket.open(two.ws_url, t["id"], cy.token)
    for s in (sa, sb, cy_one, cy_two):
        await s.expect("snapshot")
    # Cy once, by name, and the signed-out watcher counted.
    both = {"online": ["0", "1"], "watching": 2, "watchers": [{"id": cy.user["id"], "name": "Cy"}]}
    for s in (sa, cy_one, watcher, sb):
        await s.expect("presence", **both)
    await sb.close()  # Ben leaves process two: process one hears of it
    await sa.expect("presence", online=["0"], watching=2)
    sb = await Socket.open(two.ws_url, t["id"], ben.token)
    await sb.expect("snapshot")
    await sa.expect("presence", **both)
    two.stop(kill=True)  # nothing said: its announcements expire
    await sa.expect("presence", online=["0"], watching=1)
    for s in (sa, cy_one):
        await s.close()
    for p in (ana, ben, cy):
        await p.close()


async def test_presence_on_one_process_reaches_sockets_on_another(fresh_db: Database, tmp_path: Path) -> None:
    requires_postgres()
    one = ServerProcess(fresh_db, tmp_path, **FAST_PRESENCE).start()
    two = ServerProcess(fresh_db, tmp_path, RUN_MIGRATIONS="false", **FAST_PRESENCE).start()
    try:
        await presence_crosses_processes(one, two)
    finally:
        one.stop()
        two.stop()


async def test_the_host_mutes_a_watcher_connected_to_another_process(fresh_db: Database, tmp_path: Path) -> None:
    """Dee watches through process two and has written nothing: the host, on process one, sees her named among the
    watchers and mutes her there; process two then refuses her lines."""
    requires_postgres()
    one = ServerProcess(fresh_db, tmp_path, **FAST_PRESENCE).start()
    two = ServerProcess(fresh_db, tmp_path, RUN_MIGRATIONS="false", **FAST_PRESENCE).start()
    try:
        ana, ben, t, watcher, _version = await watched_from_two(one, two)
        dee = await Player.guest(two.url, "Dee")
        sa = await Socket.open(one.ws_url, t["id"], ana.token)
        sd = await Socket.open(two.ws_url, t["id"], dee.token)
        for s in (sa, sd):
            await s.expect("snapshot")
        await sa.expect("presence", watchers=[{"id": dee.user["id"], "name": "Dee"}])
        r = await ana.http.put(f"/api/tables/{t['id']}/chat/mutes/{dee.user['id']}")  # on process one
        assert r.status_code == 200, r.text
        assert (await sd.expect("chat_mute"))["muted"] is True
        refused = await sd.chat("hello?")
        assert refused["type"] == "error" and refused["code"] == "muted"
        for s in (sa, sd, watcher):
            await s.close()
        for p in (ana, ben, dee):
            await p.close()
    finally:
        one.stop()
        two.stop()


async def test_a_player_connected_to_another_process_gets_longer_before_a_stand_in(
    fresh_db: Database, tmp_path: Path
) -> None:
    """The process asked to hand a seat to a bot knows the player is connected to the other one."""
    requires_postgres()
    # The test moves `one`'s clock past the short wait; `two`'s presence, refreshed on its own clock, must still be
    # fresh on `one`'s after that jump, so it expires well beyond it.
    settings = {"STAND_IN_AFTER": "1", "STAND_IN_AFTER_ONLINE": "60", "BOT_DELAY": "1", **FAST_PRESENCE,
                "PRESENCE_EXPIRY": "5"}
    one = ServerProcess(fresh_db, tmp_path, **settings).start()
    two = ServerProcess(fresh_db, tmp_path, RUN_MIGRATIONS="false", **settings).start()
    try:
        await connected_player_gets_longer(one, two)
    finally:
        one.stop()
        two.stop()


async def test_a_stopping_process_takes_its_sockets_out_of_presence_at_once(
    fresh_db: Database, tmp_path: Path
) -> None:
    requires_postgres()
    one = ServerProcess(fresh_db, tmp_path).start()  # the default expiry: 90 s
    two = ServerProcess(fresh_db, tmp_path, RUN_MIGRATIONS="false").start()
    try:
        ana, ben, t, watcher, _version = await watched_from_two(one, two)
        sa = await Socket.open(one.ws_url, t["id"], ana.token)
        sb = await Socket.open(two.ws_url, t["id"], ben.token)
        await sb.expect("snapshot")
        await sa.expect("presence", online=["0", "1"], watching=1)
        two.stop()
        await sa.expect("presence", online=["0"], watching=0, timeout=5)
        await sa.close()
        await ana.close()
        await ben.close()
    finally:
        one.stop()
        two.stop()


async def test_a_move_on_one_process_reaches_a_spectator_on_another(fresh_db: Database, tmp_path: Path) -> None:
    requires_postgres()
    one = ServerProcess(fresh_db, tmp_path).start()
    two = ServerProcess(fresh_db, tmp_path, RUN_MIGRATIONS="false").start()
    try:
        await moves_cross_processes(one, two)
    finally:
        one.stop()
        two.stop()


async def test_an_abandon_vote_on_one_process_reaches_sockets_on_another(fresh_db: Database, tmp_path: Path) -> None:
    requires_postgres()
    one = ServerProcess(fresh_db, tmp_path).start()
    two = ServerProcess(fresh_db, tmp_path, RUN_MIGRATIONS="false").start()
    try:
        await abandon_crosses_processes(one, two)
    finally:
        one.stop()
        two.stop()


async def test_chat_on_one_process_reaches_sockets_on_another(fresh_db: Database, tmp_path: Path) -> None:
    requires_postgres()
    one = ServerProcess(fresh_db, tmp_path).start()
    two = ServerProcess(fresh_db, tmp_path, RUN_MIGRATIONS="false").start()
    try:
        await chat_crosses_processes(one, two)
    finally:
        one.stop()
        two.stop()


async def test_games_survive_a_restart_and_bots_keep_playing(fresh_db: Database, tmp_path: Path) -> None:
    srv = ServerProcess(fresh_db, tmp_path, BOT_DELAY="0.05").start()
    try:
        ana = await Player.guest(srv.url, "Ana")
        t = await ana.table(seats=2, options={"target": 40})
        await ana.post(f"/api/tables/{t['id']}/bots", {"seat": "1"})
        await ana.post(f"/api/tables/{t['id']}/start")
        sa = await Socket.open(srv.ws_url, t["id"], ana.token)
        snap = await sa.expect("snapshot")
        await sa.act({"type": "pick", "n": 0})
        version = (await sa.until_version(snap["version"] + 2))["version"]
        srv.stop(kill=True)
        await sa.close()
        srv.start()
        sa = await Socket.open(srv.ws_url, t["id"], ana.token)
        again = await sa.expect("snapshot")
        assert again["version"] >= version and again["table"]["status"] == "playing"
        # Ana plays her turns; the bot answers each time, including after the restart.
        for _ in range(6):
            latest = sa.latest
            assert latest is not None
            if "0" in latest["awaiting"]:
                await sa.act(latest["actions"][0], expected_version=latest["version"])
            await sa.until_version(latest["version"] + 1)
        async with httpx.AsyncClient(base_url=srv.url) as c:
            moves = (await c.get(f"/api/tables/{t['id']}/moves")).json()["moves"]
        assert {m["seat"] for m in moves} == {"0", "1"}
        assert len(moves) >= 8
        await sa.close()
        await ana.close()
    finally:
        srv.stop()


async def test_clients_resync_after_a_restart(fresh_db: Database, tmp_path: Path) -> None:
    srv = ServerProcess(fresh_db, tmp_path).start()
    try:
        ana, ben = await Player.guest(srv.url, "Ana"), await Player.guest(srv.url, "Ben")
        t = await ana.table(seats=2)
        await ben.post(f"/api/tables/{t['id']}/join", {})
        await ana.post(f"/api/tables/{t['id']}/start")
        sa = await Socket.open(srv.ws_url, t["id"], ana.token)
        v = (await sa.expect("snapshot"))["version"]
        await sa.act({"type": "pick", "n": 2})
        srv.stop()
        closed = await sa.expect("closed", timeout=10)
        assert closed["type"] == "closed"
        srv.start()
        await asyncio.sleep(0.1)
        sa = await Socket.open(srv.ws_url, t["id"], ana.token)
        snap = await sa.expect("snapshot")
        assert snap["version"] == v + 1 and snap["view"]["picks"]["0"] == 2
        await sa.close()
        await ana.close()
        await ben.close()
    finally:
        srv.stop()
