"""Presence on the table socket: who of the players is connected now, and how many watch."""

from __future__ import annotations

import httpx

from tests.conftest import Server
from tests.platform.client import Player, Socket


async def test_players_see_each_other_come_and_go_and_spectators_counted(server: Server) -> None:
    ana, ben, cy = [await Player.guest(server.url, n) for n in ("Ana", "Ben", "Cy")]
    t = await ana.table(seats=3)
    tid = t["id"]
    await ben.post(f"/api/tables/{tid}/join", {})

    sa = await Socket.open(server.ws_url, tid, ana.token)
    version = (await sa.expect("snapshot"))["version"]
    assert await sa.recv() == {"type": "presence", "online": ["0"], "watching": 0, "watchers": []}  # after the snapshot

    sb = await Socket.open(server.ws_url, tid, ben.token)
    await sb.expect("snapshot")
    assert (await sb.recv())["online"] == ["0", "1"]
    await sa.expect("presence", online=["0", "1"], watching=0)

    # Cy watches from two tabs, someone signed out from one: two people watching.
    watchers = [await Socket.open(server.ws_url, tid, cy.token), await Socket.open(server.ws_url, tid, cy.token),
                await Socket.open(server.ws_url, tid)]
    for w in watchers:
        await w.expect("snapshot")
    await sa.expect("presence", online=["0", "1"], watching=2)
    await watchers[0].close()  # Cy still has a tab open
    async with httpx.AsyncClient(base_url=server.url) as c:  # people coming and going move no version
        assert (await c.get(f"/api/tables/{tid}")).json()["version"] == version

    # Cy sits down: a player now (the tab still open shows her seat online), no longer watching.
    await cy.post(f"/api/tables/{tid}/join", {})
    await sa.expect("presence", online=["0", "1", "2"], watching=1)

    # Ben's page closes: his seat is away; then he is back.
    await sb.close()
    await sa.expect("presence", online=["0", "2"], watching=1)
    sb = await Socket.open(server.ws_url, tid, ben.token)
    await sb.expect("snapshot")
    await sa.expect("presence", online=["0", "1", "2"], watching=1)

    # A bot standing in for Ben: the seat still shows whether Ben is there.
    await ana.post(f"/api/tables/{tid}/start")
    await ben.post(f"/api/tables/{tid}/stand_in", {"seat": "1"})  # his own call, which any table allows
    await sb.close()
    await sa.expect("presence", online=["0", "2"], watching=1)

    for s in (sa, watchers[1], watchers[2]):
        await s.close()
    for p in (ana, ben, cy):
        await p.close()


async def test_the_people_watching_are_named_to_everyone_at_the_table(server: Server) -> None:
    ana, ben, cy, ada = [await Player.guest(server.url, n) for n in ("Ana", "Ben", "Cy", "ada")]
    t = await ana.table(seats=3)
    tid = t["id"]
    await ben.post(f"/api/tables/{tid}/join", {})
    sa = await Socket.open(server.ws_url, tid, ana.token)
    await sa.expect("snapshot")
    sb = await Socket.open(server.ws_url, tid, ben.token)
    await sb.expect("snapshot")
    await sa.expect("presence", online=["0", "1"], watchers=[])  # players are named by their seats, not here

    anon = await Socket.open(server.ws_url, tid)  # signed out: counted, never named
    sc = await Socket.open(server.ws_url, tid, cy.token)
    sd = await Socket.open(server.ws_url, tid, ada.token)
    for s in (anon, sc, sd):
        await s.expect("snapshot")
    named = [{"id": ada.user["id"], "name": "ada"}, {"id": cy.user["id"], "name": "Cy"}]  # by name, case aside
    for s in (sa, anon, sc):  # everyone sees them, a watcher and someone signed out too
        await s.expect("presence", watching=3, watchers=named)

    await cy.post(f"/api/tables/{tid}/join", {})  # Cy takes a seat: a player now, no longer watching
    await sa.expect("presence", online=["0", "1", "2"], watching=2, watchers=named[:1])
    await sd.close()
    await sa.expect("presence", watching=1, watchers=[])
    for s in (sa, sb, anon, sc):
        await s.close()
    for p in (ana, ben, cy, ada):
        await p.close()
