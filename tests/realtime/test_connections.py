"""One socket's `Connection`: its messages arrive in order and its close comes after them, through the frame writer
or through ASGI, and a socket with a frame writer keeps no send queue while it is open."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.websockets import WebSocket

from app.realtime.connections import ACCESS_LOST, Connection, Message


class AsgiPeer:
    """The server side of one accepted socket as ASGI sees it: every message the application sends."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def receive(self) -> dict[str, Any]:
        return {"type": "websocket.connect"}

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    async def accepted(self) -> WebSocket:
        scope = {"type": "websocket", "path": "/ws/tables/t1", "headers": [], "query_string": b"",
                 "client": ("127.0.0.1", 5000), "extensions": {}}
        ws = WebSocket(scope, self.receive, self.send)
        await ws.accept()
        return ws


class FrameSink:
    """A frame writer: the frames written, until it refuses."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []
        self.refusing = False

    def write(self, frame: bytes) -> bool:
        if self.refusing:
            return False
        self.frames.append(frame)
        return True


async def settle(conn: Connection) -> None:
    if conn.writer is not None:
        await asyncio.wait_for(asyncio.shield(conn.writer), 2)


async def test_a_framed_socket_queues_nothing_until_it_closes_and_closes_after_its_frames() -> None:
    peer, sink = AsgiPeer(), FrameSink()
    conn = Connection(ws=await peer.accepted(), table_id="t1", user_id=None, write_frame=sink.write)
    first, second = Message.of({"n": 1}), Message.of({"n": 2})
    conn.send(first)
    conn.cork()
    conn.send(second)
    conn.uncork()
    assert sink.frames == [first.frame, second.frame]
    assert conn.queue is None and conn.writer is None
    conn.close_soon(ACCESS_LOST)
    await settle(conn)
    assert peer.sent[-1] == {"type": "websocket.close", "code": ACCESS_LOST, "reason": ""}
    conn.send(Message.of({"n": 3}))
    assert len(sink.frames) == 2


async def test_a_framed_socket_too_far_behind_is_closed() -> None:
    peer, sink = AsgiPeer(), FrameSink()
    conn = Connection(ws=await peer.accepted(), table_id="t1", user_id=None, write_frame=sink.write)
    sink.refusing = True
    conn.send(Message.of({"n": 1}))
    await settle(conn)
    assert conn.closed and peer.sent[-1]["type"] == "websocket.close" and peer.sent[-1]["code"] == 1013


async def test_without_a_frame_writer_messages_go_through_asgi_in_order_then_the_close() -> None:
    peer = AsgiPeer()
    conn = Connection(ws=await peer.accepted(), table_id="t1", user_id=None)
    for n in range(3):
        conn.send_json({"n": n})
    conn.close_soon(ACCESS_LOST)
    await settle(conn)
    assert peer.sent[1:] == [
        {"type": "websocket.send", "text": '{"n":0}'},
        {"type": "websocket.send", "text": '{"n":1}'},
        {"type": "websocket.send", "text": '{"n":2}'},
        {"type": "websocket.close", "code": ACCESS_LOST, "reason": ""},
    ]
    assert conn.writer is None and not conn.queue
