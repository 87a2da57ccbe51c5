"""A player and a spectator chat at a running table in the browser."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Person
from tests.e2e.helpers import create_table, seat_row

pytestmark = pytest.mark.e2e


def test_a_player_and_a_spectator_chat_at_a_running_table(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    table_id = create_table(ana, "food-truck", seats=2, name="Chatty lunch")
    seat_row(ana.page, "1").get_by_role("button", name="Add bot").click()
    ana.page.get_by_test_id("start").click()
    expect(ana.page.get_by_test_id("table-status")).to_have_text("In progress")

    cy = person("Cy", width=390, height=844, at=f"/t/{table_id}")  # watching on a phone
    expect(cy.page.get_by_test_id("spectator-banner")).to_be_visible()

    # Ana writes; markup is shown as the characters she typed, never run or rendered.
    box = ana.page.get_by_test_id("chat-input")
    box.fill("Hi <b>Cy</b> <img src=x onerror=alert(1)>")
    box.press("Enter")
    expect(box).to_have_value("")
    for who in (ana, cy):
        line = who.page.get_by_test_id("chat-line").last
        expect(line).to_contain_text("Ana")
        expect(line.locator(".chat-text")).to_have_text("Hi <b>Cy</b> <img src=x onerror=alert(1)>")
        assert who.page.get_by_test_id("chat-list").locator("b, img").count() == 0
    expect(ana.page.get_by_test_id("chat-line").last).to_have_class(re.compile(r"\bmine\b"))
    expect(cy.page.get_by_test_id("chat-line").last).not_to_have_class(re.compile(r"\bmine\b"))

    # Cy answers on two lines (Shift+Enter), and shows as a spectator.
    cy_box = cy.page.get_by_test_id("chat-input")
    cy_box.click()
    cy_box.type("Good luck!")
    cy_box.press("Shift+Enter")
    cy_box.type("I'm watching")
    cy_box.press("Enter")
    last = ana.page.get_by_test_id("chat-line").last
    expect(last).to_contain_text("Cy")
    expect(last.locator(".chat-spectator")).to_have_text("watching")
    expect(last.locator(".chat-text")).to_have_text("Good luck!\nI'm watching")

    # Folded, Ana's chat counts what she has not read; unfolding it clears the count.
    ana.page.locator(".chat-summary").click()
    cy_box.fill("Psst")
    cy_box.press("Enter")
    expect(ana.page.get_by_test_id("chat-unread")).to_contain_text("1")
    ana.page.locator(".chat-summary").click()
    expect(ana.page.get_by_test_id("chat-unread")).to_be_hidden()

    # Near the limit a counter appears; past it the line cannot be sent.
    box.fill("x" * 295)
    expect(ana.page.locator(".chat-counter")).to_have_text("5 characters left")
    box.fill("x" * 301)
    expect(ana.page.locator(".chat-counter")).to_have_text("1 character too many")
    expect(ana.page.get_by_test_id("chat-send")).to_be_disabled()
    box.fill("")

    # The history is there after a reload, in Spanish too.
    cy.page.get_by_role("button", name="Español").click()
    cy.page.reload()
    lines = cy.page.get_by_test_id("chat-line")
    expect(lines).to_have_count(3)
    expect(lines.nth(1).locator(".chat-spectator")).to_have_text("mirando")
    expect(cy.page.get_by_test_id("chat-send")).to_have_text("Enviar")
    assert cy.page.evaluate("document.documentElement.scrollWidth") <= 390


# Holds every WebSocket the page makes in CONNECTING until the test calls window.__openSockets().
HELD_SOCKETS = """(() => {
  const Real = window.WebSocket;
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  window.__openSockets = () => release();
  function Held(url, protocols) {
    this.real = null;
    gate.then(() => {
      const real = new Real(url, protocols);
      this.real = real;
      for (const name of ["onopen", "onmessage", "onclose", "onerror"]) real[name] = (e) => this[name] && this[name](e);
    });
  }
  Held.prototype.send = function (data) { this.real.send(data); };
  Held.prototype.close = function (code, reason) { if (this.real) this.real.close(code, reason); };
  Object.defineProperty(Held.prototype, "readyState", { get() { return this.real ? this.real.readyState : 0; } });
  Object.assign(Held, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  window.WebSocket = Held;
})();"""


def test_a_line_written_while_the_page_connects_goes_once_it_is_connected(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    table_id = create_table(ana, "food-truck", seats=2)
    cy = person("Cy")
    cy.context.add_init_script(HELD_SOCKETS)
    cy.goto(f"/t/{table_id}")
    box = cy.page.get_by_test_id("chat-input")
    box.fill("Hello before the socket")
    box.press("Enter")
    # Not refused as offline: it waits, still in the box, until the connection opens.
    expect(cy.page.get_by_test_id("chat-error")).to_have_text("")
    expect(box).to_have_value("Hello before the socket")
    cy.page.evaluate("window.__openSockets()")
    expect(box).to_have_value("")
    for who in (ana, cy):
        expect(who.page.get_by_test_id("chat-line")).to_have_count(1)
        expect(who.page.get_by_test_id("chat-line").locator(".chat-text")).to_have_text("Hello before the socket")


def test_lines_arriving_while_scrolled_up_count_as_unread(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    table_id = create_table(ana, "food-truck", seats=2)
    seat_row(ana.page, "1").get_by_role("button", name="Add bot").click()
    ana.page.get_by_test_id("start").click()
    cy = person("Cy", at=f"/t/{table_id}")
    cy_box = cy.page.get_by_test_id("chat-input")
    # More lines than the chat shows at once: Ana's list scrolls.
    cy_box.fill("\n".join(f"line {n}" for n in range(1, 21)))
    cy_box.press("Enter")
    scroller = ana.page.locator(".chat-scroll")
    expect(ana.page.get_by_test_id("chat-line")).to_have_count(1)
    assert scroller.evaluate("e => e.scrollHeight > e.clientHeight + 100")

    # Ana scrolls up to read; a new line below is not moved into view under her, and the fold counts it.
    scroller.evaluate("e => { e.scrollTop = 0; }")
    cy_box.fill("Are you there, Ana?")
    cy_box.press("Enter")
    expect(ana.page.get_by_test_id("chat-line")).to_have_count(2)
    expect(ana.page.get_by_test_id("chat-unread")).to_be_visible()
    expect(ana.page.get_by_test_id("chat-unread")).to_contain_text("1 unread")
    assert scroller.evaluate("e => e.scrollTop") == 0
    # Back down at the newest line, it has been read.
    scroller.evaluate("e => { e.scrollTop = e.scrollHeight; }")
    expect(ana.page.get_by_test_id("chat-unread")).to_be_hidden()


def test_the_chat_fold_is_named_chat_and_says_whether_it_is_open(person: Callable[..., Person]) -> None:
    """Assistive technology reads the fold as "Chat", expanded or collapsed, not the triangle drawn beside it."""
    ana = person("Ana")
    create_table(ana, "food-truck", seats=2)

    def fold() -> dict[str, object]:
        tree = ana.context.new_cdp_session(ana.page).send("Accessibility.getFullAXTree")
        found = [node for node in tree["nodes"] if node.get("role", {}).get("value") == "DisclosureTriangle"]
        assert len(found) == 1
        props = {prop["name"]: prop["value"].get("value") for prop in found[0].get("properties", [])}
        return {"name": found[0]["name"]["value"], "expanded": bool(props.get("expanded"))}

    expect(ana.page.get_by_test_id("chat-input")).to_be_visible()
    assert fold() == {"name": "Chat", "expanded": True}
    ana.page.locator(".chat-summary").click()
    expect(ana.page.get_by_test_id("chat-input")).to_be_hidden()
    assert fold() == {"name": "Chat", "expanded": False}


def test_a_visitor_signs_in_from_the_chat_of_a_running_game_and_chats(person: Callable[..., Person]) -> None:
    """Signed out, the chat says to sign in; its button opens the page's sign-in form, even once the game runs."""
    ana = person("Ana")
    table_id = create_table(ana, "food-truck", seats=2)
    seat_row(ana.page, "1").get_by_role("button", name="Add bot").click()
    ana.page.get_by_test_id("start").click()
    expect(ana.page.get_by_test_id("table-status")).to_have_text("In progress")

    dee = person(width=390, height=844, at=f"/t/{table_id}")  # not signed in, on a phone
    expect(dee.page.get_by_test_id("chat-signed-out")).to_contain_text("Sign in to chat.")
    dee.page.get_by_test_id("chat-sign-in").click()
    expect(dee.page.get_by_test_id("signin-inline").locator("summary")).to_have_text("Sign in to chat")
    name = dee.page.get_by_test_id("signin-inline").locator("input[name=name]")
    expect(name).to_be_focused()
    name.fill("Dee")
    name.press("Enter")
    dee.page.get_by_test_id("user-name").wait_for()
    box = dee.page.get_by_test_id("chat-input")
    box.fill("Hello, I'm new here")
    box.press("Enter")
    line = ana.page.get_by_test_id("chat-line").last
    expect(line).to_contain_text("Dee")
    expect(line.locator(".chat-spectator")).to_have_text("watching")


def test_the_host_removes_a_line_and_mutes_a_spectator(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    table_id = create_table(ana, "foodies", seats=2)
    seat_row(ana.page, "1").get_by_role("button", name="Add bot").click()
    ana.page.get_by_test_id("start").click()
    expect(ana.page.get_by_test_id("table-status")).to_have_text("In progress")
    cy = person("Cy", width=390, height=844, at=f"/t/{table_id}")  # watching on a phone
    # Lines go over the table's socket: before it is open, a line is refused as offline and stays in the box.
    expect(cy.page.get_by_test_id("conn")).to_have_attribute("data-state", "online")
    cy_box = cy.page.get_by_test_id("chat-input")
    for text in ("something rude", "and more"):
        cy_box.fill(text)
        cy_box.press("Enter")
        expect(cy_box).to_have_value("")
    expect(ana.page.get_by_test_id("chat-line")).to_have_count(2)
    # Cy has no moderation tools; the host has them on Cy's lines, named for screen readers.
    expect(cy.page.get_by_test_id("chat-remove")).to_have_count(0)
    first = ana.page.get_by_test_id("chat-line").first
    first.get_by_role("button", name="Remove Cy's message").click()
    for who in (ana, cy):
        expect(who.page.get_by_test_id("chat-line")).to_have_count(1)
        expect(who.page.get_by_test_id("chat-line")).to_contain_text("and more")

    ana.page.get_by_test_id("chat-line").first.get_by_role("button", name="Mute Cy in this chat").click()
    expect(ana.page.get_by_test_id("chat-mutes")).to_contain_text("Cy")
    expect(cy.page.get_by_test_id("chat-muted")).to_contain_text("The host has muted you")
    expect(cy_box).to_be_disabled()
    expect(cy.page.get_by_test_id("chat-send")).to_be_disabled()
    # Still muted after a reload (the mute is stored), in Spanish too.
    cy.page.evaluate("localStorage.setItem('fg.lang', 'es')")
    cy.page.reload()
    expect(cy.page.get_by_test_id("chat-muted")).to_contain_text("El anfitrión te ha silenciado")
    expect(cy.page.get_by_test_id("chat-input")).to_be_disabled()

    ana.page.get_by_test_id("chat-mutes").get_by_role("button", name="Unmute Cy").click()
    expect(ana.page.get_by_test_id("chat-mutes")).to_be_hidden()
    expect(cy.page.get_by_test_id("chat-muted")).to_be_hidden()
    cy.page.get_by_test_id("chat-input").fill("sorry")
    cy.page.get_by_test_id("chat-input").press("Enter")
    expect(ana.page.get_by_test_id("chat-line").last).to_contain_text("sorry")
    assert not ana.errors and not cy.errors and not ana.dialogs and not cy.dialogs


def test_the_new_in_chat_button_covers_nothing_of_the_board_on_a_phone(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    table_id = create_table(ana, "food-chain-magnate", seats=2)
    seat_row(ana.page, "1").get_by_role("button", name="Add bot").click()
    ana.page.get_by_test_id("start").click()
    expect(ana.page.get_by_test_id("table-status")).to_have_text("In progress")
    cy = person("Cy", width=390, height=844, at=f"/t/{table_id}")
    cy.page.get_by_test_id("game-area").wait_for()
    # Only a line that comes over an open socket after the history was read is news: before that, it would
    # arrive as history.
    expect(cy.page.get_by_test_id("conn")).to_have_attribute("data-state", "online")
    cy.page.wait_for_function("() => document.querySelector('.chat-empty')?.hidden === false")
    cy.page.evaluate("window.scrollTo(0, 300)")
    box = ana.page.get_by_test_id("chat-input")
    box.fill("Hello Cy")
    box.press("Enter")
    jump = cy.page.get_by_test_id("chat-jump")
    expect(jump).to_be_visible()
    expect(jump).to_have_attribute("aria-label", "1 new in chat")
    # It sits beside the turn line in the bar that stays in sight, adding nothing to what that bar covers: over
    # the board it hides nothing the turn line does not.
    # Both boxes from one look at the page: a bot's move between two looks may redraw the turn line.
    button, turn = cy.page.evaluate(
        "() => ['chat-jump', 'turn'].map((id) => { const r = document.querySelector(`[data-testid=${id}]`)"
        ".getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; })"
    )
    assert button["x"] >= turn["x"] + turn["width"] and button["x"] + button["width"] <= 390
    assert turn["y"] - 1 <= button["y"] and button["y"] + button["height"] <= turn["y"] + turn["height"] + 1
    assert cy.page.evaluate("getComputedStyle(document.querySelector('[data-testid=chat-jump]')).position") != "fixed"
    jump.click()
    expect(cy.page.get_by_test_id("chat-list")).to_be_in_viewport()
    expect(jump).to_be_hidden()
