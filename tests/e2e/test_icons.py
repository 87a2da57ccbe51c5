"""Each game's cards carry the project's icons (frontend/lib/icons.js) in the player's hand and the market: a picture
for each kind of card, food and ingredient, hidden from assistive technology while the card keeps its words, drawn
under the site's Content-Security-Policy (the people fixture fails on any violation)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Person
from tests.e2e.test_turn_bar import SIZES, start_against_bots

pytestmark = pytest.mark.e2e

# The cards of each game a player reads at a glance: their hand, the market or supply, their company.
CARDS = {
    "food-truck": ".ft-card[data-card]",
    "food-truck-champion": ".ftc-card[data-card]",
    "foodies": ".fd-stall",
    "food-chain-magnate": ".fcm-card[data-card]",
}

# For each card drawn: its icons, whether each is hidden from assistive technology and carries no style attribute, and
# the words the card is named by (its label, else its text without the icons).
ICONS = """(css) => [...document.querySelectorAll('[data-testid=game-area] ' + css)].map((card) => ({
  icons: [...card.querySelectorAll('svg.icon')].map((svg) => ({
    hidden: svg.getAttribute('aria-hidden') === 'true', styled: svg.hasAttribute('style'),
    shapes: svg.children.length, name: svg.getAttribute('class'),
  })),
  words: (card.closest('[aria-label]')?.getAttribute('aria-label') || card.textContent || '').trim(),
}))"""


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", list(CARDS))
def test_cards_carry_an_icon_beside_their_words(
    person: Callable[..., Person], artifacts: Path, game: str, size: str
) -> None:
    width, height = SIZES[size]
    ana = person("Ana", width=width, height=height, touch=size == "phone")
    start_against_bots(ana, game)
    area = ana.page.get_by_test_id("game-area")
    expect(area.locator(CARDS[game]).first).to_be_visible()
    # The player's cards with their icons, for a person to look at (the whole board, however long).
    area.screenshot(path=artifacts / f"icons-{game}-{size}.png", animations="disabled")
    cards: list[dict[str, Any]] = ana.page.evaluate(ICONS, CARDS[game])
    assert cards
    kinds: set[str] = set()
    for card in cards:
        assert card["icons"], f"a {game} card without an icon: {card['words']!r}"
        assert any(ch.isalpha() for ch in card["words"]), f"a {game} card named by no words: {card}"
        for found in card["icons"]:
            assert found["hidden"] and not found["styled"] and found["shapes"] >= 2, found
            kinds.add(found["name"])
    # Different kinds wear different pictures.
    assert len(kinds) >= 2, kinds
