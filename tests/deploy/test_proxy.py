"""deploy/nginx.conf in front of two server processes: each table's sockets on one, and failover."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

import pytest
import yaml

from bench.proxy import Proxy, local_site, nginx_binary
from tests.conftest import ROOT, Database, ServerProcess, free_port, requires_postgres
from tests.platform.client import Player, Socket

TABLES = 16  # all on one process by chance: 1 run in ~30,000


def requires_nginx() -> None:
    if nginx_binary() is None:
        if os.environ.get("CI"):
            raise AssertionError("CI needs nginx (scripts/test.sh installs nginx-light when root)")
        pytest.skip("needs nginx")


def test_the_site_is_rewritten_for_local_processes() -> None:
    site = local_site(["127.0.0.1:9001", "127.0.0.1:9002", "127.0.0.1:9003"], 9000)
    assert "app1" not in site and "app2" not in site
    assert site.count("server 127.0.0.1:900") == 3
    assert "listen 127.0.0.1:9000" in site
    assert "hash $table_affinity consistent;" in site


async def test_each_tables_sockets_share_one_process_and_survive_its_loss(fresh_db: Database, tmp_path: Path) -> None:
    requires_postgres()
    requires_nginx()
    one = ServerProcess(fresh_db, tmp_path).start()
    two = ServerProcess(fresh_db, tmp_path, RUN_MIGRATIONS="false").start()
    proxy = Proxy([f"127.0.0.1:{one.port}", f"127.0.0.1:{two.port}"], free_port(), tmp_path / "nginx").start()
    ws_base = proxy.url.replace("http", "ws", 1)
    players: list[Player] = []
    try:
        tables: list[tuple[str, list[Socket]]] = []
        for i in range(TABLES):
            ana, ben = await Player.guest(proxy.url, f"Ana {i}"), await Player.guest(proxy.url, f"Ben {i}")
            players += [ana, ben]
            t = await ana.table(seats=2)
            await ben.post(f"/api/tables/{t['id']}/join", {})
            await ana.post(f"/api/tables/{t['id']}/start")
            socks = [await Socket.open(ws_base, t["id"], ana.token), await Socket.open(ws_base, t["id"], ben.token),
                     await Socket.open(ws_base, t["id"])]
            for s in socks:
                await s.expect("snapshot")
            tables.append((t["id"], socks))
        # A move through the proxy reaches the table's other sockets.
        tid, (sa, _sb, watcher) = tables[0]
        before = watcher.latest["version"] if watcher.latest else 0
        assert (await sa.act({"type": "pick", "n": 1}))["type"] == "ack"
        await watcher.until_version(before + 1)

        one.stop()  # its sockets are closed; the other process's stay open
        # Until the proxy has closed the stopped process's sockets: a table split between the processes stays split.
        deadline = asyncio.get_running_loop().time() + 10
        while True:
            closed = [all(s.reader.done() for s in socks) for _, socks in tables]
            still_open = [not any(s.reader.done() for s in socks) for _, socks in tables]
            if any(closed) and all(c or o for c, o in zip(closed, still_open, strict=True)):
                break
            if asyncio.get_running_loop().time() > deadline:
                break
            await asyncio.sleep(0.05)
        assert all(c or o for c, o in zip(closed, still_open, strict=True)), "a table's sockets were split"
        assert any(closed) and any(still_open), "every table went to one process"

        # A table that lived on the stopped process is served by the other one, through the same address.
        lost = next(tid for (tid, _), c in zip(tables, closed, strict=True) if c)
        again = await Socket.open(ws_base, lost)
        assert (await again.expect("snapshot"))["table"]["status"] == "playing"
        await again.close()
        for _, socks in tables:
            for s in socks:
                await s.close()
    finally:
        for p in players:
            await p.close()
        proxy.stop()
        one.stop()
        two.stop()


def test_the_compose_file_runs_what_the_proxy_routes_to() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    # One service, as many containers as `--scale` says, found again through Docker's DNS.
    assert re.findall(r"(?m)^\s*server ([\w.:-]+)(?: \w+)*;", site) == ["app:8000"]
    assert "server app:8000 resolve;" in site and "resolver 127.0.0.11 " in site and "zone app " in site
    app = services["app"]
    assert app["environment"]["PORT"] == "8000" and "ports" not in app  # reached only through the proxy
    assert "container_name" not in app  # `--scale app=3` needs names Docker chooses
    # Forwarded headers are believed from the proxy's own address only.
    proxy_ip = services["proxy"]["networks"]["internal"]["ipv4_address"]
    assert app["environment"]["FORWARDED_ALLOW_IPS"] == proxy_ip
    assert app["environment"]["COOKIE_SECURE"].startswith("${COOKIE_SECURE:-true")
    assert "appdata:/srv/data" in app["volumes"]  # one generated SECRET_KEY for all of them
    proxy = services["proxy"]
    assert "./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro" in proxy["volumes"]
    # The proxy starts with the apps, not once they are all healthy: it finds them, and later ones, by DNS.
    assert proxy["depends_on"] == {"app": {"condition": "service_started"}}
