"""Each game's table on a phone (a touch screen 390 px wide, and 360 px in Spanish): the page does not scroll sideways,
the player's own things come before the wall of other players' boards, the controls a finger hits are big enough, and
the site header leaves the screen's height to the game."""

from __future__ import annotations

import random
import re
import secrets
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.e2e.conftest import AppServer, Person, people
from tests.e2e.fcm_plan import site_choice
from tests.e2e.helpers import click_a_legal_thing, create_table, seat_row, snapshot
from tests.e2e.test_fcm import arrow_to, focused_cell
from tests.e2e.test_leaders import store as store_ratings

pytestmark = pytest.mark.e2e

RATED_GAME = "foodies"  # the leaderboard the phone test fills

PHONE: ViewportSize = {"width": 390, "height": 844}
NARROW: ViewportSize = {"width": 360, "height": 740}
TAP = 40  # px: the least height of a control a finger must hit

SEATS = {"food-truck": 5, "food-truck-champion": 3, "foodies": 3, "food-chain-magnate": 3}
# The viewer's own things, and what a phone showed first before them.
MINE_BEFORE = {
    "food-truck": (".ft-mine", ".ft-other"),
    "food-truck-champion": (".ftc-hand", ".ftc-marketplace"),
    "foodies": (".fd-mine", ".fd-other"),
    "food-chain-magnate": ("[data-testid=fcm-map]", ".fcm-others .fcm-chain"),
}


@pytest.fixture
def phone(browser: Browser, app_server: AppServer) -> Iterator[Person]:
    """Ana on a touch phone, signed in as a guest at the lobby."""
    with people(browser, app_server) as make:
        yield make("Ana", PHONE["width"], PHONE["height"], touch=True)


def start_against_bots(ana: Person, game: str) -> None:
    page = ana.page
    create_table(ana, game, seats=SEATS[game])
    for seat in range(1, SEATS[game]):
        seat_row(page, str(seat)).get_by_role("button", name="Add bot").click()
        expect(seat_row(page, str(seat)).locator(".tag", has_text="Bot")).to_be_visible()
    page.get_by_test_id("start").click()
    expect(page.get_by_test_id("table-status")).to_have_text("In progress")
    expect(page.get_by_test_id("game-area").locator(MINE_BEFORE[game][1]).first).to_be_visible()


def widths(page: Page) -> dict[str, float]:
    return dict(
        page.evaluate(
            "(() => { const a = document.querySelector('[data-testid=game-area]');"
            " return {doc: document.documentElement.scrollWidth, inner: innerWidth,"
            " area: a.scrollWidth, areaInner: a.clientWidth}; })()"
        )
    )


def fits_sideways(page: Page) -> None:
    """Neither the page nor the game area scrolls sideways (a wide row may scroll inside itself)."""
    w = widths(page)
    assert w["doc"] <= w["inner"], w
    assert w["area"] <= w["areaInner"] + 1, w


def top(page: Page, css: str) -> float:
    """The top of the highest element of the game area matching `css`, in page coordinates."""
    found: float | None = page.evaluate(
        "(css) => { const els = [...document.querySelectorAll('[data-testid=game-area] ' + css)];"
        " return els.length ? Math.min(...els.map((e) => e.getBoundingClientRect().top + scrollY)) : null; }",
        css,
    )
    assert found is not None, f"nothing matches {css}"
    return found


def smallest(page: Page, css: str) -> list[float]:
    """The lesser of the width and height of each element of the game area matching `css` (read at once: the bots'
    moves redraw the area)."""
    found: list[float] = page.evaluate(
        "(css) => [...document.querySelectorAll('[data-testid=game-area] ' + css)]"
        ".map((e) => { const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); })",
        css,
    )
    return found


@pytest.mark.parametrize("game", list(SEATS))
def test_each_game_fits_a_phone_and_shows_the_players_own_things_first(
    phone: Person, game: str, rng: random.Random
) -> None:
    page = phone.page
    start_against_bots(phone, game)
    fits_sideways(page)
    # Read in one go: every update redraws the table's head, and a handle found before one may be gone after it.
    expect(page.get_by_test_id("chime-switch")).to_be_visible()
    chime = page.evaluate("document.querySelector('[data-testid=chime-switch]').getBoundingClientRect().height")
    assert chime >= TAP, chime

    mine, theirs = MINE_BEFORE[game]
    page.wait_for_function("(css) => document.querySelector('[data-testid=game-area] ' + css)", arg=mine)
    assert top(page, mine) < top(page, theirs), f"{mine} is drawn below {theirs}"
    if game == "food-chain-magnate":
        # The viewer's chain comes before the other chains too, and the map's zoom and the turn order are a finger wide.
        assert top(page, ".fcm-chain.mine") < top(page, theirs)
        for css in (".fcm-map-tools button", ".fcm-track-pos"):
            sizes = smallest(page, css)
            assert sizes and min(sizes) >= TAP, (css, sizes)

    # Scrolled down to the board, the site header has gone and the turn bar stays at the top of the screen.
    # Scrolled and measured in one go: when the player's turn comes, the page brings its targets into sight by itself.
    header, turn, scrolled = page.evaluate(
        "() => { scrollTo(0, 700); const box = (el) => el.getBoundingClientRect();"
        " return [box(document.getElementById('header')), box(document.querySelector('[data-testid=turn]')), scrollY]; }"
    )
    assert scrolled > 300, scrolled
    assert header["y"] + header["height"] <= 0, header
    assert 0 <= turn["y"] < 5, turn

    # In Spanish, on a narrower phone, it still fits; a long label wraps inside its button.
    page.evaluate("scrollTo(0, 0)")
    page.locator("#header").get_by_role("button", name=re.compile("español", re.I)).click()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    page.set_viewport_size(NARROW)
    page.wait_for_timeout(100)
    fits_sideways(page)
    if game == "foodies":
        # Shown on the player's own turn; given a long label and measured in one go, since a bot's move may redraw
        # the controls away at any moment.
        measure = """() => {
          const button = document.querySelector('.fd-controls .fd-btn');
          if (!button || !button.getClientRects().length) return null;
          button.textContent = 'Dejar el 0 (nadie recolecta en esta tirada)';
          const r = button.getBoundingClientRect();
          return {right: r.right, doc: document.documentElement.scrollWidth, inner: innerWidth};
        }"""
        deadline = time.monotonic() + 20
        while (box := page.evaluate(measure)) is None:  # the flyers are placed first: any legal space will do
            assert time.monotonic() < deadline, "no turn of the player's own came"
            click_a_legal_thing(page, rng)
        assert box["right"] <= NARROW["width"] and box["doc"] <= box["inner"], box


DESKTOP: ViewportSize = {"width": 1280, "height": 900}
# What holds a card's name (a meal, a dish, a truck's logo, a culture, an employee), per game.
CARD_NAMES = {
    "food-truck": ".ft-name",
    "food-truck-champion": ".ftc-dish, .ftc-logo",
    "foodies": ".fd-stall-head, .fd-slot-name",
    "food-chain-magnate": ".fcm-card-name",
}
# What is wrong with the card names drawn now: one wider than its card (run off it, or cut with an ellipsis), a word
# broken other than at a soft hyphen ("Cheesebu|rger"), a word hyphenated though it would fit a line of its own
# ("Jefe de cam-|pañas"), a name under a Foodies half-star. Each letter's line is read from its own box.
CARD_NAME_PROBLEMS = r"""(css) => {
  const problems = [];
  for (const d of document.querySelectorAll('[data-testid=game-area] details')) d.open = true;  // FCM's supply
  const range = document.createRange();
  const pen = document.createElement('canvas').getContext('2d');
  for (const el of document.querySelectorAll(`[data-testid=game-area] :is(${css})`)) {
    if (!el.getClientRects().length) continue;
    const name = el.textContent.replace(/\u00ad/g, '');
    if (el.scrollWidth > el.clientWidth + 1) problems.push(`${name}: wider than its card`);
    const box = getComputedStyle(el);
    // clientWidth is rounded to a whole pixel: a word within 1 px of the room may not fit as laid out.
    const room = el.clientWidth - parseFloat(box.paddingLeft) - parseFloat(box.paddingRight);
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent;
      const font = getComputedStyle(node.parentElement);
      pen.font = `${font.fontWeight} ${font.fontSize} ${font.fontFamily}`;
      let start = 0;
      for (const word of text.split(' ')) {
        const whole = word.replace(/\u00ad/g, '');
        let line = null;
        for (let i = start; i < start + word.length; i += 1) {
          if (text[i] === '\u00ad') continue;
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const r = [...range.getClientRects()].filter((q) => q.width > 0).pop();
          if (!r) continue;
          const top = Math.round(r.top);
          if (line !== null && top !== line) {
            if (text[i - 1] !== '\u00ad') problems.push(`${name}: "${whole}" broken inside a syllable`);
            else if (pen.measureText(whole).width <= room - 1) problems.push(`${name}: "${whole}" hyphenated though it fits`);
          }
          line = top;
        }
        start += word.length + 1;
      }
    }
    const card = el.closest('.fd-stall');
    if (card) {
      const edge = card.getBoundingClientRect();
      range.selectNodeContents(el);
      const letters = [...range.getClientRects()].filter((q) => q.width > 0);
      for (const star of card.querySelectorAll('.fd-half')) {
        const s = star.getBoundingClientRect();
        const [l, t, r, b] = [Math.max(s.left, edge.left), Math.max(s.top, edge.top), Math.min(s.right, edge.right),
          Math.min(s.bottom, edge.bottom)];
        if (letters.some((q) => q.left < r && q.right > l && q.top < b && q.bottom > t)) problems.push(`${name}: under a half-star`);
      }
    }
  }
  return problems;
}"""


@pytest.mark.parametrize("game", list(SEATS))
def test_card_names_read_whole_on_phones_and_desktops_in_both_languages(phone: Person, game: str) -> None:
    """Every card name reads whole at 390 and 360 px and on a desktop, in English and Spanish: Debian's Chromium has no
    hyphenation dictionaries, so the renderers mark where long words may break and keep short ones whole."""
    page = phone.page
    start_against_bots(phone, game)
    seen = 0
    for lang, size in (
        ("en", PHONE),
        ("en", NARROW),
        ("en", DESKTOP),
        ("es", NARROW),
        ("es", PHONE),
        ("es", DESKTOP),
    ):
        if lang == "es" and page.locator("html").get_attribute("lang") != "es":
            page.locator("#header").get_by_role("button", name=re.compile("español", re.I)).click()
            expect(page.locator("html")).to_have_attribute("lang", "es")
        page.set_viewport_size(size)
        page.wait_for_timeout(100)
        # Read at once: the bots' moves redraw the area.
        problems: list[str] = page.evaluate(CARD_NAME_PROBLEMS, CARD_NAMES[game])
        assert not problems, (lang, size["width"], problems)
        seen += page.locator(f"[data-testid=game-area] :is({CARD_NAMES[game]})").count()
    assert seen, "no card names were drawn"


def test_food_chain_magnate_map_squares_are_readable_and_tappable_and_names_break_between_words(
    phone: Person,
) -> None:
    """On a touch phone the city map keeps squares a person can read (28 px) and, while one is to be picked, hit with a
    finger (40 px): the map scrolls inside its own frame, not the page. A restaurant is placed by tapping its corner
    and choosing its entrance with the keyboard. Employee names break between words, never inside one."""
    page = phone.page
    start_against_bots(phone, "food-chain-magnate")
    page.wait_for_function(
        "() => (window.foodGames.state().actions || []).some((a) => a.type === 'restaurant_at')",
        timeout=20_000,
    )
    game_map = page.get_by_test_id("game-area").get_by_test_id("fcm-map")
    expect(game_map.locator(".fcm-sq.legal").first).to_be_visible()
    squares = smallest(page, ".fcm-sq")
    assert min(squares) >= 28, min(squares)
    legal = smallest(page, ".fcm-sq.legal")
    assert legal and min(legal) >= TAP, min(legal)
    fits_sideways(page)
    frame = page.locator(".fcm-mapscroll")
    assert frame.evaluate("(f) => f.scrollWidth > f.clientWidth"), "the map does not scroll inside its frame"

    # "Whole map" fits the map to the screen's width (no scrolling), and pressed again brings the big squares back.
    whole = page.get_by_test_id("fcm-whole-map")
    whole.tap()
    expect(whole).to_have_attribute("aria-pressed", "true")
    assert frame.evaluate("(f) => f.scrollWidth <= f.clientWidth + 1"), (
        "the whole map is wider than the screen"
    )
    whole.tap()
    expect(whole).to_have_attribute("aria-pressed", "false")
    assert min(smallest(page, ".fcm-sq.legal")) >= TAP

    # Tap the restaurant's corner (the frame scrolls to it), then choose the entrance with the arrow keys and Enter.
    snap = snapshot(page)
    spot = site_choice(snap["view"], snap["actions"], snap["seat"])
    corner = f"{spot['cell'][0]},{spot['cell'][1]}"
    game_map.locator(f"[data-cell='{corner}'].legal").tap()
    page.wait_for_function(
        "() => (window.foodGames.state().actions || []).some((a) => a.type === 'restaurant_entrance')"
    )
    expect(game_map.locator(".fcm-sq.legal").first).to_be_visible()
    assert min(smallest(page, ".fcm-sq.legal")) >= TAP
    game_map.locator("[tabindex='0']").focus()
    snap = snapshot(page)
    door = site_choice(snap["view"], snap["actions"], snap["seat"])["entrance"]
    arrow_to(page, f"{door[0]},{door[1]}")
    in_frame = frame.evaluate(
        "(f) => { const a = f.getBoundingClientRect(), b = document.activeElement.getBoundingClientRect();"
        " return b.left >= a.left - 1 && b.right <= a.right + 1 && b.top >= a.top - 1 && b.bottom <= a.bottom + 1; }"
    )
    assert in_frame, "the square the keyboard is on is scrolled out of the map's frame"
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("log")).to_contain_text("Ana places a restaurant")
    assert focused_cell(page) == f"{door[0]},{door[1]}"

    # With nothing to pick, the squares are back to their readable size; the page still does not scroll sideways.
    page.wait_for_function("() => !document.querySelector('[data-testid=fcm-map].fcm-picking')")
    assert min(smallest(page, ".fcm-sq")) >= 28
    fits_sideways(page)

    # Every employee's name (the supply, opened) breaks between its words: not hyphenated, nothing runs off a card.
    for lang in ("en", "es"):
        if lang == "es":
            page.locator("#header").get_by_role("button", name=re.compile("español", re.I)).click()
            # The page's language changes at the click; the area is redrawn once the press ends, a task later.
            expect(page.get_by_test_id("game-area")).to_contain_text("Aprendiz de gestión")
        # The supply is opened and read in one go: the bots' moves redraw the area.
        names = page.evaluate(
            "() => { document.querySelector('[data-testid=game-area] .fcm-supply').open = true;"
            " return [...document.querySelectorAll('[data-testid=game-area] .fcm-card')].map((card) => ({"
            " name: card.querySelector('.fcm-card-name').textContent,"
            " hyphens: getComputedStyle(card.querySelector('.fcm-card-name')).hyphens,"
            " soft: card.querySelector('.fcm-card-name').textContent.includes('\\u00ad'),"
            # What is drawn in the card's flow (not its count, a bubble on its corner) stays inside it.
            " over: [...card.querySelectorAll('*')].filter((el) => getComputedStyle(el).position !== 'absolute'"
            "   && !el.closest('.fcm-badge')).filter((el) => { const r = el.getBoundingClientRect(),"
            "   c = card.getBoundingClientRect(); return el.scrollWidth > el.clientWidth + 1"
            "   || r.left < c.left - 0.5 || r.right > c.right + 0.5; }).map((el) => el.className || el.tagName) })); }"
        )
        assert len(names) >= 33, len(names)
        assert {"en": "Management Trainee", "es": "Aprendiz de gestión"}[lang] in [n["name"] for n in names]
        assert not [n for n in names if n["hyphens"] == "auto" or n["soft"] or n["over"]], [
            n for n in names if n["hyphens"] == "auto" or n["soft"] or n["over"]
        ][:5]
        problems: list[str] = page.evaluate(CARD_NAME_PROBLEMS, CARD_NAMES["food-chain-magnate"])
        assert not problems, (lang, problems)
        fits_sideways(page)


def test_the_leaderboard_fits_a_phone_in_both_languages(phone: Person, app_server: AppServer) -> None:
    """The leaderboards page, a long name in it: nothing scrolls sideways, not even the list, and the game tabs and
    page links are a finger high, at 390 px in English and 360 px in Spanish."""
    tag = secrets.token_hex(3)
    # Foodies' board, not the one test_leaders.py fills: each test's people lead their own list on a shared server.
    store_ratings(app_server, [(secrets.token_hex(8), f"Grandmaster{tag}" + "W" * 22, f"long{tag}", 9500, 60)]
                  + [(secrets.token_hex(8), f"Chef {i} {tag}", f"chef{i}{tag}", 9400 - i, 5) for i in range(55)],
                  game=RATED_GAME)
    page = phone.page
    # Straight to the game's board by its address: going there by the tabs is test_leaders.py's.
    phone.goto(f"/leaders/{RATED_GAME}")
    expect(page.get_by_test_id("leaders-row").first).to_contain_text(f"Grandmaster{tag}")
    for lang, size in (("en", PHONE), ("es", NARROW)):
        if lang == "es":
            page.locator("#header").get_by_role("button", name=re.compile("español", re.I)).click()
            expect(page.get_by_test_id("leaders-paging")).to_contain_text("Página 1")
        page.set_viewport_size(size)
        page.wait_for_timeout(100)
        w = page.evaluate(
            "(() => { const t = document.querySelector('[data-testid=leaders-table]').parentElement;"
            " return {doc: document.documentElement.scrollWidth, inner: innerWidth,"
            " list: t.scrollWidth, listInner: t.clientWidth}; })()"
        )
        assert w["doc"] <= w["inner"] and w["list"] <= w["listInner"] + 1, (lang, w)
        heights = page.evaluate(
            "[...document.querySelectorAll('[data-testid=leaders-games] a, [data-testid=leaders-paging] a')]"
            ".map((a) => a.getBoundingClientRect().height)"
        )
        assert len(heights) == 5 and min(heights) >= TAP, (lang, heights)
