"""axe-core's WCAG 2 A/AA rules and best practices on every kind of page: the lobby (signed out and in, with the
account dialog open), a table before the start, each game mid-play against bots and after its end, a replay, the
leaderboards, a profile and the rules, at a desktop and a phone width, in English and in Spanish.

Each test gathers the violations of all its pages and fails once with the whole list, so one run shows everything."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import axe_playwright_python
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Person
from tests.e2e.helpers import click_a_legal_thing

pytestmark = pytest.mark.e2e

AXE_JS = Path(axe_playwright_python.__file__).parent / "axe.min.js"
RULES = ["wcag2a", "wcag2aa", "best-practice"]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
# Two players (Ana and a bot) are enough to draw every part of a table, and the bots finish a game fastest.
SEATS = {"food-truck": 2, "food-truck-champion": 2, "foodies": 2, "food-chain-magnate": 2}
# What each game shows once its renderer has drawn the table (its first state may have little else).
DRAWN = {
    "food-truck": ".ft-supply",
    "food-truck-champion": ".ftc-marketplace",
    "foodies": ".fd-track-wrap",
    "food-chain-magnate": "[data-testid=fcm-map]",
}


def violations(page: Page, label: str) -> list[str]:
    """axe's findings on the page as it is now, one line per element: where, rule, impact, selector, message."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE_JS))  # its pages' contexts bypass the CSP, which blocks inline scripts
    results: dict[str, Any] = page.evaluate(
        "(rules) => axe.run(document, {runOnly: {type: 'tag', values: rules}, resultTypes: ['violations']})", RULES
    )
    lines = []
    for rule in results["violations"]:
        for node in rule["nodes"]:
            checks = node.get("any", []) + node.get("all", []) + node.get("none", [])
            message = next((c["message"] for c in checks if c.get("message")), rule["help"])
            target = " ".join(str(t) for t in node["target"])
            lines.append(f"[{label}] {rule['id']} ({rule['impact']}) {target}: {message}")
    return lines


def as_report(found: list[str]) -> str:
    unique = list(dict.fromkeys(found))
    return f"{len(unique)} accessibility violation(s):\n" + "\n".join(unique)


def settle(page: Page) -> None:
    """Let the page's scripts draw (and its fonts and transitions end) before axe measures colours."""
    page.wait_for_load_state("load")
    page.evaluate("() => document.fonts.ready.then(() => new Promise((done) => setTimeout(done, 100)))")


def in_spanish(page: Page) -> None:
    page.evaluate("() => localStorage.setItem('fg.lang', 'es')")
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "es")


def test_the_lobby_leaderboards_profile_and_rules(person: Callable[..., Person]) -> None:
    found: list[str] = []
    visitor = person(bypass_csp=True)
    page = visitor.page
    page.set_viewport_size(DESKTOP)
    settle(page)
    found += violations(page, "lobby, signed out")
    for path in ("/leaders", "/leaders/food-chain-magnate", "/rules/food-chain-magnate.html",
                 "/rules/food-truck.html", "/rules/food-truck-champion.html", "/rules/foodies.html"):
        visitor.goto(path)
        settle(page)
        found += violations(page, path)

    ana = person("Ana", bypass_csp=True)
    page = ana.page
    page.set_viewport_size(DESKTOP)
    settle(page)
    found += violations(page, "lobby, signed in")
    page.get_by_role("button", name="Save as account").click()
    expect(page.locator("dialog[open]")).to_be_visible()
    found += violations(page, "lobby, account dialog")
    page.keyboard.press("Escape")
    ana.goto("/p/" + page.request.get(ana.base + "/api/me").json()["id"])
    page.get_by_test_id("profile-name").wait_for()
    settle(page)
    found += violations(page, "profile")

    page.set_viewport_size(PHONE)
    for path in ("/", "/leaders/food-chain-magnate", "/rules/foodies.es.html"):
        ana.goto(path)
        if path == "/":
            in_spanish(page)
        settle(page)
        found += violations(page, f"{path}, phone, Spanish")
    assert not found, as_report(found)


def table_with_bots(who: Person, game: str) -> str:
    """A table of `game` with Ana in seat 0 and bots in the others, not started yet; returns its id."""
    post = who.page.request.post
    answer = post(who.base + "/api/tables", data={"game": game, "seats": SEATS[game], "name": "Audit"})
    assert answer.ok, answer.text()
    tid = str(answer.json()["id"])
    for seat in range(1, SEATS[game]):
        assert post(f"{who.base}/api/tables/{tid}/bots", data={"seat": str(seat)}).ok
    return tid


def wait_until_finished(who: Person, tid: str) -> None:
    deadline = time.monotonic() + 120
    while who.page.request.get(f"{who.base}/api/tables/{tid}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.25)


@pytest.mark.parametrize("game", list(SEATS))
def test_a_game_against_bots_from_the_start_to_its_replay(
    game: str, person: Callable[..., Person], rng: random.Random
) -> None:
    found: list[str] = []
    ana = person("Ana", bypass_csp=True)
    page, post = ana.page, ana.page.request.post
    page.set_viewport_size(DESKTOP)
    # A second table, all bots (one stands in for Ana), plays to its end while the first is checked.
    done = table_with_bots(ana, game)
    for path, body in (("start", {}), ("stand_in", {"seat": "0"})):
        answer = post(f"{ana.base}/api/tables/{done}/{path}", data=body)
        assert answer.ok, answer.text()

    tid = table_with_bots(ana, game)
    ana.goto(f"/t/{tid}")
    page.get_by_test_id("start").wait_for()
    settle(page)
    found += violations(page, f"{game}, before the start")

    page.get_by_test_id("start").click()
    area = page.get_by_test_id("game-area")
    area.locator(DRAWN[game]).first.wait_for()
    settle(page)
    found += violations(page, f"{game}, first move")
    # A few of Ana's moves move the game on to other states (and the bots' answers with it).
    for _ in range(12):
        if page.locator("main").get_attribute("data-status") == "finished":
            break
        click_a_legal_thing(page, rng)
    settle(page)
    found += violations(page, f"{game}, a few moves in")

    page.set_viewport_size(PHONE)
    in_spanish(page)
    area.locator(DRAWN[game]).first.wait_for()
    settle(page)
    found += violations(page, f"{game}, phone, Spanish")

    with ana.server.quick_bots():  # the rest of that game at once: what is audited is its end
        wait_until_finished(ana, done)
    ana.goto(f"/t/{done}")
    expect(page.get_by_test_id("result")).to_be_visible()
    settle(page)
    found += violations(page, f"{game}, the end, phone, Spanish")

    page.set_viewport_size(DESKTOP)
    page.evaluate("() => localStorage.setItem('fg.lang', 'en')")
    page.reload()
    expect(page.get_by_test_id("result")).to_be_visible()
    settle(page)
    found += violations(page, f"{game}, the end")

    page.get_by_test_id("replay-link").click()
    page.get_by_test_id("replay-area").locator(DRAWN[game]).first.wait_for()
    page.get_by_test_id("replay-next").click()
    settle(page)
    found += violations(page, f"{game}, replay")
    assert not found, as_report(found)
