"""The framed websocket protocol on top of uvicorn's: the frame writer and reader it offers, its read-ahead.

It subclasses a uvicorn class, so these tests pin the behaviour we rely on to the uvicorn we install."""

from __future__ import annotations

import asyncio
import base64
import os
from typing import Any

import pytest
import uvicorn
from uvicorn.config import Config
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.server import ServerState
from websockets.frames import Frame, Opcode
from websockets.protocol import CLIENT
from websockets.protocol import Protocol as SansIO

from app.config import Settings
from app.main import uvicorn_options
from app.realtime.protocol import (
    FRAME_READER,
    FRAME_WRITER,
    READ_AHEAD,
    WRITE_BUFFER_LIMIT,
    FramedWebSocketProtocol,
    check_uvicorn,
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


def client_frame(opcode: Opcode, payload: bytes, fin: bool = True) -> bytes:
    """One masked client frame of any kind."""
    conn = SansIO(CLIENT)
    conn.send_frame(Frame(opcode, payload, fin))
    return b"".join(conn.data_to_send())


async def reading_app(got: list[Any]) -> Any:
    """An app that accepts, then records every message it reads through the protocol's own reader."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        read = scope["extensions"][FRAME_READER]
        while True:
            message = await read()
            got.append(message)
            if message["type"] == "websocket.disconnect":
                return

    return app


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


async def test_text_frames_are_read_whole_however_the_bytes_arrive() -> None:
    got: list[Any] = []
    proto, transport = await open_protocol(await reading_app(got))
    texts = ["a", "é" * 100, "x" * 40_000, '{"type":"act"}']  # 7-bit and 16-bit lengths, multi-byte UTF-8
    stream = b"".join(client_text(t.encode()) for t in texts)
    for cut in (1, 5, 7, 300, len(stream) - 1):  # frames split across reads at awkward places
        proto.data_received(stream[:cut])
        proto.data_received(stream[cut:])
        await settle()
    assert [m["text"] for m in got] == texts * 5
    assert proto.lean  # every frame was read without websockets' parser
    proto.connection_lost(None)
    await settle()
    assert got[-1]["type"] == "websocket.disconnect"


async def test_pings_are_answered_and_pongs_taken_while_reading_lean() -> None:
    got: list[Any] = []
    proto, transport = await open_protocol(await reading_app(got))
    start = len(transport.written)
    proto.pending_ping_payload = b"1234"  # as if our keepalive ping were out
    proto.data_received(client_frame(Opcode.PING, b"hi") + client_frame(Opcode.PONG, b"1234") + client_text(b"m"))
    await settle()
    assert proto.pending_ping_payload is None  # the pong was matched to our ping
    frames = parse_server_frames(bytes(transport.written[start:]))
    assert [(f.opcode, bytes(f.data)) for f in frames] == [(Opcode.PONG, b"hi")]
    assert [m["text"] for m in got] == ["m"] and proto.lean
    proto.connection_lost(None)


@pytest.mark.parametrize(
    "odd, expect",
    [
        (client_frame(Opcode.BINARY, b"\x00\x01"), {"type": "websocket.receive", "bytes": b"\x00\x01"}),
        (client_frame(Opcode.TEXT, b"fra", fin=False) + client_frame(Opcode.CONT, b"gment"),
         {"type": "websocket.receive", "text": "fragment"}),
        (client_text(b"x" * 70_000), {"type": "websocket.receive", "text": "x" * 70_000}),  # a 64-bit length
    ],
    ids=["binary", "fragmented", "long"],
)
async def test_other_frames_go_to_websockets_with_everything_after_them(odd: bytes, expect: dict[str, Any]) -> None:
    got: list[Any] = []
    proto, _transport = await open_protocol(await reading_app(got))
    proto.data_received(client_text(b"before") + odd + client_text(b"after"))
    await settle()
    proto.data_received(client_text(b"later"))
    await settle()
    assert got == [{"type": "websocket.receive", "text": "before"}, expect,
                   {"type": "websocket.receive", "text": "after"}, {"type": "websocket.receive", "text": "later"}]
    assert not proto.lean
    proto.connection_lost(None)


@pytest.mark.parametrize(
    "bad, code",
    [
        (client_frame(Opcode.TEXT, b"\xff\xfe"), 1007),  # not UTF-8
        (b"\x81\x02hi", 1002),  # an unmasked client frame
    ],
    ids=["bad-utf8", "unmasked"],
)
async def test_protocol_errors_are_left_to_websockets(bad: bytes, code: int) -> None:
    got: list[Any] = []
    proto, transport = await open_protocol(await reading_app(got))
    start = len(transport.written)
    proto.data_received(client_text(b"ok") + bad)
    await settle()
    assert got[0] == {"type": "websocket.receive", "text": "ok"}
    assert got[-1]["type"] == "websocket.disconnect" and got[-1]["code"] == code
    frames = parse_server_frames(bytes(transport.written[start:]))
    assert frames[-1].opcode == Opcode.CLOSE and transport.closing


async def test_a_client_close_is_answered_by_websockets() -> None:
    got: list[Any] = []
    proto, transport = await open_protocol(await reading_app(got))
    start = len(transport.written)
    closing = SansIO(CLIENT)
    closing.send_close(1000, "bye")
    proto.data_received(client_text(b"last") + b"".join(closing.data_to_send()))
    await settle()
    assert got == [{"type": "websocket.receive", "text": "last"},
                   {"type": "websocket.disconnect", "code": 1000, "reason": "bye"}]
    (reply,) = parse_server_frames(bytes(transport.written[start:]))
    assert reply.opcode == Opcode.CLOSE and transport.closing


@pytest.mark.parametrize("version", ["0.36.0", "0.42.1", "0.55.0"])
def test_the_framed_protocol_serves_on_the_uvicorn_releases_it_was_tested_with(version: str) -> None:
    check_uvicorn(version)


@pytest.mark.parametrize("version", ["0.35.9", "0.56.0", "1.0.0", "dev"])
def test_the_framed_protocol_refuses_to_start_on_another_uvicorn(version: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(RuntimeError, match="WS_IMPL=websockets-sansio"):
        check_uvicorn(version)
    monkeypatch.setattr(uvicorn, "__version__", version)
    with pytest.raises(RuntimeError, match=f"this is uvicorn {version}"):
        uvicorn_options(Settings(ws_impl="framed"))
    # uvicorn's own implementation has no such bound.
    assert uvicorn_options(Settings(ws_impl="websockets-sansio"))["ws"] == "websockets-sansio"


async def test_an_open_socket_keeps_no_handshake_and_still_talks_and_closes() -> None:
    got: list[Any] = []
    sent: list[Any] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        read = scope["extensions"][FRAME_READER]
        message = await read()
        got.append(message)
        await send({"type": "websocket.send", "text": "echo " + message["text"]})
        await send({"type": "websocket.close", "code": 4401})
        sent.append("closed")

    proto, transport = await open_protocol(app)
    assert transport.written.startswith(b"HTTP/1.1 101")
    assert not hasattr(proto, "request") and not hasattr(proto, "response")
    proto.data_received(client_text(b"hello"))
    await settle()
    assert got == [{"type": "websocket.receive", "text": "hello"}] and sent == ["closed"]
    echo, close = parse_server_frames(after_handshake(transport))
    assert (echo.opcode, bytes(echo.data)) == (Opcode.TEXT, b"echo hello")
    assert close.opcode == Opcode.CLOSE and int.from_bytes(close.data[:2], "big") == 4401
    proto.connection_lost(None)


async def test_a_refused_handshake_is_still_answered() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.close", "code": 1008})

    proto, transport = await open_protocol(app)
    assert transport.written.startswith(b"HTTP/1.1 403") and transport.closing
    proto.connection_lost(None)


async def test_a_send_waits_while_the_client_is_behind_and_goes_once_it_catches_up() -> None:
    done = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": "late"})
        done.set()

    proto, transport = await open_protocol(app)
    assert done.is_set()  # nothing held the first send
    await settle()
    start = len(transport.written)
    proto.pause_writing()
    sending = asyncio.ensure_future(proto.send({"type": "websocket.send", "text": "held"}))
    await settle()
    assert not sending.done() and len(transport.written) == start
    proto.resume_writing()
    await settle()
    assert sending.done()
    (held,) = parse_server_frames(bytes(transport.written[start:]))
    assert bytes(held.data) == b"held"
    proto.connection_lost(None)


async def test_a_send_held_by_a_client_behind_ends_when_the_client_goes() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        await asyncio.sleep(3600)

    proto, _transport = await open_protocol(app)
    proto.pause_writing()
    sending = asyncio.ensure_future(proto.send({"type": "websocket.send", "text": "never"}))
    await settle()
    assert not sending.done()
    proto.connection_lost(None)
    await settle()
    assert isinstance(sending.exception(), ClientDisconnected)
