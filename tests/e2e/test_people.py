"""People's names lead to their profiles (lobby, seats, turn bar, log, chat, watchers): beside a game the reader plays,
in the same tab elsewhere; bots' names are plain text. The host mutes a silent watcher."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.bot_games import finished_by_bots
from tests.e2e.conftest import Person
from tests.e2e.helpers import create_table, seat_row

pytestmark = pytest.mark.e2e

LONG_NAME = "Bartholomew_the_Magnificent_Taco_Chef_42"  # 40 characters, no space to break at


def _id(who: Person) -> str:
    return str(who.page.request.get(f"{who.base}/api/me").json()["id"])


def _hit_by_a_tap(button: Locator) -> bool:
    """Whether a tap at the middle of `button` lands on it (no link or other element laid over it)."""
    return bool(button.evaluate(
        "(b) => { b.scrollIntoView({ block: 'center' }); const r = b.getBoundingClientRect();"
        " const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);"
        " return hit === b || b.contains(hit); }"))


def _opens_profile(page: Page, link: Locator, name: str) -> None:
    """The link opens, beside the table, the profile of the person called `name`."""
    with page.context.expect_page() as opened:
        link.click()
    profile = opened.value
    profile.wait_for_url(re.compile(r"/p/[0-9a-f]{16}$"))
    expect(profile.get_by_test_id("profile-name")).to_contain_text(name)
    profile.close()


def test_the_host_mutes_a_watcher_who_never_wrote_from_the_list_of_watchers(person: Callable[..., Person]) -> None:
    ana = person("Ana", width=390, height=844)  # the host, on a phone
    table_id = create_table(ana, "food-truck", seats=2, name="Quiet lunch")
    seat_row(ana.page, "1").get_by_role("button", name="Add bot").click()
    ana.page.get_by_test_id("start").click()
    expect(ana.page.get_by_test_id("table-status")).to_have_text("In progress")

    cy = person("Cy", at=f"/t/{table_id}")  # watches, and writes nothing
    expect(cy.page.get_by_test_id("conn")).to_have_attribute("data-state", "online")
    chef = person(LONG_NAME, width=390, height=844, at=f"/t/{table_id}")  # watches too, on a phone, with a name that cannot wrap at a space
    expect(chef.page.get_by_test_id("conn")).to_have_attribute("data-state", "online")

    watchers = ana.page.get_by_test_id("watchers")
    expect(watchers).to_contain_text("Watching:")
    expect(ana.page.get_by_test_id("watching")).to_have_text("2 watching")
    cy_chip = watchers.locator(f"li[data-user-id='{_id(cy)}']")
    link = cy_chip.get_by_test_id("person-link")
    expect(link).to_have_text("Cy")
    expect(link).to_have_attribute("href", f"/p/{_id(cy)}")
    mute = cy_chip.get_by_role("button", name="Mute Cy in this chat")
    # From the keyboard: the name, then its Mute.
    link.focus()
    ana.page.keyboard.press("Tab")
    expect(mute).to_be_focused()
    assert _hit_by_a_tap(mute)
    # The phone's page does not scroll sideways for the long name and the buttons.
    assert ana.page.evaluate("document.documentElement.scrollWidth") <= 390
    assert chef.page.evaluate("document.documentElement.scrollWidth") <= 390

    mute.click()
    assert ana.page.url.endswith(f"/t/{table_id}") and len(ana.context.pages) == 1  # the click was the button's
    expect(cy.page.get_by_test_id("chat-muted")).to_contain_text("The host has muted you")
    expect(cy.page.get_by_test_id("chat-input")).to_be_disabled()
    refused = cy.page.request.post(f"{cy.base}/api/tables/{table_id}/chat", data={"text": "at last I speak"})
    assert refused.status == 403 and refused.json()["error"]["code"] == "muted"
    # The host sees it by the name and in the chat's list; the button now unmutes.
    expect(cy_chip.locator(".chat-muted-tag")).to_have_text("muted")
    expect(cy_chip.get_by_role("button", name="Unmute Cy")).to_be_visible()
    expect(ana.page.get_by_test_id("chat-mutes")).to_contain_text("Cy")
    # Nobody else learns who is muted, nor gets the host's buttons.
    for other in (cy, chef):
        expect(other.page.get_by_test_id("watchers")).to_contain_text("Cy")
        expect(other.page.get_by_test_id("watcher-mute")).to_have_count(0)
        expect(other.page.get_by_test_id("watchers").locator(".chat-muted-tag")).to_have_count(0)

    # The chef speaks; Cy, still muted, cannot; in Spanish, the list reads "Mirando:".
    chef.page.get_by_test_id("chat-input").fill("hola")
    chef.page.get_by_test_id("chat-input").press("Enter")
    expect(ana.page.get_by_test_id("chat-line")).to_have_count(1)
    ana.page.get_by_role("button", name="Español").click()
    expect(watchers).to_contain_text("Mirando:")
    expect(cy_chip.get_by_role("button", name="Dejar hablar a Cy")).to_be_visible()
    assert ana.page.evaluate("document.documentElement.scrollWidth") <= 390


def test_names_lead_to_profiles_in_the_lobby_the_seats_and_the_chat(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    table_id = create_table(ana, "food-truck", seats=3, name="Open kitchen")
    bo = person("Bo", at=f"/t/{table_id}")
    seat_row(bo.page, "1").get_by_role("button", name="Join here").click()
    expect(seat_row(ana.page, "1")).to_contain_text("Bo")

    # In the lobby, a stranger sees the host's name and the players' names as links to their pages.
    dee = person("Dee", width=390, height=844)
    card = dee.page.get_by_test_id("public-open").locator(f"li[data-table-id='{table_id}']")
    host_link = card.locator(".table-host").get_by_test_id("person-link")
    expect(host_link).to_have_text("Ana")
    expect(host_link).to_have_attribute("href", f"/p/{_id(ana)}")
    expect(card.get_by_test_id("table-players").get_by_test_id("person-link")).to_have_text(["Ana", "Bo"])
    assert dee.page.evaluate("document.documentElement.scrollWidth") <= 390
    dee.page.get_by_role("button", name="Español").click()
    expect(card.locator(".table-host")).to_have_text("Anfitrión: Ana")
    host_link.click()
    dee.page.wait_for_url(re.compile(rf"/p/{_id(ana)}$"))
    expect(dee.page.get_by_test_id("profile-name")).to_have_text("Ana")

    # At the table: Bo's seat links to his page, and the host's Remove beside it is still the Remove button.
    bo_seat = seat_row(ana.page, "1")
    expect(bo_seat.get_by_test_id("person-link")).to_have_attribute("href", f"/p/{_id(bo)}")
    assert _hit_by_a_tap(bo_seat.get_by_role("button", name="Remove"))

    # A chat line's author leads to their page; the host's Mute and Remove beside the name stay buttons.
    box = bo.page.get_by_test_id("chat-input")
    box.fill("Ready when you are")
    box.press("Enter")
    line = ana.page.get_by_test_id("chat-line").last
    author = line.get_by_test_id("person-link")
    expect(author).to_have_text("Bo")
    expect(author).to_have_attribute("href", f"/p/{_id(bo)}")
    for name in ("Mute Bo in this chat", "Remove Bo's message"):
        assert _hit_by_a_tap(line.get_by_role("button", name=name))
    _opens_profile(ana.page, author, "Bo")
    line.get_by_role("button", name="Mute Bo in this chat").click()
    expect(ana.page.get_by_test_id("chat-mutes").get_by_test_id("person-link")).to_have_text("Bo")
    expect(bo.page.get_by_test_id("chat-muted")).to_be_visible()

    # A bot's seat and name have no link.
    seat_row(ana.page, "2").get_by_role("button", name="Add bot").click()
    expect(seat_row(ana.page, "2")).to_contain_text("Bot")
    expect(seat_row(ana.page, "2").get_by_test_id("person-link")).to_have_count(0)
    bo_seat.get_by_role("button", name="Remove").click()
    expect(seat_row(ana.page, "1")).to_contain_text("Empty seat")


def _beside(link: Locator) -> None:
    """The link opens its profile in a new tab (the reader plays this game), with no hold on the page it leaves."""
    expect(link).to_have_attribute("target", "_blank")
    expect(link).to_have_attribute("rel", "noopener")


def _in_place(link: Locator) -> None:
    """The link opens its profile in this tab."""
    expect(link).to_be_visible()
    assert link.get_attribute("target") is None


def test_names_in_the_log_the_turn_bar_and_the_lobby_lead_to_profiles(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    table_id = create_table(ana, "food-truck", seats=3, name="Linked lunch")
    bo = person(LONG_NAME, width=390, height=844, at=f"/t/{table_id}")  # on a phone, with a name that cannot wrap at a space
    seat_row(bo.page, "1").get_by_role("button", name="Join here").click()
    seat_row(ana.page, "2").get_by_role("button", name="Add bot").click()

    # Her own name in the header opens her page beside the table she waits at, like every name there.
    _beside(ana.page.get_by_test_id("my-profile"))

    # The log: a person's name links to their page (beside the table Ana waits at), the bot's does not.
    log = ana.page.get_by_test_id("log")
    bo_joined = log.locator("li", has_text=f"{LONG_NAME} sat down.").get_by_test_id("person-link")
    expect(bo_joined).to_have_attribute("href", f"/p/{_id(bo)}")
    _beside(bo_joined)
    expect(log.locator("li", has_text="Bot 3 sat down.")).to_have_count(1)
    expect(log.get_by_test_id("person-link").filter(has_text="Bot 3")).to_have_count(0)

    ana.page.get_by_test_id("start").click()
    # Wait for a person's turn: the bot, if first, moves by itself.
    ana.page.wait_for_function(
        "() => { const s = window.foodGames.state(); return s.table.status === 'playing' && s.awaiting.length === 1"
        " && s.awaiting[0] !== '2'; }")
    awaited = ana.page.evaluate("window.foodGames.state().awaiting[0]")
    mover, other, name = (ana, bo, "Ana") if awaited == "0" else (bo, ana, LONG_NAME)
    mover_id = _id(mover)

    # The turn bar of the other player names the one awaited, beside the game; a watcher's opens in place.
    turn = other.page.get_by_test_id("turn")
    expect(turn).to_contain_text(f"Waiting for {name}")
    _beside(turn.get_by_test_id("person-link"))
    expect(turn.get_by_test_id("person-link")).to_have_attribute("href", f"/p/{mover_id}")
    cy = person("Cy", at=f"/t/{table_id}")
    cy_turn = cy.page.get_by_test_id("turn").get_by_test_id("person-link")
    expect(cy_turn).to_have_attribute("href", f"/p/{mover_id}")
    _in_place(cy_turn)
    _in_place(cy.page.get_by_test_id("my-profile"))
    # Ana's seat list opens beside the game too, a watcher's in place.
    _beside(seat_row(ana.page, "1").get_by_test_id("person-link"))
    _in_place(seat_row(cy.page, "1").get_by_test_id("person-link"))
    # The watchers named, and those not ("and N more": here someone signed out).
    person().goto(f"/t/{table_id}")
    expect(ana.page.get_by_test_id("watchers")).to_contain_text("Cy")
    expect(ana.page.get_by_test_id("watchers")).to_contain_text("and 1 more")
    _beside(ana.page.get_by_test_id("watchers").get_by_test_id("person-link"))

    # The lobby's "Turn: …" links the person awaited, in place, and fits a phone.
    dee = person("Dee", width=390, height=844)
    card = dee.page.get_by_test_id("public-playing").locator(f"li[data-table-id='{table_id}']")
    lobby_turn = card.get_by_test_id("table-turn")
    expect(lobby_turn).to_have_text(f"Turn: {name}")
    expect(lobby_turn.get_by_test_id("person-link")).to_have_attribute("href", f"/p/{mover_id}")
    _in_place(lobby_turn.get_by_test_id("person-link"))
    assert dee.page.evaluate("document.documentElement.scrollWidth") <= 390
    assert bo.page.evaluate("document.documentElement.scrollWidth") <= 390

    # A move: the game's own log line names its player with a link (the watcher's log, live); bots' lines none.
    cy_log = cy.page.get_by_test_id("log")
    before = cy_log.locator(f"a[href='/p/{mover_id}']").count()
    mover.page.evaluate("window.foodGames.send(window.foodGames.state().actions[0])")
    cy.page.wait_for_function(
        f"() => document.querySelectorAll(\"[data-testid=log] a[href='/p/{mover_id}']\").length > {before}")
    expect(cy_log.get_by_test_id("person-link").filter(has_text="Bot 3")).to_have_count(0)
    assert bo.page.evaluate("document.documentElement.scrollWidth") <= 390

    # Following a watcher's link leaves the table for the profile, in the same tab.
    cy_turn_now = cy.page.get_by_test_id("turn").get_by_test_id("person-link").first
    target = cy_turn_now.get_attribute("href")
    cy_turn_now.click()
    cy.page.wait_for_url(re.compile(rf"{target}$"))
    expect(cy.page.get_by_test_id("profile-name")).to_be_visible()
    assert len(cy.context.pages) == 1


@pytest.mark.parametrize("seats", [3, 2])  # with a bot of its own, which may win; without, a person wins
def test_names_at_a_finished_table_and_its_winners_in_the_lobby_open_in_place(
    person: Callable[..., Person], seats: int
) -> None:
    ana, bo = person("Ana"), person("Bo")
    tid = finished_by_bots(ana, bo, seats=seats)
    table = ana.page.request.get(f"{ana.base}/api/tables/{tid}").json()
    people = {s["seat"]: s["user"] for s in table["seats"] if s["user"]}
    winners = table["outcome"]["winners"]

    # The lobby's "Won by …": each winning person linked in place, a winning bot as plain text.
    dee = person("Dee", width=390, height=844)
    won = dee.page.get_by_test_id("public-finished").locator(f"li[data-table-id='{tid}']").get_by_test_id("table-turn")
    expect(won).to_contain_text("Won by")
    links = won.get_by_test_id("person-link")
    expect(links).to_have_text([people[s]["name"] for s in winners if s in people])
    for link in links.all():
        _in_place(link)
    if "2" in winners:
        expect(won).to_contain_text("Bot 3")
    assert dee.page.evaluate("document.documentElement.scrollWidth") <= 390

    # At the finished table Ana played, the game is over: names open in place, in the log (the bots that played
    # for Ana and Bo name them) and the seats alike.
    ana.goto(f"/t/{tid}")
    log = ana.page.get_by_test_id("log")
    stood_in = log.locator("li", has_text="A bot plays for Bo.").get_by_test_id("person-link")
    expect(stood_in).to_have_attribute("href", f"/p/{people['1']['id']}")
    _in_place(stood_in)
    _in_place(seat_row(ana.page, "1").get_by_test_id("person-link"))
    expect(log.get_by_test_id("person-link").filter(has_text="Bot 3")).to_have_count(0)
    # The result's "Winner:" line too (a winning bot stays plain text), and her own name in the header.
    line = ana.page.get_by_test_id("result").locator(".winners")
    expect(line).to_contain_text(re.compile("^Winners?: "))
    winning = [people[s] for s in winners if s in people]
    assert winning or seats == 3
    line_links = line.get_by_test_id("person-link")
    expect(line_links).to_have_text([p["name"] for p in winning])
    for link, winner in zip(line_links.all(), winning, strict=True):
        expect(link).to_have_attribute("href", f"/p/{winner['id']}")
        _in_place(link)
    if "2" in winners:
        expect(line).to_contain_text("Bot 3")
    _in_place(ana.page.get_by_test_id("my-profile"))
