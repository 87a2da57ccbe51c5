"""The table page survives a server restart: it reconnects by itself and shows the same game."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from tests.e2e.conftest import AppServer, Person
from tests.e2e.helpers import click_a_legal_thing, version

pytestmark = pytest.mark.e2e


def settled_version(page: Page) -> int:
    """The table version once nothing (a bot) has moved for a while."""
    last = version(page)
    while True:
        page.wait_for_timeout(400)
        now = version(page)
        if now == last:
            return now
        last = now


def start_against_a_bot(who: Person) -> dict[str, Any]:
    """A public Food Truck table of `who` and a bot, started from its page (the page stays on it)."""
    table: dict[str, Any] = who.page.request.post(
        who.base + "/api/tables", data={"game": "food-truck", "seats": 2, "visibility": "public"}
    ).json()
    who.goto(f"/t/{table['id']}")
    who.page.get_by_role("button", name="Add bot").click()
    who.page.get_by_test_id("start").click()
    return table


def test_page_reconnects_and_resyncs_after_a_server_restart(
    person: Callable[..., Person], app_server: AppServer, rng: random.Random
) -> None:
    ana = person("Ana")
    start_against_a_bot(ana)
    conn = ana.page.get_by_test_id("conn")
    expect(conn).to_have_attribute("data-state", "online")
    log = ana.page.get_by_test_id("log").locator("li")
    for _ in range(40):  # into the game far enough that the log has something to say
        click_a_legal_thing(ana.page, rng)
        if log.count() >= 3:
            break
    before = settled_version(ana.page)
    log_before = log.all_inner_texts()
    assert log_before
    ana.page.evaluate("window.__samePage = true")

    # While the server is away the socket's reconnections are refused.
    ana.expect_noise(r"ERR_CONNECTION_REFUSED")
    app_server.stop()
    expect(conn).not_to_have_attribute("data-state", "online")
    app_server.start()
    expect(conn).to_have_attribute("data-state", "online", timeout=20_000)

    assert ana.page.evaluate("window.__samePage") is True, "the page was reloaded"
    assert version(ana.page) >= before
    # The log is rebuilt from the stored moves and lobby changes and reads as it did live, then as a page opened now
    # reads it (the bot may have moved while the server went down or as it came back).
    expect(log.nth(len(log_before) - 1)).to_be_attached(timeout=5000)
    assert log.all_inner_texts()[: len(log_before)] == log_before
    fresh = ana.context.new_page()
    fresh.goto(ana.page.url)
    fresh_log = fresh.get_by_test_id("log").locator("li")
    expect(fresh_log.first).to_be_attached()
    for _ in range(50):  # both pages at the same version, their logs drawn
        settled_version(ana.page)
        if version(fresh) == version(ana.page) and fresh_log.all_inner_texts() == log.all_inner_texts():
            break
        fresh.wait_for_timeout(100)
    assert log.all_inner_texts() == fresh_log.all_inner_texts()
    fresh.close()
    expect(ana.page.get_by_test_id("table-status")).to_have_text("In progress")
    expect(ana.page.get_by_test_id("game-area")).to_be_visible()
    # Still playable over the new connection.
    for _ in range(20):
        click_a_legal_thing(ana.page, rng)
        if version(ana.page) > before:
            break
    assert version(ana.page) > before


def test_heartbeat_pings_and_replaces_a_link_that_stopped_answering(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    table = ana.page.request.post(
        ana.base + "/api/tables", data={"game": "food-truck", "seats": 2, "visibility": "public"}
    ).json()
    sent: list[str] = []
    sockets: list[WebSocketRoute] = []
    drop_pongs = False

    def relay(ws: WebSocketRoute) -> None:
        """Stand between page and server; while drop_pongs is set the server's pongs are lost."""
        sockets.append(ws)
        server = ws.connect_to_server()

        def upstream(message: str | bytes) -> None:
            sent.append(str(message))
            server.send(message)

        def downstream(message: str | bytes) -> None:
            if not (drop_pongs and '"pong"' in str(message)):
                ws.send(message)

        ws.on_message(upstream)
        server.on_message(downstream)

    ana.page.route_web_socket(re.compile(r"/ws/tables/"), relay)
    ana.page.clock.install()
    ana.goto(f"/t/{table['id']}")
    conn = ana.page.get_by_test_id("conn")
    expect(conn).to_have_attribute("data-state", "online")

    def pings() -> int:
        return sum('"ping"' in m for m in sent)

    assert pings() == 0
    ana.page.clock.run_for("00:21")
    ana.page.wait_for_timeout(300)
    assert pings() == 1
    ana.page.clock.run_for("00:20")
    ana.page.wait_for_timeout(300)
    assert pings() == 2 and len(sockets) == 1
    expect(conn).to_have_attribute("data-state", "online")

    # The link goes quiet: the next ping is not answered; twenty seconds on it is replaced.
    drop_pongs = True
    ana.page.clock.run_for("00:20")
    ana.page.wait_for_timeout(300)
    ana.page.clock.run_for("00:20")
    ana.page.wait_for_timeout(300)
    drop_pongs = False
    ana.page.clock.run_for("00:02")  # the back-off before reconnecting
    expect(conn).to_have_attribute("data-state", "online")
    assert len(sockets) == 2


def test_a_page_that_missed_updates_catches_up_at_its_next_ping(
    person: Callable[..., Person], rng: random.Random
) -> None:
    ana, ben = person("Ana"), person("Ben")
    table = start_against_a_bot(ana)
    expect(ana.page.get_by_test_id("game-area")).to_be_visible()

    # Ben watches through a link that loses every update while `lose_updates` is set.
    lose_updates = False

    def relay(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        ws.on_message(server.send)
        server.on_message(lambda m: None if lose_updates and '"type":"update"' in str(m) else ws.send(m))

    ben.page.route_web_socket(re.compile(r"/ws/tables/"), relay)
    ben.page.clock.install()
    ben.goto(f"/t/{table['id']}")
    expect(ben.page.get_by_test_id("conn")).to_have_attribute("data-state", "online")
    expect(ben.page.get_by_test_id("spectator-banner")).to_be_visible()
    start = settled_version(ana.page)
    expect(ben.page.locator("main")).to_have_attribute("data-version", str(start))

    lose_updates = True
    for _ in range(40):
        click_a_legal_thing(ana.page, rng)
        if version(ana.page) > start:
            break
    now = settled_version(ana.page)
    assert now > start
    # Updates stay lost (on a loaded machine the bot may still move after Ana's page looked settled): only the
    # ping's answer can tell Ben's page of the moves, and its resync brings a snapshot, which the link lets through.
    ben.page.wait_for_timeout(300)
    assert version(ben.page) == start, "Ben's page should not have heard of the moves yet"
    ben.page.clock.run_for("00:21")  # the heartbeat's ping: its pong tells of a newer version
    ben.page.wait_for_function("(v) => Number(document.querySelector('main').dataset.version) >= v", arg=now)
