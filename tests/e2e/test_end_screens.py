"""What each game shows once it is over, and a few of its decisions, as a person sees them."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Person
from tests.e2e.helpers import finished_by_bots

pytestmark = pytest.mark.e2e


def last_round_shown(page: Page) -> None:
    """Food Truck's end screen: the table the winning round left (the winner's meals served, the others out), not the
    board the engine resets after every round (nothing served, nobody out)."""
    area = page.get_by_test_id("game-area")
    expect(area.get_by_test_id("ft-last-round")).to_be_visible()
    winner = str(page.evaluate("window.foodGames.state().view.winner"))
    expect(area.locator(f"[data-seat='{winner}'] .ft-served .ft-stack").first).to_be_visible()
    expect(area.locator(".ft-out").first).to_be_visible()


def test_food_truck_end_screen_shows_the_last_round_live_and_after_a_reload(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    bo = person("Bo")
    tid = finished_by_bots(ana, bo)
    # Opened after the end: the page reads the last move's table with the log.
    ana.goto(f"/t/{tid}")
    expect(ana.page.get_by_test_id("result")).to_be_visible()
    last_round_shown(ana.page)
    ana.page.reload()
    expect(ana.page.get_by_test_id("result")).to_be_visible()
    last_round_shown(ana.page)
