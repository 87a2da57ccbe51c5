"""Turn-based timeouts with two real server processes on one Postgres, both sweeping many times a second: each timeout
is applied by exactly one of them, and the sockets of both hear of it. (The arithmetic and the policies run on a
controlled clock in tests/services/test_clocks.py; this is the real thing, on the real clock, at the shortest turn.)"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from tests.conftest import Database, ServerProcess, requires_postgres
from tests.platform.client import Player, Socket

PER_MOVE = 10  # seconds: the shortest turn the server takes
SWEEPS = {"CLOCK_SWEEP_SECONDS": "0.02"}


async def started(host: Player, guest: Player, timeout: str) -> dict[str, Any]:
    tc = {"kind": "turn", "per_move": PER_MOVE, "bank": 0, "timeout": timeout}
    t = await host.table(time_control=tc)
    await guest.post(f"/api/tables/{t['id']}/join", {})
    return dict((await host.post(f"/api/tables/{t['id']}/start")).json())


async def test_each_timeout_is_applied_once_by_one_of_two_processes(fresh_db: Database, tmp_path: Path) -> None:
    requires_postgres()
    one = ServerProcess(fresh_db, tmp_path, **SWEEPS).start()
    two = ServerProcess(fresh_db, tmp_path, RUN_MIGRATIONS="false", **SWEEPS).start()
    try:
        ana, bo = await Player.guest(one.url, "Ana"), await Player.guest(one.url, "Bo")
        losses = [await started(ana, bo, "loss") for _ in range(3)]
        bots = [await started(ana, bo, "bot_move") for _ in range(3)]
        watchers = [await Socket.open(two.ws_url, t["id"]) for t in (losses[0], bots[0])]
        for sock in watchers:
            await sock.expect("snapshot")
        # Nobody picks: both seats of every table run out together, PER_MOVE seconds after the start.
        deadline = time.monotonic() + PER_MOVE + 15
        while True:
            done = [(await ana.http.get(f"/api/tables/{t['id']}/moves")).json() for t in (*losses, *bots)]
            timeouts = [[e for m in d["moves"] for e in m["events"] if e["type"] == "timeout"]
                        + [e for entry in d["lobby"] for e in entry["events"] if e["type"] == "timeout"] for d in done]
            if all(len(found) >= 2 for found in timeouts):
                break
            assert time.monotonic() < deadline, "the timeouts were not applied"
            await asyncio.sleep(0.25)
        await asyncio.sleep(0.4)  # twenty sweeps of each process: time for a second claim, had one been possible
        for t in losses:
            now = (await ana.http.get(f"/api/tables/{t['id']}")).json()
            assert now["status"] == "finished" and now["version"] == t["version"] + 1  # one claim, one change
            assert now["outcome"]["ranking"] == [["0", "1"]] and now["outcome"]["timeout"] == ["0", "1"]
            log = (await ana.http.get(f"/api/tables/{t['id']}/moves")).json()["lobby"]
            assert [sorted(e["seat"] for e in entry["events"]) for entry in log if entry["version"] > t["version"]] \
                == [["0", "1"]]
        for t in bots:
            moves = (await ana.http.get(f"/api/tables/{t['id']}/moves")).json()["moves"]
            # Each seat's pick played once by a bot (the action itself is its seat's to see while the game runs).
            picks = [m for m in moves if any(e["type"] == "chose" for e in m["events"])]
            assert sorted(m["seat"] for m in picks) == ["0", "1"]
            assert [e["seat"] for m in moves for e in m["events"] if e["type"] == "timeout"] == ["0", "1"]
        # The sockets on process two heard of both, whichever process applied them.
        finished = await watchers[0].until_version(losses[0]["version"] + 1)
        assert finished["table"]["status"] == "finished", finished
        assert finished["clock"]["timed_out"] == ["0", "1"], finished
        moved = await watchers[1].until_version(bots[0]["version"] + 2)
        assert moved["view"]["phase"] == "bump"
        for sock in watchers:
            await sock.close()
        await ana.close()
        await bo.close()
    finally:
        one.stop()
        two.stop()
