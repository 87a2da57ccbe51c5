"""Web Push end to end: a local push endpoint (an aiohttp server started here) takes what the real server sends to a
browser's subscription made with a real P-256 key pair and auth secret; the test decrypts it (RFC 8291 aes128gcm,
with `http_ece`) and checks its text and the VAPID signature (RFC 8292). "Your turn" goes once per turn to a player
away from a turn-based table; an endpoint the push service calls gone (410) is forgotten."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import http_ece
import pytest
from aiohttp import web
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from tests.conftest import Database, Server, ServerProcess, free_port
from tests.platform.client import Player, Socket

TURN_BASED = {"kind": "turn", "per_move": 3600, "bank": 0, "timeout": "bot_move"}


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """What a browser keeps for one push subscription: its key pair and auth secret."""

    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    secret: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, endpoint: str) -> dict[str, Any]:
        public = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {"endpoint": endpoint, "keys": {"p256dh": b64(public), "auth": b64(self.secret)}}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        text = http_ece.decrypt(body, private_key=self.key, auth_secret=self.secret, version="aes128gcm")
        return dict(json.loads(text))


class PushService:
    """A push service's endpoint: /push/{name} takes a push (201), /gone/{name} says the subscription is gone (410)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.received: dict[str, list[tuple[dict[str, str], bytes]]] = {}
        self.gone: list[str] = []
        app = web.Application()
        app.router.add_post("/push/{name}", self._push)
        app.router.add_post("/gone/{name}", self._gone)
        self.runner = web.AppRunner(app)

    async def _push(self, request: web.Request) -> web.Response:
        headers = {k.lower(): v for k, v in request.headers.items()}
        self.received.setdefault(request.match_info["name"], []).append((headers, await request.read()))
        return web.Response(status=201)

    async def _gone(self, request: web.Request) -> web.Response:
        self.gone.append(request.match_info["name"])
        return web.Response(status=410)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    async def wait(self, name: str, count: int = 1, timeout: float = 10) -> list[tuple[dict[str, str], bytes]]:
        deadline = time.monotonic() + timeout
        while len(self.received.get(name, [])) < count:
            assert time.monotonic() < deadline, f"no push for {name}: {self.received}"
            await asyncio.sleep(0.05)
        return self.received[name]


@pytest.fixture
async def push_service() -> AsyncIterator[PushService]:
    service = PushService()
    await service.runner.setup()
    await web.TCPSite(service.runner, "127.0.0.1", service.port).start()
    yield service
    await service.runner.cleanup()


@pytest.fixture
def pushing(fresh_db: Database, tmp_path: Path) -> Iterator[Server]:
    srv = Server(fresh_db, tmp_path, PUSH_INSECURE_ENDPOINTS="true", VAPID_SUBJECT="mailto:ops@example.test").start()
    yield srv
    srv.stop()


def check_vapid(headers: dict[str, str], endpoint: str, server_key: str) -> None:
    """The push carries a VAPID JWT for the endpoint's origin, signed by the server's key (ES256)."""
    scheme, _, params = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == server_key
    head, claims, signature = fields["t"].split(".")
    parts = urlsplit(endpoint)
    payload = json.loads(unb64(claims))
    assert payload["aud"] == f"{parts.scheme}://{parts.netloc}" and payload["sub"] == "mailto:ops@example.test"
    assert payload["exp"] > time.time()
    raw = unb64(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(server_key))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged


async def test_your_turn_is_pushed_encrypted_once_and_a_gone_endpoint_is_forgotten(
    pushing: Server, push_service: PushService
) -> None:
    ana, bo = await Player.account(pushing.url, "Ana"), await Player.account(pushing.url, "Bo")
    server_key = (await ana.http.get("/api/push/key")).json()["public_key"]
    assert unb64(server_key)[0] == 4 and len(unb64(server_key)) == 65
    anas, bos = Browser(), Browser()
    ana_endpoint = push_service.url("/push/ana")
    for who, sub in ((ana, anas.subscription(ana_endpoint)), (bo, bos.subscription(push_service.url("/gone/bo")))):
        r = await who.http.post("/api/me/push", json=sub)
        assert r.status_code == 200 and r.json() == {"ok": True}, r.text
    assert (await bo.http.get("/api/me/push")).json() == {"subscriptions": 1}

    t = await ana.table(time_control=TURN_BASED, options={"target": 1}, name="Slow lunch")
    await bo.post(f"/api/tables/{t['id']}/join", {})
    await ana.post(f"/api/tables/{t['id']}/start")
    # Both pick at once: Ana's browser gets "your turn", encrypted for it alone and signed by the server.
    [(headers, data)] = await push_service.wait("ana")
    assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) > 0
    check_vapid(headers, ana_endpoint, server_key)
    message = anas.decrypt(data)
    assert message["title"] == "Your turn"
    assert message["body"].startswith("Your turn at Slow lunch") and message["url"] == f"/t/{t['id']}"
    with pytest.raises(Exception):  # noqa: B017 - anyone else's key cannot read it (http_ece raises its own)
        bos.decrypt(data)

    # Bo's push service said his subscription is gone: it is forgotten.
    deadline = time.monotonic() + 10
    while (await bo.http.get("/api/me/push")).json()["subscriptions"]:
        assert time.monotonic() < deadline
        await asyncio.sleep(0.05)
    assert push_service.gone == ["bo"]

    # Bo's pick changes the table, not Ana's turn: nothing more is pushed to her.
    sb = await Socket.open(bo.base.replace("http", "ws"), t["id"], bo.token)
    await sb.expect("snapshot")
    assert (await sb.act({"type": "pick", "n": 1}))["type"] == "ack"
    await asyncio.sleep(0.5)
    assert len(push_service.received["ana"]) == 1

    # Ana turns pushes off on that browser: her next turn pushes nothing.
    r = await ana.http.request("DELETE", "/api/me/push", json={"endpoint": ana_endpoint})
    assert r.status_code == 200 and (await ana.http.get("/api/me/push")).json() == {"subscriptions": 0}
    sa = await Socket.open(ana.base.replace("http", "ws"), t["id"], ana.token)
    await sa.expect("snapshot")
    assert (await sa.act({"type": "pick", "n": 1}))["type"] == "ack"
    await sa.close()
    await sb.close()
    await asyncio.sleep(0.5)
    assert len(push_service.received["ana"]) == 1
    await ana.close()
    await bo.close()


async def test_a_subscription_must_be_whole_and_an_accounts(pushing: Server, push_service: PushService) -> None:
    ana, gus = await Player.account(pushing.url, "Ana"), await Player.guest(pushing.url, "Gus")
    good = Browser().subscription(push_service.url("/push/ana"))
    r = await gus.http.post("/api/me/push", json=good)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_registered"
    off_curve = b64(b"\x04" + b"\x01" * 64)
    for bad in [
        {**good, "endpoint": "ftp://example.test/x"},
        {**good, "endpoint": 5},
        {**good, "keys": {**good["keys"], "p256dh": off_curve}},
        {**good, "keys": {**good["keys"], "p256dh": "!!"}},
        {**good, "keys": {**good["keys"], "auth": b64(b"short")}},
        {"endpoint": good["endpoint"]},
    ]:
        r = await ana.http.post("/api/me/push", json=bad)
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_subscription", (bad, r.text)
    assert (await ana.http.get("/api/me/push")).json() == {"subscriptions": 0}
    await ana.close()
    await gus.close()


async def test_only_https_endpoints_by_default(server: Server) -> None:
    ana = await Player.account(server.url, "Ana")
    r = await ana.http.post("/api/me/push", json=Browser().subscription("http://127.0.0.1:9/push"))
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_subscription"
    r = await ana.http.post("/api/me/push", json=Browser().subscription("https://push.example.test/abc"))
    assert r.status_code == 200
    # The same browser subscribing again under another account moves to it.
    bo = await Player.account(server.url, "Bo")
    assert (await bo.http.post("/api/me/push", json=Browser().subscription("https://push.example.test/abc"))).is_success
    assert [(await p.http.get("/api/me/push")).json()["subscriptions"] for p in (ana, bo)] == [0, 1]
    # A person keeps their ten newest browsers.
    for i in range(12):
        sub = Browser().subscription(f"https://push.example.test/ana{i}")
        assert (await ana.http.post("/api/me/push", json=sub)).is_success
    assert (await ana.http.get("/api/me/push")).json() == {"subscriptions": 10}
    await ana.close()
    await bo.close()


@pytest.fixture
def without_push(fresh_db: Database, tmp_path: Path) -> Iterator[Server]:
    """A server whose Python cannot import pywebpush, as where the `push` extra is not installed: a package of that
    name that refuses to import comes first on its path."""
    blocked = tmp_path / "blocked" / "pywebpush"
    blocked.mkdir(parents=True)
    (blocked / "__init__.py").write_text('raise ImportError("the push extra is not installed")\n')
    path = os.pathsep.join(p for p in (str(blocked.parent), os.environ.get("PYTHONPATH", "")) if p)
    srv = ServerProcess(fresh_db, tmp_path, PYTHONPATH=path, PUSH_INSECURE_ENDPOINTS="true").start()
    yield srv
    srv.stop()


async def test_without_the_push_extra_the_server_serves_with_push_off(
    without_push: Server, push_service: PushService
) -> None:
    ana, bo = await Player.account(without_push.url, "Ana"), await Player.account(without_push.url, "Bo")
    prefs = (await ana.http.get("/api/me/notifications")).json()
    assert prefs["push"] is False  # the profile page offers no push then
    r = await ana.http.get("/api/push/key")
    assert r.status_code == 503 and r.json()["error"]["code"] == "push_unavailable", r.text
    r = await ana.http.post("/api/me/push", json=Browser().subscription(push_service.url("/push/ana")))
    assert r.status_code == 503 and r.json()["error"]["code"] == "push_unavailable", r.text
    assert (await ana.http.get("/api/me/push")).json() == {"subscriptions": 0}
    # A turn-based game, whose turns would be pushed, is played as ever.
    t = await ana.table(time_control=TURN_BASED, options={"target": 1}, name="Slow lunch")
    await bo.post(f"/api/tables/{t['id']}/join", {})
    assert (await ana.post(f"/api/tables/{t['id']}/start")).json()["status"] == "playing"
    sb = await Socket.open(bo.base.replace("http", "ws"), t["id"], bo.token)
    await sb.expect("snapshot")
    assert (await sb.act({"type": "pick", "n": 1}))["type"] == "ack"
    await sb.close()
    await asyncio.sleep(0.3)
    assert push_service.received == {}
    assert "Traceback" not in without_push.log.read_text()
    await ana.close()
    await bo.close()


async def test_with_the_push_extra_the_setting_says_push_is_on(pushing: Server) -> None:
    ana = await Player.account(pushing.url, "Ana")
    assert (await ana.http.get("/api/me/notifications")).json()["push"] is True
    await ana.close()
