"""Test clients for the real server: REST through httpx, live play through websockets."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import httpx
import websockets
from pydantic import ValidationError
from websockets.exceptions import ConnectionClosed

from app.messages import SERVER_MESSAGE


class Player:
    """A signed-in user with an HTTP client."""

    def __init__(self, base: str, token: str, user: dict[str, Any]) -> None:
        self.base = base
        self.token = token
        self.user = user
        self.http = httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=30)

    @classmethod
    async def guest(cls, base: str, name: str = "Ana") -> Player:
        async with httpx.AsyncClient(base_url=base, timeout=30) as c:
            r = await c.post("/api/auth/guest", json={"name": name})
            r.raise_for_status()
            data = r.json()
        return cls(base, data["token"], data["user"])

    @classmethod
    async def account(cls, base: str, name: str = "Ana") -> Player:
        """A new registered account (a unique username) named `name`: its games are rated, a guest's are not."""
        body = {"username": f"u{uuid.uuid4().hex[:12]}", "password": "correct horse", "name": name}
        async with httpx.AsyncClient(base_url=base, timeout=30) as c:
            r = await c.post("/api/auth/register", json=body)
            r.raise_for_status()
            data = r.json()
        return cls(base, data["token"], data["user"])

    async def post(self, path: str, body: Any = None, ok: bool = True) -> httpx.Response:
        r = await self.http.post(path, json=body if body is not None else {})
        if ok:
            assert r.status_code == 200, r.text
        return r

    async def table(self, game: str = "tiny", seats: int = 2, **kw: Any) -> dict[str, Any]:
        r = await self.post("/api/tables", {"game": game, "seats": seats, **kw})
        return dict(r.json())

    async def close(self) -> None:
        await self.http.aclose()


class Socket:
    """A websocket at a table: a reader task files replies by client_id and keeps the newest view."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.latest: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.reader = asyncio.get_running_loop().create_task(self._read())
        self.changed = asyncio.Event()
        # Server messages that do not match app/messages.py's models (the protocol's reference): every test using
        # this client fails on one, at its next read or at close.
        self.invalid: list[str] = []

    def check(self) -> None:
        if self.invalid:
            raise AssertionError(f"server messages not matching app/messages.py: {self.invalid}")

    @classmethod
    async def open(cls, ws_base: str, table_id: str, token: str | None = None, invite: str | None = None,
                   **kw: Any) -> Socket:
        url = f"{ws_base}/ws/tables/{table_id}" + (f"?invite={invite}" if invite else "")
        if token:
            # As a non-browser client does: the token in a header, never in the URL (a browser sends its cookie).
            kw["additional_headers"] = {**kw.get("additional_headers", {}), "Authorization": f"Bearer {token}"}
        return cls(await websockets.connect(url, max_size=2**22, **kw))

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                msg: dict[str, Any] = json.loads(raw)
                try:
                    SERVER_MESSAGE.validate_python(msg)
                except ValidationError as exc:
                    self.invalid.append(f"{str(raw)[:300]} -> {exc}")
                if msg.get("type") in ("snapshot", "update", "draft"):
                    # Like the browser: an update without `table` keeps the last one (`latest` has it;
                    # the queue gets the message as it came). A draft comes at the version it was made in.
                    self.table = msg.get("table", self.table)
                    if self.latest is None or msg["version"] >= self.latest["version"]:
                        self.latest = {**msg, "table": self.table}
                    self.changed.set()
                cid = msg.get("client_id")
                if msg.get("type") in ("ack", "error") and cid in self.pending:
                    self.pending.pop(cid).set_result(msg)
                else:
                    self.queue.put_nowait(msg)
        except ConnectionClosed:
            pass
        finally:
            self.queue.put_nowait({"type": "closed"})

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        self.check()
        return await asyncio.wait_for(self.queue.get(), timeout)

    async def expect(self, kind: str, timeout: float = 10, **match: Any) -> dict[str, Any]:
        """Read until a message of this type (matching the given fields) arrives."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            msg = await self.recv(max(0.01, deadline - loop.time()))
            if msg.get("type") == kind and all(msg.get(k) == v for k, v in match.items()):
                return msg
            if msg.get("type") == "closed":
                raise AssertionError(f"socket closed while waiting for {kind}")

    async def until_version(self, version: int, timeout: float = 10) -> dict[str, Any]:
        """Wait until a snapshot or update of at least this version has arrived."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.latest is None or self.latest["version"] < version:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(0.01, deadline - loop.time()))
        return self.latest

    async def until_acked(self, ack: dict[str, Any], timeout: float = 10) -> dict[str, Any]:
        """Wait until the picture after this ack has arrived: its update, or, for a draft, its `draft` message."""
        if "draft" not in ack:
            return await self.until_version(ack["version"], timeout)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout

        def shown(latest: dict[str, Any] | None) -> bool:
            return latest is not None and (latest["version"] > ack["version"] or (
                latest["version"] == ack["version"] and latest.get("draft") == ack["draft"]))

        while not shown(self.latest):
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(0.01, deadline - loop.time()))
        assert self.latest is not None
        return self.latest

    async def act(self, action: Any, expected_version: int | None = None,
                  client_id: str | None = None, timeout: float = 10) -> dict[str, Any]:
        """Send an action and return the ack or error answering it."""
        cid = client_id or uuid.uuid4().hex
        msg: dict[str, Any] = {"type": "act", "action": action, "client_id": cid}
        if expected_version is not None:
            msg["expected_version"] = expected_version
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[cid] = fut
        await self.ws.send(json.dumps(msg))
        return await self.answer(fut, timeout)

    async def undo(self, expected_version: Any, client_id: str | None = None, timeout: float = 10) -> dict[str, Any]:
        """Ask to take back our last step; return the ack or error answering it."""
        cid = client_id or uuid.uuid4().hex
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[cid] = fut
        await self.ws.send(json.dumps({"type": "undo", "client_id": cid, "expected_version": expected_version}))
        return await self.answer(fut, timeout)

    async def chat(self, text: Any, client_id: str | None = None, timeout: float = 10) -> dict[str, Any]:
        """Post a chat line over the socket; return the ack or error answering it."""
        cid = client_id or uuid.uuid4().hex
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[cid] = fut
        await self.ws.send(json.dumps({"type": "chat", "text": text, "client_id": cid}))
        return await self.answer(fut, timeout)

    async def answer(self, fut: asyncio.Future[dict[str, Any]], timeout: float) -> dict[str, Any]:
        reply = await asyncio.wait_for(fut, timeout)
        self.check()
        return reply

    async def send_raw(self, data: str | bytes) -> None:
        await self.ws.send(data)

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()
        self.check()


async def play_picks(socks: dict[str, Socket], picks: list[int] | tuple[int, ...]) -> None:
    """Play a started tiny game to its end: each seat picks its number from `picks` when it is awaited (its first
    listed action when that pick is not listed). Each move's update is awaited before the next look at who is
    awaited, since its ack may arrive before it."""
    latest = await socks["0"].expect("snapshot")
    while latest["table"]["status"] != "finished":
        for seat in latest["awaiting"]:
            now = await socks[seat].until_version(latest["version"])
            if seat not in now["awaiting"]:
                continue
            pick = {"type": "pick", "n": picks[int(seat)]}
            reply = await socks[seat].act(pick if pick in now["actions"] else now["actions"][0])
            assert reply["type"] == "ack", reply
            await socks[seat].until_acked(reply)
        latest = await socks["0"].until_version(latest["version"] + 1)
