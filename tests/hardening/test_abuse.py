"""Abuse: guessing passwords, minting guests, accounts and tables, across every server process; answered 429 with
Retry-After."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.conftest import Database, Server, ServerProcess, requires_postgres
from tests.hardening.helpers import guests
from tests.platform.client import Player


def _limited(r: httpx.Response, code: str = "too_many_requests") -> bool:
    return r.status_code == 429 and r.json()["error"]["code"] == code and int(r.headers["retry-after"]) >= 1


async def test_wrong_passwords_are_limited_per_address(limited_server: Server) -> None:
    server = limited_server
    ana = await Player.account(server.url, "Ana")
    username = (await ana.http.get("/api/me")).json()["username"]
    async with httpx.AsyncClient(base_url=server.url) as c:
        answers = [await c.post("/api/auth/login", json={"username": username, "password": f"wrong {i}"})
                   for i in range(12)]
        assert [r.status_code for r in answers[:10]] == [401] * 10
        assert _limited(answers[10], "too_many_attempts") and _limited(answers[11], "too_many_attempts")
        # Limited, even the right password waits: a guesser cannot tell a hit from a miss.
        right = await c.post("/api/auth/login", json={"username": username, "password": "correct horse"})
        assert _limited(right, "too_many_attempts")
    await ana.close()


async def test_wrong_passwords_are_limited_per_account_from_many_addresses(fresh_db: Database, tmp_path: Path) -> None:
    server = Server(fresh_db, tmp_path, real_limits=True, FORWARDED_ALLOW_IPS="127.0.0.1").start()
    try:
        ana = await Player.account(server.url, "Ana")
        username = (await ana.http.get("/api/me")).json()["username"]
        async with httpx.AsyncClient(base_url=server.url) as c:
            answers = [await c.post("/api/auth/login", json={"username": username, "password": "nope nope"},
                                    headers={"X-Forwarded-For": f"203.0.113.{i + 1}"}) for i in range(11)]
            assert _limited(answers[-1], "too_many_attempts")
            # Another account is not locked by them.
            other = await c.post("/api/auth/login", json={"username": "someone-else", "password": "nope nope"},
                                 headers={"X-Forwarded-For": "203.0.113.200"})
            assert other.status_code == 401
        await ana.close()
    finally:
        server.stop()


async def test_new_guests_are_limited_per_address_across_processes(fresh_db: Database, tmp_path: Path) -> None:
    requires_postgres()  # SQLite is served by one process, which counts in memory
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one = ServerProcess(fresh_db, tmp_path / "one", real_limits=True, LIMIT_GUESTS="6/hour").start()
    two = ServerProcess(fresh_db, tmp_path / "two", real_limits=True, LIMIT_GUESTS="6/hour", RUN_MIGRATIONS="false").start()
    try:
        statuses = []
        for i in range(8):
            async with httpx.AsyncClient(base_url=(one, two)[i % 2].url) as c:
                r = await c.post("/api/auth/guest", json={"name": f"Guest {i}"})
                statuses.append(r.status_code)
                last = r
        # Alternating between the processes gains nothing: the allowance is shared.
        assert statuses == [200] * 6 + [429, 429] and _limited(last)
    finally:
        one.stop()
        two.stop()


async def test_new_accounts_are_limited_per_address(fresh_db: Database, tmp_path: Path) -> None:
    server = Server(fresh_db, tmp_path, real_limits=True, LIMIT_REGISTRATIONS="3/hour").start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as c:
            answers = [await c.post("/api/auth/register", json={"username": f"new{i}", "password": "long enough"})
                       for i in range(4)]
        assert [r.status_code for r in answers[:3]] == [200] * 3 and _limited(answers[3])
    finally:
        server.stop()


async def test_new_guests_are_limited_per_address(fresh_db: Database, tmp_path: Path) -> None:
    server = Server(fresh_db, tmp_path, real_limits=True, LIMIT_GUESTS="4/hour").start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as c:
            answers = [await c.post("/api/auth/guest", json={"name": f"Guest {i}"}) for i in range(5)]
        assert [r.status_code for r in answers[:4]] == [200] * 4 and _limited(answers[4])
    finally:
        server.stop()


async def test_tables_are_limited_per_person_and_the_lobby_cannot_be_filled(limited_server: Server) -> None:
    (host,) = await guests(limited_server, "Host")
    made = [await host.post("/api/tables", {"game": "tiny", "seats": 2}, ok=False) for _ in range(6)]
    assert [r.status_code for r in made[:5]] == [200] * 5
    assert made[5].status_code == 429 and made[5].json()["error"]["code"] == "too_many_open_tables"
    # Leaving one (nobody seated: it is listed nowhere) makes room for another.
    await host.post(f"/api/tables/{made[0].json()['id']}/leave")
    assert (await host.post("/api/tables", {"game": "tiny", "seats": 2}, ok=False)).status_code == 200
    await host.close()


async def test_new_tables_per_hour_are_limited(fresh_db: Database, tmp_path: Path) -> None:
    server = Server(fresh_db, tmp_path, real_limits=True, LIMIT_TABLES="3/hour").start()
    try:
        (host,) = await guests(server, "Host")
        made = [await host.post("/api/tables", {"game": "tiny", "seats": 2}, ok=False) for _ in range(4)]
        assert [r.status_code for r in made[:3]] == [200] * 3 and _limited(made[3])
        await host.close()
    finally:
        server.stop()


async def test_each_new_guest_does_not_guess_invites_afresh(limited_server: Server) -> None:
    server = limited_server
    (host,) = await guests(server, "Host")
    t = await host.table(seats=2, visibility="private")
    statuses = []
    for i in range(12):
        (prober,) = await guests(server, f"Prober {i}")
        statuses.append((await prober.http.get(f"/api/tables/{t['id']}", params={"invite": f"guess-{i}"})).status_code)
        await prober.close()
    assert statuses[:10] == [404] * 10 and statuses[10:] == [429, 429]
    await host.close()
