"""Takeback requests over the socket and REST: a player asks, the others say yes or no; moves that revealed
something only at an unrated table; every refusal has its code and changes nothing. And the preview a player who
confirms irreversible moves is asked about."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from tests.conftest import Server
from tests.hardening.helpers import moves, table_state
from tests.platform.client import Player, Socket


async def _table(server: Server, rated: bool = False) -> tuple[Player, Player, str, Socket, Socket, int]:
    """Ana (seat 0) and Ben (seat 1) at a started tiny table (accounts at a public one: rated), and their sockets."""
    make = Player.account if rated else Player.guest
    ana, ben = await make(server.url, "Ana"), await make(server.url, "Ben")
    t = await ana.table(seats=2, options={"target": 100})
    await ben.post(f"/api/tables/{t['id']}/join", {})
    await ana.post(f"/api/tables/{t['id']}/start")
    sa, sb = [await Socket.open(server.ws_url, t["id"], p.token) for p in (ana, ben)]
    version = (await sa.expect("snapshot"))["version"]
    await sb.expect("snapshot")
    assert (await table_state(server, t["id"]))["rated"] is rated
    return ana, ben, t["id"], sa, sb, version


async def _say(sock: Socket, say: Any, proposal: Any = None, cid: str = "tb") -> dict[str, Any]:
    """Send a takeback say; the ack or the error answering it."""
    msg: dict[str, Any] = {"type": "takeback", "say": say, "client_id": cid}
    if proposal is not None:
        msg["proposal"] = proposal
    return await _ask(sock, msg, cid)


async def _ask(sock: Socket, msg: dict[str, Any], cid: str) -> dict[str, Any]:
    """Send a message and return what answers its client_id."""
    fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    sock.pending[cid] = fut
    await sock.ws.send(json.dumps(msg))
    return await asyncio.wait_for(fut, 10)


async def test_an_unrated_game_takes_back_revealing_moves_when_everyone_agrees(server: Server) -> None:
    ana, ben, tid, sa, sb, v = await _table(server)
    await sa.act({"type": "pick", "n": 3})
    await sb.act({"type": "pick", "n": 0})  # reveals both picks: no immediate undo from here
    await sa.until_version(v + 2)

    asked = await _say(sa, "ask", cid="ask-1")
    assert asked == {"type": "ack", "client_id": "ask-1", "version": v + 3}
    update = await sb.until_version(v + 3)
    request = update["table"]["takeback"]
    assert request == {"id": v + 3, "by": "0", "seq": 1, "moves": 2, "yes": [], "waiting": ["1"]}
    assert update["events"] == [{"type": "takeback_asked", "seat": "0", "name": "Ana", "moves": 2, "visible_to": None}]
    # The asker cannot agree for the others; a second request waits for this one.
    assert (await _say(sa, "yes", request["id"]))["code"] == "own_takeback"
    assert (await _say(sa, "ask"))["code"] == "takeback_open"

    agreed = await _say(sb, "yes", request["id"], cid="yes-1")
    assert agreed["version"] == v + 4
    for sock in (sa, sb):
        back = await sock.until_version(v + 4)
        assert back["table"]["takeback"] is None and back["table"]["move_count"] == 0
        assert back["view"]["phase"] == "pick" and back["view"]["scores"] == {"0": 0, "1": 0}
        assert sorted(back["awaiting"]) == ["0", "1"]
        assert [e["type"] for e in back["events"]] == ["takeback_agreed", "taken_back"]
        assert back["events"][-1] == {"type": "taken_back", "seat": "0", "moves": 2, "seq": 1, "visible_to": None}
    # Durable: the moves are gone, and the game goes on from there.
    assert await moves(server, tid, ana.token) == []
    table = await table_state(server, tid)
    assert (table["version"], table["move_count"], table["takeback"]) == (v + 4, 0, None)
    assert (await sa.act({"type": "pick", "n": 1}))["type"] == "ack"
    for thing in (sa, sb, ana, ben):
        await thing.close()


async def test_a_no_ends_the_request_and_a_move_made_meanwhile_too(server: Server) -> None:
    ana, ben, tid, sa, sb, v = await _table(server)
    assert (await _say(sa, "ask"))["code"] == "nothing_to_take_back"
    assert (await _say(sb, "yes"))["code"] == "no_takeback"
    await sa.act({"type": "pick", "n": 3})
    assert (await _say(sa, "ask"))["type"] == "ack"
    declined = await _say(sb, "no", v + 2)
    update = await sa.until_version(declined["version"])
    assert update["table"]["takeback"] is None
    assert update["events"] == [{"type": "takeback_declined", "seat": "1", "name": "Ben", "withdrawn": False,
                                 "visible_to": None}]
    # Asked again; Ben moves instead of answering: the request is over, and a yes to it is refused.
    again = await _say(sa, "ask")
    await sb.act({"type": "pick", "n": 1})
    assert (await table_state(server, tid))["takeback"] is None
    assert (await _say(sb, "yes", again["version"]))["code"] == "no_takeback"
    # The asker may withdraw.
    await _say(sa, "ask")
    withdrawn = await _say(sa, "no")
    assert (await sb.until_version(withdrawn["version"]))["events"][0]["withdrawn"] is True
    assert (await table_state(server, tid))["move_count"] == 2
    for thing in (sa, sb, ana, ben):
        await thing.close()


async def test_bad_says_are_refused_with_their_codes_and_change_nothing(server: Server) -> None:
    ana, ben, tid, sa, sb, v = await _table(server)
    await sa.act({"type": "pick", "n": 2})
    watcher = await Player.guest(server.url, "Cy")
    spectator = await Socket.open(server.ws_url, tid, watcher.token)
    anonymous = await Socket.open(server.ws_url, tid)
    for sock in (spectator, anonymous):
        await sock.expect("snapshot")
    bad: list[tuple[Socket, dict[str, Any], str]] = [
        (sa, {"type": "takeback", "say": "maybe", "client_id": "b1"}, "bad_message"),
        (sa, {"type": "takeback", "client_id": "b2"}, "bad_message"),
        (sa, {"type": "takeback", "say": "ask", "proposal": "7", "client_id": "b3"}, "bad_message"),
        (sa, {"type": "takeback", "say": "ask", "proposal": True, "client_id": "b4"}, "bad_message"),
        (sa, {"type": "takeback", "say": "ask", "extra": 1, "client_id": "b5"}, "bad_message"),
        (spectator, {"type": "takeback", "say": "ask", "client_id": "b6"}, "not_seated"),
        (anonymous, {"type": "takeback", "say": "ask", "client_id": "b7"}, "not_signed_in"),
    ]
    for sock, msg, code in bad:
        reply = await _ask(sock, msg, msg["client_id"])
        assert reply["type"] == "error" and reply["code"] == code and reply["message"], (msg, reply)
    # Over REST: the same service, with the codes of its own checks.
    for body, status, code in (({"say": "later"}, 422, "bad_say"), ({"say": "yes", "proposal": "x"}, 422, "bad_proposal"),
                               ({"say": "yes"}, 409, "no_takeback")):
        r = await ben.post(f"/api/tables/{tid}/takeback", body, ok=False)
        assert r.status_code == status and r.json()["error"]["code"] == code, r.text
    r = await watcher.post(f"/api/tables/{tid}/takeback", {"say": "ask"}, ok=False)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_seated"
    table = await table_state(server, tid)
    assert (table["version"], table["move_count"], table["takeback"]) == (v + 1, 1, None)
    for thing in (sa, sb, spectator, anonymous, ana, ben, watcher):
        await thing.close()


async def test_a_rated_game_takes_back_only_moves_that_revealed_nothing(server: Server) -> None:
    ana, ben, tid, sa, sb, v = await _table(server, rated=True)
    await sa.act({"type": "pick", "n": 3})  # secret until Ben picks
    r = await ana.post(f"/api/tables/{tid}/takeback", {"say": "ask"})
    assert r.json()["takeback"]["moves"] == 1
    r = await ben.post(f"/api/tables/{tid}/takeback", {"say": "yes", "proposal": r.json()["takeback"]["id"]})
    assert r.json()["move_count"] == 0 and r.json()["takeback"] is None
    await sa.act({"type": "pick", "n": 3})
    await sb.act({"type": "pick", "n": 1})  # reveals both
    r = await ana.post(f"/api/tables/{tid}/takeback", {"say": "ask"}, ok=False)
    assert r.status_code == 409 and r.json()["error"]["code"] == "takeback_revealed"
    assert (await table_state(server, tid))["move_count"] == 2
    for thing in (sa, sb, ana, ben):
        await thing.close()


async def test_a_preview_says_whether_a_move_could_be_taken_back(server: Server) -> None:
    ana, ben, tid, sa, sb, v = await _table(server)

    async def preview(sock: Socket, action: Any, cid: str) -> dict[str, Any]:
        # The answer is no ack: read it from what the socket receives.
        await sock.send_raw(json.dumps({"type": "preview", "action": action, "client_id": cid}))
        while True:
            msg = await sock.recv()
            if msg.get("client_id") == cid:
                return msg

    assert await preview(sa, {"type": "pick", "n": 1}, "p1") == {"type": "preview", "client_id": "p1", "undoable": True}
    await sa.act({"type": "pick", "n": 1})
    # Ben's pick would reveal both: it cannot be taken back.
    assert (await preview(sb, {"type": "pick", "n": 2}, "p2"))["undoable"] is False
    assert (await preview(sb, {"type": "pick", "n": 9}, "p3"))["code"] == "illegal_action"
    assert (await preview(sb, {"type": "pick", "n": 2.0}, "p3b"))["code"] == "illegal_action"  # a look-alike
    assert (await preview(sa, {"type": "pick", "n": 2}, "p4"))["code"] == "not_your_turn"
    assert (await preview(sa, None, "p5"))["code"] in ("not_your_turn", "illegal_action")
    assert (await _ask(sa, {"type": "preview", "client_id": "p6"}, "p6"))["code"] == "bad_message"
    # Nothing was made: the table is where it was.
    assert (await table_state(server, tid))["version"] == v + 1
    for thing in (sa, sb, ana, ben):
        await thing.close()


async def test_with_nobody_else_to_ask_the_moves_are_taken_back_at_once(server: Server) -> None:
    ana = await Player.guest(server.url, "Ana")
    tid = (await ana.table(seats=2, options={"target": 100}))["id"]
    await ana.post(f"/api/tables/{tid}/bots", {"seat": "1"})
    sock = await Socket.open(server.ws_url, tid, ana.token)
    await sock.expect("snapshot")
    await ana.post(f"/api/tables/{tid}/start")
    latest = await sock.expect("update")
    while "0" not in latest["awaiting"]:
        latest = await sock.expect("update")
    assert (await sock.act({"type": "pick", "n": 3}))["type"] == "ack"
    answer = (await ana.post(f"/api/tables/{tid}/takeback", {"say": "ask"})).json()
    # A bot has no say: nobody is asked, and the game is back before Ana's pick at once.
    assert answer["takeback"] is None
    while True:
        update = await sock.expect("update")
        kinds = [e["type"] for e in update["events"]]
        if "taken_back" in kinds:
            break
    assert kinds == ["takeback_asked", "taken_back"]
    assert "0" in update["awaiting"] and update["view"]["picks"]["0"] is None
    await sock.close()
    await ana.close()
