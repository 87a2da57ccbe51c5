"""Where the features merged together meet on the table page: the sticky bar on a phone, the log lines of seat
changes made by someone else, and an abandoned game on a profile."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import AppServer, Person, people
from tests.e2e.helpers import area, create_table, seat_row

pytestmark = pytest.mark.e2e


def test_the_host_keeps_the_log_lines_of_a_kick_and_of_a_stand_in_she_asked_for(
    person: Callable[..., Person],
) -> None:
    """The host's own page keeps the log line of a change she made: read again from the stored moves right after
    her call, the log would drop it (kicks and stand-ins are not stored as moves)."""
    ana = person("Ana")
    # Private, so unrated: there the host may hand another's seat to a bot at once.
    create_table(ana, "food-truck", seats=2, private=True)
    bo = person("Bo", at=ana.page.locator(".invite-url").input_value().split(ana.base, 1)[1])
    bo.page.get_by_test_id("join").click()
    expect(seat_row(ana.page, "1")).to_contain_text("Bo")
    seat_row(ana.page, "1").get_by_role("button", name="Remove").click()
    expect(ana.page.get_by_test_id("log")).to_contain_text("Bo was removed from the table.")
    expect(bo.page.get_by_test_id("log")).to_contain_text("Bo was removed from the table.")

    seat_row(bo.page, "1").get_by_role("button", name="Join here").click()
    expect(seat_row(ana.page, "1")).to_contain_text("Bo")
    ana.page.get_by_test_id("start").click()
    expect(bo.page.get_by_test_id("table-status")).to_have_text("In progress")
    seat_row(ana.page, "1").get_by_role("button", name="Let a bot play for Bo").click()
    expect(seat_row(ana.page, "1")).to_contain_text("Bot")
    expect(ana.page.get_by_test_id("log")).to_contain_text("Ana let a bot play for Bo.")
    ana.page.wait_for_timeout(500)  # the bot's moves arrive meanwhile, and the line stays
    expect(ana.page.get_by_test_id("log")).to_contain_text("Ana let a bot play for Bo.")


def test_on_a_phone_the_sticky_bar_stays_one_line_when_a_stand_in_is_due(browser: Browser, tmp_path: Path) -> None:
    """Bo, on a phone, waits on Ana who left: the explanation of the "Let a bot play" button is under the bar, not
    in it, so the bar (turn line and "new in chat") stays one line high over the board as he scrolls; the open
    proposal to abandon is under it too, and neither covers the other."""
    server = AppServer(tmp_path, STAND_IN_AFTER="1", STAND_IN_AFTER_ONLINE="600").start()
    try:
        with people(browser, server) as person:
            ana = person("Ana")
            table_id = create_table(ana, "food-chain-magnate", seats=2)
            bo = person("Bo", width=390, height=844, at=f"/t/{table_id}")
            seat_row(bo.page, "1").get_by_role("button", name="Join here").click()
            expect(seat_row(ana.page, "1")).to_contain_text("Bo")
            ana.page.get_by_test_id("start").click()
            expect(bo.page.get_by_test_id("table-status")).to_have_text("In progress")
            if "1" in bo.page.evaluate("window.foodGames.state().awaiting"):
                area(bo.page).get_by_role("button", name="Pass").first.click()
            expect(bo.page.get_by_test_id("turn")).to_have_text("Waiting for Ana")
            bo.page.get_by_test_id("abandon-propose").click()
            bo.page.get_by_test_id("confirm").click()
            expect(bo.page.get_by_test_id("abandon")).to_be_visible()
            cy = person("Cy", at=f"/t/{table_id}")
            ana.goto("/")  # she leaves: the wait for an absent player is the short one

            why = bo.page.get_by_test_id("stand-in-due")
            expect(why).to_contain_text("Ana has not moved for 1 s")
            expect(bo.page.locator(".table-bar [data-testid=stand-in-due]")).to_have_count(0)
            expect(bo.page.get_by_test_id("turn")).to_have_text("Waiting for Ana")

            bo.page.evaluate("window.scrollTo(0, 700)")
            box = cy.page.get_by_test_id("chat-input")
            box.fill("Still there?")
            box.press("Enter")
            jump = bo.page.get_by_test_id("chat-jump")
            expect(jump).to_be_visible()
            bar = bo.page.locator(".table-bar").bounding_box()
            turn = bo.page.get_by_test_id("turn").bounding_box()
            button = jump.bounding_box()
            assert bar and turn and button
            assert bar["y"] <= 1 and bar["height"] <= 72, bar  # stuck at the top, one line high
            assert button["x"] >= turn["x"] + turn["width"]
            bo.page.evaluate("window.scrollTo(0, 0)")
            # Unscrolled, the proposal's buttons sit below the bar and the explanation, covered by neither.
            withdraw = bo.page.get_by_test_id("abandon-withdraw").bounding_box()
            note = why.bounding_box()
            line = bo.page.locator(".table-bar .turn-line").bounding_box()
            assert withdraw and note and line
            assert note["y"] >= line["y"] + line["height"]
            assert withdraw["y"] >= note["y"] + note["height"]
    finally:
        server.stop()


def test_an_abandoned_game_is_listed_on_a_profile_and_said_to_be_uncounted(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    table_id = create_table(ana, "food-truck", seats=2)
    bo = person("Bo", width=390, height=844, at=f"/t/{table_id}")
    seat_row(bo.page, "1").get_by_role("button", name="Join here").click()
    ana.page.get_by_test_id("start").click()
    bo.page.get_by_test_id("abandon-propose").click()
    bo.page.get_by_test_id("confirm").click()
    ana.page.get_by_test_id("abandon-yes").click()
    expect(bo.page.get_by_test_id("table-status")).to_have_text("Abandoned")

    # From the seat (in place: the game is over, nothing live is left behind), Ana's page lists the game, marked,
    # and does not count it.
    seat_row(bo.page, "0").get_by_role("link", name="Ana").click()
    profile = bo.page
    profile.wait_for_url(re.compile(r"/p/[^/?]+$"))
    expect(profile.get_by_test_id("profile-game")).to_have_count(1)
    expect(profile.get_by_test_id("profile-game")).to_contain_text("Abandoned")
    expect(profile.get_by_test_id("profile-summary")).to_have_count(0)
    expect(profile.get_by_test_id("profile-none")).to_have_text("No game with a result yet.")
    expect(profile.get_by_test_id("profile-abandoned-note")).to_have_text(
        "Games abandoned by agreement have no result: they are listed, not counted."
    )
    profile.get_by_role("button", name="Español").click()
    expect(profile.get_by_test_id("profile-none")).to_have_text("Aún no hay partidas con resultado.")
    expect(profile.get_by_test_id("profile-abandoned-note")).to_contain_text("se listan, pero no se cuentan")
