"""A person plays a whole game of Foodies against two bots in the browser, by clicking the table, and sees the result."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, ViewportSize, expect

from tests.e2e.conftest import Person
from tests.e2e.helpers import (
    RECORD_ERROR_TOASTS,
    area,
    assert_quiet,
    create_table,
    my_turns,
    seat_row,
    snapshot,
    unnamed_pieces,
    wait_for_move,
)

pytestmark = pytest.mark.e2e

JSON = dict[str, Any]
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1200, "height": 900}


def my_space(page: Page, space: int) -> Locator:
    return area(page).locator(f".fd-mine .fd-space[data-space='{space}'].legal")


def button(page: Page, name: str) -> Locator:
    return area(page).locator("button.fd-btn.legal", has_text=name)


def target(page: Page, action: JSON, view: JSON) -> Locator:
    """The highlighted thing a person clicks for this action (for a buy: the market slot, the first of two clicks)."""
    game = area(page)
    kind = action["type"]
    if kind == "roll":
        return button(page, "Roll the die")
    if kind == "choose_face":
        return game.locator(".fd-faces .fd-die.legal", has_text=re.compile(rf"^{action['face']}$"))
    if kind == "keep_zero":
        return button(page, "Keep the 0")
    if kind == "use_flyer":
        return my_space(page, action["space"])
    if kind == "no_flyer":
        return my_space(page, view["visited"])
    if kind == "buy":
        return game.locator(f".fd-market .fd-slot[data-slot='{action['slot']}'].legal")
    if kind == "skip_buy":
        return button(page, "Buy nothing")
    if kind == "hire_chef":
        return game.locator(".fd-chef[data-chef='for_hire'].legal")
    if kind == "claim_chef":
        return game.locator(f".fd-chef[data-chef='{action['chef']}'].legal")
    if kind == "end_turn":
        return button(page, "End turn")
    raise AssertionError(f"an action the test does not know: {action}")


def legal_numbers(page: Page, css: str, attribute: str) -> set[int]:
    """The numbers (slot or space) of the highlighted elements matching `css` in the game area."""
    return {
        int(v) for v in area(page).locator(css).evaluate_all(f"els => els.map((e) => e.dataset.{attribute})")
    }


def assert_every_action_is_clickable(page: Page, snap: JSON) -> None:
    """Each legal action now has its highlighted thing on the table (a renderer that hides one fails here)."""
    seen: set[str] = set()
    for action in snap["actions"]:
        key = repr(target(page, action, snap["view"]))
        if key in seen:
            continue
        seen.add(key)
        assert target(page, action, snap["view"]).count() == 1, f"nothing to click for {action}"
    # Exactly the market slots that can be bought are highlighted; a face may also be chosen on the court.
    slots = {a["slot"] for a in snap["actions"] if a["type"] == "buy"}
    assert legal_numbers(page, ".fd-market .fd-slot.legal", "slot") == slots
    faces = {a["face"] for a in snap["actions"] if a["type"] == "choose_face"}
    if faces:
        assert legal_numbers(page, ".fd-mine .fd-space.legal", "space") == faces
    # Flyers: the visited space (keep them) and exactly the neighbours a flyer may go to.
    if {"type": "no_flyer"} in snap["actions"]:
        flyers = {a["space"] for a in snap["actions"] if a["type"] == "use_flyer"}
        assert legal_numbers(page, ".fd-mine .fd-space.legal", "space") == flyers | {snap["view"]["visited"]}


def choose(snap: JSON, done: Counter[str]) -> JSON:
    """The person's plan: build the court from the cheapest affordable stall, hire every chef it can, then end the turn.

    The first time a 0 is rolled, the person keeps it.
    """
    view, acts, seat = snap["view"], snap["actions"], snap["seat"]
    me = view["players"][seat]
    kinds = {a["type"] for a in acts}
    court = me["court"]
    if "roll" in kinds:
        return acts[0]
    if "keep_zero" in kinds and not done["keep_zero"]:
        return {"type": "keep_zero"}
    if "choose_face" in kinds:
        built = [a for a in acts if a["type"] == "choose_face" and court[a["face"] - 1]]
        return built[0] if built else next(a for a in acts if a["type"] == "choose_face")
    if "no_flyer" in kinds:
        # Spend a flyer when the visited space is bare and a neighbour has a stall.
        if not court[view["visited"] - 1]:
            for a in acts:
                if a["type"] == "use_flyer" and court[a["space"] - 1]:
                    return a
        return {"type": "no_flyer"}
    if "skip_buy" in kinds:
        buys = [a for a in acts if a["type"] == "buy"]
        empty = [a for a in buys if not court[a["space"] - 1]]
        if empty:
            cheapest = min(view["prices"][a["slot"] - 1] for a in empty)
            return next(a for a in empty if view["prices"][a["slot"] - 1] == cheapest)
        return {"type": "skip_buy"}
    for kind in ("claim_chef", "hire_chef", "end_turn"):
        if kind in kinds:
            return next(a for a in acts if a["type"] == kind)
    raise AssertionError(f"no plan for {acts}")


def no_horizontal_overflow(page: Page) -> None:
    """At a phone's width the page does not scroll sideways and the game area fits the screen."""
    page.set_viewport_size(PHONE)
    widths = page.evaluate(
        "(() => ({doc: document.documentElement.scrollWidth, body: document.body.scrollWidth,"
        " area: document.querySelector('[data-testid=game-area]').scrollWidth,"
        " inner: document.querySelector('[data-testid=game-area]').clientWidth,"
        " right: document.querySelector('[data-testid=game-area]').getBoundingClientRect().right}))()"
    )
    assert widths["doc"] <= PHONE["width"], widths
    assert widths["body"] <= PHONE["width"], widths
    assert widths["right"] <= PHONE["width"], widths
    # Nor does the game area itself scroll sideways (its own wide rows may scroll inside themselves).
    assert widths["area"] <= widths["inner"], widths
    page.set_viewport_size(DESKTOP)


def take_turn(page: Page, snap: JSON, done: Counter[str]) -> None:
    """One decision of the person, made by clicking the matching thing on the table."""
    assert_every_action_is_clickable(page, snap)
    action = choose(snap, done)
    assert action in snap["actions"]
    target(page, action, snap["view"]).click()
    if action["type"] == "buy":
        # The market card is picked; exactly the places it can go light up in the person's court.
        expect(area(page).locator(f".fd-slot[data-slot='{action['slot']}'].fd-picked")).to_be_visible()
        spaces = {a["space"] for a in snap["actions"] if a["type"] == "buy" and a["slot"] == action["slot"]}
        assert legal_numbers(page, ".fd-mine .fd-space.legal", "space") == spaces
        if not done["picked"]:
            no_horizontal_overflow(page)
        done["picked"] += 1
        my_space(page, action["space"]).click()
    wait_for_move(page, snap)
    done[action["type"]] += 1


def test_a_person_plays_foodies_against_two_bots_to_the_end(person: Callable[..., Person]) -> None:
    ana = person("Ana", width=DESKTOP["width"], height=DESKTOP["height"])
    page = ana.page
    page.add_init_script(RECORD_ERROR_TOASTS)
    create_table(ana, "foodies", seats=3, name="Food court")
    for seat in ("1", "2"):
        seat_row(page, seat).get_by_role("button", name="Add bot").click()
        expect(seat_row(page, seat).locator(".tag", has_text="Bot")).to_be_visible()
    page.get_by_test_id("start").click()
    expect(page.get_by_test_id("table-status")).to_have_text("In progress")
    expect(page.get_by_test_id("no-renderer")).to_have_count(0)
    expect(area(page).locator(".fd-mine .fd-court")).to_be_visible()

    done: Counter[str] = Counter()
    kinds: set[str] = set()
    with ana.server.quick_bots():  # the bots answer at once: what is tested is Ana's play
        for snap in my_turns(page, 90):
            kinds |= {a["type"] for a in snap["actions"]}
            take_turn(page, snap, done)
    assert {"roll", "buy", "skip_buy", "end_turn"} <= kinds

    # The shell's result: everyone ranked with their scores; the renderer's final scoring by source.
    view = snapshot(page)["view"]
    outcome = view["outcome"]
    assert outcome is not None and view["phase"] == "over"
    expect(page.get_by_test_id("result")).to_be_visible()
    expect(page.get_by_test_id("turn")).to_have_text(re.compile("Game over"))
    ranking = page.get_by_test_id("ranking")
    expect(ranking).to_contain_text("Ana")
    for seat, score in outcome["scores"].items():
        expect(ranking.locator(f"tr[data-seat='{seat}'] td.num")).to_have_text(str(score))
    expect(ranking.locator("tr.winner")).to_have_count(len(outcome["winners"]))
    assert max(outcome["scores"].values()) >= view["threshold"]

    final = area(page).locator(".fd-final")
    expect(final).to_contain_text("Final scoring")
    expect(final).to_contain_text("Ana")
    rows = final.locator("tbody tr")
    expect(rows).to_have_count(3)
    for place, seat in enumerate(s for group in outcome["ranking"] for s in group):
        detail = outcome["details"][seat]
        cells = rows.nth(place).locator("td")
        by_source = [
            detail["popularity_by_source"][k]
            for k in ("tokens", "stalls", "effects", "stars", "chef_for_hire", "special_chefs")
        ]
        expect(cells.nth(0)).to_have_text(str(detail["place"]))
        for column, points in enumerate(by_source, start=2):
            expect(cells.nth(column)).to_have_text(str(points))
        expect(cells.nth(8)).to_have_text(str(detail["popularity"]))
        expect(cells.nth(9)).to_have_text(str(detail["coins"]))
        assert sum(by_source) == detail["popularity"] == outcome["scores"][seat]
    assert area(page).locator(".legal").count() == 0
    assert page.get_by_test_id("log").locator("li").count() > 10
    # The log tells the game in plain words, the person's own moves included, and ends with the result.
    log = page.get_by_test_id("log")
    expect(log).to_contain_text("Ana rolled")
    expect(log).to_contain_text("Ana bought")
    expect(log.locator("li").last).to_contain_text("Game over")
    assert page.evaluate("window.errorToasts") == [], "a click sent a move the server refused"
    # Every space, stall, die and count says what it is in words ("Space 5: American stall 12; earns 1 coin…").
    pieces = ".fd-space, .fd-slot, .fd-die, .fd-stat, .fd-marker"
    assert not unnamed_pieces(page, pieces), unnamed_pieces(page, pieces)[:5]
    expect(area(page).get_by_role("img", name=re.compile(r"^Space 5: "))).to_have_count(3)
    no_horizontal_overflow(page)
    assert_quiet(ana)  # no console error, no failed or probe request, all game long
