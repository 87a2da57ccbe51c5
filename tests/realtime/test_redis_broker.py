"""The Redis broker (BROKER_URL=redis://…): the same guarantees as Postgres LISTEN/NOTIFY between processes."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis

from app.realtime.broker import CLIENT_NAME
from tests.api.test_account import _account, _password, session_ended
from tests.conftest import Database, Server, ServerProcess, requires_redis
from tests.platform.client import Player, Socket
from tests.realtime.test_account_processes import sessions_end_across_processes
from tests.realtime.test_processes import (
    FAST_PRESENCE,
    abandon_crosses_processes,
    chat_crosses_processes,
    chats_seen,
    moves_cross_processes,
    presence_crosses_processes,
    watched_from_two,
)


def named(pair: tuple[Server, Server]) -> set[str]:
    """How this pair's processes name their Redis connections (other workers' servers may be connected too)."""
    return {f"{CLIENT_NAME}-{s.proc.pid}" for s in pair if s.proc}


@pytest.fixture
def redis_pair(fresh_db: Database, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """Two server processes on one Postgres database that tell each other of changes through Redis."""
    url = requires_redis()
    one = ServerProcess(fresh_db, tmp_path, BROKER_URL=url, **FAST_PRESENCE).start()
    two = ServerProcess(fresh_db, tmp_path, BROKER_URL=url, RUN_MIGRATIONS="false", **FAST_PRESENCE).start()
    try:
        yield one, two
    finally:
        one.stop()
        two.stop()


async def test_moves_cross_processes_through_redis(redis_pair: tuple[Server, Server]) -> None:
    await moves_cross_processes(*redis_pair)


async def test_chat_crosses_processes_through_redis(redis_pair: tuple[Server, Server]) -> None:
    await chat_crosses_processes(*redis_pair)


async def test_abandon_votes_cross_processes_through_redis(redis_pair: tuple[Server, Server]) -> None:
    await abandon_crosses_processes(*redis_pair)


async def test_sessions_end_across_processes_through_redis(redis_pair: tuple[Server, Server]) -> None:
    await sessions_end_across_processes(*redis_pair)


async def test_presence_crosses_processes_through_redis(redis_pair: tuple[Server, Server]) -> None:
    await presence_crosses_processes(*redis_pair)


async def test_every_move_of_a_busy_table_reaches_the_other_process_in_order(
    redis_pair: tuple[Server, Server],
) -> None:
    one, two = redis_pair
    ana, ben = await Player.guest(one.url, "Ana"), await Player.guest(one.url, "Ben")
    t = await ana.table(seats=2, options={"target": 1000})
    await ben.post(f"/api/tables/{t['id']}/join", {})
    await ana.post(f"/api/tables/{t['id']}/start")
    watcher = await Socket.open(two.ws_url, t["id"])
    start = (await watcher.expect("snapshot"))["version"]
    seen: list[int] = []

    async def watch() -> None:
        while True:
            msg = await watcher.recv(timeout=15)
            if msg["type"] == "update":
                seen.append(msg["version"])

    reader = asyncio.create_task(watch())
    sockets = {p.user["id"]: await Socket.open(one.ws_url, t["id"], p.token) for p in (ana, ben)}
    for s in sockets.values():
        await s.expect("snapshot")
    version = start
    for _ in range(30):
        latest = await sockets[ana.user["id"]].until_version(version)
        mover = ana if "0" in latest["awaiting"] else ben
        sock = sockets[mover.user["id"]]
        state = await sock.until_version(version)
        assert (await sock.act(state["actions"][0], expected_version=version))["type"] == "ack"
        version += 1
    for _ in range(100):
        if seen and seen[-1] == version:
            break
        await asyncio.sleep(0.05)
    reader.cancel()
    assert seen == sorted(set(seen)) and seen[-1] == version  # in order, none twice, up to the last move
    for s in (watcher, *sockets.values()):
        await s.close()
    await ana.close()
    await ben.close()


async def test_after_losing_redis_a_process_resyncs_its_sockets(redis_pair: tuple[Server, Server]) -> None:
    one, two = redis_pair
    ana, ben, t, watcher, before = await watched_from_two(one, two)
    # Cut every connection the servers hold to Redis, then move at once: the notice may be lost, but the
    # watcher's process resyncs its rooms from the database when its subscription comes back.
    admin = aioredis.from_url(requires_redis())
    clients = await admin.client_list()
    killed = [c for c in clients if c.get("name") in named(redis_pair)]
    assert killed, "the servers name their Redis connections"
    for c in killed:
        await admin.client_kill_filter(_id=c["id"])
    sa = await Socket.open(one.ws_url, t["id"], ana.token)
    await sa.expect("snapshot")
    assert (await sa.act({"type": "pick", "n": 1}))["type"] == "ack"
    seen = await watcher.until_version(before + 1, timeout=15)
    assert seen["view"]["picks"]["0"] == "hidden"
    await admin.aclose()
    for s in (watcher, sa):
        await s.close()
    await ana.close()
    await ben.close()


async def test_after_losing_redis_a_process_resends_the_chat_it_missed(redis_pair: tuple[Server, Server]) -> None:
    one, two = redis_pair
    ana, ben, t, watcher, before = await watched_from_two(one, two)
    admin = aioredis.from_url(requires_redis())
    for c in await admin.client_list():
        if c.get("name") in named(redis_pair):
            await admin.client_kill_filter(_id=c["id"])
    # Posted while process two is away from Redis: its announcement may be lost, the line is not.
    line = (await ana.post(f"/api/tables/{t['id']}/chat", {"text": "did you get this?"})).json()
    got: list[dict[str, Any]] = []
    for _ in range(150):
        got += await chats_seen(watcher)
        if got:
            break
        await asyncio.sleep(0.1)
    assert line in got
    await admin.aclose()
    await watcher.close()
    await ana.close()
    await ben.close()


async def test_after_losing_redis_a_process_ends_the_sessions_it_missed(redis_pair: tuple[Server, Server]) -> None:
    one, two = redis_pair
    ana, _ = await _account(one)
    t = await ana.table(seats=2)
    sock = await Socket.open(two.ws_url, t["id"], ana.token)
    await sock.expect("snapshot")
    admin = aioredis.from_url(requires_redis())
    for c in await admin.client_list():
        if c.get("name") in named(redis_pair):
            await admin.client_kill_filter(_id=c["id"])
    # Changed while process two is away from Redis: the notice may be lost, the epoch is stored.
    await _password(ana, "correct horse", "battery staple")
    await session_ended(sock, within=15)
    await admin.aclose()
    await ana.close()
