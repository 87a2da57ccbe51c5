"""Shared pieces of the hardening tests: tables in a known state and what the server says about them."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import httpx

from tests.conftest import Server
from tests.platform.client import Player, Socket

# Long soaks multiply the generated inputs (HARDENING_SCALE=50 ...); CI runs with 1.
SCALE = max(1, int(os.environ.get("HARDENING_SCALE", "1")))


async def guests(server: Server, *names: str) -> list[Player]:
    """Signed-in guests with these names."""
    return [await Player.guest(server.url, name) for name in names]


async def accounts(server: Server, *names: str) -> list[Player]:
    """Signed-in registered people with these names (rated, where guests are not)."""
    return [await Player.account(server.url, name) for name in names]


async def started_tiny(server: Server, seats: int = 2, target: int = 1000) -> tuple[list[Player], str]:
    """A running tiny-game table with `seats` human players (the host in seat 0)."""
    players = await guests(server, *[f"P{i}" for i in range(seats)])
    t = await players[0].table(seats=seats, options={"target": target})
    for p in players[1:]:
        await p.post(f"/api/tables/{t['id']}/join", {})
    await players[0].post(f"/api/tables/{t['id']}/start")
    return players, t["id"]


async def table_state(server: Server, tid: str, token: str | None = None) -> dict[str, Any]:
    """The table as REST shows it (with `token`'s eyes, if given)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(base_url=server.url, headers=headers, timeout=30) as c:
        r = await c.get(f"/api/tables/{tid}")
        assert r.status_code == 200, r.text
        return dict(r.json())


async def moves(server: Server, tid: str, token: str | None = None) -> list[dict[str, Any]]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(base_url=server.url, headers=headers, timeout=30) as c:
        r = await c.get(f"/api/tables/{tid}/moves")
        assert r.status_code == 200, r.text
        return list(r.json()["moves"])


async def close_all(*things: Player | Socket) -> None:
    for thing in things:
        await thing.close()


async def wait_for(predicate: Any, timeout: float = 20, every: float = 0.05) -> Any:
    """Poll an async predicate until it returns something truthy."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = await predicate()
        if value:
            return value
        if loop.time() > deadline:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(every)


async def db_rows(server: Server, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    """Read the server's database directly (to see what was really stored)."""
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    url = server.db.url
    if url.startswith("postgresql://"):
        url = "postgresql+asyncpg://" + url[len("postgresql://"):]
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return [tuple(row) for row in (await conn.execute(text(sql), params)).all()]
    finally:
        await engine.dispose()
