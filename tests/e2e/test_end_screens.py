"""What each game shows once it is over, and a few of its decisions, as a person sees them."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.bot_games import finished_by_bots
from tests.e2e.conftest import Person
from tests.e2e.helpers import assert_quiet, click_a_legal_thing

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


# For each game: a kind of move a bot makes early, and the piece its event says must be marked as just changed.
CHANGED = {
    "foodies": ("bought", "e => `[data-seat='${e.seat}'] .fd-space[data-space='${e.space}']`"),
    "food-chain-magnate": ("hired", "e => `.fcm-chain[data-seat='${e.player}'] [data-card='${e.card}']`"),
    "food-truck-champion": ("card_to_market", "e => `.ftc-pos[data-position='${e.position}']`"),
    "food-truck": ("served", "e => `[data-card='${e.card}']`"),
}
SEATS = {"foodies": 3, "food-chain-magnate": 2, "food-truck-champion": 3, "food-truck": 3}


@pytest.mark.parametrize("game", list(CHANGED))
def test_a_rivals_last_move_is_marked_on_the_board(
    person: Callable[..., Person], rng: random.Random, artifacts: Path, game: str
) -> None:
    """After a bot's move, what it changed is marked (`just-changed`) where it happened, read from the move's events
    in the same instant as the board (the bots move on quickly)."""
    ana = person("Ana", width=1280, height=800)
    start_against_bots(ana, game, SEATS[game])
    kind, where = CHANGED[game]
    probe = f"""() => {{
      const s = window.foodGames.state();
      const e = (s.lastMoveEvents || []).find((x) => x.type === '{kind}' && String(x.seat ?? x.player) !== String(s.seat));
      if (!e) return null;
      const el = document.querySelector('[data-testid=game-area] ' + ({where})(e));
      return {{ found: Boolean(el), marked: Boolean(el && el.classList.contains('just-changed')),
        marks: document.querySelectorAll('[data-testid=game-area] .just-changed').length }};
    }}"""
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, f"no rival's {kind} came"
        seen = ana.page.evaluate(probe)
        if seen and seen["found"]:
            break
        if not click_a_legal_thing(ana.page, rng):
            ana.page.wait_for_timeout(30)
    assert seen["marked"], seen
    ana.page.screenshot(path=artifacts / f"just-changed-{game}.png")
    assert_quiet(ana)


def test_a_player_back_at_the_table_reads_what_happened_since_they_last_looked(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    page, post, base = ana.page, ana.page.request.post, ana.base
    tid = str(post(base + "/api/tables", data={"game": "food-truck", "seats": 2}).json()["id"])
    assert post(f"{base}/api/tables/{tid}/bots", data={"seat": "1"}).ok
    assert post(f"{base}/api/tables/{tid}/start", data={}).ok
    ana.goto(f"/t/{tid}")
    page.get_by_test_id("game-area").wait_for()
    expect(page.get_by_test_id("since")).to_be_hidden()  # a first visit has nothing to tell
    seen = int(page.locator("main").get_attribute("data-version") or 0)
    ana.goto("/")
    # Away, a bot plays her seat for a few moves, then she takes it back (the game waits for her again).
    assert post(f"{base}/api/tables/{tid}/stand_in", data={"seat": "0"}).ok
    deadline = time.monotonic() + 30
    while page.request.get(f"{base}/api/tables/{tid}").json()["version"] < seen + 4:
        assert time.monotonic() < deadline, "the bots made no moves"
        time.sleep(0.1)
    assert post(f"{base}/api/tables/{tid}/reclaim", data={}).ok
    ana.goto(f"/t/{tid}")
    since = page.get_by_test_id("since")
    expect(since).to_be_visible()
    expect(since.get_by_role("heading")).to_have_text("Since you last looked")
    lines = since.get_by_test_id("since-list").locator("li")
    expect(lines.first).to_be_visible()
    told = lines.all_inner_texts()
    log = page.get_by_test_id("log").locator("li").all_inner_texts()
    assert len(told) >= 3, told
    # Lines of the log, in the same words, one after the other (the bot may have moved on since).
    runs = [log[i : i + len(told)] for i in range(len(log) - len(told) + 1)]
    assert told in runs, (told, log)
    assert "A bot plays for Ana." in told and "Ana is back." in told, told
    since.get_by_test_id("since-close").click()
    expect(since).to_be_hidden()
    # Everything has been seen now: coming back tells nothing.
    page.wait_for_timeout(300)
    ana.goto(f"/t/{tid}")
    page.get_by_test_id("game-area").wait_for()
    page.get_by_test_id("log").locator("li").first.wait_for()
    expect(since).to_be_hidden()
    assert_quiet(ana)


def test_a_replay_is_walked_by_its_move_list_slider_and_rounds(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    bo = person("Bo")
    tid = finished_by_bots(ana, bo)
    page = ana.page
    ana.goto(f"/t/{tid}?replay=0")
    step = page.get_by_test_id("replay-step")
    expect(step).to_have_text(re.compile(r"^Move 0 of \d+$"))
    total = int((step.inner_text()).rsplit(" ", 1)[1])
    moves = page.get_by_test_id("replay-moves").locator("li")
    expect(moves).to_have_count(total)
    # A move of the list: the position after it, the move marked as the current one.
    moves.nth(4).get_by_role("button").click()
    expect(step).to_have_text(f"Move 5 of {total}")
    expect(moves.nth(4)).to_have_attribute("aria-current", "step")
    # The slider: any step at once.
    slider = page.get_by_test_id("replay-slider")
    expect(slider).to_have_attribute("max", str(total))
    slider.fill(str(total - 3))
    expect(step).to_have_text(f"Move {total - 3} of {total}")
    # The rounds: the jump to round 2 shows the position after the move that began it.
    rounds = page.get_by_test_id("replay-rounds")
    expect(rounds.locator("[data-round='1']")).to_be_visible()
    rounds.locator("[data-round='2']").click()
    expect(step).not_to_have_text(f"Move {total - 3} of {total}")
    shown = int(step.inner_text().split(" ")[1])
    events = page.evaluate(
        "async ([tid, n]) => (await (await fetch(`/api/tables/${tid}/moves`)).json()).moves[n - 1].events", [tid, shown]
    )
    assert any(e["type"] == "round_started" and e["round"] == 2 for e in events), events
    assert_quiet(ana)


def test_a_finished_games_replay_shows_my_hand_as_it_was_and_anyones_on_request(
    person: Callable[..., Person],
) -> None:
    ana = person("Ana")
    bo = person("Bo")
    tid = finished_by_bots(ana, bo)
    page = ana.page
    # The first position where Food Truck shows a hand: its players are preparing their meals.
    step, hand = page.evaluate(
        """async (tid) => {
          for (let step = 1; step < 40; step += 1) {
            const view = (await (await fetch(`/api/tables/${tid}/replay?step=${step}&seat=0`)).json()).view;
            if (view.phase === "prep" && view.seats["0"].hand.length) return [step, view.seats["0"].hand];
          }
          return [0, []];
        }""",
        tid,
    )
    assert hand, "Ana never held a hand while preparing in the first 40 moves: nothing to show"
    ana.goto(f"/t/{tid}?replay={step}")
    expect(page.get_by_test_id("replay-step")).to_have_text(re.compile(rf"^Move {step} of \d+$"))
    seen_by = page.get_by_test_id("replay-seen-by")
    # Ana's own game: it opens as she saw it, her hand on her own board.
    expect(seen_by).to_have_value("0")
    replay_area = page.get_by_test_id("replay-area")
    mine = replay_area.locator(".ft-mine")
    expect(mine).to_have_attribute("data-seat", "0")
    for card in hand:
        expect(mine.locator(f".ft-hand [data-card='{card}']").first).to_be_visible()
    # Bo's hand, as Bo saw it then.
    seen_by.select_option("1")
    expect(mine).to_have_attribute("data-seat", "1")
    # Everyone's view: no one's hand.
    seen_by.select_option("")
    expect(mine).to_have_count(0)
    expect(replay_area.locator(".ft-hand")).to_have_count(0)
    # Bo's page, after the end too, opens on his own hand.
    bo.goto(f"/t/{tid}?replay={step}")
    expect(bo.page.get_by_test_id("replay-seen-by")).to_have_value("1")
    expect(bo.page.get_by_test_id("replay-area").locator(".ft-mine")).to_have_attribute("data-seat", "1")


def test_foodies_always_keep_my_flyers_answers_the_flyer_decisions_by_itself(
    person: Callable[..., Person], rng: random.Random
) -> None:
    """With the preference on, the player never has to answer a flyer decision: the game moves past every roll's
    flyers phase while she clicks nothing in it, and her flyers are kept."""
    ana = person("Ana", width=1280, height=800)
    page = ana.page
    start_against_bots(ana, "foodies", 3)
    switch = page.get_by_test_id("fd-keep-flyers").locator("input")
    switch.check()
    expect(switch).to_be_checked()
    tid = page.evaluate("() => window.location.pathname.split('/').pop()")
    mine = page.evaluate("() => window.foodGames.state().seat")
    # The server's record counts the answers: a flyers phase the page answers at once can pass between two looks at it.
    history = "async (tid) => (await (await fetch(`/api/tables/${tid}/moves`)).json()).moves"
    kept: list[dict[str, object]] = []
    deadline = time.monotonic() + 180
    looked = 0.0
    while len(kept) < 2:
        assert time.monotonic() < deadline, f"only {len(kept)} flyer decisions were answered by the page"
        if time.monotonic() - looked > 1:
            looked = time.monotonic()
            moves = page.evaluate(history, tid)
            kept = [m for m in moves if m["seat"] == mine and (m["action"] or {}).get("type") == "no_flyer"]
            assert not [m for m in moves if m["seat"] == mine and (m["action"] or {}).get("type") == "use_flyer"]
        if page.evaluate("() => window.foodGames.state().view.phase") == "flyers":
            page.wait_for_timeout(30)  # the page answers by itself; nothing is clicked here
        elif not click_a_legal_thing(page, rng):
            page.wait_for_timeout(30)
    # Reloaded, the preference is still on (it is the browser's).
    page.reload()
    expect(page.get_by_test_id("fd-keep-flyers").locator("input")).to_be_checked()
    assert_quiet(ana)


# Every animation a page starts on a card, by the card's id, and the cards that let clicks through while they glide
# (looked at once the redraw that started them is over).
RECORD_GLIDES = """
window.glided = [];
window.clickThrough = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  if (this.dataset && this.dataset.card) {
    window.glided.push(this.dataset.card);
    queueMicrotask(() => {
      if (getComputedStyle(this).pointerEvents === 'none') window.clickThrough.push(this.dataset.card);
    });
  }
  return animate.apply(this, args);
};
"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_rivals_card_glides_to_where_it_went_unless_motion_is_reduced(
    person: Callable[..., Person], rng: random.Random, motion: Literal["no-preference", "reduce"]
) -> None:
    ana = person("Ana", width=1280, height=800)
    page = ana.page
    page.add_init_script(RECORD_GLIDES)
    page.emulate_media(reduced_motion=motion)
    start_against_bots(ana, "food-truck-champion", 3)
    probe = """() => {
      const s = window.foodGames.state();
      const e = (s.lastMoveEvents || []).find((x) => x.type === 'card_to_market' && String(x.seat) !== String(s.seat));
      return e ? { card: e.card, glided: window.glided.includes(e.card), any: window.glided.length,
        through: window.clickThrough.includes(e.card) } : null;
    }"""
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, "no rival put a card in the market"
        seen = page.evaluate(probe)
        if seen:
            break
        if not click_a_legal_thing(page, rng):
            page.wait_for_timeout(30)
    if motion == "reduce":
        assert seen["any"] == 0, seen  # nothing moved at all
    else:
        assert seen["glided"], seen  # the card slid from the rival's board to the market
        assert seen["through"], seen  # and a click on its way went to what lay under it
    assert_quiet(ana)
