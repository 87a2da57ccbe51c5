"""Hostile websocket input: every bad frame gets a clear error, changes nothing, and the socket stays up."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import websockets
from websockets.exceptions import ConnectionClosed

from tests.conftest import Server
from tests.hardening.helpers import SCALE, close_all, moves, started_tiny, table_state
from tests.platform.client import Socket

# Hand-picked bad frames and the error code each must get.
BAD_FRAMES: list[tuple[str | bytes, str]] = [
    ("{oops", "bad_json"),
    ("", "bad_json"),
    ("nul\x00l", "bad_json"),
    ("NaN", "bad_json"),
    ('{"type": "act", "action": {"type": "pick", "n": 1e400}}', "bad_json"),
    ('{"type": "act", "action": {"type": "pick", "n": 123456789012345678901234567890}}', "illegal"),
    ("[" * 5000 + "]" * 5000, "bad_json"),
    ('{"type": "act", "type": "ping"', "bad_json"),
    ("\ud800".encode("utf-8", "surrogatepass").decode("utf-8", "replace"), "bad_json"),
    ("[1, 2]", "bad_message"),
    ('"act"', "bad_message"),
    ("17", "bad_message"),
    ("null", "bad_message"),
    ("{}", "unknown_type"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": "ACT"}', "unknown_type"),
    ('{"type": null}', "unknown_type"),
    ('{"type": ["act"]}', "unknown_type"),
    ('{"type": "\\u202eact"}', "unknown_type"),
    ('{"type": "act"}', "bad_action"),
    ('{"type": "act", "action": null}', "bad_action"),
    ('{"type": "act", "action": "pick"}', "bad_action"),
    ('{"type": "act", "action": [{"type": "pick"}]}', "bad_action"),
    ('{"type": "act", "action": {"n": 1}}', "bad_action"),
    ('{"type": "act", "action": {"type": 3}}', "bad_action"),
    ('{"type": "act", "action": {"type": "pick", "n": 1}, "client_id": 5}', "bad_client_id"),
    ('{"type": "act", "action": {"type": "pick", "n": 1}, "client_id": ""}', "bad_client_id"),
    ('{"type": "act", "action": {"type": "pick", "n": 1}, "client_id": ["a"]}', "bad_client_id"),
    ('{"type": "act", "action": {"type": "pick", "n": 1}, "expected_version": "3"}', "bad_version"),
    ('{"type": "act", "action": {"type": "pick", "n": 1}, "expected_version": true}', "bad_version"),
    ('{"type": "act", "action": {"type": "pick", "n": 1}, "expected_version": 1.5}', "bad_version"),
    ('{"type": "act", "action": {"type": "pick", "n": 1}, "expected_version": -1}', "stale_version"),
    ('{"type": "act", "action": {"type": "pick", "n": -1}}', "illegal"),
    ('{"type": "act", "action": {"type": "pick", "n": "1"}}', "illegal"),
    ('{"type": "act", "action": {"type": "pick", "n": 1, "extra": {"$where": "1"}}}', "illegal"),
    ('{"type": "act", "action": {"type": "bump"}}', "illegal"),
    ('{"type": "act", "action": {"type": "\'; DROP TABLE moves; --"}}', "illegal"),
    ('{"type": "act", "action": {"type": "pick\\u0000", "n": 1}}', "illegal"),
    (json.dumps({"type": "act", "action": {"type": "pick", "n": 1, "pad": "x" * 70_000}}), "too_large"),
    (json.dumps({"type": "ping", "pad": "é" * 40_000}), "too_large"),
    (b"\x00\x01\x02", "binary_frame"),
    (b'{"type": "ping"}', "binary_frame"),
    (b"", "binary_frame"),
    ('{"type": "chat"}', "bad_message"),
    ('{"type": "chat", "text": {"$ne": ""}}', "bad_message"),
    ('{"type": "chat", "text": " \\u0000\\u202e\\n\\t"}', "chat_empty"),
    (json.dumps({"type": "chat", "text": "x" * 301}), "chat_too_long"),
    ('{"type": "chat", "text": "hi", "client_id": "no spaces"}', "bad_client_id"),
]


def _random_frames(seed: int, count: int) -> list[str | bytes]:
    """Generated garbage: random bytes, random text, and random JSON objects shaped like messages."""
    rnd = random.Random(seed)
    alphabet = "ab{}[]\":,0123456789 \\\x00\x1f\u202e\u0301é🍔\ufffd"

    def value(depth: int) -> Any:
        kind = rnd.randrange(8 if depth < 3 else 5)
        if kind == 0:
            return rnd.choice([0, -1, 2**31, 2**53 + 1, -(2**63), 3.5, -0.0])
        if kind == 1:
            return "".join(rnd.choice(alphabet) for _ in range(rnd.randrange(0, 30)))
        if kind == 2:
            return rnd.choice([True, False, None])
        if kind == 3:
            return rnd.choice(["act", "ping", "resync", "pick", "bump", "snapshot", "ack", "chat"])
        if kind == 4:
            return rnd.randrange(-5, 10)
        if kind == 5:
            return [value(depth + 1) for _ in range(rnd.randrange(4))]
        return {rnd.choice(["type", "action", "client_id", "expected_version", "n", "version", "x", "text"]):
                value(depth + 1) for _ in range(rnd.randrange(5))}

    frames: list[str | bytes] = []
    for _ in range(count):
        kind = rnd.randrange(5)
        if kind == 0:
            frames.append(bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 64))))
        elif kind == 1:
            frames.append("".join(rnd.choice(alphabet) for _ in range(rnd.randrange(1, 64))))
        elif kind == 4:
            frames.append(json.dumps({"type": "chat", "text": value(1), "client_id": value(2)}))
        else:
            msg = value(1) if kind == 2 else {"type": "act", "action": value(0), "client_id": value(2)}
            frames.append(json.dumps(msg))
    return frames


async def _answer(sock: Socket, frame: str | bytes) -> dict[str, Any]:
    """Send a frame followed by a ping; return the first reply that is not a pong or update."""
    await sock.send_raw(frame)
    await sock.send_raw(json.dumps({"type": "ping"}))
    first: dict[str, Any] | None = None
    while True:
        msg = await sock.recv()
        assert msg["type"] != "closed", f"socket closed after {frame[:60]!r}"
        if msg["type"] == "pong":
            return first or msg
        if first is None and msg["type"] in ("error", "ack", "snapshot"):
            first = msg


async def _fresh_socket(server: Server, tid: str, token: str) -> Socket:
    sock = await Socket.open(server.ws_url, tid, token)
    await sock.expect("snapshot")
    return sock


async def test_each_bad_frame_gets_its_error_and_changes_nothing(server: Server) -> None:
    players, tid = await started_tiny(server)
    before = await table_state(server, tid, players[0].token)
    sock = await _fresh_socket(server, tid, players[0].token)
    sent = 0
    for frame, code in BAD_FRAMES:
        if sent >= 15:  # stay inside the rate limit's burst: a new socket every few frames
            await sock.close()
            sock, sent = await _fresh_socket(server, tid, players[0].token), 0
        reply = await _answer(sock, frame)
        sent += 2
        assert reply["type"] == "error" and reply["code"] == code, (frame[:80], reply)
        assert isinstance(reply["message"], str) and 0 < len(reply["message"]) < 300
        assert "Traceback" not in reply["message"]
    after = await table_state(server, tid, players[0].token)
    assert after["version"] == before["version"] and after["move_count"] == 0
    assert await moves(server, tid, players[0].token) == []
    # The socket still plays a legal move.
    ack = await sock.act({"type": "pick", "n": 2}, expected_version=before["version"])
    assert ack["type"] == "ack" and ack["version"] == before["version"] + 1
    await close_all(sock, *players)


async def test_generated_garbage_never_applies_anything(server: Server) -> None:
    players, tid = await started_tiny(server)
    before = await table_state(server, tid, players[0].token)
    frames = _random_frames(seed=2026, count=300 * SCALE)
    sock = await _fresh_socket(server, tid, players[1].token)
    sent, kinds = 0, set()
    for frame in frames:
        if sent >= 30:
            await sock.close()
            sock, sent = await _fresh_socket(server, tid, players[1].token), 0
        reply = await _answer(sock, frame)
        sent += 2
        # Anything that happens to be a legal move may apply; nothing else may.
        assert reply["type"] in ("error", "pong", "snapshot", "ack"), reply
        if reply["type"] in ("error", "ack"):
            kinds.add(reply.get("code", "chat" if "message" in reply else "act"))
            assert reply.get("code") != "server_error", (frame[:80], reply)
    after = await table_state(server, tid, players[0].token)
    applied = [m for m in await moves(server, tid, players[1].token)]
    assert after["version"] == before["version"] + len(applied)
    assert all(m["seat"] == "1" and m["action"]["type"] == "pick" for m in applied)
    assert {"bad_json", "binary_frame", "unknown_type", "bad_action", "bad_message", "chat"} <= kinds
    await close_all(sock, *players)


async def test_frame_over_the_transport_limit_closes_with_1009(server: Server) -> None:
    players, tid = await started_tiny(server)
    before = await table_state(server, tid)
    bearer = {"Authorization": f"Bearer {players[0].token}"}
    async with websockets.connect(f"{server.ws_url}/ws/tables/{tid}", additional_headers=bearer) as ws:
        json.loads(await ws.recv())
        try:
            # The server may close before the client has finished writing, so the send can raise too.
            await ws.send(json.dumps({"type": "act", "action": {"type": "pick", "n": 1, "pad": "x" * 2_000_000}}))
            while True:
                await asyncio.wait_for(ws.recv(), 10)
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 1009
    assert (await table_state(server, tid))["version"] == before["version"]
    # A new connection is served normally.
    sock = await _fresh_socket(server, tid, players[0].token)
    assert (await sock.act({"type": "pick", "n": 1}))["type"] == "ack"
    await close_all(sock, *players)


async def test_a_flood_is_answered_then_throttled_then_cut(server: Server) -> None:
    players, tid = await started_tiny(server)
    before = await table_state(server, tid)
    sock = await _fresh_socket(server, tid, players[0].token)
    # 150 frames: the bucket (burst 40, 20/s) empties even if sending them takes a few seconds on a busy
    # machine, and the refusals stay under the 200 that get a socket cut.
    for _ in range(150):
        await sock.send_raw(json.dumps({"type": "act", "action": {"type": "pick", "n": 1}}))
    replies: list[dict[str, Any]] = []
    while len(replies) < 150:
        msg = await sock.recv()
        assert msg["type"] != "closed"
        if msg["type"] in ("ack", "error"):
            replies.append(msg)
    codes = [r.get("code") for r in replies]
    assert codes.count("rate_limited") >= 40, codes
    assert sum(r["type"] == "ack" for r in replies) == 1  # the first pick, then "not your turn"
    assert "server_error" not in codes
    # Throttled, not dead: after a pause the same socket is answered again.
    await server.advance(0.6)
    await sock.send_raw(json.dumps({"type": "ping"}))
    await sock.expect("pong")
    # Keep flooding and the server hangs up (policy violation).
    for _ in range(400):
        try:
            await sock.send_raw(json.dumps({"type": "ping"}))
        except ConnectionClosed:
            break
    await sock.expect("closed", timeout=10)
    assert sock.ws.close_code == 1008
    after = await table_state(server, tid)
    assert after["version"] == before["version"] + 1 and after["move_count"] == 1
    # Another connection of the same user still works.
    again = await _fresh_socket(server, tid, players[0].token)
    await again.send_raw(json.dumps({"type": "ping"}))
    await again.expect("pong")
    await close_all(again, *players)


async def test_a_boolean_is_not_a_number(server: Server) -> None:
    """`true == 1` in Python: an action compared with `in actions()` would let `n: true` through as 1."""
    players, tid = await started_tiny(server)
    before = await table_state(server, tid)
    sock = await _fresh_socket(server, tid, players[0].token)
    for lookalike in ({"type": "pick", "n": True}, {"type": "pick", "n": 1.0}, {"type": "pick", "n": 1, "x": 0}):
        reply = await sock.act(lookalike)
        assert reply["type"] == "error" and reply["code"] in ("illegal", "illegal_action"), reply
    assert (await table_state(server, tid))["version"] == before["version"]
    assert await moves(server, tid) == []
    await close_all(sock, *players)


async def test_a_throttled_act_is_answered_by_its_client_id(server: Server) -> None:
    """A client waiting for the answer to its move must get one, even when the answer is 'slow down'."""
    players, tid = await started_tiny(server)
    sock = await _fresh_socket(server, tid, players[0].token)
    for _ in range(60):
        await sock.send_raw(json.dumps({"type": "ping"}))
    reply = await sock.act({"type": "pick", "n": 1}, client_id="throttled-1", timeout=3)
    assert reply["type"] == "error" and reply["code"] == "rate_limited" and reply["client_id"] == "throttled-1"
    await close_all(sock, *players)


async def test_sockets_to_tables_that_do_not_exist_are_refused_cleanly(server: Server) -> None:
    players, tid = await started_tiny(server)
    for bad in ["0" * 16, "nope", "x" * 300, "%27%3B%20DROP%20TABLE%20moves%3B--", "%F0%9F%8D%94", tid[:-1],
                "%00"]:
        sock = await Socket.open(server.ws_url, bad, players[0].token)
        err = await sock.expect("error")
        assert err["code"] in ("not_found", "bad_request", "invalid_request") and err["message"], (bad, err)
        await sock.expect("closed")
        assert 4000 <= (sock.ws.close_code or 0) < 5000, (bad, sock.ws.close_code)
    # The real table was not disturbed and still serves.
    sock = await _fresh_socket(server, tid, players[0].token)
    assert (await sock.act({"type": "pick", "n": 1}))["type"] == "ack"
    await close_all(sock, *players)
