"""A person manages their own account: a new display name (guests too), a new password (accounts only)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from app.services.account import RENAME_LIMIT
from tests.conftest import Database, Server, ServerProcess, requires_postgres
from tests.platform.client import Player, Socket


async def _account(server: Server, name: str = "Ana", password: str = "correct horse") -> tuple[Player, str]:
    """A registered person (a guest who saved an account) and their username."""
    guest = await Player.guest(server.url, name)
    uname = f"{name.lower()}{guest.user['id'][:8]}"
    await guest.post("/api/auth/register", {"username": uname, "password": password})
    return guest, uname


async def _rename(who: Player, name: Any, status: int = 200) -> dict[str, Any]:
    r = await who.http.patch("/api/me", json={"name": name})
    assert r.status_code == status, r.text
    return dict(r.json()) if status == 200 else dict(r.json()["error"])


async def _abandoned(host: Player, other: Player) -> dict[str, Any]:
    """A two-seat game of `host` and `other`, started and abandoned by agreement (so finished)."""
    t = await host.table(seats=2, options={"target": 1000})
    await other.post(f"/api/tables/{t['id']}/join", {})
    await host.post(f"/api/tables/{t['id']}/start")
    for p in (host, other):
        await p.post(f"/api/tables/{t['id']}/abandon", {"vote": "yes"})
    return t


async def test_a_guest_renames_with_the_sign_up_rules(server: Server) -> None:
    ana = await Player.guest(server.url, "Ana")
    me = await _rename(ana, "  Ana   María ")
    assert me == {"id": ana.user["id"], "name": "Ana María", "username": None}
    assert (await ana.http.get("/api/me")).json()["name"] == "Ana María"
    # Every refusal says why and changes nothing.
    for bad in ["", "   ", "x" * 41, "\x00\x01", "Ana María\u0007"]:
        assert (await _rename(ana, bad, 422))["code"] == "bad_name", bad
    for bad in [None, 5, ["Ana"]]:
        assert (await _rename(ana, bad, 422))["code"] == "invalid_request", bad
    r = await ana.http.patch("/api/me", json={})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
    assert (await ana.http.get("/api/me")).json()["name"] == "Ana María"
    async with httpx.AsyncClient(base_url=server.url) as anon:
        r = await anon.patch("/api/me", json={"name": "Nobody"})
        assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in"
    # The profile shows the name of now.
    profile = (await ana.http.get(f"/api/players/{ana.user['id']}")).json()
    assert profile["user"]["name"] == "Ana María"
    await ana.close()


async def test_renames_are_limited_but_the_same_name_is_free(server: Server) -> None:
    ana = await Player.guest(server.url, "Ana")
    for i in range(5):
        await _rename(ana, f"Ana {i}")
    assert (await _rename(ana, "Ana 4"))["name"] == "Ana 4"  # no change: not counted, not refused
    refused = await _rename(ana, "Ana 5", 429)
    assert refused["code"] == "too_many_renames"
    assert (await ana.http.get("/api/me")).json()["name"] == "Ana 4"
    await ana.close()


async def test_a_rename_reaches_my_running_and_open_tables_at_once(server: Server) -> None:
    ana, ben = await Player.guest(server.url, "Ana"), await Player.guest(server.url, "Ben")
    running = await ana.table(seats=2, options={"target": 1000})
    await ben.post(f"/api/tables/{running['id']}/join", {})
    await ana.post(f"/api/tables/{running['id']}/start")
    hosted = await ben.table(seats=2)  # Ben hosts, Ana sits
    await ana.post(f"/api/tables/{hosted['id']}/join", {})
    sb = await Socket.open(server.ws_url, running["id"], ben.token)
    snap = await sb.expect("snapshot")
    before = (await ana.http.get(f"/api/tables/{running['id']}")).json()
    chat = await ana.post(f"/api/tables/{running['id']}/chat", {"text": "hello"})

    await _rename(ben, "Benito")

    # Ben's socket is told at once: a new version naming him anew, with the rename in the log.
    seen = await sb.until_version(snap["version"] + 1)
    assert seen["table"]["seats"][1]["user"]["name"] == "Benito"
    assert {"type": "renamed", "seat": "1", "old": "Ben", "name": "Benito", "visible_to": None} in seen["events"]
    # A fresh snapshot and REST reads show the new name; the stand-in clock did not restart.
    fresh = await Socket.open(server.ws_url, running["id"], ana.token)
    table = (await fresh.expect("snapshot"))["table"]
    assert [s["user"]["name"] for s in table["seats"]] == ["Ana", "Benito"]
    after = (await ana.http.get(f"/api/tables/{running['id']}")).json()
    assert after["updated_at"] == before["updated_at"] and after["version"] == before["version"] + 1
    # The table Ben hosts shows him as its host; the tables listed as mine too.
    open_table = (await ana.http.get(f"/api/tables/{hosted['id']}")).json()
    assert open_table["host"]["name"] == "Benito" and open_table["seats"][0]["user"]["name"] == "Benito"
    mine = (await ben.http.get("/api/me/tables")).json()["tables"]
    assert {s["user"]["name"] for t in mine for s in t["seats"] if s["user"] and s["user"]["id"] == ben.user["id"]} == {
        "Benito"
    }
    # A chat line keeps the name it was posted under.
    await _rename(ana, "Anita")
    lines = (await ben.http.get(f"/api/tables/{running['id']}/chat")).json()["messages"]
    assert [(m["id"], m["user"]["name"]) for m in lines] == [(chat.json()["id"], "Ana")]
    for s in (sb, fresh):
        await s.close()
    for p in (ana, ben):
        await p.close()


async def test_a_finished_table_and_my_profile_show_the_new_name(server: Server) -> None:
    ana, ben = await Player.guest(server.url, "Ana"), await Player.guest(server.url, "Ben")
    t = await _abandoned(ana, ben)
    finished = (await ana.http.get(f"/api/tables/{t['id']}")).json()
    assert finished["status"] == "finished"
    await _rename(ana, "Ana B")
    again = (await ben.http.get(f"/api/tables/{t['id']}")).json()
    assert again["seats"][0]["user"]["name"] == "Ana B" and again["version"] == finished["version"]
    profile = (await ben.http.get(f"/api/players/{ben.user['id']}")).json()
    assert profile["recent"][0]["seats"][0]["user"]["name"] == "Ana B"
    for p in (ana, ben):
        await p.close()


async def test_a_watcher_who_renames_is_named_anew_in_the_watchers_list_at_once(server: Server) -> None:
    ana, ben, cy = [await Player.guest(server.url, n) for n in ("Ana", "Ben", "Cy")]
    t = await ana.table(seats=2)
    await ben.post(f"/api/tables/{t['id']}/join", {})
    sa = await Socket.open(server.ws_url, t["id"], ana.token)
    await sa.expect("snapshot")
    cys = [await Socket.open(server.ws_url, t["id"], cy.token) for _ in range(2)]  # two pages: one watcher
    for s in cys:
        await s.expect("snapshot")
    await sa.expect("presence", watchers=[{"id": cy.user["id"], "name": "Cy"}])
    snap_version = (await ana.http.get(f"/api/tables/{t['id']}")).json()["version"]

    await _rename(cy, "Cyrus")
    for s in (sa, *cys):
        await s.expect("presence", watching=1, watchers=[{"id": cy.user["id"], "name": "Cyrus"}])
    assert sa.latest is not None and sa.latest["version"] == snap_version  # a watcher's rename moves no table on
    late = await Socket.open(server.ws_url, t["id"], ben.token)
    await late.expect("snapshot")
    await late.expect("presence", watchers=[{"id": cy.user["id"], "name": "Cyrus"}])
    for s in (sa, *cys, late):
        await s.close()
    for p in (ana, ben, cy):
        await p.close()


async def test_the_sockets_at_a_finished_table_get_the_new_name_without_a_new_version(server: Server) -> None:
    ana, ben = await Player.guest(server.url, "Ana"), await Player.guest(server.url, "Ben")
    t = await _abandoned(ana, ben)
    watching = await Socket.open(server.ws_url, t["id"], ben.token)
    snap = await watching.expect("snapshot")
    assert snap["table"]["status"] == "finished" and snap["table"]["seats"][0]["user"]["name"] == "Ana"
    await _rename(ana, "Ana B")
    again = await watching.expect("snapshot")
    assert again["version"] == snap["version"] and again["table"]["seats"][0]["user"]["name"] == "Ana B"
    assert again["table"]["host"]["name"] == "Ana B"
    await watching.close()
    for p in (ana, ben):
        await p.close()


async def _password(who: Player, current: Any, new: Any, status: int = 200) -> dict[str, Any]:
    r = await who.http.post("/api/me/password", json={"current": current, "new": new})
    assert r.status_code == status, r.text
    return dict(r.json()) if status == 200 else dict(r.json()["error"])


async def test_a_guest_who_registers_under_a_new_name_is_renamed_everywhere(server: Server) -> None:
    """Registering with a new display name is a rename (not counted against the limit): the open table the guest
    only hosts, the table they watch and the finished one they played all show it."""
    gus, ana, ben = [await Player.guest(server.url, n) for n in ("Gus", "Ana", "Ben")]
    done = await _abandoned(gus, ana)
    finished = (await ben.http.get(f"/api/tables/{done['id']}")).json()
    assert finished["status"] == "finished" and finished["seats"][0]["user"]["name"] == "Gus"
    hosted = await gus.table(seats=2)
    await gus.post(f"/api/tables/{hosted['id']}/leave")  # Gus hosts it without a seat
    hosted = (await ben.http.get(f"/api/tables/{hosted['id']}")).json()
    assert hosted["host"]["name"] == "Gus" and all(s["user"] is None for s in hosted["seats"])
    watched = await ana.table(seats=2)
    sa = await Socket.open(server.ws_url, watched["id"], ana.token)
    await sa.expect("snapshot")
    sg = await Socket.open(server.ws_url, watched["id"], gus.token)
    await sg.expect("snapshot")
    await sa.expect("presence", watchers=[{"id": gus.user["id"], "name": "Gus"}])

    r = await gus.post("/api/auth/register", {"username": f"gus{gus.user['id'][:8]}", "password": "correct horse",
                                              "name": "Gustavo"})
    assert r.json()["user"]["name"] == "Gustavo"

    await sa.expect("presence", watchers=[{"id": gus.user["id"], "name": "Gustavo"}])
    now_hosted = (await ben.http.get(f"/api/tables/{hosted['id']}")).json()
    assert now_hosted["host"]["name"] == "Gustavo" and now_hosted["version"] == hosted["version"] + 1
    moves = (await ben.http.get(f"/api/tables/{hosted['id']}/moves")).json()
    assert any(e["type"] == "renamed" and e["name"] == "Gustavo" for entry in moves["lobby"] for e in entry["events"])
    assert (await ben.http.get(f"/api/tables/{done['id']}")).json()["seats"][0]["user"]["name"] == "Gustavo"
    # Not counted as a rename: the limit's budget is whole.
    for n in range(RENAME_LIMIT):
        assert (await _rename(gus, f"Gus {n}"))["name"] == f"Gus {n}"
    assert (await _rename(gus, "One too many", 429))["code"] == "too_many_renames"
    for s in (sa, sg):
        await s.close()
    for p in (gus, ana, ben):
        await p.close()


async def test_a_password_change_checks_the_current_one_and_the_rules(server: Server) -> None:
    guest = await Player.guest(server.url, "Gus")
    assert (await _password(guest, "whatever1", "new password", 409))["code"] == "not_registered"
    ana, uname = await _account(server)
    assert (await _password(ana, "wrong horse", "new password", 403))["code"] == "wrong_password"
    assert (await _password(ana, "", "new password", 403))["code"] == "wrong_password"
    assert (await _password(ana, "correct horse", "short", 422))["code"] == "weak_password"
    assert (await _password(ana, "correct horse", "x" * 257, 422))["code"] == "weak_password"
    assert (await _password(ana, "correct horse", None, 422))["code"] == "invalid_request"
    r = await ana.http.post("/api/me/password", json={"new": "new password"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
    async with httpx.AsyncClient(base_url=server.url) as anon:
        r = await anon.post("/api/me/password", json={"current": "correct horse", "new": "new password"})
        assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in"
        # Nothing was changed by the refusals, and nobody was signed out.
        ok = await anon.post("/api/auth/login", json={"username": uname, "password": "correct horse"})
        assert ok.status_code == 200
    assert (await ana.http.get("/api/me")).status_code == 200
    for p in (guest, ana):
        await p.close()


async def test_a_password_change_signs_out_my_other_sessions(server: Server) -> None:
    ana, uname = await _account(server)
    async with httpx.AsyncClient(base_url=server.url) as c:
        other = (await c.post("/api/auth/login", json={"username": uname, "password": "correct horse"})).json()
    phone = Player(server.url, other["token"], other["user"])
    assert (await phone.http.get("/api/me")).status_code == 200

    answer = await _password(ana, "correct horse", "battery staple")
    assert answer["user"]["id"] == ana.user["id"] and answer["token"] != ana.token

    # This session goes on with its new token; the old token and the other device's are refused.
    renewed = Player(server.url, answer["token"], answer["user"])
    assert (await renewed.http.get("/api/me")).status_code == 200
    for stale in (ana, phone):
        r = await stale.http.get("/api/me")
        assert r.status_code == 401 and r.json()["error"]["code"] == "session_revoked"
    t = await renewed.table(seats=2)
    ws = await Socket.open(server.ws_url, t["id"], phone.token)
    refused = await ws.expect("error")
    assert refused["code"] == "session_revoked"
    await ws.close()
    async with httpx.AsyncClient(base_url=server.url) as c:
        old = await c.post("/api/auth/login", json={"username": uname, "password": "correct horse"})
        assert old.status_code == 401 and old.json()["error"]["code"] == "bad_credentials"
        new = await c.post("/api/auth/login", json={"username": uname, "password": "battery staple"})
        assert new.status_code == 200
        assert (await c.get("/api/me", headers={"Authorization": f"Bearer {new.json()['token']}"})).status_code == 200
    for p in (ana, phone, renewed):
        await p.close()


async def session_ended(sock: Socket, within: float = 2.0) -> None:
    """The socket is told its session ended and closed with 4401, promptly."""
    told = await sock.expect("error", timeout=within, code="session_revoked")
    assert "signed out" in told["message"]
    assert (await sock.recv(timeout=within))["type"] == "closed"
    assert sock.ws.close_code == 4401


async def _login(server: Server, uname: str, password: str = "correct horse") -> Player:
    """Another session of the same account (another device)."""
    async with httpx.AsyncClient(base_url=server.url) as c:
        r = await c.post("/api/auth/login", json={"username": uname, "password": password})
        assert r.status_code == 200, r.text
    return Player(server.url, r.json()["token"], r.json()["user"])


async def test_a_password_change_closes_the_sockets_of_every_older_session_at_once(server: Server) -> None:
    ana, uname = await _account(server)
    phone = await _login(server, uname)
    ben = await Player.guest(server.url, "Ben")
    t = await ana.table(seats=2, options={"target": 1000})
    await ben.post(f"/api/tables/{t['id']}/join", {})
    await ana.post(f"/api/tables/{t['id']}/start")
    here = await Socket.open(server.ws_url, t["id"], ana.token)  # the page that changes the password
    there = await Socket.open(server.ws_url, t["id"], phone.token)  # another device
    other = await Socket.open(server.ws_url, t["id"], ben.token)
    watcher = await Socket.open(server.ws_url, t["id"])
    for s in (here, there, other, watcher):
        await s.expect("snapshot")
    # A refused change ends nothing.
    await _password(ana, "wrong horse", "battery staple", 403)
    await _password(ana, "correct horse", "short", 422)
    assert (await there.chat("nothing happened"))["type"] == "ack"

    answer = await _password(ana, "correct horse", "battery staple")

    # Every socket opened under the old password closes, this session's too: its page reconnects with the new token.
    for s in (here, there):
        await session_ended(s)
    again = await Socket.open(server.ws_url, t["id"], answer["token"])
    assert (await again.expect("snapshot"))["seat"] == "0"
    line = await again.chat("still here")
    assert line["type"] == "ack"
    # Nobody else's socket is touched.
    for s in (other, watcher):
        await s.expect("chat", message=line["message"])
    assert (await other.chat("hello"))["type"] == "ack"
    for s in (again, other, watcher):
        await s.close()
    for p in (ana, phone, ben):
        await p.close()


async def _logout_all(who: Player | httpx.AsyncClient, status: int = 200) -> httpx.Response:
    r = await (who.http if isinstance(who, Player) else who).post("/api/auth/logout_all")
    assert r.status_code == status, r.text
    return r


async def test_sign_out_everywhere_ends_every_session_and_socket(server: Server) -> None:
    ana, uname = await _account(server)
    phone = await _login(server, uname)
    t = await ana.table(seats=2)
    socks = [await Socket.open(server.ws_url, t["id"], p.token) for p in (ana, phone)]
    for s in socks:
        await s.expect("snapshot")

    r = await _logout_all(ana)
    assert r.json() == {"ok": True}
    # The cookie is forgotten, as at a plain sign-out; this session is signed out too.
    assert 'session=""' in r.headers["set-cookie"] and "Max-Age=0" in r.headers["set-cookie"]
    for s in socks:
        await session_ended(s)
    for p in (ana, phone):
        refused = await p.http.get("/api/me")
        assert refused.status_code == 401 and refused.json()["error"]["code"] == "session_revoked"
        refused_ws = await Socket.open(server.ws_url, t["id"], p.token)
        assert (await refused_ws.expect("error"))["code"] == "session_revoked"
        assert (await refused_ws.recv())["type"] == "closed" and refused_ws.ws.close_code == 4401
    # Signing in again works, with the same password; a second sign-out everywhere ends that one too.
    back = await _login(server, uname)
    assert (await back.http.get("/api/me")).json()["id"] == ana.user["id"]
    await _logout_all(back)
    assert (await back.http.get("/api/me")).status_code == 401
    for p in (ana, phone, back):
        await p.close()


async def test_a_guest_may_sign_out_everywhere_and_the_signed_out_may_not(server: Server) -> None:
    gus = await Player.guest(server.url, "Gus")
    t = await gus.table(seats=2)
    sock = await Socket.open(server.ws_url, t["id"], gus.token)
    await sock.expect("snapshot")
    # A guest's token may have been copied too: they can end every session of theirs.
    await _logout_all(gus)
    async with httpx.AsyncClient(base_url=server.url, headers={"Authorization": f"Bearer {gus.token}"}) as stolen:
        refused = await stolen.get("/api/me")
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "session_revoked"
    await session_ended(sock)
    async with httpx.AsyncClient(base_url=server.url) as anon:
        assert (await _logout_all(anon, 401)).json()["error"]["code"] == "not_signed_in"
    await sock.close()
    await gus.close()


async def test_a_rename_reaches_a_socket_on_another_server_process(database: Database, tmp_path: Path) -> None:
    requires_postgres()
    one, two = ServerProcess(database, tmp_path / "one"), ServerProcess(database, tmp_path / "two")
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one.start()
    two.start()
    try:
        ana, ben = await Player.guest(one.url, "Ana"), await Player.guest(one.url, "Ben")
        t = await ana.table(seats=2, options={"target": 1000})
        await ben.post(f"/api/tables/{t['id']}/join", {})
        await ana.post(f"/api/tables/{t['id']}/start")
        watching = await Socket.open(two.ws_url, t["id"], ana.token)
        snap = await watching.expect("snapshot")
        await _rename(ben, "Benito")  # on process one
        seen = await watching.until_version(snap["version"] + 1)
        assert seen["table"]["seats"][1]["user"]["name"] == "Benito"
        table = (await httpx.AsyncClient(base_url=two.url).get(f"/api/tables/{t['id']}")).json()
        assert table["seats"][1]["user"]["name"] == "Benito"
        await watching.close()
        for p in (ana, ben):
            await p.close()
    finally:
        one.stop()
        two.stop()
