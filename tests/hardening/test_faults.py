"""Crashes and faults: kill -9 mid-game, Postgres restarted under a running server, silent sockets,
bots after a crash."""

from __future__ import annotations

import asyncio
import base64
import os
import re
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import IS_POSTGRES, METRICS_HEADERS, Database, Server, ServerProcess, requires_postgres
from tests.hardening.helpers import close_all, guests, moves, table_state, wait_for
from tests.platform.client import Player, Socket

PG_CLUSTER = ["15", "main"]


def _pg_ctl(action: str) -> None:
    subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", *PG_CLUSTER, action],
                   check=True, capture_output=True, timeout=60)


def _pg_online() -> bool:
    out = subprocess.run(["pg_lsclusters", "--no-header"], capture_output=True, text=True, timeout=30).stdout
    return any(line.split()[:2] == PG_CLUSTER and "online" in line for line in out.splitlines())


async def _metric(server: Server, name: str) -> float:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as c:
        text = (await c.get("/metrics", headers=METRICS_HEADERS)).text
    match = re.search(rf"^{name} ([0-9.e+-]+)$", text, re.M)
    assert match, name
    return float(match.group(1))


async def _bot_table(srv: Server, host: Player) -> str:
    """A running food-truck table with three bots."""
    t = await host.table(game="food-truck", seats=3)
    tid = str(t["id"])
    await host.post(f"/api/tables/{tid}/kick", {"seat": "0"})
    for seat in ("0", "1", "2"):
        await host.post(f"/api/tables/{tid}/bots", {"seat": seat})
    await host.post(f"/api/tables/{tid}/start")
    return tid


async def test_kill_9_mid_game_loses_no_committed_move(fresh_db: Database, tmp_path: Path) -> None:
    """kill -9 with moves in flight and bots mid-game: every acked move survives, nothing is half-written,
    clients resync, and the bots play on to a verified end (taken over by the surviving process on
    Postgres, resumed by the restarted one on SQLite)."""
    one = ServerProcess(fresh_db, tmp_path, BOT_DELAY="0.02").start()
    # On Postgres a second process serves the table meanwhile; SQLite has one process, restarted.
    two = ServerProcess(fresh_db, tmp_path, RUN_MIGRATIONS="false", BOT_SWEEP_SECONDS="3").start() if IS_POSTGRES else None
    try:
        players = await guests(one, "K0", "K1", "K2")
        bots = await _bot_table(one, players[0])
        t = await players[0].table(seats=3, options={"target": 1000})
        for p in players[1:]:
            await p.post(f"/api/tables/{t['id']}/join", {})
        await players[0].post(f"/api/tables/{t['id']}/start")
        tid = t["id"]
        socks = [await Socket.open(one.ws_url, tid, p.token) for p in players]
        watcher = await Socket.open((two or one).ws_url, tid)
        for s in (*socks, watcher):
            await s.expect("snapshot")
        start = (await table_state(one, tid))["version"]

        async def bots_busy() -> bool:
            return int((await table_state(one, bots))["move_count"]) >= 10

        await wait_for(bots_busy)
        # A salvo of moves, and the process is killed while they are in flight.
        tasks = [asyncio.ensure_future(s.act(a, timeout=20))
                 for _ in range(5) for s in socks for a in ({"type": "pick", "n": 1}, {"type": "bump"})]
        await asyncio.sleep(0.05)
        one.stop(kill=True)
        # Replies that were on their way are read; the rest never come (their sockets are gone).
        answered, unanswered = await asyncio.wait(tasks, timeout=3)
        for task in unanswered:
            task.cancel()
        acked = sorted(t.result()["version"] for t in answered
                       if t.exception() is None and t.result().get("type") == "ack")
        survivor = two or one.start()
        state = await table_state(survivor, tid)
        listed = await moves(survivor, tid)
        # Every acknowledged move is there; versions and the move list agree (nothing half-written).
        assert all(v <= state["version"] for v in acked)
        assert state["version"] == start + state["move_count"] == start + len(listed)
        assert [m["seq"] for m in listed] == list(range(1, len(listed) + 1))
        # Clients reconnect (to whichever process lives) and resync to the committed version.
        socks = [await Socket.open(survivor.ws_url, tid, p.token) for p in players]
        for s in socks:
            assert (await s.expect("snapshot"))["version"] == state["version"]
        if two is not None:
            assert (await watcher.until_version(state["version"]))["version"] == state["version"]
        # Play goes on from the last committed move.
        latest = socks[0].latest
        assert latest is not None
        mover = next(i for i in range(3) if str(i) in latest["awaiting"])
        action = socks[mover].latest["actions"][0]  # type: ignore[index]
        assert (await socks[mover].act(action))["version"] == state["version"] + 1
        # The bots, stopped mid-game by the kill, finish the game: on Postgres the surviving process takes
        # them over (its bot sweep), on SQLite the restarted process resumes them. The replay verifies.

        async def finished() -> dict[str, Any] | None:
            state = await table_state(survivor, bots)
            return state if state["status"] == "finished" else None

        done = await wait_for(finished, timeout=90)
        listed = await moves(survivor, bots)
        assert [m["seq"] for m in listed] == list(range(1, done["move_count"] + 1))
        async with httpx.AsyncClient(base_url=survivor.url, timeout=30) as c:
            verify = (await c.get(f"/api/tables/{bots}/verify")).json()
        assert verify["ok"] and verify["moves"] == len(listed), verify
        # A brand-new process serves both tables from where they are.
        if two is not None:
            one.start()
        fresh = await Socket.open(one.ws_url, tid, players[0].token)
        assert (await fresh.expect("snapshot"))["version"] == state["version"] + 1
        assert (await table_state(one, bots))["status"] == "finished"
        await fresh.close()
        await close_all(*socks, watcher, *players)
    finally:
        one.stop()
        if two is not None:
            two.stop()


def _raw_upgrade(port: int, path: str, token: str) -> socket.socket:
    """Open a websocket by hand and then never read or answer again (a client gone silent)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
         f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nCookie: session={token}\r\n\r\n").encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(4096)
    assert head.startswith(b"HTTP/1.1 101"), head[:200]
    return sock


async def test_a_silent_socket_is_detected_and_dropped(fresh_db: Database, tmp_path: Path) -> None:
    server = Server(fresh_db, tmp_path, ping=0.5).start()
    (host,) = await guests(server, "Quiet")
    t = await host.table(seats=2)
    silent = await asyncio.to_thread(_raw_upgrade, server.port, f"/ws/tables/{t['id']}", host.token)
    try:
        during = await _metric(server, "foodgames_sockets_open")
        assert during >= 1

        def until_closed() -> None:
            # The server pings every half second and gives up half a second later: EOF must come well within 30 s.
            silent.settimeout(30)
            while silent.recv(65536):
                pass

        await asyncio.to_thread(until_closed)

        async def dropped() -> bool:
            # The gauge counts every server of this process; their sockets can only close meanwhile, never open.
            return await _metric(server, "foodgames_sockets_open") <= during - 1

        await wait_for(dropped, timeout=10)
    finally:
        silent.close()
        await host.close()
        server.stop()


async def _status(client: httpx.AsyncClient, method: str, path: str, **kw: Any) -> tuple[int, dict[str, Any]]:
    try:
        r = await client.request(method, path, **kw)
    except httpx.HTTPError as exc:
        raise AssertionError(f"{method} {path}: no answer ({exc!r})") from exc
    return r.status_code, r.json()


async def _outage(one: Server, two: Server) -> dict[str, Any]:
    """Play, stop Postgres under two running processes, poke them, start it again, play on: what each saw."""
    seen: dict[str, Any] = {}
    ana, ben = await guests(one, "Ana", "Ben")
    t = await ana.table(seats=2, options={"target": 1000})
    tid = t["id"]
    await ben.post(f"/api/tables/{tid}/join", {})
    await ana.post(f"/api/tables/{tid}/start")
    sa = await Socket.open(one.ws_url, tid, ana.token)
    sb = await Socket.open(two.ws_url, tid, ben.token)
    v = (await sa.expect("snapshot"))["version"]
    await sb.expect("snapshot")
    seen["before"] = (await sa.act({"type": "pick", "n": 1}))["version"]
    await asyncio.to_thread(_pg_ctl, "stop")
    try:
        auth = {"Authorization": f"Bearer {ana.token}"}
        calls: list[tuple[str, str, dict[str, Any]]] = [
            ("GET", "/api/health", {}),
            ("GET", f"/api/tables/{tid}/moves", {}),
            ("POST", "/api/auth/guest", {"json": {"name": "Late"}}),
            ("POST", "/api/tables", {"json": {"game": "tiny", "seats": 2}}),
            ("POST", f"/api/tables/{tid}/leave", {}),
        ]
        async with httpx.AsyncClient(base_url=one.url, timeout=30, headers=auth) as c:
            seen["rest"] = [
                (path, *await _status(c, method, path, **kw))
                for method, path, kw in calls
            ]
        seen["socket"] = await sa.act({"type": "pick", "n": 2}, timeout=30)
    finally:
        await asyncio.to_thread(_pg_ctl, "start")

    async def healthy() -> bool:
        async with httpx.AsyncClient(base_url=one.url, timeout=10) as c:
            return (await c.get("/api/health")).status_code == 200

    await wait_for(healthy, timeout=30)
    async with httpx.AsyncClient(base_url=two.url, timeout=10, headers={"Authorization": f"Bearer {ben.token}"}) as c:
        seen["then_on_two"] = [(await c.get(path)).status_code for path in ("/api/me", "/api/health") * 4]
    seen["after"] = await table_state(two, tid)
    seen["moves_after"] = len(await moves(two, tid))

    async def moved() -> dict[str, Any] | None:
        reply = await sb.act({"type": "pick", "n": 2}, timeout=30)
        return reply if reply["type"] == "ack" else None

    # A move on process two reaches the socket on process one: its LISTEN is back.
    ack = await wait_for(moved, timeout=20, every=0.5)
    seen["ack"] = ack["version"]
    seen["pushed"] = (await sa.until_version(ack["version"], timeout=20))["view"]["phase"]
    await sa.ws.send('{"type": "resync", "version": 0}')
    seen["resynced"] = (await sa.expect("snapshot", version=ack["version"]))["version"]
    seen["v"] = v
    await close_all(sa, sb, ana, ben)
    return seen


@pytest.fixture(scope="module")
def outage(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The Postgres outage, run once (Postgres pass only); the tests below read what it saw."""
    requires_postgres()
    if int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) > 1:
        pytest.fail("stopping Postgres would fail the other workers' tests: run the `alone` tests with -n 0")
    tmp = tmp_path_factory.mktemp("outage")
    db = Database(tmp)
    one = ServerProcess(db, tmp).start()
    two = ServerProcess(db, tmp, RUN_MIGRATIONS="false").start()
    try:
        yield asyncio.run(_outage(one, two))
    finally:
        if not _pg_online():
            _pg_ctl("start")
        one.stop()
        two.stop()
        db.drop()


@pytest.mark.alone
def test_postgres_outage_answers_rest_with_503(outage: dict[str, Any]) -> None:
    for path, status, body in outage["rest"]:
        assert status == 503, (path, status, body)
        assert body["error"]["code"] == "database_unavailable" and body["error"]["message"], (path, body)


@pytest.mark.alone
def test_postgres_outage_refuses_socket_moves_as_database_unavailable(outage: dict[str, Any]) -> None:
    reply = outage["socket"]
    assert reply["type"] == "error" and reply["code"] == "database_unavailable", reply


@pytest.mark.alone
def test_after_postgres_restarts_nothing_is_half_written_and_play_resumes(outage: dict[str, Any]) -> None:
    v = outage["v"]
    assert outage["socket"]["type"] == "error"
    assert outage["after"]["version"] == v + 1 and outage["after"]["move_count"] == 1 == outage["moves_after"]
    assert outage["ack"] == v + 2 and outage["pushed"] == "bump" and outage["resynced"] == v + 2



@pytest.mark.alone
def test_requests_succeed_again_once_postgres_is_back(outage: dict[str, Any]) -> None:
    assert outage["then_on_two"] == [200] * 8
