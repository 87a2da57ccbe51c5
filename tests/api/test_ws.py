"""Live play over real websockets: snapshots, acks, updates, refusals that change nothing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import InvalidStatus

from tests.conftest import Server
from tests.platform.client import Player, Socket


async def _started_table(server: Server, target: int = 6) -> tuple[Player, Player, str]:
    ana, ben = await Player.guest(server.url, "Ana"), await Player.guest(server.url, "Ben")
    t = await ana.table(seats=2, options={"target": target})
    await ben.post(f"/api/tables/{t['id']}/join", {})
    await ana.post(f"/api/tables/{t['id']}/start")
    return ana, ben, t["id"]


async def test_snapshot_ack_and_update_with_hidden_picks(server: Server) -> None:
    ana, ben, tid = await _started_table(server)
    sa = await Socket.open(server.ws_url, tid, ana.token)
    sb = await Socket.open(server.ws_url, tid, ben.token)
    spec = await Socket.open(server.ws_url, tid)
    snap = await sa.expect("snapshot")
    assert snap["seat"] == "0" and snap["view"]["phase"] == "pick"
    assert {"type": "pick", "n": 3} in snap["actions"]
    assert set(snap["awaiting"]) == {"0", "1"}
    assert snap["table"]["status"] == "playing"
    spec_snap = await spec.expect("snapshot")
    assert spec_snap["seat"] is None and spec_snap["actions"] == []
    await sb.expect("snapshot")
    v = snap["version"]
    ack = await sa.act({"type": "pick", "n": 2}, expected_version=v)
    assert ack["type"] == "ack" and ack["version"] == v + 1
    mine = await sa.until_version(v + 1)
    theirs = await sb.until_version(v + 1)
    watched = await spec.until_version(v + 1)
    assert mine["view"]["picks"]["0"] == 2
    assert theirs["view"]["picks"]["0"] == "hidden" and watched["view"]["picks"]["0"] == "hidden"
    assert any(e["type"] == "picked" for e in mine["events"])
    assert not any(e["type"] == "picked" for e in theirs["events"] + watched["events"])
    assert theirs["actions"] and watched["actions"] == [] and mine["actions"] == []
    for s in (sa, sb, spec):
        await s.close()
    await ana.close()
    await ben.close()


async def _version(server: Server, tid: str) -> int:
    async with httpx.AsyncClient(base_url=server.url) as c:
        return int((await c.get(f"/api/tables/{tid}")).json()["version"])


async def test_refusals_keep_socket_and_state(server: Server) -> None:
    ana, ben, tid = await _started_table(server)
    sa = await Socket.open(server.ws_url, tid, ana.token)
    spec = await Socket.open(server.ws_url, tid)
    snap = await sa.expect("snapshot")
    await spec.expect("snapshot")
    v = snap["version"]
    bad: list[tuple[Any, str]] = [
        ({"type": "pick", "n": 9}, "illegal"),
        ({"type": "nonsense"}, "illegal"),
        ({"no_type": 1}, "bad_action"),
        ("pick", "bad_action"),
    ]
    for action, code in bad:
        reply = await sa.act(action)
        assert reply["type"] == "error" and reply["code"] == code, reply
        assert reply["message"]
    stale = await sa.act({"type": "pick", "n": 1}, expected_version=v - 1)
    assert stale["code"] == "stale_version"
    # An unlisted action the engine trips on is still just not a legal move.
    boom = await sa.act({"type": "boom"})
    assert boom["code"] == "illegal_action" and "Traceback" not in boom["message"]
    watcher = await spec.act({"type": "pick", "n": 1})
    assert watcher["code"] == "not_seated"
    # Malformed frames.
    for raw, code in [("{oops", "bad_json"), ("[1,2]", "bad_message"), ('{"type":"dance"}', "unknown_type"),
                      (b"\x00\x01", "binary_frame"), (json.dumps({"type": "act", "action": {"type": "x" * 70000}}),
                                                     "too_large")]:
        await sa.send_raw(raw)
        err = await sa.expect("error")
        assert err["code"] == code, (raw[:20], err)
    bad_cid = await sa.act({"type": "pick", "n": 1}, client_id="c" * 65)
    assert bad_cid["code"] == "bad_client_id"
    await sa.ws.send(json.dumps({"type": "ping"}))
    pong = await sa.expect("pong")
    assert pong["version"] == v  # the newest version the server knows: a client behind it resyncs
    assert await _version(server, tid) == v
    # The same socket still plays.
    ok = await sa.act({"type": "pick", "n": 1}, expected_version=v)
    assert ok["type"] == "ack"
    for s in (sa, spec):
        await s.close()
    await ana.close()
    await ben.close()


async def test_out_of_turn_is_refused(server: Server) -> None:
    ana, ben, tid = await _started_table(server)
    sa = await Socket.open(server.ws_url, tid, ana.token)
    await sa.expect("snapshot")
    await sa.act({"type": "pick", "n": 0})
    again = await sa.act({"type": "pick", "n": 1})
    assert again["code"] == "not_your_turn"
    await sa.close()
    await ana.close()
    await ben.close()


async def test_same_client_id_is_applied_once(server: Server) -> None:
    ana, ben, tid = await _started_table(server)
    sa = await Socket.open(server.ws_url, tid, ana.token)
    snap = await sa.expect("snapshot")
    first = await sa.act({"type": "pick", "n": 3}, client_id="retry-1")
    second = await sa.act({"type": "pick", "n": 3}, client_id="retry-1")
    assert first["type"] == second["type"] == "ack"
    assert first["version"] == second["version"] == snap["version"] + 1
    moves = (await ana.http.get(f"/api/tables/{tid}/moves")).json()["moves"]
    assert len(moves) == 1
    await sa.close()
    await ana.close()
    await ben.close()


async def test_resync_returns_current_snapshot(server: Server) -> None:
    ana, ben, tid = await _started_table(server)
    sa = await Socket.open(server.ws_url, tid, ana.token)
    sb = await Socket.open(server.ws_url, tid, ben.token)
    old = (await sa.expect("snapshot"))["version"]
    await sb.expect("snapshot")
    await sb.act({"type": "pick", "n": 1})
    await sa.ws.send(json.dumps({"type": "resync", "version": old}))
    snap = await sa.expect("snapshot")
    assert snap["version"] == old + 1
    for s in (sa, sb):
        await s.close()
    await ana.close()
    await ben.close()


async def test_lobby_changes_reach_open_sockets(server: Server) -> None:
    host, ben = await Player.guest(server.url, "Host"), await Player.guest(server.url, "Ben")
    t = await host.table(seats=2)
    sh = await Socket.open(server.ws_url, t["id"], host.token)
    snap = await sh.expect("snapshot")
    assert snap["view"] is None and snap["table"]["status"] == "open"
    await ben.post(f"/api/tables/{t['id']}/join", {})
    upd = await sh.until_version(snap["version"] + 1)
    assert upd["table"]["seats"][1]["user"]["name"] == "Ben"
    await host.post(f"/api/tables/{t['id']}/start")
    upd = await sh.until_version(snap["version"] + 2)
    assert upd["table"]["status"] == "playing" and upd["view"]["phase"] == "pick"
    await sh.close()
    await host.close()
    await ben.close()


async def test_updates_repeat_the_table_only_when_it_changed(server: Server) -> None:
    host, ben = await Player.guest(server.url, "Host"), await Player.guest(server.url, "Ben")
    t = await host.table(seats=2, options={"target": 1})
    sh = await Socket.open(server.ws_url, t["id"], host.token)
    assert "table" in await sh.expect("snapshot")
    await ben.post(f"/api/tables/{t['id']}/join", {})
    assert (await sh.expect("update"))["table"]["seats"][1]["user"]["name"] == "Ben"
    await host.post(f"/api/tables/{t['id']}/start")
    started = await sh.expect("update")
    assert started["table"]["status"] == "playing"
    sb = await Socket.open(server.ws_url, t["id"], ben.token)
    await sb.expect("snapshot")
    await sh.act({"type": "pick", "n": 3})
    picked = await sh.expect("update")
    assert "table" not in picked and picked["version"] == started["version"] + 1
    assert sh.latest is not None and sh.latest["table"]["status"] == "playing"  # kept, as a browser does
    # Then the bumps end the game (target 1): the finished table, with its seed, comes again.
    await sb.act({"type": "pick", "n": 3})
    latest = await sh.until_version(picked["version"] + 1)
    while latest["table"]["status"] != "finished":
        mover = sh if "0" in latest["awaiting"] else sb
        assert (await mover.act({"type": "bump"}))["type"] == "ack"
        latest = await sh.until_version(latest["version"] + 1)
    assert latest["table"]["status"] == "finished" and latest["table"]["seed"] is not None
    for s in (sh, sb):
        await s.close()
    await host.close()
    await ben.close()


async def test_concurrent_actions_are_serialised_without_loss(server: Server) -> None:
    """Many sockets race on one table: versions advance one at a time, no gap, no duplicate."""
    players = [await Player.guest(server.url, f"P{i}") for i in range(4)]
    t = await players[0].table(seats=4, options={"target": 1000})
    for p in players[1:]:
        await p.post(f"/api/tables/{t['id']}/join", {})
    await players[0].post(f"/api/tables/{t['id']}/start")
    socks = [await Socket.open(server.ws_url, t["id"], p.token) for p in players]
    for s in socks:
        await s.expect("snapshot")
    accepted = 0
    for _round in range(4):
        # Everyone fires every pick at once, several times; only one per seat can be legal.
        replies = await asyncio.gather(*[s.act({"type": "pick", "n": n}) for s in socks for n in (1, 2)])
        accepted += sum(r["type"] == "ack" for r in replies)
        # then the bump phase: everyone tries to bump at once, repeatedly, until the round is over
        for _ in range(4):
            replies = await asyncio.gather(*[s.act({"type": "bump"}) for s in socks])
            accepted += sum(r["type"] == "ack" for r in replies)
    assert accepted == 4 * (4 + 4)
    moves = (await players[0].http.get(f"/api/tables/{t['id']}/moves")).json()["moves"]
    assert [m["seq"] for m in moves] == list(range(1, accepted + 1))
    final = await _version(server, t["id"])
    for s in socks:
        latest = await s.until_version(final)
        assert latest["version"] == final
        await s.close()
    for p in players:
        await p.close()


async def test_wrong_invite_on_socket_is_refused(server: Server) -> None:
    host = await Player.guest(server.url)
    t = await host.table(seats=2, visibility="private")
    s = await Socket.open(server.ws_url, t["id"], None, invite="wrong")
    err = await s.expect("error")
    assert err["code"] == "not_found"
    s2 = await Socket.open(server.ws_url, t["id"], None, invite=t["invite_code"])
    assert (await s2.expect("snapshot"))["table"]["id"] == t["id"]
    await s2.close()
    await host.close()


async def test_foreign_origin_is_refused(server: Server) -> None:
    host = await Player.guest(server.url)
    t = await host.table(seats=2)
    url = f"{server.ws_url}/ws/tables/{t['id']}"
    with pytest.raises(InvalidStatus) as refused:
        async with websockets.connect(url, origin="https://evil.example") as ws:  # type: ignore[arg-type]
            await asyncio.wait_for(ws.recv(), 5)
    assert refused.value.response.status_code == 403
    async with websockets.connect(url, origin=server.url) as ws:  # type: ignore[arg-type]
        assert json.loads(await asyncio.wait_for(ws.recv(), 5))["type"] == "snapshot"
    await host.close()


async def test_flood_is_rate_limited(server: Server) -> None:
    host = await Player.guest(server.url)
    t = await host.table(seats=2)
    s = await Socket.open(server.ws_url, t["id"], host.token)
    await s.expect("snapshot")
    for _ in range(80):
        await s.send_raw(json.dumps({"type": "ping"}))
    kinds = [(await s.recv())["type"] for _ in range(80)]
    codes = [m for m in kinds if m == "error"]
    assert codes, "a flood must be throttled"
    await asyncio.sleep(0.5)
    await s.send_raw(json.dumps({"type": "ping"}))
    await s.expect("pong")
    await s.close()
    await host.close()
