"""The browser's notifications of "your turn": opted into by a click at the table (the permission asked then, never on
load), kept in the browser for that player, shown only while the tab is hidden; and the Web Push service worker,
served from the root so its scope is the whole site and allowed by the Content-Security-Policy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Person
from tests.e2e.test_play import ana_and_bo_start_food_truck

pytestmark = pytest.mark.e2e

# Records what the page shows instead of showing it; the permission is still the browser's (granted by the context).
# `document.hidden` answers what the test says: a headless page is never hidden by itself.
RECORD = """
(() => {
  const Real = window.Notification;
  window.__shown = [];
  window.__asked = 0;
  window.__hidden = false;
  Object.defineProperty(Document.prototype, "hidden", { configurable: true, get: () => window.__hidden });
  class Recorded {
    constructor(title, options) { window.__shown.push({ title, body: options?.body, tag: options?.tag }); }
    close() {}
    static get permission() { return Real.permission; }
    static requestPermission() { window.__asked += 1; return Real.requestPermission(); }
  }
  window.Notification = Recorded;
})();
"""


def test_a_hidden_tab_is_notified_of_its_turn_once_opted_in(person_in_full_browser: Callable[..., Person]) -> None:
    # The whole browser: Chromium's headless shell reports the permission it granted as "denied".
    ana, bo = ana_and_bo_start_food_truck(person_in_full_browser)
    bo.context.grant_permissions(["notifications"], origin=bo.base)
    bo.context.add_init_script(RECORD)
    bo.page.reload()
    bo.page.wait_for_function("() => window.foodGames?.state().view?.phase === 'trucks'")
    ana.page.wait_for_function("() => window.foodGames.state().view?.phase === 'trucks'")

    def awaiting() -> list[str]:
        return list(ana.page.evaluate("window.foodGames.state().awaiting"))

    def move(who: Person) -> None:
        before = who.page.evaluate("window.foodGames.state().version")
        ack = who.page.evaluate("window.foodGames.send(window.foodGames.state().actions[0])")
        if "draft" in ack:
            who.page.wait_for_function("n => window.foodGames.state().draft === n", arg=ack["draft"])
            return
        for page in (ana.page, bo.page):
            page.wait_for_function("v => window.foodGames.state().version > v", arg=before)

    def round_to_bo() -> None:
        """Play until the turn is Ana's alone, then until it comes to Bo."""
        while awaiting() != ["0"]:
            move(bo if "1" in awaiting() else ana)
        while "1" not in awaiting():
            move(ana)

    def shown() -> list[dict[str, Any]]:
        return list(bo.page.evaluate("window.__shown"))

    # Nothing is asked on load; the switch is off.
    switch = bo.page.get_by_test_id("notify-switch")
    expect(switch).to_have_attribute("aria-pressed", "false")
    assert bo.page.evaluate("window.__asked") == 0

    # Not opted in: a hidden tab gets no notification.
    bo.page.evaluate("window.__hidden = true")
    round_to_bo()
    assert shown() == [] and bo.page.evaluate("window.foodGames.notifications()") == 0

    # A click opts in (the permission is asked then) and is kept for this player in this browser.
    bo.page.evaluate("window.__hidden = false")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    assert bo.page.evaluate("window.__asked") == 1
    bo_id = bo.page.evaluate("fetch('/api/me').then(r => r.json()).then(me => me.id)")
    assert bo.page.evaluate(f"localStorage.getItem('foodgames.notify.{bo_id}')") == "1"

    # Looking at the table: his turn comes with no notification.
    round_to_bo()
    assert shown() == []

    # The tab hidden: one notification when his turn comes, naming the table.
    bo.page.evaluate("window.__hidden = true")
    round_to_bo()
    [note] = shown()
    table = bo.page.evaluate("window.foodGames.state().table")
    assert note["title"] == "Your turn" and note["body"] == f"Your turn at {table['name']}"
    assert note["tag"] == f"turn:{table['id']}"

    # After a reload the choice holds, and nothing is asked again.
    bo.page.reload()
    expect(bo.page.get_by_test_id("notify-switch")).to_have_attribute("aria-pressed", "true")
    assert bo.page.evaluate("window.__asked") == 0


def test_the_push_service_worker_takes_the_whole_site(person: Callable[..., Person]) -> None:
    ana = person()
    scope = ana.page.evaluate(
        "navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(r => navigator.serviceWorker.ready"
        ".then(() => r.scope))")
    assert scope == ana.base + "/"
    key = ana.page.evaluate("fetch('/api/push/key').then(r => r.json())")["public_key"]
    assert len(key) == 87  # 65 bytes, base64url without padding
