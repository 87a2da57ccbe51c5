"""Taking back one's own last step over the socket: allowed exactly when the engine says so, durable,
seen by everyone, and refused with a clear error (nothing changed) otherwise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import Database, Server, ServerProcess, requires_postgres
from tests.hardening.helpers import moves, table_state
from tests.platform.client import Player, Socket
from tests.realtime.test_processes import watched_from_two


async def _tiny_table(server: Server) -> tuple[Player, Player, str, Socket, Socket, Socket, int]:
    """Ana (seat 0) and Ben (seat 1) at a started tiny table, with a spectator; the snapshot's version."""
    ana, ben = await Player.guest(server.url, "Ana"), await Player.guest(server.url, "Ben")
    t = await ana.table(seats=2)
    await ben.post(f"/api/tables/{t['id']}/join", {})
    await ana.post(f"/api/tables/{t['id']}/start")
    sa, sb, spec = [await Socket.open(server.ws_url, t["id"], tok) for tok in (ana.token, ben.token, None)]
    version = (await sa.expect("snapshot"))["version"]
    await sb.expect("snapshot")
    await spec.expect("snapshot")
    return ana, ben, t["id"], sa, sb, spec, version


async def _close(*things: Any) -> None:
    for thing in things:
        await thing.close()


async def test_a_secret_pick_is_taken_back_for_everyone(server: Server) -> None:
    ana, ben, tid, sa, sb, spec, v = await _tiny_table(server)
    assert "undo" not in sa.latest  # type: ignore[operator]
    assert (await sa.act({"type": "pick", "n": 3}))["version"] == v + 1
    assert (await sa.until_version(v + 1)).get("undo") is True
    assert "undo" not in await sb.until_version(v + 1) and "undo" not in await spec.until_version(v + 1)

    ack = await sa.undo(v + 1, client_id="undo-1")
    assert ack == {"type": "ack", "client_id": "undo-1", "version": v + 2}
    for sock, seat in ((sa, "0"), (sb, "1"), (spec, None)):
        update = await sock.expect("update", version=v + 2)
        assert update["events"] == [{"type": "undone", "seat": "0", "seq": 1, "visible_to": None}]
        assert update["view"]["picks"]["0"] is None and sorted(update["awaiting"]) == ["0", "1"]
        assert "undo" not in update
        assert (update["actions"] != []) == (seat is not None)
    # Durable: the move is gone from the log and the table, and Ana plays on from there.
    assert await moves(server, tid, ana.token) == []
    table = await table_state(server, tid, ana.token)
    assert (table["version"], table["move_count"]) == (v + 2, 0)
    assert (await sa.act({"type": "pick", "n": 1}))["version"] == v + 3
    assert (await sb.act({"type": "pick", "n": 2}))["version"] == v + 4
    revealed = await spec.until_version(v + 4)
    assert revealed["view"]["scores"] == {"0": 1, "1": 2}
    await _close(sa, sb, spec, ana, ben)


async def test_undo_is_refused_unless_it_is_your_own_untouched_last_step(server: Server) -> None:
    ana, ben, tid, sa, sb, spec, v = await _tiny_table(server)
    assert (await sa.undo(v))["code"] == "nothing_to_undo"  # no move yet
    await sa.act({"type": "pick", "n": 3})
    refusals = [
        (sb, v + 1, "nothing_to_undo"),  # not Ben's step
        (spec, v + 1, "not_seated"),
        (sa, v, "stale_version"),
        (sa, None, "bad_version"),
        (sa, "2", "bad_version"),
        (sa, True, "bad_version"),
    ]
    for sock, version, code in refusals:
        reply = await sock.undo(version)
        assert reply["type"] == "error" and reply["code"] == code, (version, reply)
        assert reply["message"]
    # Ben's pick reveals both: from then on neither step can be taken back.
    await sb.act({"type": "pick", "n": 0})
    assert (await sb.undo(v + 2))["code"] == "nothing_to_undo"
    assert (await sa.undo(v + 2))["code"] == "nothing_to_undo"
    table = await table_state(server, tid)
    assert (table["version"], table["move_count"]) == (v + 2, 2)
    # The sockets stayed up.
    assert (await sa.act({"type": "bump"}) if sa.latest and sa.latest["awaiting"] == ["0"]
            else await sb.act({"type": "bump"}))["type"] == "ack"
    await _close(sa, sb, spec, ana, ben)


async def _food_truck_in_prep(server: Server) -> tuple[Player, Player, str, Socket, Socket]:
    """A two-player Food Truck game whose trucks are chosen: both order in secret (prep)."""
    ana, ben = await Player.guest(server.url, "Ana"), await Player.guest(server.url, "Ben")
    t = await ana.table(game="food-truck", seats=2)
    await ben.post(f"/api/tables/{t['id']}/join", {})
    await ana.post(f"/api/tables/{t['id']}/start")
    socks = {"0": await Socket.open(server.ws_url, t["id"], ana.token),
             "1": await Socket.open(server.ws_url, t["id"], ben.token)}
    latest = await socks["0"].expect("snapshot")
    await socks["1"].expect("snapshot")
    while latest["view"]["phase"] == "trucks":
        seat = latest["awaiting"][0]
        sock = socks[seat]
        await sock.until_version(latest["version"])
        ack = await sock.act(sock.latest["actions"][0])  # type: ignore[index]
        latest = await socks["0"].until_version(ack["version"])
    return ana, ben, t["id"], socks["0"], socks["1"]


async def _chain_of_steps_taken_back(server: Server) -> None:
    """Ana places three cards in her secret order, the server restarts, and she takes all three back."""
    ana, ben, tid, sa, sb = await _food_truck_in_prep(server)
    seen = [sa.latest]
    for _ in range(3):
        now = seen[-1]
        assert now is not None
        place = next(a for a in now["actions"] if a["type"] == "place")
        ack = await sa.act(place)
        seen.append(await sa.until_acked(ack))
        assert seen[-1].get("undo") is True
    await _close(sa, sb)
    server.stop()
    server.start()
    sa = await Socket.open(server.ws_url, tid, ana.token)
    latest = await sa.expect("snapshot")
    assert latest.get("undo") is True  # known again after the restart, from the replayed moves
    for before in reversed(seen[:-1]):
        assert before is not None
        ack = await sa.undo(latest["version"])
        assert ack["type"] == "ack", ack
        latest = await sa.until_acked(ack)
        assert latest["view"] == before["view"] and latest["actions"] == before["actions"]
        assert (latest.get("undo") is True) == (before is not seen[0])  # a truck choice is public: no undo
    assert (await sa.undo(latest["version"]))["code"] == "nothing_to_undo"
    assert len(await moves(server, tid, ana.token)) == len(seen[0]["table"]["seats"])  # the truck choices
    await _close(sa, ana, ben)


async def test_steps_are_taken_back_one_by_one_after_a_restart(fresh_db: Database, tmp_path: Path) -> None:
    srv = Server(fresh_db, tmp_path).start()
    try:
        await _chain_of_steps_taken_back(srv)
    finally:
        srv.stop()


async def test_taking_back_across_snapshots_replays_from_the_seed(fresh_db: Database, tmp_path: Path) -> None:
    """With a snapshot at every move, each step taken back lands on the snapshot: the game is replayed from
    its seed to keep one older than the new last move."""
    srv = Server(fresh_db, tmp_path, SNAPSHOT_EVERY="1").start()
    try:
        await _chain_of_steps_taken_back(srv)
    finally:
        srv.stop()


async def test_a_step_taken_back_on_one_process_reaches_another(fresh_db: Database, tmp_path: Path) -> None:
    requires_postgres()
    one = ServerProcess(fresh_db, tmp_path).start()
    two = ServerProcess(fresh_db, tmp_path, RUN_MIGRATIONS="false").start()
    try:
        ana, ben, t, watcher, v = await watched_from_two(one, two)
        sa = await Socket.open(one.ws_url, t["id"], ana.token)
        await sa.expect("snapshot")
        await sa.act({"type": "pick", "n": 3})
        assert (await watcher.until_version(v + 1))["view"]["picks"]["0"] == "hidden"
        assert (await sa.undo(v + 1))["version"] == v + 2
        assert (await watcher.until_version(v + 2))["view"]["picks"]["0"] is None
        # Process two plays on from the state without Ana's pick.
        sb = await Socket.open(two.ws_url, t["id"], ben.token)
        assert (await sb.expect("snapshot"))["version"] == v + 2
        assert (await sb.act({"type": "pick", "n": 2}))["version"] == v + 3
        latest = await sa.until_version(v + 3)
        assert latest["view"]["picks"] == {"0": None, "1": "hidden"} and latest["awaiting"] == ["0"]
        assert "undo" not in latest
        await _close(sa, sb, watcher, ana, ben)
    finally:
        one.stop()
        two.stop()
