"""Steps the browser tests share: creating tables, clicking through a game."""

from __future__ import annotations

import itertools
import json
import random
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.e2e.conftest import Person


def create_table(who: Person, game: str, seats: int, private: bool = False, name: str | None = None) -> str:
    """Create a table from the lobby's game card; returns its id (the page ends on the table)."""
    page = who.page
    card = page.locator(f".game-card[data-game='{game}']")
    card.get_by_role("button", name=re.compile("New table|Nueva mesa")).click()
    form = card.get_by_test_id("create-form")
    form.locator("select[name=seats]").select_option(str(seats))
    if name:
        form.locator("input[name=name]").fill(name)
    form.locator(f"input[name=visibility][value={'private' if private else 'public'}]").check()
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/t/[^/?]+$"))
    page.get_by_test_id("seats").locator("li").first.wait_for()
    return page.url.rsplit("/", 1)[1]


def save_account(who: Person, username: str, password: str = "correct horse") -> None:
    """A guest saves their account from the header's dialog (the page keeps their id)."""
    who.page.get_by_role("button", name="Save as account").click()
    dialog = who.page.locator("dialog[open]")
    dialog.locator("input[name=username]").fill(username)
    dialog.locator("input[name=password]").fill(password)
    dialog.locator("button[type=submit]").click()
    expect(dialog).to_have_count(0)


def user_id(who: Person) -> str:
    """The id of the person signed in in `who`'s browser (their profile is /p/{id})."""
    return str(who.page.request.get(f"{who.base}/api/me").json()["id"])


def seat_row(page: Page, seat: str) -> Locator:
    return page.get_by_test_id("seats").locator(f"li[data-seat='{seat}']")


def version(page: Page) -> int:
    raw = page.locator("main").get_attribute("data-version") or "0"
    return int(raw or 0)


# The page's version and its own drafts (secret steps shown to it alone, which leave the version as it was).
STEP_JS = "document.querySelector('main').dataset.version + ':' + document.querySelector('main').dataset.draft"


def step(page: Page) -> str:
    """Changes with every move the page sees and with each of its own drafts."""
    return str(page.evaluate(f"() => {STEP_JS}"))


# A step back (a card taken back to the hand): chosen now and then, where anything else is open. A person mostly
# goes forward; picked as often as any other choice, steps back left a third to a half of a random game's clicks
# undoing or redoing another.
STEP_BACK = re.compile(r"take back|devolver|back to the hand", re.IGNORECASE)


# Each pick marks the elements it looked at, so the one chosen is clicked or nothing is: a locator by position
# (`.nth(i)`) is resolved again at the click, and after a redraw in between (another player's move) it named whatever
# now stood at that place, such as the "Buy nothing" of a step the player had not seen yet.
MARK_LEGAL = """(els, pick) => els.map((e, i) => {
  e.dataset.pick = pick + '-' + i;
  return (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || '');
})"""
_picks = itertools.count()


def pick_legal(page: Page, rng: random.Random) -> Locator | None:
    """One highlighted (legal) element of the game area, at random but seldom a step back; None when there is none.
    The locator names that element only, until the area is drawn again (a redraw drops the mark: it finds nothing)."""
    pick = f"p{next(_picks)}"
    names: list[str] = area(page).locator(".legal:visible").evaluate_all(MARK_LEGAL, pick)
    if not names:
        return None
    forward = [i for i, name in enumerate(names) if not STEP_BACK.search(name)]
    index = rng.randrange(len(names)) if not forward or rng.random() < 0.1 else rng.choice(forward)
    return page.locator(f"[data-pick='{pick}-{index}']")


def click_a_legal_thing(page: Page, rng: random.Random) -> bool:
    """Click one highlighted (legal) element of the game area; False when there is none."""
    choice = pick_legal(page, rng)
    if choice is None:
        return False
    before = step(page)
    try:
        if choice.count():  # not drawn again already (the click would wait for it in vain)
            choice.click(timeout=1500)
        # A decision may take several clicks (pick, then place): wait briefly for a move (or a draft) to land.
        page.wait_for_function(f"v => ({STEP_JS}) !== v", arg=before, polling=POLL_MS, timeout=600)
    except PlaywrightError:  # the area was redrawn under us, or the click only selected something
        pass
    return True


def play_to_the_end(pages: list[Page], rng: random.Random, max_clicks: int = 3000) -> int:
    """Everyone clicks legal things until the game is over; returns the number of clicks.

    People act side by side: a page is clicked again once its last move was answered and the
    page moved on (a new version), or, when that click only selected something, after a short pause.
    """
    clicks = 0
    last: dict[int, tuple[str, float]] = {}
    seen: tuple[str, ...] = ()
    moved_at = time.monotonic()
    while True:
        acted = False
        steps = []
        for index, page in enumerate(pages):
            now_version, status, pending = page.evaluate(
                f"() => [{STEP_JS}, document.querySelector('main').dataset.status, window.foodGames.pending()]"
            )
            steps.append(now_version)
            if status == "finished":
                for other in pages:
                    expect(other.get_by_test_id("result")).to_be_visible()
                return clicks
            if pending:  # its last move is still on the way
                continue
            clicked_version, clicked_at = last.get(index, ("", 0.0))
            if now_version == clicked_version and time.monotonic() - clicked_at < 0.6:
                continue
            try:
                choice = pick_legal(page, rng)
                if choice is None or not choice.count():
                    continue
                choice.click(timeout=1500)
            except PlaywrightError:  # redrawn under us: look again next time
                continue
            last[index] = (now_version or "", time.monotonic())
            clicks += 1
            acted = True
        assert clicks < max_clicks, "the game did not end"
        if tuple(steps) != seen:
            seen, moved_at = tuple(steps), time.monotonic()
        elif time.monotonic() - moved_at > STALL_SECONDS:
            raise AssertionError(f"no page moved on for {STALL_SECONDS} s:\n" + "\n".join(map(stuck_at, pages)))
        if not acted:
            pages[0].wait_for_timeout(20)


# Random clicks on a game that works move some page on within seconds; longer, the game is stuck.
STALL_SECONDS = 30


def stuck_at(page: Page) -> str:
    """What a page shows when play stopped moving: its step, turn, legal actions and highlighted elements."""
    shown = page.evaluate(
        "(() => { const s = window.foodGames.state(); return {step: " + STEP_JS + ","
        " seat: s.seat, awaiting: s.awaiting, actions: s.actions, pending: window.foodGames.pending()}; })()"
    )
    legal = area(page).locator(".legal:visible").evaluate_all(
        "els => els.map((e) => e.tagName + ' ' + (e.getAttribute('aria-label') || e.textContent || '').slice(0, 60))"
    )
    toasts = page.locator(".toast").all_inner_texts()
    try:  # a trial click only checks that a click could land
        area(page).locator(".legal:visible").first.click(timeout=1000, trial=True)
        click = "could land"
    except PlaywrightError as error:
        click = str(error)[:1500]
    return f"{page.url}: {json.dumps(shown)[:3000]}\n  highlighted: {legal}\n  toasts: {toasts}\n  click: {click}"


# The waits for the page run in it, on a timer: polling it from here (a round trip through Playwright's driver and the
# browser every few milliseconds) took a quarter of a core away from the other tests while a test waited.
POLL_MS = 20
# JSON equality, as Python compares the decoded documents: key order does not count.
SAME_JSON_JS = """const same = (a, b) => {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
};"""
# The game over, or a new version (`alone` on the move) or other legal actions (deciding beside others).
MOVED_JS = f"""([alone, version, actions]) => {{ {SAME_JSON_JS}
  if (document.querySelector("main")?.dataset.status === "finished") return true;
  const s = window.foodGames?.state();
  return s !== undefined && (alone ? s.version !== version : !same(s.actions || [], actions));
}}"""
# "over" once the game is, "mine" while the person has legal actions to choose from, else false (waiting).
MINE_OR_OVER_JS = """() => {
  if (document.querySelector("main")?.dataset.status === "finished") return "over";
  const s = window.foodGames?.state();
  const mine = s !== undefined && s.seat !== null && (s.awaiting || []).includes(s.seat) && (s.actions || []).length > 0;
  return mine ? "mine" : false;
}"""


def wait_for_move(page: Page, snap: dict[str, Any]) -> None:
    """Wait until the move the click sent has come back.

    Alone on the move, any new version is ours; deciding at the same time as others (Foodies' flyers,
    Food Truck Champion's critiques), ours has landed when the person's own legal actions change.
    """
    alone = snap["awaiting"] == [snap["seat"]]
    try:
        page.wait_for_function(MOVED_JS, arg=[alone, snap["version"], snap["actions"]], polling=POLL_MS, timeout=10_000)
    except PlaywrightTimeoutError:
        raise AssertionError("the click did not make a move") from None


# Every error toast the page shows (a refused move) is remembered, so the test can say none was shown.
RECORD_ERROR_TOASTS = """
window.errorToasts = [];
new MutationObserver((records) => {
  for (const record of records) {
    for (const node of record.addedNodes) {
      if (node.nodeType === 1 && node.classList.contains("toast-error")) window.errorToasts.push(node.textContent);
    }
  }
}).observe(document, {childList: true, subtree: true});
"""


def my_turns(page: Page, seconds: float, stuck: Callable[[], str] = str) -> Iterator[dict[str, Any]]:
    """Each of the person's turns, as the page holds it (`snapshot`), until the game is over; fails after `seconds`,
    saying what `stuck` tells of where it stands."""
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError("the game did not end" + stuck())
        try:
            now = page.wait_for_function(MINE_OR_OVER_JS, polling=POLL_MS, timeout=left * 1000).json_value()
        except PlaywrightTimeoutError:
            raise AssertionError("the game did not end" + stuck()) from None
        if now == "over":
            return
        snap = snapshot(page)
        if snap["seat"] in snap["awaiting"] and snap["actions"]:
            yield snap


def snapshot(page: Page) -> dict[str, Any]:
    """The view, the person's legal actions the awaited seats and the version, as the table page holds them."""
    return page.evaluate(
        "(() => { const s = window.foodGames.state();"
        " return {view: s.view, actions: s.actions || [], awaiting: s.awaiting || [], seat: s.seat, version: s.version};"
        " })()"
    )


# Where a player acts: the game area and the instruction the table's sticky turn bar carries (its buttons).
PLAY_AREA = "[data-testid=game-area], [data-testid=turn-prompt]"


def area(page: Page) -> Locator:
    """The game area with the turn bar's instruction: what a player may click to play."""
    return page.locator(PLAY_AREA)


def unnamed_pieces(page: Page, css: str) -> list[str]:
    """The pieces of the game area matching `css` (cards, piles, tokens, spaces) that assistive technology cannot
    name in words: each must be a button, picture, group or grid square with an aria-label, unless it is hidden from
    assistive technology or part of a button or picture named as a whole."""
    found: list[str] = page.evaluate(
        "(css) => [...document.querySelectorAll(':is([data-testid=game-area], [data-testid=turn-prompt]) ' + css)]"
        ".filter((el) => !el.closest('[aria-hidden=true]') && !el.parentElement.closest('[role=img], [role=button]'))"
        ".filter((el) => !['button', 'img', 'group', 'gridcell'].includes(el.getAttribute('role'))"
        " || !(el.getAttribute('aria-label') || '').trim())"
        ".map((el) => el.outerHTML.slice(0, 160))",
        css,
    )
    return found


def assert_quiet(*people: Person) -> None:
    """Nothing went wrong in these people's pages so far that the test did not provoke: no console errors, no failed
    requests (those a navigation ended are not failures), no probe requests. Every browser test's people are checked
    so on the way out (tests/e2e/conftest.py); a test calls this to check at a point of its own."""
    for who in people:
        assert not who.noise(), f"console errors or failed requests: {who.noise()}"
