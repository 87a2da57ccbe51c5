"""The leaderboards page: from the lobby's header to a game's list, its pages, my own rank and row, a player's page
and back from their ratings; in Spanish on a phone too.

The ratings are written straight into the database: this is about the page (order, paging, who is shown, my place),
and how games make ratings is tested through the server (tests/api/test_ratings.py, tests/api/test_leaderboard.py).
"""

from __future__ import annotations

import re
import secrets
import sqlite3
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from app.services.leaderboard import MIN_GAMES
from tests.e2e.conftest import AppServer, Person
from tests.e2e.helpers import assert_quiet, save_account

pytestmark = pytest.mark.e2e

GAME = "food-chain-magnate"
TOP = 9000  # above any rating another test's games could reach, so these people lead the list


def _db(app_server: AppServer) -> sqlite3.Connection:
    return sqlite3.connect(app_server.db.name, timeout=10)


def store(app_server: AppServer, people: list[tuple[str, str, str | None, int, int]], game: str = GAME) -> None:
    """People (id, name, username or None for a guest, rating, rated games) with their rating in `game`, settled (a
    deviation of 60, not provisional)."""
    with _db(app_server) as db:
        db.executemany(
            "INSERT INTO users (id, name, username, token_epoch, created_at)"
            " VALUES (?, ?, ?, 0, '2026-01-01 00:00:00.000000')",
            [(uid, name, username) for uid, name, username, _, _ in people],
        )
        db.executemany(
            "INSERT INTO player_ratings (user_id, game, rating, deviation, games, updated_at)"
            " VALUES (?, ?, ?, 60, ?, '2026-01-01 00:00:00.000000')",
            [(uid, game, rating, games) for uid, _, _, rating, games in people],
        )


def test_the_leaderboard_pages_my_rank_and_the_links_to_and_from_profiles(
    person: Callable[..., Person], app_server: AppServer
) -> None:
    tag = secrets.token_hex(3)
    leaders = [(secrets.token_hex(8), f"Leader {i:02d} {tag}", f"leader{i:02d}{tag}", TOP - 10 * i, 5) for i in range(1, 56)]
    gus = (secrets.token_hex(8), f"Gus {tag}", None, TOP + 100, 20)  # a guest: never listed
    few = (secrets.token_hex(8), f"Few {tag}", f"few{tag}", TOP + 100, MIN_GAMES - 1)  # one game short
    store(app_server, [*leaders, gus, few])
    ana = person("Ana")
    with _db(app_server) as db:
        db.execute("INSERT INTO player_ratings (user_id, game, rating, games, updated_at)"
                   " VALUES (?, ?, ?, ?, '2026-01-01 00:00:00.000000')",
                   (_my_id(ana), GAME, TOP - 555, 4))
    page = ana.page

    # From the lobby's header to the leaderboards; the game's tab shows its list, best first.
    page.get_by_test_id("nav-leaders").click()
    page.wait_for_url(re.compile(r"/leaders$"))
    expect(page.get_by_role("heading", name="Leaderboards", exact=True)).to_be_visible()
    expect(page.get_by_test_id("nav-leaders")).to_have_attribute("aria-current", "page")
    page.get_by_test_id("leaders-games").get_by_role("link", name="Food Chain Magnate").click()
    page.wait_for_url(re.compile(rf"/leaders/{GAME}$"))
    expect(page.get_by_test_id("leaders-games").locator(f"[data-game='{GAME}']")).to_have_attribute("aria-current", "page")
    expect(page.get_by_test_id("leaders-note")).to_contain_text(f"at least {MIN_GAMES} rated games")
    rows = page.get_by_test_id("leaders-row")
    expect(rows).to_have_count(50)
    expect(rows.first.locator("td, th")).to_have_text(["1", leaders[0][1], str(leaders[0][3]), "5"])
    expect(rows.nth(1).locator("td").first).to_have_text("2")
    expect(page.get_by_test_id("leaders-table")).not_to_contain_text(gus[1])
    expect(page.get_by_test_id("leaders-table")).not_to_contain_text(few[1])
    expect(page.get_by_test_id("leaders-prev")).to_have_count(0)

    # A guest is not listed, whatever their rating, and is told so above the list.
    expect(page.get_by_test_id("leaders-me")).to_contain_text("Guests are not listed")
    # With an account, Ana is listed: 56th, on the second page, which the line above the list leads to.
    save_account(ana, f"ana{tag}")
    page.reload()
    mine = page.get_by_test_id("leaders-me")
    expect(mine).to_contain_text("You are #56")
    expect(mine).to_contain_text(f"rating {TOP - 555}, 4 rated games")
    mine.get_by_test_id("leaders-me-page").click()
    page.wait_for_url(re.compile(rf"/leaders/{GAME}\?page=2&cursor=[A-Za-z0-9_-]+$"))  # where page 2 starts
    expect(page.get_by_test_id("leaders-page")).to_have_text("Page 2")
    me_row = page.locator("[data-testid=leaders-row].me")
    expect(me_row.locator("td").first).to_have_text("56")
    expect(me_row).to_contain_text("Ana")
    expect(me_row).to_have_attribute("aria-current", "true")
    # Ana's rating is still provisional (stored without a deviation: the start's 350), the others' are settled.
    expect(me_row.locator("abbr.provisional")).to_have_count(1)
    expect(rows.first.locator("abbr.provisional")).to_have_count(0)
    expect(page.get_by_test_id("leaders-me")).to_have_count(0)  # my row is on the page shown
    expect(rows.first.locator("td").first).to_have_text("51")
    # Back to the first page with the browser's own button, then on with Next.
    page.go_back()
    expect(page.get_by_test_id("leaders-page")).to_have_text("Page 1")
    expect(rows.first.locator("td").first).to_have_text("1")
    page.get_by_test_id("leaders-next").click()
    expect(rows.first.locator("td").first).to_have_text("51")

    # A name leads to the player's page, whose ratings lead back to the game's leaderboard.
    page.get_by_test_id("leaders-prev").click()
    expect(rows.first.locator("td").first).to_have_text("1")  # else the click may land on page 2's first row
    rows.first.get_by_test_id("person-link").click()
    page.wait_for_url(re.compile(rf"/p/{leaders[0][0]}$"))
    expect(page.get_by_test_id("profile-name")).to_have_text(leaders[0][1])
    page.get_by_test_id("profile-ratings").get_by_role("link", name="Food Chain Magnate: leaderboard").click()
    page.wait_for_url(re.compile(rf"/leaders/{GAME}$"))
    expect(rows.first).to_contain_text(leaders[0][1])

    # An unknown game says so.
    ana.expect_noise(r"status of 404 .*/api/games/chess/leaderboard")
    ana.goto("/leaders/chess")
    expect(page.get_by_test_id("leaders-error")).to_have_text("There is no such game.")


def _my_id(who: Person) -> str:
    return str(who.page.request.get(f"{who.base}/api/me").json()["id"])


@pytest.mark.parametrize("path", ["/rules/foodies.html", "/rules/foodies.es.html", "table"])
def test_the_leaderboards_link_is_on_table_and_rules_pages_and_opens_that_games_board(
    person: Callable[..., Person], path: str
) -> None:
    ana = person("Ana")
    if path == "table":
        table = ana.page.request.post(ana.base + "/api/tables", data={"game": "foodies", "seats": 2}).json()
        path = f"/t/{table['id']}"
    ana.goto(path)
    link = ana.page.locator("header").get_by_test_id("nav-leaders")
    expect(link).to_have_attribute("href", "/leaders/foodies")
    link.click()
    ana.page.wait_for_url(re.compile(r"/leaders/foodies$"))
    expect(ana.page.get_by_test_id("leaders-games").locator("[data-game='foodies']")).to_have_attribute(
        "aria-current", "page"
    )
    assert_quiet(ana)
