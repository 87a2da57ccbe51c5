"""The edge of the server: forwarded headers, security headers, operators' pages, readiness, request ids, broker
namespaces, and the SQLite files."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import stat
import subprocess
from pathlib import Path

import httpx
import pytest

from app.config import Settings
from app.db.session import make_engine
from app.realtime.broker import RedisBroker, make_broker
from tests.conftest import (
    IS_POSTGRES,
    METRICS_HEADERS,
    Database,
    Server,
    ServerProcess,
    free_port,
    requires_postgres,
)
from tests.hardening.helpers import guests


async def _guess_invites(base: str, table_id: str, forwarded_for: str | None, tries: int) -> list[int]:
    statuses = []
    async with httpx.AsyncClient(base_url=base) as c:
        for i in range(tries):
            claimed = forwarded_for or f"198.51.100.{i + 1}"  # a new address each time, if believed
            r = await c.get(f"/api/tables/{table_id}", params={"invite": "x" * 24},
                            headers={"X-Forwarded-For": claimed})
            statuses.append(r.status_code)
    return statuses


async def test_a_spoofed_forwarded_for_is_not_believed_from_a_client(limited_server: Server) -> None:
    server = limited_server
    (host,) = await guests(server, "Host")
    t = await host.table(seats=2, visibility="private")
    # Each guess claims another address: without a trusted proxy the server counts them all as this client's.
    statuses = await _guess_invites(server.url, t["id"], None, 12)
    assert statuses[:10] == [404] * 10 and statuses[10:] == [429, 429]
    await host.close()


async def test_behind_a_trusted_proxy_one_clients_failures_do_not_lock_out_another(
    fresh_db: Database, tmp_path: Path
) -> None:
    server = Server(fresh_db, tmp_path, real_limits=True, FORWARDED_ALLOW_IPS="127.0.0.1").start()
    try:
        (host,) = await guests(server, "Host")
        t = await host.table(seats=2, visibility="private")
        assert (await _guess_invites(server.url, t["id"], "203.0.113.5", 11))[-1] == 429
        async with httpx.AsyncClient(base_url=server.url) as c:
            other = await c.get(f"/api/tables/{t['id']}", params={"invite": t["invite_code"]},
                                headers={"X-Forwarded-For": "203.0.113.77"})
        assert other.status_code == 200
        await host.close()
    finally:
        server.stop()


PAGES = ["/", "/t/abc", "/p/abc", "/leaders", "/rules/foodies.html", "/app/table.js", "/style.css", "/api/games"]


@pytest.mark.parametrize("path", PAGES)
async def test_every_page_carries_the_security_headers(server: Server, path: str) -> None:
    async with httpx.AsyncClient(base_url=server.url) as c:
        r = await c.get(path)
    assert r.status_code in (200, 404)
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp and "frame-ancestors 'none'" in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["x-frame-options"] == "DENY"
    assert "strict-transport-security" not in r.headers  # plain HTTP here (HTTPS: test_sessions)
    assert r.headers["x-request-id"]


async def test_the_pages_hold_no_inline_script_or_style() -> None:
    from tests.conftest import ROOT

    for page in [*ROOT.glob("frontend/*.html"), *ROOT.glob("frontend/rules/*.html")]:
        text = page.read_text()
        assert "<script>" not in text and "<style" not in text and " style=" not in text, page.name
        assert all('src="/' in tag for tag in text.split("<script")[1:]), page.name


async def test_metrics_and_api_pages_are_not_public(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as c:
        assert (await c.get("/metrics")).status_code == 404
        assert (await c.get("/metrics", headers={"Authorization": "Bearer wrong"})).status_code == 404
        assert (await c.get("/metrics", headers=METRICS_HEADERS)).status_code == 200
        assert (await c.get("/docs")).status_code == 404
        assert (await c.get("/redoc")).status_code == 404
        assert (await c.get("/openapi.json")).status_code == 200


async def test_metrics_on_their_own_port(fresh_db: Database, tmp_path: Path) -> None:
    port = free_port()
    server = ServerProcess(fresh_db, tmp_path, METRICS_TOKEN="", METRICS_PORT=str(port)).start()
    try:
        async with httpx.AsyncClient() as c:
            r = await c.get(f"http://127.0.0.1:{port}/metrics")
            assert r.status_code == 200 and 'foodgames_tables{status="open"}' in r.text
            assert (await c.get(f"{server.url}/metrics")).status_code == 404
    finally:
        server.stop()


def test_the_proxy_config_hides_operators_pages_and_overwrites_forwarded_headers() -> None:
    from tests.conftest import ROOT

    site = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "location = /metrics { return 404; }" in site and "location ^~ /docs { return 404; }" in site
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in site
    assert "$proxy_add_x_forwarded_for" not in site
    assert "$request_uri" not in site and '"$request_method $uri' in site  # the access log drops query strings


async def test_readiness_follows_the_broker_and_liveness_does_not(fresh_db: Database, tmp_path: Path) -> None:
    requires_postgres()
    binary = shutil.which("redis-server")
    if binary is None:
        if os.environ.get("CI"):
            raise AssertionError("CI needs redis-server")
        pytest.skip("needs redis-server")
    port = free_port()
    redis = subprocess.Popen([binary, "--port", str(port), "--save", "", "--appendonly", "no"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = None
    try:
        await asyncio.sleep(0.5)
        server = ServerProcess(fresh_db, tmp_path, BROKER_URL=f"redis://127.0.0.1:{port}/0").start()
        async with httpx.AsyncClient(base_url=server.url) as c:
            assert (await c.get("/api/health/ready")).status_code == 200
            redis.terminate()
            redis.wait(5)
            down = await c.get("/api/health/ready")
            assert down.status_code == 503 and down.json()["error"]["code"] == "not_ready"
            assert (await c.get("/api/health")).status_code == 503
            assert (await c.get("/api/health/live")).status_code == 200
            redis = subprocess.Popen([binary, "--port", str(port), "--save", "", "--appendonly", "no"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for _ in range(100):
                if (await c.get("/api/health/ready")).status_code == 200:
                    break
                await asyncio.sleep(0.2)
            else:
                raise AssertionError("not ready again after the broker came back")
    finally:
        if server is not None:
            server.stop()
        redis.terminate()
        redis.wait(5)


def _broker(**settings: str) -> object:
    s = Settings(**settings)  # type: ignore[arg-type]
    return make_broker(s.effective_database_url, s.broker_url, s.effective_broker_namespace)


def test_deployments_sharing_a_redis_use_channels_of_their_own() -> None:
    one = _broker(database_url="postgresql://u@db/games_one", broker_url="redis://r:6379/5")
    two = _broker(database_url="postgresql://u@db/games_two", broker_url="redis://r:6379/9")
    named = _broker(database_url="postgresql://u@db/games_one", broker_url="redis://r:6379/5", broker_namespace="blue")
    assert isinstance(one, RedisBroker) and isinstance(two, RedisBroker) and isinstance(named, RedisBroker)
    assert {one.channel, one.side_channel}.isdisjoint({two.channel, two.side_channel})
    assert one.channel.startswith("games_one:") and named.channel.startswith("blue:")


async def test_log_lines_carry_the_request_id_of_a_trusted_proxy(fresh_db: Database, tmp_path: Path) -> None:
    server = Server(fresh_db, tmp_path, LOG_LEVEL="info", FORWARDED_ALLOW_IPS="127.0.0.1").start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as c:
            r = await c.get("/api/games", headers={"X-Request-ID": "edge-4f2a"})
            assert r.headers["x-request-id"] == "edge-4f2a"
            junk = await c.get("/api/games", headers={"X-Request-ID": "bad id <script>"})
            assert junk.headers["x-request-id"] != "bad id <script>"
        (ana,) = await guests(server, "Ana")
        t = await ana.table(seats=2)
        from tests.platform.client import Socket

        sock = await Socket.open(server.ws_url, t["id"], ana.token)
        await sock.expect("snapshot")
        await sock.close()
        await ana.close()
    finally:
        server.stop()
    lines = [json.loads(line) for line in server.log.read_text().splitlines() if line.startswith("{")]
    assert any(e.get("request_id") == "edge-4f2a" and "/api/games" in e["message"] for e in lines)
    socket_lines = [e for e in lines if "WebSocket" in e["message"] and t["id"] in e["message"]]
    assert socket_lines and all(e.get("table_id") == t["id"] and e.get("user_id") == ana.user["id"]
                                and e.get("request_id") for e in socket_lines)


async def test_a_request_id_from_an_untrusted_client_is_replaced(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as c:
        r = await c.get("/api/games", headers={"X-Request-ID": "forged-1"})
    assert r.headers["x-request-id"] != "forged-1"


async def test_sqlite_commits_durably_and_keeps_its_files_private(tmp_path: Path) -> None:
    if IS_POSTGRES:
        pytest.skip("SQLite only")
    data = tmp_path / "data"
    url = f"sqlite+aiosqlite:///{data / 'games.sqlite3'}"
    engine = make_engine(Settings(database_url=url))
    try:
        async with engine.connect() as conn:
            from sqlalchemy import text

            assert (await conn.execute(text("PRAGMA synchronous"))).scalar() == 2  # FULL
            await conn.execute(text("CREATE TABLE t (x INTEGER)"))
            await conn.commit()
            for path in (data / "games.sqlite3", data / "games.sqlite3-wal"):
                assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name
            assert stat.S_IMODE(data.stat().st_mode) == 0o700
    finally:
        await engine.dispose()


async def test_postgres_connections_carry_the_apps_name(server: Server) -> None:
    requires_postgres()
    from tests.hardening.helpers import db_rows

    (ana,) = await guests(server, "Ana")  # a request, a write: the pool's, the writer's and the broker's connections
    await ana.table(seats=2)
    names = {row[0] for row in await db_rows(
        server, "SELECT application_name FROM pg_stat_activity WHERE datname = current_database()")}
    assert {"foodgames", "foodgames-broker"} <= names, names
    await ana.close()
