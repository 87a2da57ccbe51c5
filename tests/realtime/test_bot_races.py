"""A person against a bot that moves the instant the game starts: the person always learns it is their turn.

The client here keeps its picture as the browser does (a snapshot replaces it, an update replaces it when newer)
and, like the browser after a host's call, asks for a resync right after starting, while the bot is moving."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from tests.conftest import Server
from tests.platform.client import Player, Socket

TABLES = 8
PERSON_MOVES = 6


def newer(picture: dict[str, Any] | None, msg: dict[str, Any]) -> dict[str, Any] | None:
    """The browser's rule (frontend/app/socket.js): snapshots always apply, updates only when newer."""
    if msg.get("type") == "snapshot":
        return msg
    if msg.get("type") == "update" and (picture is None or msg["version"] > picture["version"]):
        return msg
    return picture


async def person_against_bot(server: Server, name: str) -> int:
    """Play the person's first moves against a bot; the number of moves the person made."""
    person = await Player.guest(server.url, name)
    table = await person.table(game="food-truck-champion", seats=2)
    tid = table["id"]
    await person.post(f"/api/tables/{tid}/bots", {"seat": "1"})
    sock = await Socket.open(server.ws_url, tid, person.token)
    picture: dict[str, Any] | None = None
    moves = 0
    try:
        await person.post(f"/api/tables/{tid}/start")
        await sock.send_raw(json.dumps({"type": "resync"}))
        while moves < PERSON_MOVES:
            try:
                msg = await sock.recv(timeout=10)
            except TimeoutError:
                raise AssertionError(
                    f"{name} heard nothing for 10 s after {moves} moves; last picture: version "
                    f"{picture and picture['version']}, awaiting {picture and picture['awaiting']}"
                ) from None
            picture = newer(picture, msg)
            if picture is None or picture["seat"] not in picture["awaiting"] or not picture["actions"]:
                continue
            if sock.table is not None and sock.table["status"] != "playing":
                break
            answer = await sock.act(picture["actions"][0], expected_version=picture["version"])
            if answer["type"] == "ack":
                moves += 1
                picture = {**picture, "actions": []}  # decided; the update tells what comes next
    finally:
        await sock.close()
        await person.close()
    return moves


async def test_a_person_never_misses_the_bot_moving_at_the_start(server: Server) -> None:
    done = await asyncio.gather(*(person_against_bot(server, f"P{i}") for i in range(TABLES)))
    assert all(n == PERSON_MOVES for n in done), done
