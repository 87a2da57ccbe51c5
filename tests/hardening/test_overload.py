"""An overloaded process: when every pooled database connection stays in use for the pool's wait, a request is
answered 503 `server_busy` with `Retry-After` and a socket gets the error `server_busy`, not a server error; once
the connections come free the process serves as before."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg

from tests.conftest import Database, Server, requires_postgres
from tests.hardening.helpers import guests
from tests.platform.client import Socket

LOCK_WAITS = (
    "SELECT count(*) FROM pg_stat_activity"
    " WHERE datname = current_database() AND application_name = 'foodgames' AND wait_event_type = 'Lock'"
)


async def test_a_process_out_of_database_connections_answers_busy_and_recovers(
    fresh_db: Database, tmp_path: Path
) -> None:
    requires_postgres()
    # Two pooled connections at most (one kept, one more at a peak); a request waits half a second for one.
    server = Server(fresh_db, tmp_path, DB_POOL_SIZE="1", DB_POOL_TIMEOUT="0.5").start()
    holder = await asyncpg.connect(fresh_db.url)
    try:
        ana, ben, cy = await guests(server, "Ana", "Ben", "Cy")
        tid = (await ana.table(seats=2))["id"]
        sa = await Socket.open(server.ws_url, tid, ana.token)
        await sa.expect("snapshot")
        # Another client locks the people's table: every request reading a person waits, holding its connection.
        lock = holder.transaction()
        await lock.start()
        await holder.execute("LOCK TABLE users IN ACCESS EXCLUSIVE MODE")
        held = [asyncio.create_task(p.http.get("/api/me")) for p in (ana, ben, ana)]
        # The first requests take the pool's connections and wait on the lock; the rest wait for a connection, and
        # after the pool's wait are answered busy.
        done, waiting = await asyncio.wait(held, timeout=10, return_when=asyncio.FIRST_COMPLETED)
        assert done and waiting, "some requests hold the pool, the others are refused"
        for answer in (t.result() for t in done):
            assert answer.status_code == 503 and answer.json()["error"]["code"] == "server_busy", answer.text
        assert await holder.fetchval(LOCK_WAITS) == len(waiting)
        busy = await cy.http.get("/api/me")
        assert busy.status_code == 503, busy.text
        assert busy.json()["error"]["code"] == "server_busy" and busy.json()["error"]["message"]
        assert busy.headers["Retry-After"] == "1"
        # A socket already open stays open; what it asks that needs the database is refused the same way.
        said = await sa.chat("still here?")
        assert said["type"] == "error" and said["code"] == "server_busy", said
        refused = await Socket.open(server.ws_url, tid, cy.token)
        error = await refused.recv()
        assert error["type"] == "error" and error["code"] == "server_busy", error
        assert (await refused.recv())["type"] == "closed"
        assert refused.ws.close_code == 1013  # try again later

        await lock.rollback()
        assert [r.status_code for r in await asyncio.gather(*waiting)] == [200] * len(waiting)
        assert (await cy.http.get("/api/me")).status_code == 200
        sc = await Socket.open(server.ws_url, tid, cy.token)
        await sc.expect("snapshot")
        assert (await sa.chat("still here?"))["type"] == "ack"
        await sc.close()
        await sa.close()
        for p in (ana, ben, cy):
            await p.close()
    finally:
        await holder.close()
        server.stop()
    log = server.log.read_text()
    assert "server busy" in log and "request failed" not in log and "Exception in ASGI application" not in log
