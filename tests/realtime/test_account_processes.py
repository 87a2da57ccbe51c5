"""Account security with two server processes on one database: sessions ended on one close sockets on the other,
and the rename limit is one budget however the renames are spread."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from tests.api.test_account import _account, _login, _password, _rename, session_ended
from tests.conftest import IS_POSTGRES, Database, Server, ServerProcess, requires_postgres
from tests.platform.client import Player, Socket


def _two(db: Database, tmp_path: Path, **env: str) -> tuple[Server, Server]:
    one = ServerProcess(db, tmp_path, **env).start()
    return one, ServerProcess(db, tmp_path, RUN_MIGRATIONS="false", **env).start()


async def sessions_end_across_processes(one: Server, two: Server) -> None:
    """A password change on process one closes the person's older sockets on process two; a sign-out everywhere on
    process two closes those on process one; the new session's socket and other people's stay open."""
    ana, uname = await _account(one)
    phone = await _login(one, uname)
    ben = await Player.guest(one.url, "Ben")
    t = await ana.table(seats=2)
    await ben.post(f"/api/tables/{t['id']}/join", {})
    await ana.post(f"/api/tables/{t['id']}/start")
    on_two = [await Socket.open(two.ws_url, t["id"], p.token) for p in (ana, phone)]
    bens = await Socket.open(two.ws_url, t["id"], ben.token)
    for s in (*on_two, bens):
        await s.expect("snapshot")

    answer = await _password(ana, "correct horse", "battery staple")  # on process one
    for s in on_two:
        await session_ended(s)
    renewed = Player(one.url, answer["token"], answer["user"])
    fresh = await Socket.open(two.ws_url, t["id"], renewed.token)
    await fresh.expect("snapshot")
    assert (await fresh.chat("new password, same seat"))["type"] == "ack"
    assert (await bens.expect("chat"))["message"]["text"] == "new password, same seat"

    mine = await Socket.open(one.ws_url, t["id"], renewed.token)
    await mine.expect("snapshot")
    async with httpx.AsyncClient(base_url=two.url, headers={"Authorization": f"Bearer {renewed.token}"}) as c:
        assert (await c.post("/api/auth/logout_all")).status_code == 200  # on process two
    await session_ended(mine)
    await session_ended(fresh)
    assert (await bens.chat("still here"))["type"] == "ack"
    await bens.close()
    for p in (ana, phone, ben, renewed):
        await p.close()


async def test_a_session_ended_on_one_process_closes_its_sockets_on_the_other(
    fresh_db: Database, tmp_path: Path
) -> None:
    requires_postgres()
    one, two = _two(fresh_db, tmp_path)
    try:
        await sessions_end_across_processes(one, two)
    finally:
        one.stop()
        two.stop()


async def test_the_rename_limit_holds_across_processes(fresh_db: Database, tmp_path: Path) -> None:
    # SQLite too: two processes on one database file, the renames one after the other.
    one, two = _two(fresh_db, tmp_path)
    try:
        ana = await Player.guest(one.url, "Ana")
        ana_two = Player(two.url, ana.token, ana.user)
        for i in range(5):
            await _rename(ana if i % 2 else ana_two, f"Ana {i}")
        for p in (ana, ana_two):
            refused = await _rename(p, "Ana 5", 429)
            assert refused["code"] == "too_many_renames" and "5 times" in refused["message"]
        assert (await ana_two.http.get("/api/me")).json()["name"] == "Ana 4"
        if IS_POSTGRES:
            # Renames sent at the same moment through both processes: the limit, and not one more.
            ben = await Player.guest(one.url, "Ben")
            ben_two = Player(two.url, ben.token, ben.user)
            answers = await asyncio.gather(*(
                p.http.patch("/api/me", json={"name": f"Ben {i}"}) for i, p in enumerate([ben, ben_two] * 5)
            ))
            assert sorted(r.status_code for r in answers) == [200] * 5 + [429] * 5
            for p in (ben, ben_two):
                await p.close()
        for p in (ana, ana_two):
            await p.close()
    finally:
        one.stop()
        two.stop()


async def _finished_table(one: Server, ana: Player, ben: Player) -> dict[str, Any]:
    """A table Ana hosts and Ben and she finished (abandoned by agreement)."""
    t = await ana.table(seats=2, options={"target": 1000})
    await ben.post(f"/api/tables/{t['id']}/join", {})
    await ana.post(f"/api/tables/{t['id']}/start")
    for p in (ana, ben):
        await p.post(f"/api/tables/{t['id']}/abandon", {"vote": "yes"})
    return t


async def test_a_rename_reaches_the_watchers_list_and_the_finished_tables_of_the_other_process(
    fresh_db: Database, tmp_path: Path
) -> None:
    requires_postgres()
    one, two = _two(fresh_db, tmp_path)
    try:
        ana, ben, cy, dee = [await Player.guest(one.url, n) for n in ("Ana", "Ben", "Cy", "Dee")]
        done = await _finished_table(one, ana, ben)
        # Process two caches the finished table with Ana's name, and Ben watches it there.
        async with httpx.AsyncClient(base_url=two.url) as anon:
            assert (await anon.get(f"/api/tables/{done['id']}")).json()["host"]["name"] == "Ana"
        at_done = await Socket.open(two.ws_url, done["id"], ben.token)
        snap = await at_done.expect("snapshot")
        # Cy watches a running table from process two; Dee, its host, sits at it on process one.
        live = await dee.table(seats=2)
        await dee.post(f"/api/tables/{live['id']}/bots", {"seat": "1"})
        await dee.post(f"/api/tables/{live['id']}/start")
        cys = await Socket.open(two.ws_url, live["id"], cy.token)
        dees = await Socket.open(one.ws_url, live["id"], dee.token)
        for s in (cys, dees):
            await s.expect("snapshot")
            await s.expect("presence", watchers=[{"id": cy.user["id"], "name": "Cy"}])

        await _rename(ana, "Ana B")  # both on process one, where neither has a socket
        await _rename(cy, "Cyrus")
        again = await at_done.expect("snapshot")
        assert again["version"] == snap["version"] and again["table"]["host"]["name"] == "Ana B"
        async with httpx.AsyncClient(base_url=two.url) as anon:
            table = (await anon.get(f"/api/tables/{done['id']}")).json()
        assert table["seats"][0]["user"]["name"] == "Ana B" and table["version"] == snap["version"]
        for s in (cys, dees):
            await s.expect("presence", watchers=[{"id": cy.user["id"], "name": "Cyrus"}])
        for s in (at_done, cys, dees):
            await s.close()
        for p in (ana, ben, cy, dee):
            await p.close()
    finally:
        one.stop()
        two.stop()
