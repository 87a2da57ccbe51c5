"""Two people play a whole game of Food Truck in the browser while a third watches."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import AppServer, Person, people
from tests.e2e.helpers import (
    click_a_legal_thing,
    create_table,
    play_to_the_end,
    seat_row,
    unnamed_pieces,
    user_id,
    version,
)

pytestmark = pytest.mark.e2e


def test_two_players_play_food_truck_to_the_end_while_someone_watches(
    person: Callable[..., Person], rng: random.Random
) -> None:
    ana = person("Ana")
    table_id = create_table(ana, "food-truck", seats=2, name="Lunch rush")

    bo = person("Bo", width=390, height=844)
    row = bo.page.get_by_test_id("public-open").locator(f"[data-table-id='{table_id}']")
    row.get_by_role("button", name="Join").click()
    bo.page.wait_for_url(re.compile(rf"/t/{table_id}$"))

    expect(seat_row(ana.page, "1")).to_contain_text("Bo")
    ana.page.get_by_test_id("start").click()
    for who in (ana, bo):
        expect(who.page.get_by_test_id("table-status")).to_have_text("In progress")
        expect(who.page.get_by_test_id("no-renderer")).to_have_count(0)
        expect(who.page.get_by_test_id("game-area")).to_be_visible()

    # An illegal attempt (through the same path as a click) shows the server's message and changes nothing.
    before = version(ana.page)
    code = ana.page.evaluate(
        "window.foodGames.send({type: 'serve_the_moon'}).then(() => 'sent', (e) => e.code)"
    )
    assert code not in ("sent", "offline", "timeout")
    expect(ana.page.locator(".toast-error")).to_be_visible()
    assert version(ana.page) == before

    # A third person finds the running game in the lobby and watches.
    cy = person("Cy")
    watch = cy.page.get_by_test_id("public-playing").locator(f"[data-table-id='{table_id}']")
    watch.get_by_role("link", name="Watch").click()
    cy.page.wait_for_url(re.compile(rf"/t/{table_id}$"))
    expect(cy.page.get_by_test_id("spectator-banner")).to_be_visible()
    expect(cy.page.get_by_test_id("game-area")).to_be_visible()
    expect(cy.page.locator(".seat.turn").first).to_be_visible()

    # Whoever's turn it is sees it highlighted; a few moves in, the spectator still has nothing to click.
    for _ in range(6):
        click_a_legal_thing(ana.page, rng)
        click_a_legal_thing(bo.page, rng)
    assert cy.page.get_by_test_id("game-area").locator(".legal").count() == 0
    expect(cy.page.get_by_test_id("log").locator("li").first).to_be_visible()
    # Nothing is clickable for the spectator, yet every card, pile and score says what it is in words.
    assert not unnamed_pieces(cy.page, ".ft-card, .ft-vp"), unnamed_pieces(cy.page, ".ft-card, .ft-vp")[:5]
    expect(cy.page.get_by_test_id("game-area").get_by_role("img", name=re.compile(r"^\d+ of \d+ VP$"))).to_have_count(2)

    play_to_the_end([ana.page, bo.page], rng)

    for who in (ana, bo, cy):
        ranking = who.page.get_by_test_id("ranking")
        expect(ranking).to_contain_text("Ana")
        expect(ranking).to_contain_text("Bo")
        expect(who.page.get_by_test_id("turn")).to_have_text(re.compile("Game over"))
    assert cy.page.get_by_test_id("game-area").locator(".legal").count() == 0
    assert ana.page.get_by_test_id("log").locator("li").count() > 5
    assert bo.page.evaluate("document.documentElement.scrollWidth") <= 390

    # The replay steps through the moves with the game's renderer.
    cy.page.get_by_test_id("replay-link").click()
    step = cy.page.get_by_test_id("replay-step")
    expect(step).to_have_text(re.compile(r"Move 0 of \d+"))
    total = int(re.search(r"of (\d+)", step.inner_text()).group(1))  # type: ignore[union-attr]
    assert total > 10
    cy.page.get_by_test_id("replay-next").click()
    expect(step).to_have_text(f"Move 1 of {total}")
    cy.page.get_by_test_id("replay-next").click()
    expect(step).to_have_text(f"Move 2 of {total}")
    cy.page.get_by_test_id("replay-prev").click()
    expect(step).to_have_text(f"Move 1 of {total}")
    expect(cy.page.get_by_test_id("replay-area")).not_to_be_empty()
    cy.page.keyboard.press("End")
    expect(step).to_have_text(f"Move {total} of {total}")

    # Ana asks to play again; Bo, still on the finished table, joins the rematch in his seat.
    ana.page.get_by_test_id("rematch").click()
    ana.page.wait_for_url(re.compile(r"/t/[^/?]+$"))
    ana.page.wait_for_function("id => !location.pathname.endsWith(id)", arg=table_id)
    rematch_id = ana.page.url.rsplit("/", 1)[1]
    expect(bo.page.get_by_test_id("rematch")).to_have_text("Join the rematch")
    bo.page.get_by_test_id("rematch").click()
    bo.page.wait_for_url(re.compile(rf"/t/{rematch_id}$"))
    expect(seat_row(ana.page, "0")).to_contain_text("Ana")
    expect(seat_row(ana.page, "1")).to_contain_text("Bo")
    expect(ana.page.get_by_test_id("start")).to_be_enabled()


def ana_and_bo_start_food_truck(person: Callable[..., Person], private: bool = False) -> tuple[Person, Person]:
    """Ana opens a two-seat Food Truck table, Bo takes the other seat (by the invite link's Join if private), Ana
    starts."""
    ana = person("Ana")
    table_id = create_table(ana, "food-truck", seats=2, private=private)
    bo = person("Bo")
    if private:
        bo.goto(ana.page.locator(".invite-url").input_value().split(ana.base, 1)[1])
        bo.page.get_by_test_id("join").click()
    else:
        bo.goto(f"/t/{table_id}")
        seat_row(bo.page, "1").get_by_role("button", name="Join here").click()
    expect(seat_row(ana.page, "1")).to_contain_text("Bo")
    ana.page.get_by_test_id("start").click()
    return ana, bo


def test_a_secret_step_is_taken_back_with_the_undo_button_unseen_by_others(person: Callable[..., Person], rng: random.Random) -> None:
    ana, bo = ana_and_bo_start_food_truck(person)
    page, undo = ana.page, ana.page.get_by_test_id("undo")

    def phase() -> str:
        return str(page.evaluate("window.foodGames.state().view?.phase"))

    # Choosing trucks is public: no undo. Then both order in secret, each step a draft its author alone may take back.
    page.wait_for_function("() => window.foodGames.state().view?.phase === 'trucks'")
    for _ in range(40):
        if phase() != "trucks":
            break
        click_a_legal_thing(ana.page, rng)
        click_a_legal_thing(bo.page, rng)
    assert phase() == "prep" and undo.count() == 0
    before = page.evaluate("JSON.stringify(window.foodGames.state().view)")
    while not undo.count():
        assert click_a_legal_thing(page, rng)
    placed = version(page)
    assert page.evaluate("JSON.stringify(window.foodGames.state().view)") != before
    # The card stacked is a draft, Ana's alone: the table's version did not move, and Bo's page heard nothing.
    assert version(bo.page) == placed
    expect(page.locator("main")).to_have_attribute("data-draft", "1")
    undo.click()
    expect(page.locator("main")).to_have_attribute("data-draft", "0")
    expect(undo).to_have_count(0)
    assert page.evaluate("JSON.stringify(window.foodGames.state().view)") == before
    assert version(page) == version(bo.page) == placed
    expect(bo.page.locator(".toast").filter(has_text="Ana took back a step")).to_have_count(0)


def test_a_bot_plays_for_a_player_until_they_take_their_seat_back(person: Callable[..., Person]) -> None:
    ana, bo = ana_and_bo_start_food_truck(person, private=True)  # unrated: the host may hand Bo's seat over at once
    seat_row(ana.page, "1").get_by_test_id("stand-in").click()
    expect(seat_row(bo.page, "1")).to_contain_text("Bot")
    expect(bo.page.get_by_test_id("turn")).to_contain_text("A bot is playing for you.")
    expect(bo.page.locator(".toast").filter(has_text="let a bot play")).to_have_count(0)  # a log line, not a toast
    expect(bo.page.get_by_test_id("log")).to_contain_text("Ana let a bot play for Bo.")
    ana_id = user_id(ana)
    asked = bo.page.get_by_test_id("log").locator("li", has_text="Ana let a bot play for Bo.").get_by_test_id("person-link")
    expect(asked).to_have_text(["Ana", "Bo"])
    expect(asked.first).to_have_attribute("href", f"/p/{ana_id}")
    expect(asked.first).to_have_attribute("target", "_blank")  # Bo still plays: his game stays open
    # The moves that follow redraw the page; the button is kept, so a click never lands between two copies.
    bo.page.evaluate("window.reclaimButton = document.querySelector('[data-testid=turn] [data-testid=reclaim]')")
    seen = bo.page.evaluate("window.foodGames.state().version")
    # The bot chooses Bo's truck when his turn comes; Ana chooses hers when hers does.
    ana.page.wait_for_function("() => window.foodGames.state().view?.phase === 'trucks'")
    while ana.page.evaluate("window.foodGames.state().view.phase") == "trucks":
        if "0" in ana.page.evaluate("window.foodGames.state().awaiting"):
            click_a_legal_thing(ana.page, random.Random(1))
        else:
            ana.page.wait_for_timeout(50)
    bo.page.wait_for_function("() => window.foodGames.state().view?.phase === 'prep'")
    assert bo.page.evaluate("window.foodGames.state().version") > seen
    assert bo.page.evaluate("window.reclaimButton.isConnected")
    bo.page.get_by_test_id("turn").get_by_test_id("reclaim").click()
    expect(bo.page.get_by_test_id("turn")).not_to_contain_text("A bot is playing for you.")
    expect(seat_row(bo.page, "1")).not_to_contain_text("Bot")
    # Unless the bot already finished Bo's secret order, the rest of it is Bo's to click again.
    if "1" in bo.page.evaluate("window.foodGames.state().awaiting"):
        expect(bo.page.get_by_test_id("game-area").locator(".legal").first).to_be_visible()

    # Ana renames herself: nobody at the table bears the name the line shows any more, and its id still links it.
    assert ana.page.request.patch(f"{ana.base}/api/me", data={"name": "Anita"}).ok
    expect(seat_row(bo.page, "0")).to_contain_text("Anita")
    bo.page.reload()
    asked = bo.page.get_by_test_id("log").locator("li", has_text="Ana let a bot play for Bo.").get_by_test_id("person-link")
    expect(asked.first).to_have_attribute("href", f"/p/{ana_id}")
    expect(asked.first).to_have_attribute("target", "_blank")
    # A line stored before events carried the id links the name only when one person at the table bears it.
    hrefs = bo.page.evaluate(
        """async () => {
            const { describe } = await import("/app/log.js");
            const table = window.foodGames.state().table;
            const people = Object.fromEntries(table.seats.map((s) => [s.seat, s.user]));
            const ctx = { people, host: table.host, names: {} };
            const link = (by) => describe(null, { type: "stand_in", seat: "1", name: "Bo", by }, ctx)
                .flat().find((part) => part instanceof Node && part.textContent === by)?.getAttribute("href") ?? null;
            return [link("Anita"), link("Ana")];
        }""")
    assert hrefs == [f"/p/{ana_id}", None]


def test_a_click_holds_when_an_update_arrives_between_its_press_and_release(person: Callable[..., Person]) -> None:
    ana, bo = ana_and_bo_start_food_truck(person, private=True)
    button = seat_row(ana.page, "1").get_by_test_id("stand-in")
    expect(seat_row(ana.page, "1").locator(".seat-dot.online")).to_have_count(1)
    expect(button).to_be_visible()
    box = None
    for _ in range(50):  # None while a redraw (a presence, the start) swaps the button out
        if box := button.bounding_box():
            break
        ana.page.wait_for_timeout(20)
    assert box
    ana.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ana.page.mouse.down()
    # Bo renames himself while Ana's button is down: the update reaches her page, and the seats wait to be redrawn
    # (a redraw now would swap the button out from under the press, and the browser would drop the click).
    assert bo.page.request.patch(f"{bo.base}/api/me", data={"name": "Bob"}).ok
    ana.page.wait_for_function("() => window.foodGames.state().table.seats[1].user.name === 'Bob'")
    expect(seat_row(ana.page, "1")).not_to_contain_text("Bob")
    ana.page.mouse.up()
    expect(seat_row(ana.page, "1")).to_contain_text("Bob")
    expect(seat_row(ana.page, "1")).to_contain_text("Bot")
    expect(seat_row(bo.page, "1")).to_contain_text("Bot")


def test_a_player_may_call_a_bot_for_one_the_game_has_waited_on_too_long(browser: Browser, tmp_path: Path) -> None:
    """Bo, not the host, gets a "Let a bot play" button on Ana's seat once the game has waited on her alone
    for STAND_IN_AFTER seconds and she is not connected (connected, she gets STAND_IN_AFTER_ONLINE); it appears by
    itself, with nothing else happening at the table, and the turn bar says why. A spectator gets neither."""
    server = AppServer(tmp_path, STAND_IN_AFTER="4", STAND_IN_AFTER_ONLINE="600").start()
    try:
        with people(browser, server) as person:
            ana, bo = ana_and_bo_start_food_truck(person)
            ana.page.wait_for_function("() => window.foodGames.state().view?.phase === 'trucks'")
            while "0" not in bo.page.evaluate("window.foodGames.state().awaiting"):
                click_a_legal_thing(bo.page, random.Random(2))
                bo.page.wait_for_timeout(50)
            cy = person("Cy", at=bo.page.url.replace(server.url, ""))
            call, why = seat_row(bo.page, "0").get_by_test_id("stand-in"), bo.page.get_by_test_id("stand-in-due")
            expect(call).to_have_count(0)
            expect(why).to_have_count(0)
            expect(seat_row(bo.page, "1").get_by_test_id("stand-in")).to_be_visible()  # his own seat, as before
            table_url = ana.page.url.replace(server.url, "")
            expect(seat_row(bo.page, "0").locator(".seat-dot.online")).to_have_count(1)
            # Past STAND_IN_AFTER, but Ana is still here: she may be thinking. The server's clock and Bo's page's
            # jump there rather than the test waiting (Playwright's fake timers from here on in Bo's browser).
            bo.context.clock.install()
            server.jump(4.5)
            bo.page.clock.fast_forward(4_500)
            expect(call).to_have_count(0)
            ana.goto("/")  # she leaves the table
            expect(call).to_be_visible()
            expect(bo.page.get_by_test_id("turn")).to_have_text("Waiting for Ana")
            expect(why).to_have_text(
                "Ana has not moved for 4 s: any player may now let a bot play for them"
                " (“Let a bot play” on their seat) until they come back."
            )
            expect(cy.page.get_by_test_id("turn")).to_have_text("Waiting for Ana")
            expect(cy.page.get_by_test_id("stand-in")).to_have_count(0)
            assert call.get_attribute("aria-label") == "Let a bot play for Ana"
            call.click()
            expect(seat_row(bo.page, "0")).to_contain_text("Bot")
            expect(bo.page.get_by_test_id("log")).to_contain_text("Bo let a bot play for Ana.")
            ana.goto(table_url)
            expect(why).to_have_count(0)  # the table has moved on
            expect(ana.page.get_by_test_id("turn")).to_contain_text("A bot is playing for you.")
            ana.page.get_by_test_id("turn").get_by_test_id("reclaim").click()
            expect(seat_row(bo.page, "0")).not_to_contain_text("Bot")
    finally:
        server.stop()


def test_a_chime_rings_when_the_turn_comes_to_a_player_looking_elsewhere(person: Callable[..., Person]) -> None:
    """The chime rings when the game comes to a player's turn while they look at another tab or window, never while
    they look at the table, and not once they switched the sound off (a choice the browser keeps)."""
    ana, bo = ana_and_bo_start_food_truck(person)

    def awaiting() -> list[str]:
        return list(ana.page.evaluate("window.foodGames.state().awaiting"))

    def move(who: Person) -> None:
        """`who` makes their first legal move and both pages hear of it (a draft, its author's page alone)."""
        before = who.page.evaluate("window.foodGames.state().version")
        ack = who.page.evaluate("window.foodGames.send(window.foodGames.state().actions[0])")
        if "draft" in ack:
            who.page.wait_for_function("n => window.foodGames.state().draft === n", arg=ack["draft"])
            return
        for page in (ana.page, bo.page):
            page.wait_for_function("v => window.foodGames.state().version > v", arg=before)

    def to_anas_turn_alone() -> None:
        while awaiting() != ["0"]:
            move(bo if "1" in awaiting() else ana)

    def to_bos_turn() -> None:
        """Ana moves until the turn comes to Bo."""
        while "1" not in awaiting():
            move(ana)

    def chimes(who: Person) -> int:
        return int(who.page.evaluate("window.foodGames.chimes()"))

    ana.page.wait_for_function("() => window.foodGames.state().view?.phase === 'trucks'")
    bo.page.wait_for_function("() => window.foodGames.state().view?.phase === 'trucks'")
    chime = bo.page.get_by_test_id("chime-switch")
    expect(chime).to_have_attribute("aria-pressed", "true")

    # Looking at the table: his turn comes without a sound.
    to_anas_turn_alone()
    to_bos_turn()
    assert chimes(bo) == 0

    # Bo switches to another window: the chime rings when his turn comes, once.
    bo.page.evaluate("document.hasFocus = () => false")
    to_anas_turn_alone()
    to_bos_turn()
    assert chimes(bo) == 1

    # With the sound off (kept across a reload), it stays silent.
    chime.click()
    expect(chime).to_have_attribute("aria-pressed", "false")
    bo.page.reload()
    expect(bo.page.get_by_test_id("chime-switch")).to_have_text(re.compile("Sound off"))
    bo.page.wait_for_function("() => window.foodGames.state().view !== null")
    bo.page.evaluate("document.hasFocus = () => false")
    to_anas_turn_alone()
    to_bos_turn()
    assert chimes(bo) == 0
    assert chimes(ana) == 0  # Ana looked at her table all along
