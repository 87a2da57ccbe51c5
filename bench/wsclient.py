"""A lean websocket client for the load generator (RFC 6455 over a plain asyncio protocol).

The load generator shares the machine's two cores with the server and Postgres, so its
cost per message is taken from what the server could have used: this client does the
handshake, reads unmasked server frames (text, ping, close, continuations) and sends
masked text frames, with no task or queue per message. It offers permessage-deflate as
a browser does and refuses a server that accepts it (it cannot inflate).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import random
import struct
from collections.abc import Callable
from typing import cast
from urllib.parse import urlsplit

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_keys = random.Random(os.urandom(16))


class HandshakeError(Exception):
    """The server did not switch protocols as expected."""


def mask(payload: bytes, key: bytes) -> bytes:
    """XOR the payload with the repeated 4-byte key (one big-integer operation, not a Python loop)."""
    n = len(payload)
    if not n:
        return payload
    k = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(k, "big")).to_bytes(n, "big")


def client_frame(opcode: int, payload: bytes) -> bytes:
    """One masked, unfragmented client frame."""
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 1 << 16:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    key = _keys.randbytes(4)  # no system call per frame; a load generator's keys need not be secret
    return head + key + mask(payload, key)


class LeanSocket(asyncio.Protocol):
    """One client websocket; `on_message(payload)` is called with each complete text message."""

    def __init__(self, host: str, path: str, on_message: Callable[[bytes], None], offer_deflate: bool) -> None:
        self.on_message = on_message
        self.key = base64.b64encode(os.urandom(16))
        extensions = b"Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n" if offer_deflate else b""
        self.request = (
            b"GET " + path.encode() + b" HTTP/1.1\r\nHost: " + host.encode() + b"\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: " + self.key + b"\r\nSec-WebSocket-Version: 13\r\n"
            + extensions + b"\r\n"
        )
        self.transport: asyncio.Transport | None = None
        self.buf = bytearray()
        self.fragments: list[bytes] = []
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()
        self.close_sent = False

    # -- asyncio.Protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's transports are not its subclasses
        self.transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        self.buf += data
        if not self.opened.done():
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buf[:end]).decode("latin-1")
            del self.buf[: end + 4]
            try:
                self._check_handshake(head)
            except HandshakeError as exc:
                self.opened.set_exception(exc)
                self._abort()
                return
            self.opened.set_result(None)
        self._read_frames()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed during the handshake"))
        if not self.closed.done():
            self.closed.set_result(None)

    # -- frames

    def _check_handshake(self, head: str) -> None:
        lines = head.split("\r\n")
        if not lines[0].startswith("HTTP/1.1 101"):
            raise HandshakeError(lines[0])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        accept = base64.b64encode(hashlib.sha1(self.key + GUID).digest()).decode()
        if headers.get("sec-websocket-accept") != accept:
            raise HandshakeError("bad Sec-WebSocket-Accept")
        if "sec-websocket-extensions" in headers:
            raise HandshakeError(f"server negotiated {headers['sec-websocket-extensions']!r}, not supported here")

    def _read_frames(self) -> None:
        buf = self.buf
        pos = 0
        while len(buf) - pos >= 2:
            b0, b1 = buf[pos], buf[pos + 1]
            n = b1 & 0x7F
            start = pos + 2
            if n == 126:
                if len(buf) - pos < 4:
                    break
                n = int.from_bytes(buf[pos + 2 : pos + 4], "big")
                start = pos + 4
            elif n == 127:
                if len(buf) - pos < 10:
                    break
                n = int.from_bytes(buf[pos + 2 : pos + 10], "big")
                start = pos + 10
            if b1 & 0x80:
                self._abort()  # servers never mask (RFC 6455 §5.1)
                return
            if len(buf) - start < n:
                break
            payload = bytes(buf[start : start + n])
            pos = start + n
            self._frame(b0 & 0x80 != 0, b0 & 0x0F, payload)
        del buf[:pos]

    def _frame(self, fin: bool, opcode: int, payload: bytes) -> None:
        if opcode in (0x1, 0x2, 0x0):
            if opcode != 0x0:
                self.fragments = []
            self.fragments.append(payload)
            if fin:
                message = self.fragments[0] if len(self.fragments) == 1 else b"".join(self.fragments)
                self.fragments = []
                self.on_message(message)
        elif opcode == 0x9:  # ping
            self._write(client_frame(0xA, payload))
        elif opcode == 0x8 and not self.close_sent:  # close: answer it, the server then ends the connection
            self.close_sent = True
            self._write(client_frame(0x8, payload[:2]))

    def _write(self, data: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)

    def _abort(self) -> None:
        if self.transport is not None:
            self.transport.abort()

    # -- the client's side

    def send_text(self, text: str | bytes) -> None:
        """Send one text message (masked, as every client frame must be)."""
        if self.close_sent or self.transport is None or self.transport.is_closing():
            raise ConnectionError("socket closed")
        self._write(client_frame(0x1, text.encode() if isinstance(text, str) else text))

    async def close(self, timeout: float = 2.0) -> None:
        """Start the closing handshake and wait for the server to end the connection."""
        if not self.close_sent and self.transport is not None and not self.transport.is_closing():
            self.close_sent = True
            self._write(client_frame(0x8, struct.pack("!H", 1000)))
        try:
            await asyncio.wait_for(asyncio.shield(self.closed), timeout)
        except TimeoutError:
            self._abort()


async def connect(url: str, on_message: Callable[[bytes], None], *, offer_deflate: bool = True,
                  timeout: float = 60) -> LeanSocket:
    """Open a websocket to a ws:// URL; `on_message` receives each text message's bytes."""
    parts = urlsplit(url)
    if parts.scheme != "ws":
        raise ValueError("only ws:// URLs")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    host = parts.hostname or "127.0.0.1"
    port = parts.port or 80
    loop = asyncio.get_running_loop()
    _, sock = await asyncio.wait_for(
        loop.create_connection(lambda: LeanSocket(parts.netloc, path, on_message, offer_deflate), host, port),
        timeout,
    )
    await asyncio.wait_for(asyncio.shield(sock.opened), timeout)
    return sock
