"""People's names lead to their profiles: in the lobby, at the seats and in the chat."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.conftest import Person
from tests.e2e.helpers import create_table, seat_row

pytestmark = pytest.mark.e2e

def _id(who: Person) -> str:
    return str(who.page.request.get(f"{who.base}/api/me").json()["id"])


def _hit_by_a_tap(button: Locator) -> bool:
    """Whether a tap at the middle of `button` lands on it (no link or other element laid over it)."""
    return bool(button.evaluate(
        "(b) => { b.scrollIntoView({ block: 'center' }); const r = b.getBoundingClientRect();"
        " const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);"
        " return hit === b || b.contains(hit); }"))


def _opens_profile(page: Page, link: Locator, name: str) -> None:
    """The link opens, beside the table, the profile of the person called `name`."""
    with page.context.expect_page() as opened:
        link.click()
    profile = opened.value
    profile.wait_for_url(re.compile(r"/p/[0-9a-f]{16}$"))
    expect(profile.get_by_test_id("profile-name")).to_contain_text(name)
    profile.close()


def test_names_lead_to_profiles_in_the_lobby_the_seats_and_the_chat(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    table_id = create_table(ana, "food-truck", seats=3, name="Open kitchen")
    bo = person("Bo")
    bo.goto(f"/t/{table_id}")
    seat_row(bo.page, "1").get_by_role("button", name="Join here").click()
    expect(seat_row(ana.page, "1")).to_contain_text("Bo")

    # In the lobby, a stranger sees the host's name and the players' names as links to their pages.
    dee = person("Dee", width=390, height=844)
    card = dee.page.get_by_test_id("public-open").locator(f"li[data-table-id='{table_id}']")
    host_link = card.locator(".table-host").get_by_test_id("person-link")
    expect(host_link).to_have_text("Ana")
    expect(host_link).to_have_attribute("href", f"/p/{_id(ana)}")
    expect(card.get_by_test_id("table-players").get_by_test_id("person-link")).to_have_text(["Ana", "Bo"])
    assert dee.page.evaluate("document.documentElement.scrollWidth") <= 390
    dee.page.get_by_role("button", name="Español").click()
    expect(card.locator(".table-host")).to_have_text("Anfitrión: Ana")
    host_link.click()
    dee.page.wait_for_url(re.compile(rf"/p/{_id(ana)}$"))
    expect(dee.page.get_by_test_id("profile-name")).to_have_text("Ana")

    # At the table: Bo's seat links to his page, and the host's Remove beside it is still the Remove button.
    bo_seat = seat_row(ana.page, "1")
    expect(bo_seat.get_by_test_id("person-link")).to_have_attribute("href", f"/p/{_id(bo)}")
    assert _hit_by_a_tap(bo_seat.get_by_role("button", name="Remove"))

    # A chat line's author leads to their page; the host's Mute and Remove beside the name stay buttons.
    box = bo.page.get_by_test_id("chat-input")
    box.fill("Ready when you are")
    box.press("Enter")
    line = ana.page.get_by_test_id("chat-line").last
    author = line.get_by_test_id("person-link")
    expect(author).to_have_text("Bo")
    expect(author).to_have_attribute("href", f"/p/{_id(bo)}")
    for name in ("Mute Bo in this chat", "Remove Bo's message"):
        assert _hit_by_a_tap(line.get_by_role("button", name=name))
    _opens_profile(ana.page, author, "Bo")
    line.get_by_role("button", name="Mute Bo in this chat").click()
    expect(ana.page.get_by_test_id("chat-mutes").get_by_test_id("person-link")).to_have_text("Bo")
    expect(bo.page.get_by_test_id("chat-muted")).to_be_visible()

    # A bot's seat and name have no link.
    seat_row(ana.page, "2").get_by_role("button", name="Add bot").click()
    expect(seat_row(ana.page, "2")).to_contain_text("Bot")
    expect(seat_row(ana.page, "2").get_by_test_id("person-link")).to_have_count(0)
    bo_seat.get_by_role("button", name="Remove").click()
    expect(seat_row(ana.page, "1")).to_contain_text("Empty seat")
