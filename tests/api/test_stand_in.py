"""A player away from a running game: a bot plays their seat until they take it back."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.conftest import Database, Server
from tests.platform.client import Player, Socket


async def _started(server: Server, visibility: str = "public", registered: bool = False,
                   ) -> tuple[Player, Player, Player, str]:
    """Ana hosts, Ben and Cy play a tiny game that goes on for a while (rated if the table is public and they are
    `registered`: guests are not rated)."""
    sign_in = Player.account if registered else Player.guest
    ana, ben, cy = [await sign_in(server.url, n) for n in ("Ana", "Ben", "Cy")]
    t = await ana.table(seats=3, visibility=visibility, options={"target": 1000})
    code = {"invite_code": t["invite_code"]} if visibility == "private" else {}
    for who in (ben, cy):
        await who.post(f"/api/tables/{t['id']}/join", code)
    early = await ben.post(f"/api/tables/{t['id']}/stand_in", {"seat": "1"}, ok=False)
    assert early.status_code == 409 and early.json()["error"]["code"] == "not_playing"
    await ana.post(f"/api/tables/{t['id']}/start")
    return ana, ben, cy, t["id"]


async def test_the_host_lets_a_bot_play_for_an_absent_player_until_they_return(
    fresh_db: Database, tmp_path: Path
) -> None:
    server = Server(fresh_db, tmp_path, BOT_DELAY="0.05").start()
    try:
        ana, ben, cy, tid = await _started(server, "private")  # unrated: the host's call
        sb = await Socket.open(server.ws_url, tid, ben.token)
        v = (await sb.expect("snapshot"))["version"]
        refused = await cy.post(f"/api/tables/{tid}/stand_in", {"seat": "1"}, ok=False)
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_idle_yet"

        table = (await ana.post(f"/api/tables/{tid}/stand_in", {"seat": "1"})).json()
        # A stand-in plays at the normal level.
        assert table["seats"][1] == {"seat": "1", "user": {"id": ben.user["id"], "name": "Ben"}, "bot": True,
                                     "guest": True, "bot_level": "normal"}
        update = await sb.until_version(v + 1)
        # Who asked comes with their id, which links their name to their profile (a name alone may be ambiguous).
        handed_over = {"type": "stand_in", "seat": "1", "name": "Ben", "visible_to": None, "by": "Ana",
                       "by_id": ana.user["id"]}
        assert handed_over in update["events"]
        assert update["seat"] == "1"  # Ben keeps his seat and his view
        again = await ana.post(f"/api/tables/{tid}/stand_in", {"seat": "1"}, ok=False)
        assert again.json()["error"]["code"] == "already_standing_in"

        # The bot plays Ben's secret pick; Ben himself is refused meanwhile.
        reply = await sb.act({"type": "pick", "n": 1})
        assert reply["type"] == "error" and reply["code"] == "bot_playing", reply
        assert (await sb.undo(v + 1))["code"] == "bot_playing"
        while "1" in (await sb.until_version((sb.latest or {"version": 0})["version"] + 1))["awaiting"]:
            pass
        assert sb.latest is not None and sb.latest["view"]["picks"]["1"] is not None

        # Back: Ben takes his seat again and plays his own moves; the bot stops.
        back = (await ben.post(f"/api/tables/{tid}/reclaim")).json()
        assert back["seats"][1]["bot"] is False and back["my_seat"] == "1"
        nothing = await ben.post(f"/api/tables/{tid}/reclaim", ok=False)
        assert nothing.json()["error"]["code"] == "not_standing_in"
        sa, sc = await Socket.open(server.ws_url, tid, ana.token), await Socket.open(server.ws_url, tid, cy.token)
        await sa.expect("snapshot")
        await sc.expect("snapshot")
        for sock in (sa, sc):
            assert (await sock.act({"type": "pick", "n": 0}))["type"] == "ack"
        latest = await sb.until_version(back["version"] + 2)
        assert latest["view"]["phase"] == "bump"
        before = latest["version"]
        bumps = 0
        while bumps < 3:  # a round of bumps: Ben's turn waits for Ben
            now = await sb.until_version(before)
            seat = now["awaiting"][0]
            sock = {"0": sa, "1": sb, "2": sc}[seat]
            assert (await sock.act({"type": "bump"}))["type"] == "ack"
            before, bumps = now["version"] + 1, bumps + 1
        for sock in (sa, sb, sc):
            await sock.close()
        for who in (ana, ben, cy):
            await who.close()
    finally:
        server.stop()


async def test_a_player_may_hand_their_own_seat_to_a_bot(server: Server) -> None:
    ana, ben, cy, tid = await _started(server)
    table = (await cy.post(f"/api/tables/{tid}/stand_in", {"seat": "2"})).json()
    assert table["seats"][2]["bot"] is True and table["my_seat"] == "2"
    log = (await ben.http.get(f"/api/tables/{tid}/moves")).json()
    own = next(e for entry in log["lobby"] for e in entry["events"] if e["type"] == "stand_in")
    assert own == {"type": "stand_in", "seat": "2", "name": "Cy", "visible_to": None}  # nobody else asked
    assert (await ana.post(f"/api/tables/{tid}/stand_in", {"seat": "9"}, ok=False)).status_code == 422
    assert (await cy.post(f"/api/tables/{tid}/reclaim")).json()["seats"][2]["bot"] is False
    for who in (ana, ben, cy):
        await who.close()


async def test_a_player_who_vanished_mid_game_does_not_strand_the_others(fresh_db: Database, tmp_path: Path) -> None:
    """Once the table has waited `STAND_IN_AFTER` on a seat, any other player may hand it to a bot: a host
    who never comes back would otherwise leave the game stuck for good."""
    server = Server(fresh_db, tmp_path, STAND_IN_AFTER="30", BOT_DELAY="1").start()
    try:
        ana, ben, cy, tid = await _started(server)
        watcher = await Player.guest(server.url, "Dee")
        sc = await Socket.open(server.ws_url, tid, cy.token)
        snap = await sc.expect("snapshot")
        assert snap["table"]["stand_in_after"] == 30 and 0 <= snap["table"]["waited"] < 30
        assert (await sc.act({"type": "pick", "n": 1}))["type"] == "ack"
        assert (await ben.post(f"/api/tables/{tid}/reclaim", ok=False)).json()["error"]["code"] == "not_standing_in"
        sb = await Socket.open(server.ws_url, tid, ben.token)
        await sb.expect("snapshot")
        assert (await sb.act({"type": "pick", "n": 2}))["type"] == "ack"
        # Only Ana, the host, is awaited now. Too early, for a spectator, or for a seat nobody waits on: refused.
        early = await cy.post(f"/api/tables/{tid}/stand_in", {"seat": "0"}, ok=False)
        assert early.status_code == 409 and early.json()["error"]["code"] == "not_idle_yet"
        before = (await cy.http.get(f"/api/tables/{tid}")).json()
        await server.advance(31)
        stranger = await watcher.post(f"/api/tables/{tid}/stand_in", {"seat": "0"}, ok=False)
        assert stranger.status_code == 403 and stranger.json()["error"]["code"] == "not_seated"
        idle = await cy.post(f"/api/tables/{tid}/stand_in", {"seat": "1"}, ok=False)
        assert idle.status_code == 409 and idle.json()["error"]["code"] == "not_awaited"
        assert (await cy.http.get(f"/api/tables/{tid}")).json()["version"] == before["version"]  # nothing changed

        table = (await cy.post(f"/api/tables/{tid}/stand_in", {"seat": "0"})).json()
        assert table["seats"][0]["bot"] is True and table["seats"][0]["user"]["name"] == "Ana"
        handed = await sc.until_version(table["version"])
        by_cy = {"type": "stand_in", "seat": "0", "name": "Ana", "visible_to": None, "by": "Cy", "by_id": cy.user["id"]}
        assert by_cy in handed["events"]
        # The bot makes Ana's pick, and the game goes on without her.
        latest = await sc.until_version(table["version"] + 1)
        assert latest["view"]["phase"] == "bump" and latest["view"]["picks"]["0"] is not None
        # She comes back and takes her seat again; the clock starts anew.
        back = (await ana.post(f"/api/tables/{tid}/reclaim")).json()
        assert back["seats"][0]["bot"] is False and back["waited"] < 30
        for sock in (sb, sc):
            await sock.close()
        for who in (ana, ben, cy, watcher):
            await who.close()
    finally:
        server.stop()


async def test_a_connected_player_gets_longer_before_a_bot_may_take_their_seat(
    fresh_db: Database, tmp_path: Path
) -> None:
    """A player whose socket is open at the table may be thinking rather than gone: the others wait
    `STAND_IN_AFTER_ONLINE` for them, and `STAND_IN_AFTER` once they have gone."""
    server = Server(fresh_db, tmp_path, STAND_IN_AFTER="1", STAND_IN_AFTER_ONLINE="60", BOT_DELAY="1").start()
    try:
        await connected_player_gets_longer(server, server)
    finally:
        server.stop()


async def connected_player_gets_longer(one: Server, two: Server) -> None:
    """Ana, awaited, is connected to `two`; Ben and Cy ask `one` to hand her seat to a bot."""
    ana, ben, cy, tid = await _started(one)
    sa = await Socket.open(two.ws_url, tid, ana.token)
    snap = await sa.expect("snapshot")
    # The longer wait is far beyond the clock's jump below plus however long a busy machine takes to get there.
    assert snap["table"]["stand_in_after"] == 1 and snap["table"]["stand_in_after_online"] == 60
    for who in (ben, cy):
        s = await Socket.open(one.ws_url, tid, who.token)
        await s.expect("snapshot")
        assert (await s.act({"type": "pick", "n": 1}))["type"] == "ack"
        await s.close()
    await sa.expect("presence", online=["0"])
    # `one` has heard from `two` that Ana is here (its sockets see her online) before its clock passes the short wait.
    sw = await Socket.open(one.ws_url, tid, ben.token)
    await sw.expect("presence", online=["0", "1"])
    await sw.close()
    await one.advance(1.2)
    refused = await cy.post(f"/api/tables/{tid}/stand_in", {"seat": "0"}, ok=False)
    error = refused.json()["error"]
    assert refused.status_code == 409 and error["code"] == "not_idle_yet", error
    assert "still connected" in error["message"]
    await sa.close()  # she leaves: the shorter wait, already over, applies
    for _ in range(150):
        handed = await cy.post(f"/api/tables/{tid}/stand_in", {"seat": "0"}, ok=False)
        if handed.status_code == 200:
            break
        assert handed.json()["error"]["code"] == "not_idle_yet"
        await asyncio.sleep(0.1)
    assert handed.status_code == 200 and handed.json()["seats"][0]["bot"] is True
    for who in (ana, ben, cy):
        await who.close()


async def test_the_log_keeps_the_lobby_changes_between_the_moves(server: Server) -> None:
    """Seats taken, the start, a stand-in and a reclaim are no moves, but `GET /moves` tells them, each with the
    version it made, so a reloaded log reads as the live one did."""
    ana, ben, cy, tid = await _started(server, "private")  # unrated: the host may hand a seat over at once
    sb = await Socket.open(server.ws_url, tid, ben.token)
    await sb.expect("snapshot")
    assert (await sb.act({"type": "pick", "n": 1}))["type"] == "ack"
    await sb.close()
    await ana.post(f"/api/tables/{tid}/stand_in", {"seat": "2"})
    await cy.post(f"/api/tables/{tid}/reclaim")
    log = (await ben.http.get(f"/api/tables/{tid}/moves")).json()
    lobby = [(entry["version"], [e["type"] for e in entry["events"]]) for entry in log["lobby"]]
    assert [types for _v, types in lobby] == [
        ["seat_joined"], ["seat_joined"], ["game_started"], ["stand_in"], ["reclaimed"]
    ], lobby
    # Stored as sent: a reloaded log links who asked by their id too.
    stood_in = next(e for entry in log["lobby"] for e in entry["events"] if e["type"] == "stand_in")
    assert (stood_in["by"], stood_in["by_id"]) == ("Ana", ana.user["id"])
    versions = [v for v, _types in lobby]
    moved = [m["version"] for m in log["moves"]]  # Ben's pick, and any the bot made for Cy meanwhile
    assert versions == sorted(versions) and not set(versions) & set(moved)
    assert versions[2] < moved[0] < versions[3] and len(set(versions + moved)) == max(versions + moved) - 1
    for who in (ana, ben, cy):
        await who.close()


async def test_at_a_rated_table_the_host_waits_like_any_player(fresh_db: Database, tmp_path: Path) -> None:
    """A bot's place is rated as its player's: a host handing a rival's seat over at once would decide their game."""
    server = Server(fresh_db, tmp_path, STAND_IN_AFTER="30").start()
    try:
        ana, ben, cy, tid = await _started(server, registered=True)
        assert (await ana.http.get(f"/api/tables/{tid}")).json()["rated"] is True
        early = await ana.post(f"/api/tables/{tid}/stand_in", {"seat": "1"}, ok=False)
        assert early.status_code == 409 and early.json()["error"]["code"] == "not_idle_yet"
        await server.advance(31)
        table = (await ana.post(f"/api/tables/{tid}/stand_in", {"seat": "1"})).json()
        assert table["seats"][1]["bot"] is True
        for who in (ana, ben, cy):
            await who.close()
    finally:
        server.stop()
