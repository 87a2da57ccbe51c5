"""Account management with two server processes on one database: the rename limit is one budget however the renames
are spread."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.api.test_account import _rename
from tests.conftest import IS_POSTGRES, Database, Server
from tests.platform.client import Player


def _two(db: Database, tmp_path: Path, **env: str) -> tuple[Server, Server]:
    one = Server(db, tmp_path, **env).start()
    return one, Server(db, tmp_path, RUN_MIGRATIONS="false", **env).start()


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
