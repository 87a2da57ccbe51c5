"""Chat moderation and the chat rate limit with two server processes on one Postgres."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.conftest import CHAT_LINE_A_MINUTE, Database, Server, ServerProcess, requires_postgres
from tests.platform.client import Player, Socket


def _two(db: Database, tmp_path: Path) -> tuple[Server, Server]:
    requires_postgres()
    one = ServerProcess(db, tmp_path, **CHAT_LINE_A_MINUTE).start()
    return one, ServerProcess(db, tmp_path, RUN_MIGRATIONS="false", **CHAT_LINE_A_MINUTE).start()


async def _started(one: Server) -> tuple[Player, Player, str]:
    ana, ben = await Player.guest(one.url, "Ana"), await Player.guest(one.url, "Ben")
    t = await ana.table(seats=2)
    await ben.post(f"/api/tables/{t['id']}/join", {})
    await ana.post(f"/api/tables/{t['id']}/start")
    return ana, ben, t["id"]


async def test_the_limit_holds_across_processes(fresh_db: Database, tmp_path: Path) -> None:
    one, two = _two(fresh_db, tmp_path)
    try:
        ana, ben, tid = await _started(one)
        # Ben's client on each process: one person, one budget, however the lines are spread.
        ben_two = Player(two.url, ben.token, ben.user)
        path = f"/api/tables/{tid}/chat"
        for i in range(5):
            await (ben if i % 2 else ben_two).post(path, {"text": f"line {i}"})
        for p in (ben, ben_two):
            r = await p.post(path, {"text": "one more"}, ok=False)
            assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        # Lines sent at the same moment through both processes: the burst, and not one more.
        sent = await asyncio.gather(*(
            p.post(f"/api/tables/{t}/chat", {"text": f"burst {i}"}, ok=False)
            for t in [(await ana.table(seats=2))["id"]]
            for i, p in enumerate([ana, Player(two.url, ana.token, ana.user)] * 5)
        ))
        assert sorted(r.status_code for r in sent) == [200] * 5 + [429] * 5
        await ben_two.close()
        await ana.close()
        await ben.close()
    finally:
        one.stop()
        two.stop()


async def test_removal_and_mutes_reach_sockets_on_the_other_process(fresh_db: Database, tmp_path: Path) -> None:
    one, two = _two(fresh_db, tmp_path)
    try:
        ana, ben, tid = await _started(one)
        watcher = await Socket.open(two.ws_url, tid)  # signed out, on the other process
        sb = await Socket.open(two.ws_url, tid, ben.token)
        for s in (watcher, sb):
            await s.expect("snapshot")
        line = (await sb.chat("rude words"))["message"]
        await watcher.expect("chat")

        # The host, on process one, removes it: gone on process two at once.
        r = await ana.http.delete(f"/api/tables/{tid}/chat/{line['id']}")
        assert r.status_code == 200, r.text
        for s in (watcher, sb):
            assert await s.expect("chat_removed") == {"type": "chat_removed", "id": line["id"]}

        # A mute made on process one holds on process two and is told to the muted person there.
        assert (await ana.http.put(f"/api/tables/{tid}/chat/mutes/{ben.user['id']}")).status_code == 200
        told = await sb.expect("chat_mute")
        assert told["muted"] is True and told["user"]["id"] == ben.user["id"]
        assert (await sb.chat("let me talk"))["code"] == "muted"
        assert (await ana.http.delete(f"/api/tables/{tid}/chat/mutes/{ben.user['id']}")).status_code == 200
        assert (await sb.expect("chat_mute"))["muted"] is False
        assert (await sb.chat("thank you"))["type"] == "ack"
        for s in (watcher, sb):
            await s.close()
        await ana.close()
        await ben.close()
    finally:
        one.stop()
        two.stop()


async def test_a_kick_on_one_process_closes_the_socket_on_the_other(fresh_db: Database, tmp_path: Path) -> None:
    one, two = _two(fresh_db, tmp_path)
    try:
        ana, ben = await Player.guest(one.url, "Ana"), await Player.guest(one.url, "Ben")
        t = await ana.table(seats=2, visibility="private")
        await ben.post(f"/api/tables/{t['id']}/join", {"invite_code": t["invite_code"]})
        sb = await Socket.open(two.ws_url, t["id"], ben.token)
        await sb.expect("snapshot")
        await ana.post(f"/api/tables/{t['id']}/kick", {"seat": "1"})
        assert (await sb.expect("error", code="access_lost"))["message"]
        assert (await sb.recv())["type"] == "closed" and sb.ws.close_code == 4403
        await ana.close()
        await ben.close()
    finally:
        one.stop()
        two.stop()
