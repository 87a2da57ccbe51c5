"""What each game shows once it is over, and a few of its decisions, as a person sees them."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Person
from tests.e2e.helpers import assert_quiet, click_a_legal_thing, finished_by_bots

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
    assert_quiet(ana)


def start_against_bots(who: Person, game: str, seats: int) -> str:
    post = who.page.request.post
    tid = str(post(who.base + "/api/tables", data={"game": game, "seats": seats}).json()["id"])
    for seat in range(1, seats):
        assert post(f"{who.base}/api/tables/{tid}/bots", data={"seat": str(seat)}).ok
    assert post(f"{who.base}/api/tables/{tid}/start", data={}).ok
    who.goto(f"/t/{tid}")
    who.page.get_by_test_id("game-area").wait_for()
    return tid


def wait_for_action(page: Page, kind: str, rng: random.Random, timeout: float = 60) -> None:
    """Play (clicking legal things) until the player may make a move of `kind`."""
    deadline = time.monotonic() + timeout
    while not page.evaluate("(k) => (window.foodGames.state().actions || []).some((a) => a.type === k)", kind):
        assert time.monotonic() < deadline, f"no {kind} came"
        if not click_a_legal_thing(page, rng):
            page.wait_for_timeout(50)


# Each legal market slot's outline (3 px outside its box) lies inside what its scrolling row shows, on every side.
CLIPPED_SLOTS = """() => {
  const row = document.querySelector('.fd-market-row');
  const box = row.getBoundingClientRect();
  const inner = { left: box.left + row.clientLeft, top: box.top + row.clientTop };
  inner.right = inner.left + row.clientWidth;
  inner.bottom = inner.top + row.clientHeight;
  return [...row.querySelectorAll('.fd-slot.legal')].filter((slot) => {
    const r = slot.getBoundingClientRect();
    return r.left - 3 < inner.left - 0.5 || r.right + 3 > inner.right + 0.5 || r.top - 3 < inner.top - 0.5
      || r.bottom + 3 > inner.bottom + 0.5;
  }).map((slot) => slot.dataset.slot);
}"""


def test_foodies_market_slots_outline_whole_at_1280(person: Callable[..., Person], rng: random.Random) -> None:
    ana = person("Ana", width=1280, height=800)
    start_against_bots(ana, "foodies", 3)
    wait_for_action(ana.page, "buy", rng)
    expect(ana.page.locator(".fd-market .fd-slot.legal").first).to_be_visible()
    assert ana.page.evaluate("document.querySelectorAll('.fd-market .fd-slot.legal').length") >= 1
    clipped = ana.page.evaluate(CLIPPED_SLOTS)
    assert not clipped, f"the outline of market slot(s) {clipped} is cut off by the market row"
    assert_quiet(ana)
