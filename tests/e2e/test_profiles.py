"""Player pages: from the header to one's own profile, to another player's, to a finished table, on a phone too."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.e2e.bot_games import finished_by_bots
from tests.e2e.conftest import Person

pytestmark = pytest.mark.e2e


def test_a_finished_game_on_the_players_pages_and_back_to_its_table(person: Callable[..., Person]) -> None:
    ana, bo = person("Ana"), person("Bo")
    tid = finished_by_bots(ana, bo)

    # Ana's name in the header leads to her own page: the game is counted and listed with everyone at it.
    ana.goto("/")
    ana.page.get_by_test_id("my-profile").click()
    page = ana.page
    page.wait_for_url(re.compile(r"/p/[0-9a-f]{16}$"))
    expect(page.get_by_test_id("profile-name")).to_contain_text("Ana")
    expect(page.get_by_test_id("profile-summary").locator("tr[data-game='food-truck'] td").first).to_have_text("1")
    entry = page.locator(f"[data-testid=profile-game][data-table-id='{tid}']")
    expect(entry).to_contain_text("Lunch rush")
    expect(entry).to_contain_text("Bot 3")
    # People are links, the bot is not, and her own name does not link to the page she is on.
    expect(entry.get_by_test_id("person-link")).to_have_text(["Bo"])

    # On to Bo's page, and from his game to the finished table, which shows the result.
    entry.get_by_test_id("person-link").click()
    page.wait_for_url(re.compile(r"/p/[0-9a-f]{16}$"))
    expect(page.get_by_test_id("profile-name")).to_have_text("Bo")
    expect(page.get_by_test_id("profile-kind")).to_have_text("Guest")
    page.locator(f"[data-testid=profile-game][data-table-id='{tid}']").get_by_test_id("profile-table-link").click()
    page.wait_for_url(re.compile(rf"/t/{tid}$"))
    expect(page.get_by_test_id("result")).to_be_visible()
    # The seats link back to the players' pages; the bot's seat does not.
    expect(page.get_by_test_id("seats").get_by_test_id("person-link")).to_have_text(["Ana", "Bo"])

    # Someone else looks at Ana's page on a phone, in Spanish: it fits the screen.
    ana_id = ana.page.request.get(f"{ana.base}/api/me").json()["id"]
    phone = person("Bo2", width=390, height=844, at=f"/p/{ana_id}")
    expect(phone.page.get_by_test_id("profile-name")).to_contain_text("Ana")
    phone.page.get_by_role("button", name=re.compile("Cambiar a español")).click()
    expect(phone.page.get_by_role("heading", name="Partidas terminadas")).to_be_visible()
    expect(phone.page.get_by_test_id("profile-kind")).to_have_text("Invitado")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= 390
