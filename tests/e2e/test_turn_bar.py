"""The instruction travels with the player: at every step of their turns, in each game, on a desktop (1280x800) and a
phone (390x844), the instruction (with its buttons) is on screen in the sticky turn bar and at least one legal target
is in sight, uncovered, without the player scrolling. The player here never scrolls: they click what they see, where
they see it (a mouse click at its place, not Playwright's click, which would scroll to it first)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.e2e.conftest import Person
from tests.e2e.helpers import assert_quiet

pytestmark = pytest.mark.e2e

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
SEATS = {"food-truck": 3, "food-truck-champion": 3, "foodies": 3, "food-chain-magnate": 2}
STEPS = 8  # the player's decisions (each click that makes a move or a choice) checked per game and size

# Where the player is now: the instruction's box in the bar and the legal targets, those in sight (their middle is on
# screen and no other element, such as the sticky bar, covers it) with their middles. The targets are the game area's
# legal pieces, or where it has none, the instruction's own (the Owner card's action, a reserve card).
SIGHT = """() => {
  const prompt = document.querySelector('[data-testid=turn-prompt]');
  const box = prompt.getBoundingClientRect();
  const middle = (el) => {
    const r = el.getBoundingClientRect();
    return r.width && r.height ? [r.left + r.width / 2, r.top + r.height / 2] : null;
  };
  const seen = (el) => {
    const m = middle(el);
    if (!m || m[0] < 0 || m[0] > innerWidth || m[1] < 0 || m[1] > innerHeight) return false;
    const hit = document.elementFromPoint(m[0], m[1]);
    return Boolean(hit) && (hit === el || el.contains(hit));
  };
  const board = [...document.querySelectorAll('[data-testid=game-area] .legal')].filter(middle);
  const targets = board.length ? board : [...prompt.querySelectorAll('.legal, button')].filter(middle);
  const s = window.foodGames.state();
  return {
    mine: s.seat !== null && (s.awaiting || []).includes(s.seat) && (s.actions || []).length > 0,
    status: document.querySelector('main').dataset.status,
    pending: window.foodGames.pending(),
    version: s.version,
    draft: document.querySelector('main').dataset.draft,
    shown: !prompt.hidden && box.height > 0 && box.top >= 0 && box.bottom <= innerHeight,
    text: prompt.textContent.trim(),
    total: targets.length,
    inSight: targets.filter(seen).map(middle),
    scrollY,
    // Cards gliding to their places after a move (250 ms): a person looks once they have arrived.
    animating: document.getAnimations().some((a) => a.playState === 'running'),
  };
}"""


def start_against_bots(who: Person, game: str) -> str:
    post = who.page.request.post
    table = post(who.base + "/api/tables", data={"game": game, "seats": SEATS[game]}).json()
    tid = str(table["id"])
    for seat in range(1, SEATS[game]):
        assert post(f"{who.base}/api/tables/{tid}/bots", data={"seat": str(seat)}).ok
    assert post(f"{who.base}/api/tables/{tid}/start", data={}).ok
    who.goto(f"/t/{tid}")
    return tid


def where(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(SIGHT)
    return found


def my_turn(page: Page, timeout: float = 30) -> dict[str, Any] | None:
    """Wait for a settled turn of the player's own (no move on its way, the page drawn); None once the game is over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = where(page)
        if now["status"] == "finished":
            return None
        if now["mine"] and not now["pending"] and now["total"] and not now["animating"]:
            page.wait_for_timeout(60)  # a bot's answer may land right after
            again = where(page)
            if again["mine"] and again["version"] == now["version"] and again["text"] == now["text"] and not again["animating"]:
                return again
        page.wait_for_timeout(40)
    raise AssertionError("no turn of the player's own came")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", list(SEATS))
def test_instruction_and_a_target_in_sight(
    person: Callable[..., Person], rng: random.Random, artifacts: Path, game: str, size: str
) -> None:
    width, height = SIZES[size]
    ana = person("Ana", width=width, height=height)
    page = ana.page
    start_against_bots(ana, game)
    page.get_by_test_id("game-area").wait_for()
    seen_texts: set[str] = set()
    steps = 0
    while steps < STEPS:
        now = my_turn(page)
        if now is None:
            break
        assert now["shown"], f"{game} at {size}: the instruction is not on screen: {now}"
        assert now["inSight"], f"{game} at {size}: no legal target in sight under {now['text']!r}: {now}"
        seen_texts.add(now["text"])
        if steps in (0, STEPS // 2):  # what the player sees, for a person to look at
            page.screenshot(path=artifacts / f"turn-bar-{game}-{size}-{steps}.png")
        x, y = rng.choice(now["inSight"])
        before = (now["version"], now["text"], now["draft"])
        page.mouse.click(x, y)
        steps += 1
        # A move (a new version), a step of a choice (a new instruction) or of a secret one (a new draft: Food Truck's
        # cards put in order); a click on what only selects may be none of them.
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            after = where(page)
            if after["status"] == "finished" or (after["version"], after["text"], after["draft"]) != before:
                break
            page.wait_for_timeout(30)
    assert steps >= 3, f"{game} at {size}: only {steps} steps of the player's own"
    assert seen_texts and all(seen_texts), seen_texts
    assert_quiet(ana)
