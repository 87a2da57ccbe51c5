"""One open websocket at a table (`Connection`) and the messages it is sent (`Message`: serialised and framed
once for every socket it goes to), with the ways a socket is told it is shut out."""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.websockets import WebSocket

from app.realtime.protocol import FRAME_WRITER, text_frame
from app.services.errors import SESSION_ENDED_MESSAGE
from app.services.record import TableRecord

QUEUE_LIMIT = 256


ACCESS_LOST = 4403  # the close code: 4000 + 403, refused for good, so the client does not reconnect


def lose_access(conn: Connection, client_id: Any = None) -> None:
    """Tell a socket its person may no longer see the table (answering `client_id`, if any), then close it."""
    doc: dict[str, Any] = {"type": "error", "code": "access_lost", "message": "You can no longer see this private table."}
    if isinstance(client_id, str):
        doc["client_id"] = client_id
    conn.send_json(doc)
    conn.close_soon(ACCESS_LOST)


# The close code of a socket whose session ended (a password change, or "sign out everywhere"): 4000 + 401, the code a
# socket opened with a refused token gets, so a client treats both alike (refused for good, unless it now holds a
# newer token: docs/api/identity.md).
SESSION_ENDED = 4401
SESSION_ENDED_ERROR = {"type": "error", "code": "session_revoked", "message": SESSION_ENDED_MESSAGE}


def end_session(conn: Connection) -> None:
    """Tell a socket its session ended, then close it: it gets nothing more."""
    conn.send_json(SESSION_ENDED_ERROR)
    conn.close_soon(SESSION_ENDED)


class Message:
    """One outgoing JSON message, possibly for many sockets: serialised once, framed once."""

    __slots__ = ("payload", "_frame")

    def __init__(self, payload: bytes) -> None:
        self.payload = payload
        self._frame: bytes | None = None

    @classmethod
    def of(cls, doc: dict[str, Any]) -> Message:
        return cls(orjson.dumps(doc))

    @property
    def frame(self) -> bytes:
        if self._frame is None:
            self._frame = text_frame(self.payload)
        return self._frame


@dataclass(eq=False, slots=True)
class Connection:
    """One open websocket at a table."""

    ws: WebSocket
    table_id: str
    user_id: str | None
    # The framed protocol's synchronous writer, if the server runs it (see app.realtime.protocol).
    write_frame: Callable[[bytes], bool] | None = None
    # What the writer task still has to send, when the protocol has no frame writer; made on first use, as an
    # empty deque costs over 600 bytes and a framed socket only ever queues its close.
    queue: deque[str | None] | None = None
    writer: asyncio.Task[None] | None = None
    closed: bool = False
    close_code: int = 1013
    last_seen: float = 0.0  # on the hub's clock: set as it joins the hub and by every message it sends
    corked: list[bytes] | None = None  # frames held back by `cork`, written together by `uncork`
    # The invite code the socket was opened with, if it let it in: its right to see a private table is checked
    # again, with it, whenever the table changes (`Hub.drop_unseeing`).
    invite: str | None = None
    user_name: str | None = None  # the person's name as they connected: presence names the people watching
    # The token epoch of the session it was opened with: a newer one ends it (`Hub.end_sessions`).
    epoch: int = 0
    sid: str | None = None  # the session it was opened with: signing out of it ends it (`Hub.revoke_session`)
    address: str = ""  # the client's address, for the cap on one address's sockets (`Hub.sockets_of`)

    @classmethod
    def open(
        cls,
        ws: WebSocket,
        table_id: str,
        user_id: str | None,
        invite: str | None = None,
        user_name: str | None = None,
        epoch: int = 0,
        sid: str | None = None,
    ) -> Connection:
        """A connection for an accepted socket, using the frame writer when the protocol offers one."""
        writer = ws.scope.get("extensions", {}).get(FRAME_WRITER)
        return cls(
            ws=ws, table_id=table_id, user_id=user_id, write_frame=writer, invite=invite, user_name=user_name,
            epoch=epoch, sid=sid, address=ws.client.host if ws.client else "",
        )

    def may_see(self, rec: TableRecord) -> bool:
        """Whether this socket's person may still see the table (a seat, the host, or the code it came with)."""
        return rec.can_see(self.user_id, self.invite)

    def send(self, message: Message) -> None:
        """Send or queue a message; a client too far behind is dropped (it reconnects and resyncs)."""
        if self.closed:
            return
        if self.write_frame is not None:
            if self.corked is not None:
                self.corked.append(message.frame)
            elif not self.write_frame(message.frame):
                self.close_soon()
            return
        if self.queue is not None and len(self.queue) >= QUEUE_LIMIT:
            self.close_soon()
            return
        self._push(message.payload.decode())

    def send_json(self, doc: dict[str, Any]) -> None:
        self.send(Message.of(doc))

    def cork(self) -> None:
        """Hold back frames until `uncork`, which writes them in one go (one system call, not several)."""
        if self.corked is None and self.write_frame is not None:
            self.corked = []

    def uncork(self) -> None:
        frames, self.corked = self.corked, None
        if frames and not self.closed and self.write_frame is not None and not self.write_frame(b"".join(frames)):
            self.close_soon()

    def close_soon(self, code: int = 1013) -> None:
        """Close the socket once what is queued has been sent."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self._push(None)

    def _push(self, item: str | None) -> None:
        if self.queue is None:
            self.queue = deque()
        self.queue.append(item)
        if self.writer is None:
            self.writer = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        try:
            while self.queue:
                text = self.queue.popleft()
                if text is None:
                    with contextlib.suppress(Exception):
                        await self.ws.close(code=self.close_code)
                    return
                await self.ws.send_text(text)
        except Exception:  # noqa: BLE001 - a broken socket just stops being written to
            self.closed = True
        finally:
            self.writer = None
