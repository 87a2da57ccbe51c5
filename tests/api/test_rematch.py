"""Playing a finished game again: the first player to ask opens the rematch, the others join it."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import Server
from tests.platform.client import Player, Socket


async def _play_to_the_end(socks: dict[str, Socket]) -> dict[str, Any]:
    """Each human seat plays its first listed action whenever awaited; the finished table."""
    watcher = next(iter(socks.values()))
    latest = watcher.latest or await watcher.expect("snapshot")
    while latest["table"]["status"] != "finished":
        mine = [seat for seat in latest["awaiting"] if seat in socks]
        if mine:
            sock = socks[mine[0]]
            now = await sock.until_version(latest["version"])
            reply = await sock.act(now["actions"][0], expected_version=now["version"])
            assert reply["type"] in ("ack", "error"), reply
        latest = await watcher.until_version(latest["version"] + 1)
    return dict(latest["table"])


async def test_the_players_of_a_finished_game_play_it_again(server: Server) -> None:
    ana, ben, cy = [await Player.guest(server.url, n) for n in ("Ana", "Ben", "Cy")]
    t = await ana.table(seats=3, visibility="private", options={"target": 1}, name="Friday night")
    tid, invite = t["id"], t["invite_code"]
    await ben.post(f"/api/tables/{tid}/join", {"invite_code": invite})
    await ana.post(f"/api/tables/{tid}/bots", {"seat": "2"})
    await ana.post(f"/api/tables/{tid}/start")
    early = await ben.post(f"/api/tables/{tid}/rematch", ok=False)
    assert early.status_code == 409 and early.json()["error"]["code"] == "not_finished"

    # Ben lets a bot play for him; the rematch gives him his seat back all the same.
    await ben.post(f"/api/tables/{tid}/stand_in", {"seat": "1"})
    socks = {"0": await Socket.open(server.ws_url, tid, ana.token)}
    finished = await _play_to_the_end(socks)
    assert finished["rematch_id"] is None
    watching = await cy.post(f"/api/tables/{tid}/rematch", ok=False)
    assert watching.status_code in (403, 404) and watching.json()["error"]["code"] in ("not_seated", "not_found")

    # Ben asks first: a new private table like the old one, with him as host in his own seat.
    new = (await ben.post(f"/api/tables/{tid}/rematch")).json()
    assert new["id"] != tid and new["status"] == "open" and new["game"] == "tiny"
    assert (new["visibility"], new["options"], new["name"], new["is_host"]) == ("private", {"target": 1},
                                                                              "Friday night", True)
    assert new["invite_code"]
    assert [(s["seat"], (s["user"] or {}).get("name"), s["bot"]) for s in new["seats"]] == [
        ("0", None, False), ("1", "Ben", False), ("2", None, True)]
    update = await socks["0"].until_version(finished["version"] + 1)
    assert update["table"]["rematch_id"] == new["id"]
    assert update["events"] == [{"type": "rematch", "seat": "1", "table_id": new["id"], "visible_to": None}]

    # Ana joins it in her seat without the invite, and asking twice changes nothing.
    for _ in range(2):
        joined = (await ana.post(f"/api/tables/{tid}/rematch")).json()
        assert joined["id"] == new["id"] and joined["my_seat"] == "0" and not joined["is_host"]
    assert (await ben.post(f"/api/tables/{tid}/rematch")).json()["my_seat"] == "1"
    async with httpx.AsyncClient(base_url=server.url) as anyone:
        assert (await anyone.get(f"/api/tables/{new['id']}")).status_code == 404  # still private
    started = (await ben.post(f"/api/tables/{new['id']}/start")).json()
    assert started["status"] == "playing" and started["seat_count"] == 3
    for sock in socks.values():
        await sock.close()
    for who in (ana, ben, cy):
        await who.close()
