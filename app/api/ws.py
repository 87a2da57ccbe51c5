"""`/ws/tables/{id}`: live play and watching over a websocket."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from typing import Any
from urllib.parse import urlparse

import orjson
from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.types import ASGIApp, Receive, Scope, Send

from app import messages
from app.api.deps import signed_in, token_from
from app.clock import Clock
from app.db.models import User
from app.logs import log_table_id, log_user_id
from app.realtime.connections import SESSION_ENDED, SESSION_ENDED_ERROR, Connection, lose_access
from app.realtime.protocol import FRAME_READER
from app.runtime import Runtime
from app.services import takeback
from app.services.errors import ServiceError
from app.services.play import Ack
from app.services.record import Visibility

log = logging.getLogger("app.ws")
TABLE_SOCKET = re.compile(r"/ws/tables/([^/]*)")


def bot_playing() -> ServiceError:
    return ServiceError("bot_playing", "A bot is playing your seat; take your seat back to play.", 409)


class RateLimiter:
    """A token bucket per connection."""

    def __init__(self, rate: float, burst: int, *, clock: Clock) -> None:
        self.rate, self.burst = rate, float(burst)
        self.clock = clock
        self.tokens, self.stamp = float(burst), clock.monotonic()
        self.refused = 0

    def allow(self) -> bool:
        now = self.clock.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False


def origin_allowed(ws: WebSocket, rt: Runtime) -> bool:
    """Browsers must open the socket from this site (or a configured origin); other clients send none."""
    origin = ws.headers.get("origin")
    if not origin:
        return True
    allowed = {o.strip() for o in rt.settings.allowed_origins.split(",") if o.strip()}
    if origin in allowed:
        return True
    return urlparse(origin).netloc == ws.headers.get("host", "")


def with_table_sockets(app: FastAPI) -> ASGIApp:
    """The application with `/ws/tables/{id}` served in front of FastAPI's middleware and router.

    A socket lives for hours. Through FastAPI's stack each one would hold a chain of a dozen middleware
    coroutines and wrappers, and every message would pass through them, yet none of them applies: the
    handler takes no dependencies and answers every error inside the socket."""

    async def asgi(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            match = TABLE_SOCKET.fullmatch(scope["path"])
            if match:
                scope["app"] = app
                await table_socket(WebSocket(scope, receive, send), match.group(1))
                return
        await app(scope, receive, send)

    return asgi


async def table_socket(ws: WebSocket, table_id: str) -> None:
    """One socket at a table: the snapshot, then the player's or watcher's messages until it closes."""
    rt: Runtime = ws.app.state.runtime
    if not origin_allowed(ws, rt):
        await ws.close(code=1008, reason="origin not allowed")
        return
    invite = ws.query_params.get("invite")
    log_table_id.set(table_id[:40])
    try:
        if "token" in ws.query_params:
            raise ServiceError(
                "token_in_url",
                "A session token never goes in an address: the browser sends its cookie, other clients an "
                "Authorization: Bearer header.",
                400,
            )
        token = token_from(dict(ws.headers), dict(ws.cookies))

        found = await signed_in(rt, token)
        rec = await rt.database.read(lambda session: rt.tables.record(session, table_id))
        user = found.user if found is not None else None
        if user is not None:
            log_user_id.set(user.id)
        mine, from_address = rt.hub.sockets_of(table_id, user.id if user else None, ws.client.host if ws.client else "")
        if mine >= rt.settings.ws_per_person_per_table or from_address >= rt.settings.ws_per_address:
            raise ServiceError("too_many_sockets", "Too many connections open from here; close a tab and retry.", 429)
        address = f"ip:{ws.client.host if ws.client else '?'}"
        keys = (address, f"u:{user.id}") if user else (address,)
        if not rec.can_see(user.id if user else None, None):
            await rt.limits.check(rt.limits.invite_failures, *keys)
            if not rec.invite_ok(invite):
                if invite:
                    await rt.limits.note(rt.limits.invite_failures, *keys)
                raise ServiceError("not_found", "No such table.", 404)
    except ServiceError as exc:
        await ws.accept()
        await ws.send_text(orjson.dumps({"type": "error", "code": exc.code, "message": exc.message}).decode())
        await ws.close(code=4000 + min(exc.status, 999) % 1000)
        return
    except PoolTimeout:
        await ws.accept()
        await ws.send_text(orjson.dumps({"type": "error", "code": "server_busy", "message": BUSY_MESSAGE}).decode())
        await ws.close(code=1013)  # try again later
        return
    except Exception as exc:
        if not is_database_outage(exc):
            raise
        await ws.accept()
        message = {"type": "error", "code": "database_unavailable", "message": "The database is not answering."}
        await ws.send_text(orjson.dumps(message).decode())
        await ws.close(code=1011)
        return
    await ws.accept()
    # The code is kept only where it is what lets the socket in, to check again when the table changes.
    kept_invite = invite if rec.visibility == Visibility.PRIVATE and rec.invite_ok(invite) else None
    conn = Connection.open(
        ws, table_id, user.id if user else None, kept_invite, user.name if user else None,
        (user.token_epoch or 0) if user else 0, found.claims.sid if found is not None else None,
    )
    if rt.hub.outdated(conn):
        # The person's session ended between the token's check and now (that change's notice came meanwhile).
        await ws.send_text(orjson.dumps(SESSION_ENDED_ERROR).decode())
        await ws.close(code=SESSION_ENDED)
        return
    rt.hub.attach(conn)
    rt.hub.snapshot(rec, conn)
    # The socket's frame lives for hours: it must not pin the person's row or this version of the table's record,
    # which the cache soon replaces.
    del found, user, rec
    limiter = RateLimiter(rt.settings.ws_rate_per_second, rt.settings.ws_rate_burst, clock=rt.clock)
    # The framed protocol's own read (no Starlette wrapper per message); ASGI's otherwise.
    receive = ws.scope["extensions"].get(FRAME_READER) or ws.receive
    try:
        while not conn.closed:
            frame = await receive()  # idle sockets are closed by the hub's sweep
            conn.last_seen = rt.clock.monotonic()
            if frame["type"] == "websocket.disconnect":
                return
            raw = frame.get("text")
            if raw is None:
                conn.send_json({"type": "error", "code": "binary_frame", "message": "Send JSON text frames."})
                continue
            if not limiter.allow():
                if limiter.refused > 200:
                    await ws.close(code=1008, reason="rate limit")
                    return
                _error(conn, "rate_limited", "Too many messages; slow down.", _client_id_of(raw))
                continue
            await handle_message(rt, conn, raw)
        # Closed by the server while it handled a message (access lost, session ended): the writer task holds the
        # close with its code, and detaching cancels it, so let it send the close first.
        if conn.writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(conn.writer), 2)
    except WebSocketDisconnect:
        return
    finally:
        rt.hub.detach(conn)


def _client_id_of(raw: str) -> str | None:
    """The client_id of a refused frame, so the sender's pending action gets its answer."""
    if len(raw) > 4096:
        return None
    try:
        msg = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    cid = msg.get("client_id") if isinstance(msg, dict) else None
    return cid if isinstance(cid, str) and len(cid) <= 64 else None


def _error(conn: Connection, code: str, message: str, client_id: Any = None) -> None:
    payload: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if isinstance(client_id, str):
        payload["client_id"] = client_id
    conn.send_json(payload)


async def handle_message(rt: Runtime, conn: Connection, raw: str) -> None:
    """One client message, parsed into its model and handled by its type. Every problem becomes an error message."""
    if len(raw.encode()) > rt.settings.ws_max_message:
        _error(conn, "too_large", f"Messages are limited to {rt.settings.ws_max_message} bytes.")
        return
    try:
        doc = orjson.loads(raw)
    except orjson.JSONDecodeError:
        _error(conn, "bad_json", "That message is not valid JSON.")
        return
    if not isinstance(doc, dict):
        _error(conn, "bad_message", "A message must be a JSON object.")
        return
    client_id = doc.get("client_id")
    try:
        msg = parse(doc)
        match msg:
            case messages.Ping():
                # The newest version this process knows: a client that is behind it (an update lost somewhere)
                # resyncs, so no client can stay stale for longer than its ping interval.
                known = rt.cache.known_version(conn.table_id)
                conn.send_json({"type": "pong", "version": known} if known is not None else {"type": "pong"})
            case messages.Resync():
                rec = await rt.tables.reload(conn.table_id)
                if not conn.may_see(rec):
                    lose_access(conn)
                    return
                rt.hub.snapshot(rec, conn)
            case messages.Act():
                await act(rt, conn, msg)
            case messages.Undo():
                await undo(rt, conn, msg)
            case messages.Takeback():
                user = await _user(rt, conn)
                rec = await rt.lobby.change(
                    conn.table_id, user, None, lambda s, r: takeback.say(s, r, user, msg.say, msg.proposal)
                )
                conn.send_json(ack_message(Ack(msg.client_id, rec.version)))
            case messages.Preview():
                rec = await rt.tables.record_at_least(conn.table_id, 0)
                undoable = takeback.preview(rec, rec.seat_of(conn.user_id), msg.action)
                conn.send_json(messages.PreviewAnswer(client_id=msg.client_id, undoable=undoable).model_dump())
            case messages.Chat():
                await post_chat(rt, conn, msg)
    except ServiceError as exc:
        _error(conn, exc.code, exc.message, client_id)
    except PoolTimeout as exc:
        log.warning("server busy: %s", exc, extra={"table_id": conn.table_id})
        _error(conn, "server_busy", BUSY_MESSAGE, client_id)
    except Exception as exc:  # noqa: BLE001 - the client gets a message, the log gets the trace
        if is_database_outage(exc):
            log.warning("database unavailable: %s", exc, extra={"table_id": conn.table_id})
            _error(conn, "database_unavailable", "The database is not answering; try again shortly.", client_id)
            return
        log.exception("message failed", extra={"table_id": conn.table_id, "client_id": client_id})
        _error(conn, "server_error", "Something went wrong on our side; your move was not applied.", client_id)


def parse(doc: dict[str, Any]) -> messages.ClientMessage:
    """A client message as its model. An unknown type is `unknown_type`; a malformed field is refused with the code
    its use case gives for it (`Act.field_errors`), else `bad_message` saying which field is wrong."""
    kind = doc.get("type")
    model = messages.CLIENT_MESSAGES.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise ServiceError("unknown_type", f"Unknown message type {str(kind)[:40]!r}.", 422)
    try:
        return model.model_validate(doc)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = first["loc"]
        if loc and str(loc[0]) in model.field_errors:
            code, message = model.field_errors[str(loc[0])]
            raise ServiceError(code, message, 422) from None
        where = ".".join(str(part) for part in loc) or "message"
        raise ServiceError("bad_message", f"{where}: {first['msg']}", 422) from None


async def act(rt: Runtime, conn: Connection, msg: messages.Act) -> None:
    rec = await rt.tables.record_at_least(conn.table_id, 0)
    seat = rec.seat_of(conn.user_id)
    if seat is not None and seat in rec.bot_seats():
        raise bot_playing()
    acked: list[Ack] = []

    def send_ack(ack: Ack) -> None:
        acked.append(ack)
        conn.cork()  # the ack and the update that follows at once leave in one write
        conn.send_json(ack_message(ack))

    try:
        ack = await rt.play.apply_action(conn.table_id, seat, msg.action, msg.client_id, msg.expected_version, send_ack)
    finally:
        conn.uncork()
    if not acked:  # a repeated client_id: answered with the original move's ack
        conn.send_json(ack_message(ack))


async def undo(rt: Runtime, conn: Connection, msg: messages.Undo) -> None:
    rec = await rt.tables.record_at_least(conn.table_id, 0)
    seat = rec.seat_of(conn.user_id)
    if seat is not None and seat in rec.bot_seats():
        raise bot_playing()
    conn.cork()  # the ack and the update that follows leave in one write
    try:
        await rt.undo.take_back(conn.table_id, seat, msg.client_id, msg.expected_version,
                                lambda ack: conn.send_json(ack_message(ack)))
    finally:
        conn.uncork()


async def post_chat(rt: Runtime, conn: Connection, msg: messages.Chat) -> None:
    if conn.user_id is None:
        raise ServiceError("not_signed_in", "Sign in to chat (as a guest or with an account).", 401)
    rec = await rt.tables.record_at_least(conn.table_id, 0)
    if not conn.may_see(rec):  # a change this socket's room has not been told of yet
        lose_access(conn, msg.client_id)
        return
    await rt.chat.post(rec, conn.user_id, msg.text, msg.client_id,
                      lambda line: conn.send_json({"type": "ack", "client_id": msg.client_id, "message": line}))


async def _user(rt: Runtime, conn: Connection) -> User:
    """The signed-in person of this socket, read afresh (a name in events is the one of now)."""
    if conn.user_id is None:
        raise ServiceError("not_signed_in", "Sign in first (as a guest or with an account).", 401)
    async with rt.reads() as session:
        user = await session.get(User, conn.user_id)
    if user is None:
        raise ServiceError("not_signed_in", "Sign in first (as a guest or with an account).", 401)
    return user


def ack_message(ack: Ack) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "ack", "client_id": ack.client_id, "version": ack.version}
    if ack.draft is not None:
        message["draft"] = ack.draft  # kept as a draft: the table's version did not move
    return message


# The answer when every pooled database connection stayed busy for the pool's timeout (an overload).
BUSY_MESSAGE = "The server is busy; try again in a moment."


def is_database_outage(exc: BaseException) -> bool:
    """A lost or refused database connection (as opposed to a bug)."""
    if isinstance(exc, OSError | ConnectionError | DBAPIError):
        return True
    module = type(exc).__module__
    return module.startswith("asyncpg")
