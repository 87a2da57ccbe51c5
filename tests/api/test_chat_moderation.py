"""The host's chat moderation (removing a line, muting a person) and a socket that loses its right to see a
private table, over real HTTP and websockets."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from tests.conftest import CHAT_LINE_A_MINUTE, Database, Server
from tests.platform.client import Player, Socket


async def _started(server: Server) -> tuple[Player, Player, str]:
    ana, ben = await Player.guest(server.url, "Ana"), await Player.guest(server.url, "Ben")
    t = await ana.table(seats=2, options={"target": 50})
    await ben.post(f"/api/tables/{t['id']}/join", {})
    await ana.post(f"/api/tables/{t['id']}/start")
    return ana, ben, t["id"]


def _refused(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code and r.json()["error"]["message"]


async def _nothing_more(sock: Socket, kinds: tuple[str, ...]) -> None:
    """No message of these kinds reached the socket before the answer to a ping."""
    await sock.send_raw('{"type": "ping"}')
    while (msg := await sock.recv())["type"] != "pong":
        assert msg["type"] not in kinds, msg


async def _texts(p: Player, tid: str) -> list[str]:
    r = await p.http.get(f"/api/tables/{tid}/chat")
    assert r.status_code == 200, r.text
    return [m["text"] for m in r.json()["messages"]]


async def test_the_host_mutes_a_player_and_a_spectator_and_unmutes_them(server: Server) -> None:
    ana, ben, tid = await _started(server)
    cy, dee = await Player.guest(server.url, "Cy"), await Player.guest(server.url, "Dee")
    chat, mutes = f"/api/tables/{tid}/chat", f"/api/tables/{tid}/chat/mutes"
    sockets = {p.user["name"]: await Socket.open(server.ws_url, tid, p.token) for p in (ana, ben, cy, dee)}
    for s in sockets.values():
        await s.expect("snapshot")
    await cy.post(chat, {"text": "go Ben"})  # a spectator who chatted

    r = await ana.http.put(f"{mutes}/{ben.user['id']}")
    assert r.status_code == 200, r.text
    assert r.json()["user"] == {"id": ben.user["id"], "name": "Ben"} and r.json()["created_at"]
    # The muted person and the host are told; the others are not.
    for name in ("Ana", "Ben"):
        told = await sockets[name].expect("chat_mute")
        assert told == {"type": "chat_mute", "user": {"id": ben.user["id"], "name": "Ben"}, "muted": True}
    for name in ("Cy", "Dee"):
        await _nothing_more(sockets[name], ("chat_mute",))

    _refused(await ben.post(chat, {"text": "hey"}, ok=False), 403, "muted")
    refused = await sockets["Ben"].chat("over the socket")
    assert refused["type"] == "error" and refused["code"] == "muted"
    assert (await ben.http.get(chat)).json()["muted"] is True
    assert (await cy.http.get(chat)).json()["muted"] is False
    # The player still plays.
    assert (await sockets["Ben"].act({"type": "pick", "n": 1}))["type"] == "ack"

    assert (await ana.http.put(f"{mutes}/{cy.user['id']}")).status_code == 200  # a spectator
    _refused(await cy.post(chat, {"text": "hm"}, ok=False), 403, "muted")
    again = await ana.http.put(f"{mutes}/{ben.user['id']}")  # muting twice changes nothing
    assert again.status_code == 200 and again.json() == r.json()

    listed = (await ana.http.get(mutes)).json()["mutes"]
    assert [m["user"]["name"] for m in listed] == ["Ben", "Cy"]

    # Nobody mutes the host; only the host mutes; only people at the table (seated, or who chatted there).
    _refused(await ana.http.put(f"{mutes}/{ana.user['id']}"), 403, "cannot_mute_host")
    _refused(await ben.http.put(f"{mutes}/{ana.user['id']}"), 403, "not_host")
    _refused(await cy.http.put(f"{mutes}/{dee.user['id']}"), 403, "not_host")
    _refused(await ben.http.get(mutes), 403, "not_host")
    _refused(await ben.http.delete(f"{mutes}/{ben.user['id']}"), 403, "not_host")
    eve = await Player.guest(server.url, "Eve")  # never came to the table (Dee watches: she may be muted)
    _refused(await ana.http.put(f"{mutes}/{eve.user['id']}"), 404, "not_at_table")
    await eve.close()
    _refused(await ana.http.put(f"{mutes}/nobody"), 404, "not_at_table")
    _refused(await ana.http.put(f"{mutes}/{'x' * 65}"), 422, "invalid_request")
    _refused(await httpx.AsyncClient(base_url=server.url).put(f"{mutes}/{ben.user['id']}"), 401, "not_signed_in")

    r = await ana.http.delete(f"{mutes}/{ben.user['id']}")
    assert r.status_code == 200 and r.json() == {"user_id": ben.user["id"], "muted": False}
    told = await sockets["Ben"].expect("chat_mute")
    assert told["muted"] is False
    assert (await ana.http.delete(f"{mutes}/{ben.user['id']}")).status_code == 200  # twice: the same
    assert (await sockets["Ben"].chat("thanks"))["type"] == "ack"
    assert [m["user"]["name"] for m in (await ana.http.get(mutes)).json()["mutes"]] == ["Cy"]
    assert await _texts(ana, tid) == ["go Ben", "thanks"]
    for s in sockets.values():
        await s.close()
    for p in (ana, ben, cy, dee):
        await p.close()


async def test_the_host_mutes_someone_watching_who_never_wrote(server: Server) -> None:
    ana, ben, tid = await _started(server)
    cy = await Player.guest(server.url, "Cy")
    chat, mutes = f"/api/tables/{tid}/chat", f"/api/tables/{tid}/chat/mutes"
    # Before Cy comes, she is not at the table: refused, and the refusal says what "at the table" means.
    r = await ana.http.put(f"{mutes}/{cy.user['id']}")
    _refused(r, 404, "not_at_table")
    assert "watching" in r.json()["error"]["message"]

    sa = await Socket.open(server.ws_url, tid, ana.token)
    await sa.expect("snapshot")
    sc = await Socket.open(server.ws_url, tid, cy.token)  # Cy watches, and writes nothing
    await sc.expect("snapshot")
    # The host sees her among the people watching, by name: the way to her Mute.
    await sa.expect("presence", watching=1, watchers=[{"id": cy.user["id"], "name": "Cy"}])

    r = await ana.http.put(f"{mutes}/{cy.user['id']}")
    assert r.status_code == 200, r.text
    assert r.json()["user"] == {"id": cy.user["id"], "name": "Cy"}
    assert (await sc.expect("chat_mute"))["muted"] is True
    _refused(await cy.post(chat, {"text": "first words"}, ok=False), 403, "muted")
    refused = await sc.chat("over the socket")
    assert refused["type"] == "error" and refused["code"] == "muted"
    assert (await cy.http.get(chat)).json()["muted"] is True
    assert [m["user"]["id"] for m in (await ana.http.get(mutes)).json()["mutes"]] == [cy.user["id"]]

    # Gone, she stays muted: muting again answers the same, and she still cannot write.
    await sc.close()
    await sa.expect("presence", watching=0, watchers=[])
    again = await ana.http.put(f"{mutes}/{cy.user['id']}")
    assert again.status_code == 200 and again.json() == r.json()
    _refused(await cy.post(chat, {"text": "back"}, ok=False), 403, "muted")
    # Unmuted once gone, she is no longer at the table: a new mute waits for her return.
    assert (await ana.http.delete(f"{mutes}/{cy.user['id']}")).status_code == 200
    _refused(await ana.http.put(f"{mutes}/{cy.user['id']}"), 404, "not_at_table")
    assert await _texts(ana, tid) == []
    await sa.close()
    for p in (ana, ben, cy):
        await p.close()


async def test_the_host_removes_a_line_for_everyone(server: Server) -> None:
    ana, ben, tid = await _started(server)
    anon = await Socket.open(server.ws_url, tid)
    sa = await Socket.open(server.ws_url, tid, ana.token)
    for s in (anon, sa):
        await s.expect("snapshot")
    chat = f"/api/tables/{tid}/chat"
    rude = (await ben.post(chat, {"text": "something rude", "client_id": "c1"})).json()
    await ben.post(chat, {"text": "sorry"})
    for s in (anon, sa):
        await s.expect("chat")

    _refused(await ben.http.delete(f"{chat}/{rude['id']}"), 403, "not_host")
    r = await ana.http.delete(f"{chat}/{rude['id']}")
    assert r.status_code == 200 and r.json() == {"id": rude["id"], "removed": True}
    for s in (anon, sa):
        assert await s.expect("chat_removed") == {"type": "chat_removed", "id": rude["id"]}
    assert await _texts(ben, tid) == ["sorry"]
    assert (await ana.http.delete(f"{chat}/{rude['id']}")).status_code == 200  # twice: the same, told once
    await _nothing_more(sa, ("chat_removed",))

    # A retry of the removed line is not posted again.
    _refused(await ben.post(chat, {"text": "something rude", "client_id": "c1"}, ok=False), 409, "chat_removed")
    assert await _texts(ben, tid) == ["sorry"]
    _refused(await ana.http.delete(f"{chat}/999999"), 404, "no_such_message")
    _refused(await ana.http.delete(f"{chat}/{2**70}"), 422, "invalid_request")
    _refused(await ana.http.delete(f"{chat}/zero"), 404, "not_found")  # names no line
    # A line of another table is not this table's to remove.
    other = await ana.table(seats=2)
    elsewhere = (await ana.post(f"/api/tables/{other['id']}/chat", {"text": "mine"})).json()
    _refused(await ana.http.delete(f"{chat}/{elsewhere['id']}"), 404, "no_such_message")
    for s in (anon, sa):
        await s.close()
    await ana.close()
    await ben.close()


async def test_a_removed_line_still_counts_for_the_rate_limit(fresh_db: Database, tmp_path: Path) -> None:
    server = Server(fresh_db, tmp_path, **CHAT_LINE_A_MINUTE).start()
    try:
        ana, ben, tid = await _started(server)
        chat = f"/api/tables/{tid}/chat"
        ids = [(await ben.post(chat, {"text": f"spam {i}"})).json()["id"] for i in range(5)]
        for line_id in ids:
            assert (await ana.http.delete(f"{chat}/{line_id}")).status_code == 200
        _refused(await ben.post(chat, {"text": "one more"}, ok=False), 429, "rate_limited")
        await ana.close()
        await ben.close()
    finally:
        server.stop()


async def test_mutes_survive_a_restart(fresh_db: Database, tmp_path: Path) -> None:
    srv = Server(fresh_db, tmp_path).start()
    try:
        ana, ben, tid = await _started(srv)
        assert (await ana.http.put(f"/api/tables/{tid}/chat/mutes/{ben.user['id']}")).status_code == 200
    finally:
        srv.stop()
    srv.start()
    try:
        _refused(await ben.post(f"/api/tables/{tid}/chat", {"text": "back"}, ok=False), 403, "muted")
        listed = (await ana.http.get(f"/api/tables/{tid}/chat/mutes")).json()["mutes"]
        assert [m["user"]["id"] for m in listed] == [ben.user["id"]]
        await ana.close()
        await ben.close()
    finally:
        srv.stop()


async def _private_open(server: Server) -> tuple[Player, Player, dict[str, Any]]:
    """Ana's private table, Ben seated at it by the invite."""
    ana, ben = await Player.guest(server.url, "Ana"), await Player.guest(server.url, "Ben")
    t = await ana.table(seats=3, visibility="private")
    await ben.post(f"/api/tables/{t['id']}/join", {"invite_code": t["invite_code"]})
    return ana, ben, t


async def _closed_for_lost_access(sock: Socket) -> None:
    told = await sock.expect("error", code="access_lost")
    assert told["message"]
    assert (await sock.recv())["type"] == "closed"
    assert sock.ws.close_code == 4403


async def test_a_socket_that_loses_the_right_to_see_a_private_table_is_closed(server: Server) -> None:
    ana, ben, t = await _private_open(server)
    tid = t["id"]
    cy = await Player.guest(server.url, "Cy")
    await cy.post(f"/api/tables/{tid}/join", {"invite_code": t["invite_code"]})
    sa = await Socket.open(server.ws_url, tid, ana.token)
    sb = await Socket.open(server.ws_url, tid, ben.token)  # in by the seat alone
    sc = await Socket.open(server.ws_url, tid, cy.token, invite=t["invite_code"])  # in by the seat and the code
    for s in (sa, sb, sc):
        await s.expect("snapshot")

    kicked = (await ana.post(f"/api/tables/{tid}/kick", {"seat": "1"})).json()
    await _closed_for_lost_access(sb)
    # The others get the change; Cy, kicked too, still holds the code and watches on.
    await sa.until_version(kicked["version"])
    kicked_cy = (await ana.post(f"/api/tables/{tid}/kick", {"seat": "2"})).json()
    seen = await sc.until_version(kicked_cy["version"])
    assert seen["seat"] is None
    assert (await sc.chat("still watching"))["type"] == "ack"

    # Ben may no longer read or post by REST either, nor open a socket.
    _refused(await ben.post(f"/api/tables/{tid}/chat", {"text": "hello?"}, ok=False), 404, "not_found")
    _refused(await ben.http.get(f"/api/tables/{tid}/chat"), 404, "not_found")
    again = await Socket.open(server.ws_url, tid, ben.token)
    assert (await again.expect("error"))["code"] == "not_found"
    for s in (sa, sc, again):
        await s.close()
    for p in (ana, ben, cy):
        await p.close()


async def test_a_player_who_leaves_a_private_table_loses_its_socket(server: Server) -> None:
    ana, ben, t = await _private_open(server)
    sb = await Socket.open(server.ws_url, t["id"], ben.token)
    await sb.expect("snapshot")
    await ben.post(f"/api/tables/{t['id']}/leave")
    await _closed_for_lost_access(sb)
    await ana.close()
    await ben.close()


async def test_a_host_who_hands_over_a_private_table_by_leaving_loses_its_socket(server: Server) -> None:
    ana, ben, t = await _private_open(server)
    sa = await Socket.open(server.ws_url, t["id"], ana.token)
    sb = await Socket.open(server.ws_url, t["id"], ben.token)
    for s in (sa, sb):
        await s.expect("snapshot")
    left = (await ana.post(f"/api/tables/{t['id']}/leave")).json()
    await _closed_for_lost_access(sa)
    seen = await sb.until_version(left["version"])
    assert seen["table"]["is_host"] is True
    await sb.close()
    await ana.close()
    await ben.close()
