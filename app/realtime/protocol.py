"""uvicorn's sans-I/O websocket protocol, plus a synchronous write of a ready-made frame and a lean read.

A table's update is the same bytes for every socket of one viewer (all spectators share
one), so the hub encodes each distinct message as a websocket frame once and writes
those bytes straight to each socket's transport: no task, no ASGI message and no
per-socket frame encoding for the thousands of sends a busy server makes each second.

Reading is the mirror image. Nearly every client frame is one short, whole, masked text
message (or a pong), so the protocol reads those itself and hands their text to the
socket's task through a plain inbox, which the application awaits directly
(`extensions[FRAME_READER]`): no sans-I/O parser generator, asyncio.Queue or Starlette
wrapper per message. Anything else (a close, a fragment, a binary or large frame, bad
UTF-8) goes to uvicorn's own code with every byte after it, for good, so the rare cases
keep websockets' full handling. The handshake, pings, closing and errors are uvicorn's.

The application finds the writer and the reader in the ASGI scope under
`extensions[FRAME_WRITER]` and `extensions[FRAME_READER]`; without them (another
websocket implementation) the hub sends and the socket receives through ASGI as usual.
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State
from websockets.speedups import apply_mask

# The uvicorn releases this module was written and tested against: the oldest by scripts/check-floors.sh, the newest
# by the lock. It overrides internals of uvicorn's sans-I/O protocol, which another release may change silently, so
# the server refuses to start on one outside them (`check_uvicorn`); pyproject.toml bounds uvicorn the same way.
UVICORN_TESTED = ((0, 36), (0, 55))

FRAME_WRITER = "foodgames.frame_writer"
FRAME_READER = "foodgames.frame_reader"
# A client this far behind (bytes written but not yet taken by the kernel) is dropped; it reconnects
# and resyncs. About 64 full updates of a card game.
WRITE_BUFFER_LIMIT = 256 * 1024


# Messages a client may have waiting unread before we stop reading its socket (backpressure).
READ_AHEAD = 4


# The client frames read here: FIN with a text, ping or pong opcode and no RSV bits (no extension is
# negotiated), of a 7- or 16-bit length (a longer message is over the app's limit anyway).
_FIN_TEXT, _FIN_PING, _FIN_PONG = 0x81, 0x89, 0x8A


def check_uvicorn(version: str) -> None:
    """Refuse to serve with this module on a uvicorn release it was not tested against."""
    try:
        release = tuple(int(part) for part in version.split(".")[:2])
    except ValueError:
        release = ()
    low, high = UVICORN_TESTED
    if not low <= release <= high:
        raise RuntimeError(
            f"WS_IMPL=framed (app/realtime/protocol.py) is tested with uvicorn {'.'.join(map(str, low))} to "
            f"{'.'.join(map(str, high))}.x, and this is uvicorn {version}: install a tested one, or set "
            "WS_IMPL=websockets-sansio to serve with uvicorn's own implementation."
        )


class Inbox:
    """The messages of one socket waiting for its one reader: the part of asyncio.Queue that uvicorn uses."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        # A list, not a deque: it holds a few messages at most (reading pauses at READ_AHEAD), and an empty
        # deque costs over 600 bytes for every idle socket.
        self._items: list[Any] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> Any:
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)

    def qsize(self) -> int:
        return len(self._items)

    def empty(self) -> bool:
        return not self._items


class Writable:
    """Whether the transport takes more writes: the part of asyncio.Event that uvicorn uses, without the Event's
    deque of waiters, which every idle socket would hold (a send waits here only while the client is behind)."""

    __slots__ = ("_set", "_waiters")

    def __init__(self) -> None:
        self._set = True
        self._waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        self._set = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._set = False

    async def wait(self) -> None:
        if self._set:
            return
        waiter = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        try:
            await waiter
        finally:
            if self._waiters is not None and waiter in self._waiters:
                self._waiters.remove(waiter)


def text_frame(payload: bytes) -> bytes:
    """One unfragmented, unmasked (server-to-client) websocket text frame (RFC 6455 §5.2)."""
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x81, n)
    elif n < 1 << 16:
        head = struct.pack("!BBH", 0x81, 126, n)
    else:
        head = struct.pack("!BBQ", 0x81, 127, n)
    return head + payload


class FramedWebSocketProtocol(WebSocketsSansIOProtocol):
    """`WebSocketsSansIOProtocol` that also offers `write_frame` and a lean `receive` to the application.

    It also stops reading from a client only when several of its messages wait unread (uvicorn's
    protocol pauses after every message, which costs two system calls per message received)."""

    # The instance attributes uvicorn's protocol sets (and ours), as slots: kept in its __dict__, their 40-odd
    # entries outgrow a shared-key dict and cost about 1.5 KB for every open socket. An attribute a later uvicorn
    # adds just goes to the __dict__.
    __slots__ = (
        "app", "app_state", "asgi_version", "client", "close_sent", "close_timeout", "close_timer", "config", "conn",
        "connections", "curr_msg_data_type", "default_headers", "disconnected", "frames", "handshake_complete",
        "handshake_initiated", "initial_response", "last_ping_rtt", "lean", "logger", "loop", "partial",
        "pending_ping_payload", "ping_interval", "ping_sent_at", "ping_timeout", "ping_timer", "pong_timer", "queue",
        "read_paused", "request", "response", "root_path", "scheme", "scope", "server", "tasks", "transport",
        "writable",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = Inbox()  # type: ignore[assignment]
        self.writable = Writable()  # type: ignore[assignment]
        self.lean = True  # frames are read here until one needs websockets' parser
        self.partial = b""  # the start of a frame still arriving

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][FRAME_WRITER] = self.write_frame
            scope["extensions"][FRAME_READER] = self.receive

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.accept" and self.handshake_complete:
            # The handshake's request and response (headers and all) are not read again once the accept is sent;
            # the scope keeps what the application reads. websockets' parser holds on to the request object until
            # the socket closes, so its headers are emptied rather than just let go.
            self.request.headers.clear()
            del self.request, self.response

    def data_received(self, data: bytes) -> None:
        if self.lean and self.handshake_complete:
            if not self.close_sent and self.conn.state is State.OPEN and not self.conn.reader.buffer:
                self.read_lean(self.partial + data if self.partial else data)
                return
            self.hand_over(data)
            return
        super().data_received(data)

    def read_lean(self, data: bytes) -> None:
        """Read the whole text, ping and pong frames at the front of `data`; hand over at any other frame."""
        pos, end = 0, len(data)
        while end - pos >= 2:
            b0, b1 = data[pos], data[pos + 1]
            n = b1 & 0x7F
            if not b1 & 0x80 or n == 127 or (b0 != _FIN_TEXT and (b0 not in (_FIN_PONG, _FIN_PING) or n > 125)):
                self.partial = b""
                self.hand_over(data[pos:])  # unmasked (a protocol error), long, or another kind: websockets'
                return
            head = pos + 2
            if n == 126:
                if end - head < 2:
                    break
                n = (data[head] << 8) | data[head + 1]
                head += 2
            stop = head + 4 + n
            if stop > end:
                break
            payload = apply_mask(data[head + 4 : stop], data[head : head + 4])
            if b0 == _FIN_TEXT:
                try:
                    text = payload.decode()
                except UnicodeDecodeError:
                    self.partial = b""
                    self.hand_over(data[pos:])  # websockets closes with 1007
                    return
                pos = stop
                self.deliver(text)
            else:
                pos = stop
                if b0 == _FIN_PONG:
                    self.handle_pong(Frame(Opcode.PONG, payload))
                else:
                    self.conn.send_pong(payload)
                    self.transport.write(b"".join(self.conn.data_to_send()))
            if self.close_sent:
                self.partial = b""
                self.hand_over(data[pos:])  # the closing handshake is websockets' to finish
                return
        self.partial = data[pos:]  # the start of the next frame, if any

    def hand_over(self, data: bytes) -> None:
        """From here on websockets' parser reads everything (it has seen whole frames only, so it is at one's start)."""
        self.lean = False
        rest, self.partial = self.partial + data, b""
        if rest:
            super().data_received(rest)

    def deliver(self, text: str) -> None:
        """One whole text message for the application (as uvicorn's own `send_receive_event_to_app`)."""
        if self.close_sent:
            return  # the app is past `websocket.close`; reading goes on until the peer's close reply
        self.queue.put_nowait({"type": "websocket.receive", "text": text})
        if not self.read_paused and self.queue.qsize() >= READ_AHEAD:
            self.read_paused = True
            self.transport.pause_reading()

    def send_receive_event_to_app(self) -> None:
        # The parent pauses reading after queueing each message and resumes once the app takes it.
        was_paused = self.read_paused
        self.read_paused = True  # so the parent does not pause the transport itself
        super().send_receive_event_to_app()
        self.read_paused = was_paused
        # Once our close is sent, reading goes on until the peer's close reply (the parent discards messages).
        if not self.read_paused and not self.close_sent and self.queue.qsize() >= READ_AHEAD:
            self.read_paused = True
            self.transport.pause_reading()

    def write_frame(self, frame: bytes) -> bool:
        """Write one encoded frame now; False when the socket is not open or its reader is too far behind."""
        transport = self.transport
        if self.conn.state is not State.OPEN or self.close_sent or transport.is_closing():
            return False
        if transport.get_write_buffer_size() > WRITE_BUFFER_LIMIT:
            return False
        transport.write(frame)
        return True
