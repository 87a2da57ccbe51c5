"""Lobby, private tables and invite links, escaping of what people type."""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Person
from tests.e2e.helpers import assert_quiet, create_table, seat_row

pytestmark = pytest.mark.e2e

EVIL = "<script>alert(1)</script>"


def test_private_table_joined_by_invite_link_and_hidden_from_the_lobby(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    expect(ana.page.get_by_test_id("user-name")).to_have_text("Ana")
    # A public table too, so the public list is known to be loaded when we look for the private one.
    public = ana.page.request.post(
        ana.base + "/api/tables", data={"game": "food-truck", "seats": 3, "visibility": "public"}
    ).json()

    private_id = create_table(ana, "food-truck", seats=2, private=True, name="Secret supper")
    expect(ana.page.get_by_test_id("waiting")).to_have_text(re.compile("1 more player"))
    link = ana.page.locator(".invite-url").input_value()
    assert re.search(rf"/t/{private_id}\?invite=\S+$", link)

    # Its badge says Private, on the table and in the host's list of her tables: not "Open", which reads as open to all.
    expect(ana.page.get_by_test_id("table-status")).to_have_text("Private")
    ana.goto("/")
    mine = ana.page.get_by_test_id("my-tables").locator(f"[data-table-id='{private_id}']")
    expect(mine.locator(".badge[data-status=private]")).to_have_text("Private")
    ana.goto(f"/t/{private_id}")

    # Someone who has never been here opens the link at phone width: sign in, then the table, seated only on Join.
    bo = person(width=390, height=800, at=link.removeprefix(ana.base))
    bo.sign_in_as_guest(EVIL)
    expect(bo.page.get_by_test_id("spectator-banner")).to_be_visible()
    expect(seat_row(bo.page, "0")).to_contain_text("Ana")
    expect(seat_row(bo.page, "1")).to_contain_text("Empty seat")
    expect(seat_row(ana.page, "1")).to_contain_text("Empty seat")
    bo.page.get_by_test_id("join").click()
    expect(seat_row(bo.page, "1")).to_contain_text(EVIL)
    expect(seat_row(bo.page, "1").locator(".tag.you")).to_be_visible()
    expect(bo.page.get_by_test_id("spectator-banner")).to_be_hidden()
    width = bo.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the table page overflows a phone screen ({width}px)"

    # The host sees the newcomer live, as text, and may start.
    expect(seat_row(ana.page, "1")).to_contain_text(EVIL)
    expect(ana.page.get_by_test_id("waiting")).to_have_text(re.compile("Start when you are ready"))
    expect(ana.page.get_by_test_id("start")).to_be_enabled()
    assert ana.page.locator("script:has-text('alert(1)')").count() == 0

    # Back in the lobby: the private table is in "my tables", never in the public lists.
    bo.goto("/")
    expect(bo.page.get_by_test_id("user-name")).to_have_text(EVIL)
    expect(bo.page.get_by_test_id("public-open").locator(f"[data-table-id='{public['id']}']")).to_be_visible()
    expect(bo.page.get_by_test_id("my-tables").locator(f"[data-table-id='{private_id}']")).to_be_visible()
    assert bo.page.locator(f"[data-testid^=public-] [data-table-id='{private_id}']").count() == 0
    assert bo.page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_page_opened_again_takes_its_scripts_and_styles_from_the_browser_without_asking(
    person: Callable[..., Person],
) -> None:
    """The second visit asks the server for the page alone: its modules, stylesheets and pictures are kept under the
    version's addresses (app/site_files.py), not checked one import level after another."""
    ana = person("Ana")
    ana.goto("/leaders")  # the lobby's files and some of the same
    ana.goto("/")
    expect(ana.page.get_by_test_id("user-name")).to_have_text("Ana")
    files = ana.page.evaluate("""() => performance.getEntriesByType("resource")
        .map((e) => ({path: new URL(e.name).pathname, transferSize: e.transferSize}))
        .filter((e) => /\\.(js|css|svg)$/.test(e.path))""")
    assert len(files) >= 5 and all(f["path"].startswith("/v/") for f in files), files
    assert [f for f in files if f["transferSize"]] == [], "asked the server again for these"


def test_lobby_lists_games_and_updates_public_tables_by_itself(person: Callable[..., Person]) -> None:
    cy = person("Cy")
    titles = cy.page.locator(".game-card h3")
    expect(titles.first).to_be_visible()
    assert "Food Truck" in titles.all_inner_texts()
    # Every game has its "How to play" page, beside the lobby.
    links = cy.page.locator(".game-card").get_by_test_id("rules-link")
    expect(links).to_have_count(len(titles.all_inner_texts()))
    for link in links.all():
        assert link.get_attribute("target") == "_blank"
        answer = cy.page.request.get(cy.base + str(link.get_attribute("href")))
        assert answer.ok and "How to play" in answer.text()
    ana = person("Ana")
    table_id = create_table(ana, "food-truck", seats=2)
    # Cy did nothing: the poll brings the new table, and Cy can take the free seat from the lobby.
    row = cy.page.get_by_test_id("public-open").locator(f"[data-table-id='{table_id}']")
    expect(row).to_be_visible()
    row.get_by_role("button", name="Join").click()
    cy.page.wait_for_url(re.compile(rf"/t/{table_id}$"))
    expect(seat_row(cy.page, "1")).to_contain_text("Cy")
    expect(seat_row(ana.page, "1")).to_contain_text("Cy")

    # Host controls before the start: remove Cy, seat a bot instead, then start.
    seat_row(ana.page, "1").get_by_role("button", name="Remove").click()
    expect(cy.page.locator(".toast")).to_contain_text("no longer seated")
    expect(cy.page.get_by_test_id("spectator-banner")).to_be_visible()
    expect(seat_row(cy.page, "1").get_by_role("button", name="Join here")).to_be_visible()
    expect(ana.page.get_by_test_id("waiting")).to_have_text("Waiting for 1 more player.")
    expect(ana.page.get_by_test_id("start")).to_be_disabled()
    # By keyboard: the seats are redrawn, and focus stays on the seat's control rather than going back to the top.
    seat_row(ana.page, "1").get_by_role("button", name="Add bot").focus()
    ana.page.keyboard.press("Enter")
    expect(seat_row(cy.page, "1")).to_contain_text("Bot")
    expect(seat_row(ana.page, "1").get_by_role("button", name="Remove")).to_be_focused()
    ana.page.get_by_test_id("start").click()
    expect(cy.page.get_by_test_id("table-status")).to_have_text("In progress")
    expect(cy.page.get_by_test_id("spectator-banner")).to_be_visible()
    assert cy.page.get_by_test_id("game-area").locator(".legal").count() == 0


def test_a_guest_saves_an_account_signs_out_and_logs_back_in(person: Callable[..., Person]) -> None:
    dee = person("Dee")
    username = f"dee{secrets.token_hex(3)}"
    dee.page.get_by_role("button", name="Save as account").click()
    dialog = dee.page.locator("dialog[open]")
    dialog.locator("input[name=username]").fill(username)
    dialog.locator("input[name=password]").fill("tasty-secret")
    dialog.locator("button[type=submit]").click()
    expect(dialog).to_have_count(0)
    expect(dee.page.get_by_role("button", name="Save as account")).to_have_count(0)
    expect(dee.page.get_by_test_id("user-name")).to_have_text("Dee")

    dee.page.get_by_role("button", name="Sign out").click()
    expect(dee.page.get_by_test_id("user-name")).to_have_count(0)
    dee.page.get_by_role("tab", name="Log in").click()
    dee.page.locator("form input[name=username]").fill(username)
    dee.expect_noise(r"status of 401 .*/api/auth/login\)$")
    dee.page.locator("form input[name=password]").fill("wrong-password")
    dee.page.locator("form button[type=submit]").click()
    expect(dee.page.locator(".form-error")).not_to_be_empty()
    dee.page.locator("form input[name=password]").fill("tasty-secret")
    dee.page.locator("form button[type=submit]").click()
    expect(dee.page.get_by_test_id("user-name")).to_have_text("Dee")

    # Spanish shell texts, remembered across pages.
    dee.page.get_by_role("button", name="Cambiar a español").click()
    expect(dee.page.get_by_role("heading", name="Mis mesas")).to_be_visible()
    dee.goto("/")
    expect(dee.page.get_by_role("heading", name="Juegos")).to_be_visible()
    # The games' own lobby texts too, with every choice in words; an unnamed table is named in Spanish.
    card = dee.page.locator(".game-card[data-game='foodies']")
    expect(card.locator(".game-desc")).to_contain_text("Tira el dado")
    card.get_by_role("button", name="Nueva mesa").click()
    expect(card.locator("select[name=special_chefs] option:checked")).to_have_text("Una pareja al azar")
    expect(card.locator("select[name=special_chefs]")).to_contain_text("El Especialista + El Trotamundos")
    card.locator("button[type=submit]").click()
    dee.page.wait_for_url(re.compile(r"/t/[^/?]+$"))
    expect(dee.page.get_by_role("heading", name="Foodies de Dee")).to_be_visible()
    expect(dee.page.get_by_test_id("table-options")).to_contain_text("Una pareja al azar")  # the options chosen
    rules = dee.page.get_by_test_id("rules-link")
    expect(rules).to_have_text("Cómo se juega")
    with dee.page.context.expect_page() as opened:
        rules.click()
    expect(opened.value.get_by_role("heading", level=1)).to_contain_text("Foodies")
    assert opened.value.locator("html").get_attribute("lang") == "es"
    opened.value.close()


def test_a_visitor_watches_without_signing_in_then_takes_and_leaves_a_seat(
    person: Callable[..., Person],
) -> None:
    ana = person("Ana")
    table_id = create_table(ana, "food-truck", seats=3)
    eve = person(at=f"/t/{table_id}")
    expect(eve.page.get_by_test_id("spectator-banner")).to_be_visible()
    expect(seat_row(eve.page, "0")).to_contain_text("Ana")
    expect(eve.page.get_by_role("button", name="Join here")).to_have_count(0)

    eve.page.locator(".signin-inline summary").click()
    eve.sign_in_as_guest("Eve")
    seat_row(eve.page, "2").get_by_role("button", name="Join here").click()
    expect(seat_row(eve.page, "2").locator(".tag.you")).to_be_visible()
    expect(eve.page.get_by_test_id("spectator-banner")).to_be_hidden()
    expect(seat_row(ana.page, "2")).to_contain_text("Eve")
    expect(ana.page.get_by_test_id("waiting")).to_have_text("Waiting for 1 more player.")

    eve.page.get_by_role("button", name="Leave table").click()
    expect(eve.page.get_by_test_id("spectator-banner")).to_be_visible()
    expect(seat_row(ana.page, "2")).to_contain_text("Empty seat")
    expect(eve.page.locator(".toast", has_text="no longer seated")).to_have_count(0)  # that is for the removed


def test_a_visitors_sign_in_form_follows_the_language_and_the_start(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    table_id = create_table(ana, "food-truck", seats=2)
    eve = person(at=f"/t/{table_id}")
    fold = eve.page.get_by_test_id("signin-inline")
    expect(fold.locator("summary")).to_have_text("Sign in to play")
    eve.page.get_by_role("button", name="Español").click()
    expect(fold.locator("summary")).to_have_text("Entra para jugar")
    fold.locator("summary").click()
    expect(fold.get_by_role("button", name="Jugar como invitado").last).to_be_visible()
    expect(fold).to_contain_text("Tu nombre")
    # Once the game starts no seat is left to take: signing in is for the chat.
    seat_row(ana.page, "1").get_by_role("button", name="Add bot").click()
    ana.page.get_by_test_id("start").click()
    expect(fold.locator("summary")).to_have_text("Entra para chatear")


def test_a_first_player_by_seat_is_offered_only_for_seats_the_table_has(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    card = ana.page.locator(".game-card[data-game='food-truck']")
    card.get_by_role("button", name="New table").click()
    first = card.locator("select[name=first_player]")
    first.select_option(label="Seat 2")
    expect(card.locator("select[name=first_player] option", has_text="Seat 3")).to_be_disabled()
    card.locator("select[name=seats]").select_option("4")
    expect(card.locator("select[name=first_player] option", has_text="Seat 4")).to_be_enabled()
    first.select_option(label="Seat 4")
    card.locator("select[name=seats]").select_option("3")
    expect(first.locator("option:checked")).to_have_text("Random")  # seat 4 is gone: back to the default


def test_a_start_refused_for_a_first_player_in_an_empty_seat_says_why_in_spanish(
    person: Callable[..., Person],
) -> None:
    ana = person("Ana")
    ana.page.get_by_role("button", name="Español").click()
    card = ana.page.locator(".game-card[data-game='food-truck']")
    card.get_by_role("button", name="Nueva mesa").click()
    card.locator("select[name=seats]").select_option("3")
    card.locator("select[name=first_player]").select_option(label="Asiento 3")
    card.locator("button[type=submit]").click()
    ana.page.wait_for_url(re.compile(r"/t/[^/?]+$"))
    seat_row(ana.page, "1").get_by_role("button", name="Añadir bot").click()
    expect(seat_row(ana.page, "1")).to_contain_text("Bot")
    # The third seat's player has just left, and the host presses Start before their page hears of it.
    ana.expect_noise(r"status of 409 .*/api/tables/[^/]+/start\)$")
    ana.page.get_by_test_id("start").evaluate("(button) => { button.disabled = false; button.click(); }")
    expect(ana.page.locator(".toast")).to_have_text(
        "Una opción de la mesa, como el jugador inicial, nombra un asiento vacío: sienta allí a un jugador o a un bot."
    )
    expect(ana.page.get_by_test_id("table-status")).to_have_text("Abierta")


def test_new_table_opens_over_the_lobby_without_moving_its_cards(person: Callable[..., Person]) -> None:
    """The form opens in a dialog: the game cards keep their places and sizes (opened inside its card, it would widen
    that card to the whole row and push the others down); Cancel, or Escape, closes it and the focus is back on the card's button."""
    ana = person("Ana")
    page = ana.page
    cards = page.locator(".game-card")
    expect(cards).to_have_count(4)
    boxes = "els => els.map((el) => { const r = el.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })"
    before = cards.evaluate_all(boxes)
    card = page.locator(".game-card[data-game='foodies']")
    card.get_by_role("button", name="New table").click()
    dialog = page.get_by_test_id("create-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading")).to_have_text("New table: Foodies")
    expect(dialog.locator("select[name=seats]")).to_be_focused()
    assert cards.evaluate_all(boxes) == before
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    expect(card.get_by_role("button", name="New table")).to_be_focused()
    assert cards.evaluate_all(boxes) == before
    card.get_by_role("button", name="New table").click()
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    assert_quiet(ana)


@pytest.mark.parametrize(("game", "level"), [("food-truck", "easy"), ("food-chain-magnate", None)])
def test_play_against_a_bot_is_one_click_to_a_started_game(
    person: Callable[..., Person], game: str, level: str | None
) -> None:
    ana = person("Ana")
    page = ana.page
    card = page.locator(f".game-card[data-game='{game}']")
    if level is not None:
        card.get_by_test_id("play-bot-level").select_option(level)
    card.get_by_test_id("play-bot").click()
    page.wait_for_url(re.compile(r"/t/[^/?]+$"))
    expect(page.get_by_test_id("table-status")).to_have_text("In progress")
    expect(seat_row(page, "0").locator(".tag.you")).to_be_visible()
    expect(seat_row(page, "1").locator(".tag", has_text="Bot")).to_be_visible()
    expect(page.get_by_test_id("game-area")).to_be_visible()
    table = page.evaluate("window.foodGames.state().table")
    assert table["visibility"] == "private" and table["seat_count"] == 2 and table["game"] == game
    # The level chosen beside the button (normal unless changed), which the bot's name says.
    assert table["seats"][1]["bot_level"] == (level or "normal")
    assert_quiet(ana)


def test_my_tables_are_grouped_by_what_they_ask_and_finished_ones_paged(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    page, post, base = ana.page, ana.page.request.post, ana.base

    def table(start: bool) -> str:
        tid = str(post(base + "/api/tables", data={"game": "food-truck", "seats": 2}).json()["id"])
        if start:
            assert post(f"{base}/api/tables/{tid}/bots", data={"seat": "1"}).ok
            assert post(f"{base}/api/tables/{tid}/start", data={}).ok
        return tid

    waiting = table(start=False)
    with ana.server.quick_bots():
        finished = [table(start=True) for _ in range(6)]
        for tid in finished:  # bots play both seats to the end
            assert post(f"{base}/api/tables/{tid}/stand_in", data={"seat": "0"}).ok
        mine = table(start=True)  # her truck, then her prep: the game waits on her
        deadline = time.monotonic() + 90
        while True:
            tables = {x["id"]: x for x in page.request.get(base + "/api/me/tables").json()["tables"]}
            done = all(tables[tid]["status"] == "finished" for tid in finished)
            if done and "0" in tables[mine]["awaiting"]:
                break
            assert time.monotonic() < deadline, "the bots did not finish their games"
            time.sleep(0.1)
    ana.goto("/")
    groups = page.get_by_test_id("my-tables")
    expect(groups.get_by_test_id("my-tables-turn").locator(f"[data-table-id='{mine}']")).to_be_visible()
    expect(groups.get_by_test_id("my-tables-open").locator(f"[data-table-id='{waiting}']")).to_be_visible()
    expect(groups.get_by_test_id("my-tables-playing")).to_have_count(0)
    done_list = groups.get_by_test_id("my-tables-finished")
    expect(done_list.get_by_role("heading")).to_have_text("Finished (6)")
    expect(done_list.locator("li.table-row")).to_have_count(5)
    done_list.get_by_test_id("my-tables-more").click()
    expect(done_list.locator("li.table-row")).to_have_count(6)
    expect(done_list.get_by_test_id("my-tables-more")).to_have_count(0)
    assert_quiet(ana)
