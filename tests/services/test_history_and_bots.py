"""Bots play through apply_action; finished games keep their outcome, move list, replay and seed proof."""

from __future__ import annotations

import asyncio
import hashlib
import os
import subprocess
import sys

import httpx

from tests.conftest import ROOT, Server
from tests.platform.client import Player, Socket

VERIFY_WITH_TINY = (
    "from tests.platform.tiny_game import install; install(); from app.verify import main; main()"
)


async def _wait_finished(server: Server, tid: str, token: str, timeout: float = 30) -> dict:
    async with httpx.AsyncClient(base_url=server.url, headers={"Authorization": f"Bearer {token}"}) as c:
        for _ in range(int(timeout * 20)):
            t = (await c.get(f"/api/tables/{tid}")).json()
            if t["status"] == "finished":
                return dict(t)
            await asyncio.sleep(0.05)
    raise AssertionError("the bots did not finish the game")


async def test_a_table_of_bots_plays_to_the_end_and_verifies(server: Server) -> None:
    host = await Player.guest(server.url, "Host")
    t = await host.table(seats=3, options={"target": 5})
    tid = t["id"]
    commitment = t["seed_commitment"]
    assert t["seed"] is None
    await host.post(f"/api/tables/{tid}/kick", {"seat": "0"})
    for seat in ("0", "1", "2"):
        await host.post(f"/api/tables/{tid}/bots", {"seat": seat})
    await host.post(f"/api/tables/{tid}/start")
    done = await _wait_finished(server, tid, host.token)
    assert done["outcome"]["winners"] and sorted(sum(done["outcome"]["ranking"], [])) == ["0", "1", "2"]
    assert hashlib.sha256(f"{tid}:{done['seed']}".encode()).hexdigest() == commitment
    moves = (await host.http.get(f"/api/tables/{tid}/moves")).json()["moves"]
    assert len(moves) == done["move_count"] and all(m["action"] is not None for m in moves)
    verify = (await host.http.get(f"/api/tables/{tid}/verify")).json()
    assert verify["ok"] and verify["commitment_ok"] and verify["moves"] == len(moves)
    replay0 = (await host.http.get(f"/api/tables/{tid}/replay", params={"step": 0})).json()
    assert replay0["step"] == 0 and replay0["total"] == len(moves) and replay0["view"]["round"] == 1
    last = (await host.http.get(f"/api/tables/{tid}/replay", params={"step": len(moves)})).json()
    assert last["view"]["over"] is True
    bad = await host.http.get(f"/api/tables/{tid}/replay", params={"step": len(moves) + 1})
    assert bad.status_code == 422
    finished = [x["id"] for x in (await host.http.get("/api/tables", params={"status": "finished"})).json()["tables"]]
    assert tid in finished
    # The command-line check agrees.
    env = {**os.environ, "DATABASE_URL": server.db.url}
    proc = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-c", VERIFY_WITH_TINY, tid], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    assert '"ok": true' in proc.stdout
    await host.close()


async def test_move_list_is_redacted_while_running(server: Server) -> None:
    ana, ben = await Player.guest(server.url, "Ana"), await Player.guest(server.url, "Ben")
    t = await ana.table(seats=2)
    await ben.post(f"/api/tables/{t['id']}/join", {})
    await ana.post(f"/api/tables/{t['id']}/start")
    sa = await Socket.open(server.ws_url, t["id"], ana.token)
    await sa.expect("snapshot")
    await sa.act({"type": "pick", "n": 3})
    mine = (await ana.http.get(f"/api/tables/{t['id']}/moves")).json()["moves"]
    theirs = (await ben.http.get(f"/api/tables/{t['id']}/moves")).json()["moves"]
    async with httpx.AsyncClient(base_url=server.url) as c:
        public = (await c.get(f"/api/tables/{t['id']}/moves")).json()["moves"]
        unfinished = (await c.get(f"/api/tables/{t['id']}/verify")).json()
    assert mine[0]["action"] == {"type": "pick", "n": 3}
    assert theirs[0]["action"] is None and public[0]["action"] is None
    assert [e["type"] for e in mine[0]["events"]] == ["picked", "chose"]
    assert [e["type"] for e in theirs[0]["events"]] == ["chose"]
    assert unfinished["ok"] is False and unfinished["seed"] is None
    await sa.close()
    await ana.close()
    await ben.close()
