"""The framed websocket protocol on top of uvicorn's: the frame writer it offers, and its read-ahead.

It subclasses a uvicorn class, so these tests pin the behaviour we rely on to the uvicorn we install."""

from __future__ import annotations

import asyncio
import base64
import os
from typing import Any

import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.frames import Frame, Opcode
from websockets.protocol import CLIENT
from websockets.protocol import Protocol as SansIO

from app.realtime.protocol import (
    FRAME_WRITER,
    READ_AHEAD,
    WRITE_BUFFER_LIMIT,
    FramedWebSocketProtocol,
    text_frame,
)


class FakeTransport(asyncio.Transport):
    """Collects what the protocol writes; reports a write buffer of a chosen size."""

    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()
        self.buffered = 0
        self.paused = False
        self.closing = False

    def write(self, data: Any) -> None:
        self.written += data

    def get_write_buffer_size(self) -> int:
        return self.buffered

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)


def client_text(payload: bytes) -> bytes:
    """A masked client text frame."""
    conn = SansIO(CLIENT)
    conn.send_text(payload)
    return b"".join(conn.data_to_send())


def parse_server_frames(data: bytes) -> list[Frame]:
    """Server frames in the bytes after the handshake response."""
    reader = SansIO(CLIENT)
    reader.receive_data(data)
    return [e for e in reader.events_received() if isinstance(e, Frame)]


async def open_protocol(app: Any) -> tuple[FramedWebSocketProtocol, FakeTransport]:
    config = Config(app=app, ws=FramedWebSocketProtocol, ws_per_message_deflate=False, lifespan="off")
    config.load()
    proto = FramedWebSocketProtocol(config=config, server_state=ServerState(), app_state={})
    transport = FakeTransport()
    proto.connection_made(transport)
    key = base64.b64encode(os.urandom(16))
    proto.data_received(
        b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: " + key + b"\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    for _ in range(20):
        await asyncio.sleep(0)
    return proto, transport


def after_handshake(transport: FakeTransport) -> bytes:
    return bytes(transport.written.split(b"\r\n\r\n", 1)[1])


async def test_the_app_gets_a_frame_writer_that_writes_exact_frames() -> None:
    writers: list[Any] = []
    release = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        writers.append(scope["extensions"].get(FRAME_WRITER))
        await send({"type": "websocket.accept"})
        await release.wait()

    proto, transport = await open_protocol(app)
    assert transport.written.startswith(b"HTTP/1.1 101")
    (write,) = writers
    payloads = [b'{"a":1}', b"x" * 300, b"y" * 70_000]  # 7-bit, 16-bit and 64-bit lengths
    for payload in payloads:
        assert write(text_frame(payload))
    frames = parse_server_frames(after_handshake(transport))
    assert [(f.opcode, bytes(f.data), f.fin) for f in frames] == [(Opcode.TEXT, p, True) for p in payloads]

    transport.buffered = WRITE_BUFFER_LIMIT + 1  # a reader too far behind is refused, not buffered
    assert not write(text_frame(b"late"))
    transport.buffered = 0
    proto.connection_lost(None)
    assert not write(text_frame(b"gone"))
    release.set()


async def test_a_frame_writer_refuses_before_the_accept() -> None:
    writers: list[Any] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        writers.append(scope["extensions"][FRAME_WRITER])
        await asyncio.sleep(3600)

    proto, transport = await open_protocol(app)
    assert not writers[0](text_frame(b"too early"))
    assert not transport.written
    proto.connection_lost(None)


@pytest.mark.parametrize("unread", [1, READ_AHEAD - 1, READ_AHEAD, READ_AHEAD + 3])
async def test_reading_pauses_only_when_messages_wait_unread(unread: int) -> None:
    got: list[str] = []
    go = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        await go.wait()
        while len(got) < unread:
            got.append((await receive())["text"])

    proto, transport = await open_protocol(app)
    proto.data_received(b"".join(client_text(f"m{i}".encode()) for i in range(unread)))
    assert transport.paused == (unread >= READ_AHEAD)
    go.set()
    for _ in range(50):
        await asyncio.sleep(0)
    assert got == [f"m{i}" for i in range(unread)]
    assert not transport.paused
    proto.connection_lost(None)


async def test_after_our_close_reading_goes_on_until_the_close_reply() -> None:
    """A flooding client's unread messages must not stop us reading its close reply (it would wait 10 s)."""
    go, closed = asyncio.Event(), asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        await go.wait()
        await send({"type": "websocket.close", "code": 1008})
        closed.set()

    proto, transport = await open_protocol(app)
    proto.data_received(b"".join(client_text(f"m{i}".encode()) for i in range(READ_AHEAD + 2)))
    assert transport.paused  # unread messages: backpressure
    go.set()
    await closed.wait()
    assert not transport.paused  # uvicorn resumes reading when the close is sent ...
    proto.data_received(b"".join(client_text(f"late{i}".encode()) for i in range(3)))
    assert not transport.paused  # ... and later messages must not pause it again
    reply = SansIO(CLIENT)
    reply.send_close(1008)
    proto.data_received(b"".join(reply.data_to_send()))
    assert transport.closing
