"""Two registered people and a guest finish a public Food Truck game: the two see their rating change, on the table,
live, and on their profiles (one of them on a phone, in Spanish too); the guest is left out, and the pages say why."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Person
from tests.e2e.helpers import create_table, save_account, seat_row

pytestmark = pytest.mark.e2e


def signed(change: int) -> str:
    """A change as the pages write it."""
    return f"+{change}" if change > 0 else f"\u2212{-change}" if change < 0 else "\u00b10"


def test_two_people_and_a_guest_finish_a_game_and_the_two_see_their_rating_change(
    person: Callable[..., Person],
) -> None:
    ana = person("Ana")
    # A public table of two registered people is rated: the lobby says so, and tells a guest their games are not.
    card = ana.page.locator(".game-card[data-game='food-truck']")
    card.get_by_role("button", name="New table").click()
    form = ana.page.get_by_test_id("create-form")
    expect(form).to_contain_text("Public games of two or more registered people change their ratings")
    expect(form.get_by_test_id("guest-unrated")).to_have_text(
        "You play as a guest: your games do not change ratings. Create an account to be rated.")
    ana.page.keyboard.press("Escape")  # the form's dialog closes; the header is in reach again
    expect(form).to_have_count(0)
    save_account(ana, f"ana{secrets.token_hex(3)}")
    ana.goto("/")
    card.get_by_role("button", name="New table").click()
    expect(form.get_by_test_id("guest-unrated")).to_have_count(0)
    ana.goto("/")
    table_id = create_table(ana, "food-truck", seats=3, name="Rated lunch")
    bo = person("Bo", width=390, height=844)  # on a phone
    save_account(bo, f"bo{secrets.token_hex(3)}")
    cy = person("Cy")  # a guest
    for who, seat, name in ((bo, "1", "Bo"), (cy, "2", "Cy")):
        who.goto(f"/t/{table_id}")
        seat_row(who.page, seat).get_by_role("button", name="Join here").click()
        expect(seat_row(ana.page, seat)).to_contain_text(name)
    ana.page.get_by_test_id("start").click()
    expect(bo.page.get_by_test_id("table-status")).to_have_text("In progress")

    # Each lets a bot finish the game for them: their seat, and its result, stay theirs. The bots play at once here
    # (the pages keep up with every move): what is tested is what comes after the end.
    with ana.server.quick_bots():
        for who, seat in ((ana, "0"), (bo, "1"), (cy, "2")):
            seat_row(who.page, seat).get_by_test_id("stand-in").click()
            expect(seat_row(who.page, seat)).to_contain_text("Bot")
        for who in (ana, bo, cy):
            expect(who.page.locator("main")).to_have_attribute("data-status", "finished", timeout=120_000)

    table: dict[str, Any] = ana.page.request.get(f"{ana.base}/api/tables/{table_id}").json()
    for _ in range(100):  # rated just after the end
        if table["ratings"]:
            break
        ana.page.wait_for_timeout(100)
        table = ana.page.request.get(f"{ana.base}/api/tables/{table_id}").json()
    ratings = table["ratings"]
    # The guest's seat is left out: the two registered people are rated between themselves.
    assert set(ratings) == {"0", "1"} and ratings["0"]["change"] == -ratings["1"]["change"]
    assert {r["before"] for r in ratings.values()} == {1500}

    # Every table shows each person's change beside the result, without a reload, says why the guest has none, and
    # the log says it.
    for who in (ana, bo, cy):
        ranking = who.page.get_by_test_id("ranking")
        expect(ranking.locator("th").last).to_have_text("Rating")
        for seat, rating in ratings.items():
            cell = ranking.locator(f"tr[data-seat='{seat}']").get_by_test_id("rating-change")
            expect(cell).to_contain_text(signed(rating["change"]))
            expect(cell).to_contain_text(str(rating["after"]))
            expect(cell.locator(".rating-change")).to_have_attribute(
                "aria-label", f"Rating 1500 → {rating['after']} ({signed(rating['change'])})")
        expect(ranking.locator("tr[data-seat='2']").get_by_test_id("rating-change")).to_have_text("")
        expect(who.page.get_by_test_id("rating-note")).to_have_text(
            "Guests are not rated: only the registered people were compared.")
        expect(who.page.get_by_test_id("log")).to_contain_text(
            f"Ratings: Ana {ratings['0']['after']} ({signed(ratings['0']['change'])}), "
            f"Bo {ratings['1']['after']} ({signed(ratings['1']['change'])}).")

    # Each one's profile: the game's rating (provisional after one game: marked "?"), one rated game and the last
    # change; the game listed with its change.
    for who, seat in ((ana, "0"), (bo, "1")):
        who.page.get_by_test_id("my-profile").click()
        who.page.wait_for_url(re.compile(r"/p/[0-9a-f]{16}$"))
        row = who.page.get_by_test_id("profile-ratings").locator("tr[data-game='food-truck']")
        expect(row.locator("td")).to_have_text([f"{ratings[seat]['after']}?", "1", signed(ratings[seat]["change"])])
        expect(row.locator("abbr.provisional")).to_have_attribute("title", re.compile("^Provisional"))
        untouched = who.page.get_by_test_id("profile-ratings").locator("tr[data-game='foodies'] td")
        expect(untouched).to_have_text(["1500?", "0", "—"])
        entry = who.page.locator(f"[data-testid=profile-game][data-table-id='{table_id}']")
        expect(entry.get_by_test_id("profile-rating-change")).to_have_text(signed(ratings[seat]["change"]))

    # The guest's page has no ratings, and says why.
    cy.page.get_by_test_id("my-profile").click()
    cy.page.wait_for_url(re.compile(r"/p/[0-9a-f]{16}$"))
    expect(cy.page.get_by_test_id("profile-ratings")).to_have_count(0)
    expect(cy.page.get_by_test_id("profile-guest-unrated")).to_have_text(
        "Guests are not rated: create an account and your next games will change your rating.")
    entry = cy.page.locator(f"[data-testid=profile-game][data-table-id='{table_id}']")
    expect(entry.get_by_test_id("profile-rating-change")).to_have_count(0)

    # On the phone, in Spanish, the page fits the screen.
    bo.page.get_by_role("button", name=re.compile("Cambiar a español")).click()
    expect(bo.page.get_by_role("heading", name="Elo", exact=True)).to_be_visible()
    expect(bo.page.get_by_test_id("profile-ratings").locator("th").nth(2)).to_have_text("Partidas con Elo")
    assert bo.page.evaluate("document.documentElement.scrollWidth") <= 390
