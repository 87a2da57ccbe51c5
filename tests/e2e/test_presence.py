"""Presence in the browser: a seat's dot says whether its person has the table open; watchers are counted."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Person
from tests.e2e.helpers import create_table, seat_row

pytestmark = pytest.mark.e2e


def test_a_seat_shows_away_when_its_persons_page_closes(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    table_id = create_table(ana, "food-truck", seats=2, name="Who is here")
    dot = seat_row(ana.page, "1").locator(".seat-dot")

    ben = person("Ben", at=f"/t/{table_id}")
    seat_row(ben.page, "1").get_by_role("button", name="Join here").click()
    expect(dot).to_have_attribute("aria-label", "online")
    expect(dot).to_have_class(re.compile(r"\bonline\b"))
    expect(seat_row(ana.page, "0").locator(".seat-dot")).to_have_attribute("aria-label", "online")

    watcher = person(at=f"/t/{table_id}")  # signed out, watching
    expect(ana.page.get_by_test_id("watching")).to_have_text("1 watching")
    expect(seat_row(watcher.page, "1").get_by_role("img", name="online")).to_be_visible()

    ana.page.get_by_test_id("start").click()
    expect(ana.page.get_by_test_id("table-status")).to_have_text("In progress")
    ben.page.close()
    expect(dot).to_have_attribute("aria-label", "away")
    expect(dot).to_have_class(re.compile(r"\baway\b"))
    expect(seat_row(watcher.page, "1").locator(".seat-dot")).to_have_attribute("aria-label", "away")

    ana.page.get_by_role("button", name="Español").click()
    expect(dot).to_have_attribute("aria-label", "ausente")
    expect(ana.page.get_by_test_id("watching")).to_have_text("1 mirando")
    # The redraw a presence message brings keeps keyboard focus where it was.
    bens_name = seat_row(ana.page, "1").get_by_role("link", name="Ben")
    bens_name.focus()
    watcher.page.close()
    expect(ana.page.get_by_test_id("watching")).to_be_hidden()
    expect(bens_name).to_be_focused()
