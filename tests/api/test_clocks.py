"""Time controls over real HTTP and sockets: chosen at creation (wrong ones refused, nothing made), shown in the lobby's
lists and at the table, and the clocks with the server's `now` in every table answer, snapshot and update."""

from __future__ import annotations

import time

from tests.conftest import Server
from tests.platform.client import Player, Socket

REALTIME = {"kind": "realtime", "base": 600, "increment": 10}


async def test_a_wrong_time_control_is_refused_and_makes_no_table(server: Server) -> None:
    ana = await Player.guest(server.url)
    before = (await ana.http.get("/api/me/tables")).json()["tables"]
    for tc, words in [
        ({"kind": "hourglass"}, "kind"),
        ({"kind": "realtime", "base": 600}, "increment"),
        ({"kind": "turn", "per_move": 5, "bank": 0}, "per_move"),
        ({"kind": "realtime", "base": 600, "increment": 0, "timeout": "shrug"}, "timeout"),
        ([600, 10], "object"),
    ]:
        r = await ana.post("/api/tables", {"game": "tiny", "seats": 2, "time_control": tc}, ok=False)
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == "bad_time_control" and words in r.json()["error"]["message"]
    assert (await ana.http.get("/api/me/tables")).json()["tables"] == before
    await ana.close()


async def test_the_time_control_is_listed_and_the_clocks_come_with_the_servers_now(server: Server) -> None:
    ana, bo = await Player.guest(server.url, "Ana"), await Player.guest(server.url, "Bo")
    t = await ana.table(time_control=REALTIME, name="Clocked")
    assert t["time_control"] == {**REALTIME, "timeout": "bot_move", "per_move": None, "bank": None}
    assert t["clock"] is None and t["rated"] is False  # a bot may play a turn that runs out: never rated
    untimed = await ana.table(name="Untimed")
    assert untimed["time_control"] is None
    listed = {x["id"]: x for x in (await ana.http.get("/api/tables", params={"status": "open"})).json()["tables"]}
    assert listed[t["id"]]["time_control"]["base"] == 600 and listed[untimed["id"]]["time_control"] is None
    await bo.post(f"/api/tables/{t['id']}/join", {})
    started = (await ana.post(f"/api/tables/{t['id']}/start")).json()
    clock = started["clock"]
    assert clock["timed_out"] == [] and set(clock["seats"]) == {"0", "1"}
    assert all(s["running"] and 595_000 < s["left"] <= 600_000 for s in clock["seats"].values())  # both pick at once
    assert abs(started["now"] - time.time() * 1000) < 5_000
    mine = {x["id"]: x for x in (await bo.http.get("/api/me/tables")).json()["tables"]}
    assert mine[t["id"]]["clock"]["seats"]["1"]["running"]

    sock = await Socket.open(server.ws_url, t["id"], ana.token)
    snap = await sock.expect("snapshot")
    assert snap["clock"]["seats"]["0"]["running"] and isinstance(snap["now"], int)
    await sock.act({"type": "pick", "n": 1})
    update = await sock.expect("update")
    seats = update["clock"]["seats"]
    assert not seats["0"]["running"] and seats["1"]["running"]
    assert 600_000 < seats["0"]["left"] <= 610_000  # the increment came at the end of the turn
    await sock.close()
    await ana.close()
    await bo.close()
