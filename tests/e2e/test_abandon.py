"""Two players agree, in their browsers, to abandon a running game."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Person
from tests.e2e.helpers import create_table, seat_row, user_id

pytestmark = pytest.mark.e2e


def test_two_players_agree_to_abandon_and_the_table_ends_with_no_winner(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    table_id = create_table(ana, "food-truck", seats=2, name="Enough for today")
    ben = person("Ben", width=390, height=844, at=f"/t/{table_id}")  # on a phone
    seat_row(ben.page, "1").get_by_role("button", name="Join here").click()
    ana.page.get_by_test_id("start").click()
    expect(ben.page.get_by_test_id("table-status")).to_have_text("In progress")

    # Ana proposes, after a confirmation whose safe answer has the focus; Escape keeps playing.
    propose = ana.page.get_by_test_id("abandon-propose")
    propose.click()
    dialog = ana.page.get_by_role("dialog", name="Abandon this game?")
    expect(dialog.get_by_role("button", name="Keep playing")).to_be_focused()
    ana.page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(ben.page.get_by_test_id("abandon")).to_be_hidden()
    propose.click()
    dialog.get_by_role("button", name="Propose to abandon").click()

    # Everyone sees the proposal; Ben, whose say it needs, gets the buttons, Ana a way to withdraw.
    banner = ben.page.get_by_test_id("abandon")
    expect(banner).to_contain_text("Ana proposes to abandon the game.")
    expect(banner.get_by_test_id("abandon-waiting")).to_have_text("Yet to vote: Ben.")
    expect(ana.page.get_by_test_id("abandon")).to_contain_text("You propose to abandon the game.")
    expect(ana.page.get_by_role("button", name="Withdraw my agreement to abandon")).to_be_visible()
    expect(ana.page.get_by_test_id("abandon-propose")).to_be_hidden()
    expect(ben.page.get_by_test_id("log")).to_contain_text("Ana proposed to abandon the game.")

    # Its names link to profiles: beside the game for its players, in place for a watcher.
    ana_id, ben_id = user_id(ana), user_id(ben)
    proposer = banner.locator(".abandon-title").get_by_test_id("person-link")
    awaited = banner.get_by_test_id("abandon-waiting").get_by_test_id("person-link")
    agreed = ana.page.get_by_test_id("abandon-agreed").get_by_test_id("person-link")
    for link, name, whose in ((proposer, "Ana", ana_id), (awaited, "Ben", ben_id), (agreed, "Ana", ana_id)):
        expect(link).to_have_text(name)
        expect(link).to_have_attribute("href", f"/p/{whose}")
        expect(link).to_have_attribute("target", "_blank")
        expect(link).to_have_attribute("rel", "noopener")
    cy = person("Cy", at=f"/t/{table_id}")
    watched = cy.page.get_by_test_id("abandon")
    expect(watched).to_contain_text("Ana proposes to abandon the game.")
    for part, whose in ((watched.locator(".abandon-title"), ana_id), (watched.get_by_test_id("abandon-agreed"), ana_id),
                        (watched.get_by_test_id("abandon-waiting"), ben_id)):
        expect(part.get_by_test_id("person-link")).to_have_attribute("href", f"/p/{whose}")
        assert part.get_by_test_id("person-link").get_attribute("target") is None

    banner.get_by_role("button", name="Agree to abandon").click()
    for page in (ana.page, ben.page):
        expect(page.locator("main")).to_have_attribute("data-status", "finished")
        expect(page.get_by_test_id("table-status")).to_have_text("Abandoned")
        result = page.get_by_test_id("result")
        expect(result).to_contain_text("Abandoned by agreement")
        expect(result).to_contain_text("no winner")
        expect(page.get_by_test_id("ranking")).to_have_count(0)
        expect(page.get_by_test_id("abandon")).to_be_hidden()
        expect(page.get_by_test_id("log")).to_contain_text("Abandoned by agreement.")
    expect(ana.page.get_by_test_id("log")).to_contain_text("Ben agreed to abandon.")

    # Reloaded, in Spanish, the page says the same; the lobby lists it as abandoned.
    ben.page.get_by_role("button", name="Español").click()
    expect(ben.page.get_by_test_id("table-status")).to_have_text("Abandonada")
    expect(ben.page.get_by_test_id("result")).to_contain_text("Abandonada de común acuerdo")
    ben.page.reload()
    expect(ben.page.get_by_test_id("log")).to_contain_text("Partida abandonada de común acuerdo.")
    ana.goto("/")
    row = ana.page.get_by_test_id("my-tables").locator(f"[data-table-id='{table_id}']")
    expect(row.locator(".badge")).to_have_text("Abandoned")


@pytest.mark.parametrize(("game", "prompt"), [("food-truck", ".ft-prompt"), ("foodies", ".fd-controls > *")])
def test_a_no_is_heard_at_once_and_the_abandoned_game_asks_nothing(
    person: Callable[..., Person], game: str, prompt: str
) -> None:
    ana = person("Ana")
    table_id = create_table(ana, game, seats=2)
    ben = person("Ben", at=f"/t/{table_id}")
    seat_row(ben.page, "1").get_by_role("button", name="Join here").click()
    ana.page.get_by_test_id("start").click()
    for page in (ana.page, ben.page):
        expect(page.get_by_test_id("table-status")).to_have_text("In progress")
        # One is asked to act, the other told what they do ("Ana is choosing a truck…", "Ana rolls the die…").
        expect(page.locator(prompt).first).to_be_visible()

    def propose(who: Person) -> None:
        assert who.page.request.post(f"{who.base}/api/tables/{table_id}/abandon", data={"vote": "yes"}).ok

    # Ben says no: Ana, who proposed, hears it at once; Ben, who said it, gets no toast.
    propose(ana)
    ben.page.get_by_test_id("abandon-no").click()
    expect(ana.page.locator(".toast", has_text="Ben wants to keep playing.")).to_be_visible()
    expect(ben.page.get_by_test_id("log")).to_contain_text("Ben wants to keep playing: the game goes on.")
    expect(ben.page.locator(".toast", has_text="keep playing")).to_have_count(0)

    # Ana withdraws her own proposal: Ben hears that she no longer agrees, in his language.
    ben.page.get_by_role("button", name="Español").click()
    propose(ana)
    expect(ben.page.get_by_test_id("abandon-no")).to_be_visible()
    ana.page.get_by_role("button", name="Withdraw my agreement to abandon").click()
    expect(ben.page.locator(".toast", has_text="Ana ya no está de acuerdo en abandonar: la partida continúa.")).to_be_visible()
    expect(ana.page.get_by_test_id("log")).to_contain_text("Ana withdrew from abandoning")
    expect(ana.page.locator(".toast", has_text="no longer agrees")).to_have_count(0)

    # Then they agree: the game area keeps its last state but asks nobody anything and offers nothing to click.
    propose(ana)
    ben.page.get_by_test_id("abandon-yes").click()
    for page in (ana.page, ben.page):
        expect(page.get_by_test_id("result")).to_contain_text(re.compile("Abandoned by agreement|Abandonada"))
        expect(page.locator(prompt)).to_have_count(0)
        expect(page.get_by_test_id("game-area").locator(".legal")).to_have_count(0)
