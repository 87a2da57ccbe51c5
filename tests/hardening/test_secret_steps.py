"""No side channel on secret steps: a step that reveals nothing to anyone but its author is a draft, outside the
table's versions (services/drafts.py). Whether a secret choice took one step or five, a rival and a spectator get the
same frames (none until the choice is complete, then one), and the table's version, move count, update time and move
list say nothing of the steps; the author sees every step, may take each back, and keeps them through a restart.
The engine-level half, for all four games, is tests/games/test_secret_choices.py."""

from __future__ import annotations

import asyncio
import random
from datetime import datetime
from pathlib import Path
from typing import Any

from tests.api.test_undo import _food_truck_in_prep
from tests.conftest import Database, Server
from tests.hardening.helpers import close_all, moves, table_state
from tests.platform.client import Player, Socket


def drained(sock: Socket) -> list[dict[str, Any]]:
    """The messages the socket got since last asked, presence notices aside (who is connected, not the game)."""
    out = []
    while not sock.queue.empty():
        msg = sock.queue.get_nowait()
        if msg.get("type") != "presence":
            out.append(msg)
    return out


def public(table: dict[str, Any]) -> tuple[Any, ...]:
    """What the table's REST answer could tell of a step: its version, move count, who is awaited, when it changed."""
    return (table["version"], table["move_count"], table["awaiting"],
            datetime.fromisoformat(table["updated_at"]).replace(tzinfo=None))


async def settled(*socks: Socket) -> None:
    """Give the server a moment to send anything it was going to (a frame that should not come)."""
    await asyncio.sleep(0.3)
    for sock in socks:
        drained(sock)


async def test_a_chain_of_fcm_restructuring_steps_shows_as_one_change_to_everyone_else(
    fresh_db: Database, tmp_path: Path
) -> None:
    """In Food Chain Magnate's restructuring Ana puts cards to work and takes them back five times, Ben once: the
    spectator and the rival hear nothing until each submits, then one update each, alike."""
    # The game is played fast to a restructuring: a server that takes more than 20 messages a second from a socket.
    server = Server(fresh_db, tmp_path, WS_RATE_PER_SECOND="1000", WS_RATE_BURST="1000").start()
    try:
        await fcm_restructuring_steps_show_as_one_change(server)
    finally:
        server.stop()


async def fcm_restructuring_steps_show_as_one_change(server: Server) -> None:
    ana, ben = await Player.guest(server.url, "Ana"), await Player.guest(server.url, "Ben")
    t = await ana.table(game="food-chain-magnate", seats=2)
    tid = t["id"]
    await ben.post(f"/api/tables/{tid}/join", {})
    await ana.post(f"/api/tables/{tid}/start")
    socks = {"0": await Socket.open(server.ws_url, tid, ana.token), "1": await Socket.open(server.ws_url, tid, ben.token)}
    spec = await Socket.open(server.ws_url, tid)
    for sock in (*socks.values(), spec):
        await sock.expect("snapshot")

    def ready(seat: str) -> bool:
        latest = socks[seat].latest
        return latest is not None and len({a["card"] for a in latest["actions"] if a["type"] == "work"}) >= 2

    # Both play random legal moves until a restructuring in which Ana has two kinds of card to put to work, and Ben
    # one at least.
    rng = random.Random(3)
    for _ in range(2000):
        view = (spec.latest or {}).get("view") or {}
        if view.get("phase") == "restructuring" and ready("0") and "1" in spec.latest["awaiting"] and any(  # type: ignore[index]
                a["type"] == "work" for a in socks["1"].latest["actions"]):  # type: ignore[index]
            break
        awaited = (spec.latest or {}).get("awaiting") or []
        if not awaited:
            await spec.until_version(spec.latest["version"] + 1)  # type: ignore[index]
            continue
        sock = socks[awaited[0]]
        await sock.until_version(spec.latest["version"])  # type: ignore[index]
        ack = await sock.act(rng.choice(sock.latest["actions"]))  # type: ignore[index]
        assert ack["type"] == "ack", ack
        await spec.until_version(ack["version"]) if "draft" not in ack else await sock.until_acked(ack)
    else:
        raise AssertionError("no restructuring with a choice came")
    sa, sb = socks["0"], socks["1"]
    await settled(sa, sb, spec)
    before = await table_state(server, tid)
    listed = await moves(server, tid)
    v = before["version"]

    cards = sorted({a["card"] for a in sa.latest["actions"] if a["type"] == "work"})  # type: ignore[index]
    steps = [{"type": "work", "card": cards[0]}, {"type": "work", "card": cards[1]},
             {"type": "take_back", "card": cards[1]}, {"type": "work", "card": cards[1]},
             {"type": "take_back", "card": cards[1]}]
    for n, step in enumerate(steps, start=1):
        ack = await sa.act(step)
        assert ack["version"] == v and ack["draft"] == n, ack
        shown = await sa.until_acked(ack)
        assert shown["type"] == "draft" and shown["undo"] is True
        assert [e["type"] for e in shown["events"]] == ["work_chosen" if step["type"] == "work" else "work_taken_back"]
    assert shown["view"]["secret"]["0"]["work"] == [cards[0]]  # Ana sees her choice so far
    await asyncio.sleep(0.3)
    assert drained(sb) == [] and drained(spec) == []  # nothing at all reached the others
    assert public(await table_state(server, tid)) == public(before)  # version, move count, update time: all as they were
    assert await moves(server, tid) == listed

    ack = await sa.act({"type": "submit"})
    assert ack["version"] == v + 1 and "draft" not in ack
    frames = {}
    for who, sock in (("1", sb), (None, spec)):
        update = await sock.expect("update", version=v + 1)
        assert drained(sock) == []
        assert update["events"] == [{"type": "structure_submitted", "player": "0", "visible_to": None}], who
        assert update["view"]["secret"]["0"] == {"done": True}
        frames[who] = update
    carried = (await moves(server, tid))[-1]
    assert (carried["seq"], carried["action"], carried["steps"]) == (before["move_count"] + 1, None, None)
    assert [e["type"] for e in carried["events"]] == ["structure_submitted"]
    mine = (await moves(server, tid, ana.token))[-1]
    assert mine["action"] == {"type": "submit"} and mine["steps"] == steps
    assert len(mine["events"]) == 6  # her five steps' own events, then the public one

    # Ben takes one step: the others see the same single change for it as for Ana's five.
    await settled(sa)
    ack = await sb.act(next(a for a in sb.latest["actions"] if a["type"] == "work"))  # type: ignore[index]
    assert ack["draft"] == 1
    await asyncio.sleep(0.3)
    assert drained(sa) == [] and drained(spec) == []
    ack = await sb.act({"type": "submit"})
    assert ack["version"] == v + 2
    update = await spec.expect("update", version=v + 2)
    assert update["events"][0] == {"type": "structure_submitted", "player": "1", "visible_to": None}
    assert not [e for e in update["events"] if e.get("visible_to") is not None]
    await close_all(sa, sb, spec, ana, ben)


async def test_food_truck_prep_drafts_survive_a_restart_and_are_taken_back_unseen(
    fresh_db: Database, tmp_path: Path
) -> None:
    server = Server(fresh_db, tmp_path).start()
    try:
        ana, ben, tid, sa, sb = await _food_truck_in_prep(server)
        start = sa.latest
        assert start is not None and "undo" not in start and start["view"]["phase"] == "prep"
        v = start["version"]
        before = await table_state(server, tid)
        for n in (1, 2):
            place = next(a for a in sa.latest["actions"] if a["type"] == "place")  # type: ignore[index]
            ack = await sa.act(place)
            assert (ack["version"], ack["draft"]) == (v, n)
            await sa.until_acked(ack)
        stacked = sa.latest["view"]["seats"]["0"]["draw_pile"]  # type: ignore[index]
        assert len(stacked) == 2
        await sa.close()
        await sb.close()
        server.stop()
        server.start()

        # After the restart: Ana's drafts are hers still, and the table is as the others last saw it.
        sa = await Socket.open(server.ws_url, tid, ana.token)
        mine = await sa.expect("snapshot")
        assert (mine["version"], mine["draft"], mine["undo"]) == (v, 2, True)
        assert mine["view"]["seats"]["0"]["draw_pile"] == stacked
        sb = await Socket.open(server.ws_url, tid, ben.token)
        theirs = await sb.expect("snapshot")
        assert theirs["version"] == v and "draft" not in theirs and theirs["view"]["seats"]["0"]["draw_pile"] is None
        # Read afresh from the database: the same version, move count and turn. (Its update time is the database's
        # commit time, a little after the time the writing process kept for it, so it is compared within one process.)
        assert public(await table_state(server, tid))[:3] == public(before)[:3]
        before = await table_state(server, tid)

        # Taken back one by one: Ana's picture goes back, nobody else hears of it.
        ack = await sa.undo(v)
        assert (ack["version"], ack["draft"]) == (v, 1)
        shown = await sa.until_acked(ack)
        assert shown["view"]["seats"]["0"]["draw_pile"] == stacked[:1]
        ack = await sa.undo(v)
        shown = await sa.until_acked(ack)
        assert ack["draft"] == 0 and shown["view"]["seats"]["0"]["draw_pile"] == [] and "undo" not in shown
        assert (await sa.undo(v))["code"] == "nothing_to_undo"
        await asyncio.sleep(0.3)
        assert drained(sb) == []
        assert public(await table_state(server, tid)) == public(before)

        # The whole order: one move carrying every draft, its steps seen by Ana alone.
        while True:
            place = next(a for a in sa.latest["actions"] if a["type"] == "place")  # type: ignore[index]
            ack = await sa.act(place)
            await sa.until_acked(ack)
            if "draft" not in ack:
                break
        assert ack["version"] == v + 1
        carried = (await moves(server, tid, ana.token))[-1]
        assert carried["action"]["type"] == "place" and len(carried["steps"]) >= 1
        assert (await moves(server, tid, ben.token))[-1]["steps"] is None
        update = await sb.expect("update", version=v + 1)
        assert [e["type"] for e in update["events"]] == ["order_ready"]
        await close_all(sa, sb, ana, ben)
    finally:
        server.stop()


async def test_a_move_taken_back_gives_back_the_drafts_it_carried(server: Server) -> None:
    """The tiny game's leans are drafts and its pick may be taken back while the others still pick: the drafts the
    pick carried are Ana's drafts again, as they were."""
    ana, ben = await Player.guest(server.url, "Ana"), await Player.guest(server.url, "Ben")
    t = await ana.table(seats=2, options={"leans": True})
    await ben.post(f"/api/tables/{t['id']}/join", {})
    await ana.post(f"/api/tables/{t['id']}/start")
    sa, sb = await Socket.open(server.ws_url, t["id"], ana.token), await Socket.open(server.ws_url, t["id"], ben.token)
    v = (await sa.expect("snapshot"))["version"]
    await sb.expect("snapshot")
    for n, lean in enumerate((2, 1), start=1):
        ack = await sa.act({"type": "lean", "n": lean})
        assert (ack["version"], ack["draft"]) == (v, n)
        await sa.until_acked(ack)
    assert sa.latest["view"]["leaning"] == {"0": 1}  # type: ignore[index]
    ack = await sa.act({"type": "pick", "n": 3})
    assert "draft" not in ack
    picked = await sa.until_acked(ack)
    assert "draft" not in picked and picked["undo"] is True
    update = await sb.expect("update", version=v + 1)
    assert update["view"]["leaning"] == {"1": None} and [e["type"] for e in update["events"]] == ["chose"]

    ack = await sa.undo(v + 1)
    back = await sa.until_acked(ack)
    assert back["version"] == v + 2 and back["draft"] == 2 and back["undo"] is True
    assert back["view"]["picks"]["0"] is None and back["view"]["leaning"] == {"0": 1}
    undone = await sb.expect("update", version=v + 2)
    assert undone["events"] == [{"type": "undone", "seat": "0", "seq": 1, "visible_to": None}]
    assert "draft" not in undone and undone["view"]["leaning"] == {"1": None}
    # The drafts are stored again: a fresh socket (another tab) sees them, and the next pick carries them.
    again = await Socket.open(server.ws_url, t["id"], ana.token)
    assert (await again.expect("snapshot"))["draft"] == 2
    ack = await sa.act({"type": "pick", "n": 0})
    assert ack["version"] == v + 3
    carried = (await moves(server, t["id"], ana.token))[-1]
    assert carried["steps"] == [{"type": "lean", "n": 2}, {"type": "lean", "n": 1}]
    await close_all(sa, sb, again, ana, ben)
