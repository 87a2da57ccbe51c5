"""uvicorn's sans-I/O websocket protocol, plus a synchronous write of a ready-made frame.

A table's update is the same bytes for every socket of one viewer (all spectators share
one), so the hub encodes each distinct message as a websocket frame once and writes
those bytes straight to each socket's transport: no task, no ASGI message and no
per-socket frame encoding for the thousands of sends a busy server makes each second.
Everything else (handshake, receiving, ping/pong, close) is uvicorn's own code.

The application finds the writer in the ASGI scope under `extensions[FRAME_WRITER]`;
without it (another websocket implementation) the hub sends through ASGI as usual.
"""

from __future__ import annotations

import struct

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request
from websockets.protocol import State

FRAME_WRITER = "foodgames.frame_writer"
# A client this far behind (bytes written but not yet taken by the kernel) is dropped; it reconnects
# and resyncs. About 64 full updates of a card game.
WRITE_BUFFER_LIMIT = 256 * 1024


# Messages a client may have waiting unread before we stop reading its socket (backpressure).
READ_AHEAD = 4


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
    """`WebSocketsSansIOProtocol` that also offers `write_frame` to the application.

    It also stops reading from a client only when several of its messages wait unread (uvicorn's
    protocol pauses after every message, which costs two system calls per message received)."""

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][FRAME_WRITER] = self.write_frame

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
