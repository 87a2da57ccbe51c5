"""A person plays a whole game of Food Truck Champion against a bot in the browser, by clicking, and sees the result."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, ViewportSize, expect

from app.games.food_truck_champion.view import CATALOG
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
MINE = ".ftc-board.mine"
SECTION = {"driver": "fridge", "cashier": "plating", "manager": "hired_staff"}
STAFF_TYPES = ("driver", "cashier", "manager", "prep_cook", "exec_chef")
# The prompt's buttons, by the action they send.
FOLLOW_BUTTON = {
    "none": "Follow with hired staff",
    "market_research": "Staff + Market Research",
    "take_charge": "Staff + Take Charge",
}

# A thing to click: a CSS selector inside the game area and, for buttons, their exact text.
Target = tuple[str, str | None]
# Every card, pile, stack, ticket and token, and the badges drawn in codes ("Fru", "●○○").
PIECES = ".ftc-card, .ftc-slot, .ftc-stack, .chip-p, .ftc-profile, .ftc-gray"


def assert_pieces_named(page: Page) -> None:
    """Every piece on the table, clickable or not, says what it is in words (not "Fru Driver", "3 3 C", "+")."""
    assert not unnamed_pieces(page, PIECES), unnamed_pieces(page, PIECES)[:5]
    game = area(page)
    expect(game.get_by_role("img", name=re.compile(r"^[123]-point popularity stack: "))).to_have_count(3)
    names = game.locator(f"{MINE} .ftc-fridge .ftc-card, {MINE} .ftc-plating .ftc-slot").evaluate_all(
        "(els) => els.map((el) => el.getAttribute('aria-label'))"
    )
    words = ("Fruit", "Dairy", "Grain", "Seasoning", "Meat", "Vegetable", "empty space")
    assert all(any(w in name for w in words) for name in names), names


def locate(page: Page, target: Target) -> Locator:
    css, text = target
    found = area(page).locator(css)
    return found if text is None else found.filter(has_text=re.compile(rf"^{re.escape(text)}$"))


def hand_card(card: str) -> Target:
    if card.startswith("owner-"):
        return (".ftc-hand .ftc-owner.legal", None)
    return (f".ftc-hand [data-card='{card}'].legal", None)


def first_click(action: JSON) -> Target:
    """What a person clicks first for this action: the card, stack, position or section itself."""
    kind = action["type"]
    if kind == "market_research":
        return (".ftc-piles > .ftc-card.back.legal", None)
    if kind == "take_charge":
        return (f"{MINE} .ftc-owner.back.legal", None)
    if kind in ("lead", "follow_hand", "discard", "exec_chef"):
        return hand_card(action["card"])
    if kind == "follow_staff":
        return (f"{MINE} .ftc-hired_staff .ftc-card.legal", None)
    if kind in ("driver", "cashier", "manager", "place_card"):
        return (f".ftc-pos[data-position='{action['position']}'] .ftc-card.legal", None)
    if kind == "prep_cook":
        return (f"{MINE} .ftc-fridge [data-card='{action['card']}'].legal", None)
    if kind == "take_token":
        return (f".ftc-stack.legal[title='{action['value']}']", None)
    if kind == "place_token":
        return (f"{MINE} .ftc-sec-head.legal[data-section='{action['section']}']", None)
    if kind == "critique":
        return (f"{MINE} [data-card='{action['card']}'].legal", None)
    if kind == "decline":
        return (".ftc-prompt button", "Decline")
    if kind == "decline_token":
        return (".ftc-prompt button", "Take no token")
    raise AssertionError(f"an action the test does not know: {action}")


def second_click(action: JSON) -> Target:
    """Where a picked thing goes, when the first click alone does not say which action is meant."""
    kind = action["type"]
    if kind == "lead":  # the Owner card leads any staff action: name it
        return (".ftc-prompt button", action["action"])
    if kind == "follow_staff":
        return (".ftc-prompt button", FOLLOW_BUTTON[action["also"]])
    if kind in ("prep_cook", "exec_chef"):
        return (f"{MINE} .ftc-plating [data-ticket='{action['ticket']}'].legal", None)
    if kind in SECTION:
        section = SECTION[kind]
        if "replace" not in action:
            return (f"{MINE} .ftc-{section} .ftc-card.empty.slot.legal", None)
        if section == "plating":
            return (f"{MINE} .ftc-plating [data-ticket='{action['replace']}'].legal", None)
        return (f"{MINE} .ftc-{section} [data-card='{action['replace']}'].legal", None)
    raise AssertionError(f"{action} takes one click")


def assert_clickable(page: Page, targets: dict[Target, JSON]) -> None:
    """Each target (for the action it stands for) is highlighted on the table; a renderer missing one fails here."""
    order = sorted(targets, key=repr)
    counts = page.evaluate(
        "(targets) => targets.map(([css, text]) =>"
        " [...document.querySelectorAll(':is([data-testid=game-area], [data-testid=turn-prompt]) ' + css)]"
        ".filter((el) => text === null || el.textContent.trim() === text).length)",
        [list(t) for t in order],
    )
    missing = [targets[t] for t, n in zip(order, counts, strict=True) if not n]
    assert not missing, f"nothing to click for {missing}"


# ---- the person's plan: cook what the tickets need, stock the fridge for them, take orders -------------


def needs(view: JSON, seat: str) -> Counter[str]:
    """Ingredients the Plating tickets still miss, less what the Fridge already holds."""
    cards = CATALOG["cards"]
    board = view["boards"][seat]
    want: Counter[str] = Counter()
    for slot in board["plating"]:
        want += Counter(slot["need"])
    want.subtract(cards[c]["ingredient"] for c in board["fridge"])
    return +want


def has_room(board: JSON, section: str) -> bool:
    used = len(board["plating"]) if section == "plating" else len(board[section])
    return bool(used < board["capacity"][section])


def staff_worth(view: JSON, seat: str, action: JSON) -> float:
    """How much one staff action helps the person's kitchen (<= 0: better declined)."""
    cards = CATALOG["cards"]
    board = view["boards"][seat]
    kind = action["type"]
    if kind in ("prep_cook", "exec_chef"):
        slot = next(s for s in board["plating"] if s["card"] == action["ticket"])
        return 10.0 + (5.0 if len(slot["need"]) == 1 else 0.0)
    top = cards[view["market"][action["position"] - 1][-1]]
    replaced = action.get("replace")
    want = needs(view, seat)
    if kind == "driver":
        if replaced:
            return 2.0 if want[top["ingredient"]] and not want[cards[replaced]["ingredient"]] else -1.0
        return 5.0 if want[top["ingredient"]] else 1.0
    if replaced:
        return -1.0
    if kind == "cashier":
        return 4.0 - len(top["icons"])
    return 2.0 if top["action"] in ("Prep Cook", "Exec. Chef", "Driver") else 0.5


def lead_worth(view: JSON, seat: str, staff: str) -> float:
    """How much leading this staff action would help the person's kitchen."""
    cards = CATALOG["cards"]
    board = view["boards"][seat]
    open_icons: Counter[str] = Counter()
    for slot in board["plating"]:
        open_icons += Counter(slot["need"])
    if staff == "Exec. Chef":
        hand = [cards[c]["ingredient"] for c in board["hand"] if not c.startswith("owner-")]
        return 8.0 if any(open_icons[i] for i in hand) else 0.0
    if staff == "Prep Cook":
        return 9.0 if any(open_icons[cards[c]["ingredient"]] for c in board["fridge"]) else 0.0
    if staff == "Driver":
        want = needs(view, seat)
        tops = [cards[pile[-1]]["ingredient"] for pile in view["market"] if pile]
        return 5.0 if has_room(board, "fridge") and any(want[i] for i in tops) else 0.5
    if staff == "Cashier":
        return (6.0 if not board["plating"] else 3.0) if has_room(board, "plating") else 0.0
    return 1.5 if has_room(board, "hired_staff") else 0.0


def choose(view: JSON, actions: list[JSON], seat: str, done: Counter[str]) -> JSON:
    """The person's decision among the legal actions (once each: Take Charge, staff follow with research)."""
    cards = CATALOG["cards"]
    kinds = {a["type"] for a in actions}
    want = needs(view, seat)
    for rare in ({"type": "take_charge"}, {"type": "follow_staff", "also": "market_research"}):
        if not done[rare["type"]] and rare in actions:
            return rare

    def of(kind: str) -> list[JSON]:
        return [a for a in actions if a["type"] == kind]

    if "discard" in kinds:
        return min(of("discard"), key=lambda a: want[cards[a["card"]]["ingredient"]])
    if "take_token" in kinds:
        return max(of("take_token"), key=lambda a: int(a["value"]))
    for kind in ("decline_token", "critique", "place_card"):
        if kind in kinds:
            return of(kind)[0]
    if "place_token" in kinds:
        order = ["plating", "fridge", "hired_staff"]
        return min(of("place_token"), key=lambda a: order.index(a["section"]))
    staff = [a for a in actions if a["type"] in STAFF_TYPES]
    if staff or "decline" in kinds:
        best = max(staff, key=lambda a: staff_worth(view, seat, a), default=None)
        if best is not None and (staff_worth(view, seat, best) > 0 or "decline" not in kinds):
            return best
        return of("decline")[0]
    led = view["round"]["lead_action"] if view["round"] else None
    if led and lead_worth(view, seat, led) < 2.0 and "market_research" in kinds:
        return of("market_research")[0]  # following with a card would only spend it on a useless action
    if "follow_hand" in kinds:
        plain = [a for a in of("follow_hand") if not a["card"].startswith("owner-")]
        return (plain or of("follow_hand"))[0]
    if "follow_staff" in kinds:
        return next(a for a in of("follow_staff") if a["also"] == "none")
    if "lead" in kinds:

        def worth(a: JSON) -> float:
            named = a.get("action") or cards[a["card"]]["action"]
            return lead_worth(view, seat, named) - (0.5 if a["card"].startswith("owner-") else 0.0)

        best = max(of("lead"), key=worth)
        if worth(best) >= 2.0 or "market_research" not in kinds or len(view["boards"][seat]["hand"]) > 4:
            return best
    if "market_research" in kinds:
        return of("market_research")[0]
    return actions[0]


# ---- clicking --------------------------------------------------------------------------------------------


def no_horizontal_overflow(page: Page) -> None:
    """At a phone's width the page does not scroll sideways and the game area fits the screen."""
    page.set_viewport_size(PHONE)
    widths = page.evaluate(
        "(() => ({doc: document.documentElement.scrollWidth, body: document.body.scrollWidth,"
        " area: document.querySelector('[data-testid=game-area]').scrollWidth,"
        " inner: document.querySelector('[data-testid=game-area]').clientWidth,"
        " right: document.querySelector('[data-testid=game-area]').getBoundingClientRect().right}))()"
    )
    page.set_viewport_size(DESKTOP)
    assert widths["doc"] <= PHONE["width"], widths
    assert widths["body"] <= PHONE["width"], widths
    assert widths["right"] <= PHONE["width"], widths
    # Nor does the game area itself scroll sideways (its own wide rows may scroll inside themselves).
    assert widths["area"] <= widths["inner"], widths


def take_turn(page: Page, snap: JSON, done: Counter[str]) -> None:
    """One decision of the person, made by clicking the matching things on the table."""
    actions = snap["actions"]
    assert_clickable(page, {first_click(a): a for a in actions})
    if not sum(done.values()):
        assert_pieces_named(page)
    action = choose(snap["view"], actions, snap["seat"], done)
    assert action in actions
    first = first_click(action)
    locate(page, first).first.click()
    group = [a for a in actions if first_click(a) == first]
    if len(group) > 1:
        # The first click picked something; the table now highlights every place it can go.
        assert_clickable(page, {second_click(a): a for a in group})
        if not done["picked"]:
            no_horizontal_overflow(page)
        done["picked"] += 1
        second = locate(page, second_click(action)).first  # any free space of a section will do
        expect(second).to_be_visible()
        second.click()
    wait_for_move(page, snap)
    done[action["type"]] += 1


def test_a_person_plays_food_truck_champion_against_a_bot_to_the_end(person: Callable[..., Person]) -> None:
    ana = person("Ana", width=DESKTOP["width"], height=DESKTOP["height"])
    page = ana.page
    page.add_init_script(RECORD_ERROR_TOASTS)
    create_table(ana, "food-truck-champion", seats=2, name="Truck rally")
    seat_row(page, "1").get_by_role("button", name="Add bot").click()
    expect(seat_row(page, "1").locator(".tag", has_text="Bot")).to_be_visible()
    page.get_by_test_id("start").click()
    expect(page.get_by_test_id("table-status")).to_have_text("In progress")
    expect(page.get_by_test_id("no-renderer")).to_have_count(0)
    expect(area(page).locator(f"{MINE} .ftc-plating")).to_be_visible()

    done: Counter[str] = Counter()
    # A whole game: ~1 minute on a calm machine, nearly 2 on a loaded one; pytest's own limit is 5. The bot answers at
    # once: what is tested is Ana's play.
    def stuck() -> str:
        held = {k: v for k, v in snapshot(page).items() if k != "view"}
        return f" ({sum(done.values())} moves: {done}); the page holds {held}"

    with ana.server.quick_bots():
        for snap in my_turns(page, 240, stuck):
            take_turn(page, snap, done)
    assert done["lead"] and done["follow_hand"] + done["follow_staff"] + done["market_research"], done
    assert done["prep_cook"] + done["exec_chef"], done
    assert done["take_charge"], done

    # The shell's result: both players ranked with their scores; the renderer's final scoring, source by source.
    view = snapshot(page)["view"]
    outcome = view["final"]
    assert outcome is not None and view["phase"] == "over"
    expect(page.get_by_test_id("result")).to_be_visible()
    expect(page.get_by_test_id("turn")).to_have_text(re.compile("Game over"))
    ranking = page.get_by_test_id("ranking")
    expect(ranking).to_contain_text("Ana")
    for seat, score in outcome["scores"].items():
        expect(ranking.locator(f"tr[data-seat='{seat}'] td.num")).to_have_text(str(score))
        # The details line is the renderer's, in words, not the outcome's raw keys.
        d = outcome["details"][seat]
        expect(ranking.locator(f"tr[data-seat='{seat}'] .small")).to_have_text(
            f"{CATALOG['trucks'][d['truck']]['name']} · Tokens: {d['token_points']} · Profile sets: "
            f"{d['profile_sets']} × 5 · Own logo: {d['logo_points']}")
    expect(ranking.locator("tr.winner")).to_have_count(len(outcome["winners"]))

    final = area(page).locator(".ftc-final")
    expect(final).to_contain_text("Final scoring")
    expect(final).to_contain_text("Ana")
    rows = final.locator("tbody tr")
    expect(rows).to_have_count(2)
    for place, seat in enumerate(s for group in outcome["ranking"] for s in group):
        d = outcome["details"][seat]
        assert d["token_points"] + d["set_points"] + d["logo_points"] == d["total"] == outcome["scores"][seat]
        cells = rows.nth(place).locator("td")
        expect(cells.nth(1)).to_have_text(re.compile(rf"^{d['token_points']} \("))
        expect(cells.nth(2)).to_have_text(f"{d['profile_sets']} × 5 = {d['set_points']}")
        expect(cells.nth(3)).to_have_text(str(d["logo_points"]))
        expect(cells.nth(4)).to_have_text(str(d["total"]))
        expect(cells.nth(5)).to_have_text(str(d["token_count"]))
    assert area(page).locator(".legal").count() == 0
    assert page.get_by_test_id("log").locator("li").count() > 20
    # The log tells the game in plain words, the person's own moves included, and ends with the result.
    log = page.get_by_test_id("log")
    expect(log).to_contain_text("Ana leads")
    expect(log).to_contain_text("Ana took charge")
    expect(log.locator("li").last).to_contain_text("Game over")
    assert page.evaluate("window.errorToasts") == [], "a click sent a move the server refused"
    assert_pieces_named(page)
    # Nothing is clickable now: the deck and the cards are pictures named in words.
    expect(area(page).get_by_role("img", name=re.compile(r"^Deck: \d+ cards?$"))).to_have_count(1)
    no_horizontal_overflow(page)
    assert_quiet(ana)  # no console error, no failed or probe request, all game long
