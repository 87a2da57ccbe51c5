"""Game integrity: a client id is its sender's, replays are read in one snapshot, invite links can be withdrawn."""

from __future__ import annotations

import asyncio

import httpx

from tests.conftest import Server
from tests.hardening.helpers import close_all, guests, moves, started_tiny
from tests.platform.client import Socket


async def test_the_same_client_id_from_two_seats_is_two_moves(server: Server) -> None:
    players, tid = await started_tiny(server)
    socks = [await Socket.open(server.ws_url, tid, p.token) for p in players]
    for s in socks:
        await s.expect("snapshot")
    first = await socks[0].act({"type": "pick", "n": 1}, client_id="same-id")
    second = await socks[1].act({"type": "pick", "n": 2}, client_id="same-id")
    assert first["type"] == second["type"] == "ack" and second["version"] == first["version"] + 1
    stored = await moves(server, tid)
    assert [(m["seat"], m["seq"]) for m in stored] == [("0", 1), ("1", 2)]
    # Its sender's retry is still answered with the first ack, and nothing is applied twice.
    again = await socks[1].act({"type": "pick", "n": 2}, client_id="same-id")
    assert again == second
    assert len(await moves(server, tid)) == 2
    await close_all(*socks, *players)


async def test_a_replay_step_is_never_labelled_with_moves_it_lacks(server: Server) -> None:
    players, tid = await started_tiny(server)
    sock = await Socket.open(server.ws_url, tid, players[0].token)
    await sock.expect("snapshot")
    stop = asyncio.Event()
    seen = {"consistent": 0, "refused": 0}

    async def take_back_and_forth() -> None:
        # Seat 0 picks (move 1) and takes it back, over and over, while step 1 is read.
        try:
            for _ in range(30):
                ack = await sock.act({"type": "pick", "n": 3})
                assert ack["type"] == "ack", ack
                undone = await sock.undo(ack["version"])
                assert undone["type"] == "ack", undone
                await asyncio.sleep(0.1)  # within the socket's message rate
        finally:
            stop.set()

    async def read_step_one() -> None:
        async with httpx.AsyncClient(base_url=server.url) as c:
            while not stop.is_set():
                r = await c.get(f"/api/tables/{tid}/replay", params={"step": 1})
                if r.status_code == 422:
                    assert r.json()["error"]["code"] == "bad_step"
                    seen["refused"] += 1
                    continue
                body = r.json()
                assert r.status_code == 200
                # Step 1 is seat 0's pick: labelled 1, the view must hold it (hidden from a spectator).
                assert body["step"] == 1 and body["view"]["picks"]["0"] == "hidden", body
                seen["consistent"] += 1

    await asyncio.gather(take_back_and_forth(), read_step_one())
    assert seen["consistent"] > 0
    await close_all(sock, *players)


async def test_the_host_withdraws_an_invite_link(server: Server) -> None:
    host, first, second = await guests(server, "Host", "First", "Second")
    t = await host.table(seats=3, visibility="private")
    old = t["invite_code"]
    watching = await Socket.open(server.ws_url, t["id"], first.token, invite=old)
    await watching.expect("snapshot")
    assert (await first.http.get(f"/api/tables/{t['id']}", params={"invite": old})).status_code == 200

    refused = await first.post(f"/api/tables/{t['id']}/invite", ok=False)
    assert refused.status_code in (403, 404)  # only the host; one who is not at the table does not even see it
    rotated = (await host.post(f"/api/tables/{t['id']}/invite")).json()
    new = rotated["invite_code"]
    assert new and new != old

    # The old link lets nobody in any more, through any door; the one watching by it loses sight of the table.
    assert (await second.http.get(f"/api/tables/{t['id']}", params={"invite": old})).status_code == 404
    join_old = await second.post(f"/api/tables/{t['id']}/join", {"invite_code": old}, ok=False)
    assert join_old.status_code in (403, 404)
    late = await Socket.open(server.ws_url, t["id"], second.token, invite=old)
    assert (await late.expect("error"))["code"] == "not_found"
    while (await watching.recv())["type"] != "closed":
        pass
    # The new one works.
    await second.post(f"/api/tables/{t['id']}/join", {"invite_code": new})
    public = (await second.http.get(f"/api/tables/{t['id']}")).json()
    assert "invite_code" not in public or public["invite_code"] is None
    # A public table has no link to change.
    open_table = await host.table(seats=2)
    assert (await host.post(f"/api/tables/{open_table['id']}/invite", ok=False)).json()["error"]["code"] == "not_private"
    await close_all(watching, late, host, first, second)
