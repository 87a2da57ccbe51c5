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
    assert (new["visibility"], new["options"], new["name"], new["is_host"]) == ("private", {"target": 1, "leans": False},
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


async def _finished_with_mutes(server: Server) -> tuple[Player, Player, Player, Player, str]:
    """Ana hosts a tiny game with Ben and a bot; she muted Cy (who chatted) and Dee (who only watched). Finished."""
    ana, ben, cy, dee = [await Player.guest(server.url, n) for n in ("Ana", "Ben", "Cy", "Dee")]
    t = await ana.table(seats=3, options={"target": 1})
    tid = t["id"]
    await ben.post(f"/api/tables/{tid}/join", {})
    await ana.post(f"/api/tables/{tid}/bots", {"seat": "2"})
    await ana.post(f"/api/tables/{tid}/start")
    await cy.post(f"/api/tables/{tid}/chat", {"text": "boo"})
    sd = await Socket.open(server.ws_url, tid, dee.token)
    await sd.expect("snapshot")
    for who in (cy, dee):
        assert (await ana.http.put(f"/api/tables/{tid}/chat/mutes/{who.user['id']}")).status_code == 200
    await sd.close()
    await ben.post(f"/api/tables/{tid}/stand_in", {"seat": "1"})
    socks = {"0": await Socket.open(server.ws_url, tid, ana.token)}
    await _play_to_the_end(socks)
    await socks["0"].close()
    return ana, ben, cy, dee, tid


async def _muted_names(host: Player, table_id: str) -> list[str]:
    r = await host.http.get(f"/api/tables/{table_id}/chat/mutes")
    assert r.status_code == 200, r.text
    return [m["user"]["name"] for m in r.json()["mutes"]]


async def test_the_hosts_mutes_carry_over_to_the_rematch(server: Server) -> None:
    ana, ben, cy, dee, tid = await _finished_with_mutes(server)
    new = (await ana.post(f"/api/tables/{tid}/rematch")).json()  # the same host
    assert new["is_host"] is True
    assert await _muted_names(ana, new["id"]) == ["Cy", "Dee"]  # in the order she muted them
    for who in (cy, dee):
        r = await who.post(f"/api/tables/{new['id']}/chat", {"text": "again"}, ok=False)
        assert r.status_code == 403 and r.json()["error"]["code"] == "muted"
        assert (await who.http.get(f"/api/tables/{new['id']}/chat")).json()["muted"] is True
    # Ben was never muted: he joins and talks; the host may still unmute someone at the new table.
    await ben.post(f"/api/tables/{tid}/rematch")
    assert (await ben.post(f"/api/tables/{new['id']}/chat", {"text": "rematch!"})).status_code == 200
    assert (await ana.http.delete(f"/api/tables/{new['id']}/chat/mutes/{cy.user['id']}")).status_code == 200
    assert (await cy.post(f"/api/tables/{new['id']}/chat", {"text": "thanks"})).status_code == 200
    assert await _muted_names(ana, tid) == ["Cy", "Dee"]  # the finished table keeps its own
    for who in (ana, ben, cy, dee):
        await who.close()


async def test_a_rematch_opened_by_another_player_keeps_the_mutes_but_never_mutes_its_host(server: Server) -> None:
    ana, ben, cy, dee, tid = await _finished_with_mutes(server)
    # Ana also muted Ben, a player; Ben opens the rematch and hosts it.
    assert (await ana.http.put(f"/api/tables/{tid}/chat/mutes/{ben.user['id']}")).status_code == 200
    new = (await ben.post(f"/api/tables/{tid}/rematch")).json()
    assert new["is_host"] is True and new["host"]["id"] == ben.user["id"]
    # The mutes stand (the new host sees them and may lift them), but nobody mutes a host: Ben may talk.
    assert await _muted_names(ben, new["id"]) == ["Cy", "Dee"]
    assert (await ben.post(f"/api/tables/{new['id']}/chat", {"text": "my table"})).status_code == 200
    r = await dee.post(f"/api/tables/{new['id']}/chat", {"text": "hi"}, ok=False)
    assert r.status_code == 403 and r.json()["error"]["code"] == "muted"
    joined = (await ana.post(f"/api/tables/{tid}/rematch")).json()  # Ana, a player there now, is not muted
    assert joined["is_host"] is False
    assert (await ana.post(f"/api/tables/{new['id']}/chat", {"text": "fine"})).status_code == 200
    for who in (ana, ben, cy, dee):
        await who.close()
