"""My account on my own page: a new name shows in the header and at the tables at once; a guest may save an account;
a new password or a sign-out everywhere signs out my other browsers, their open tables included."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Person
from tests.e2e.helpers import create_table, save_account, seat_row

pytestmark = pytest.mark.e2e


def test_a_rename_on_my_page_shows_in_my_header_and_at_my_table(person: Callable[..., Person]) -> None:
    ana, bo = person("Ana", width=390, height=844), person("Bo")
    table = ana.page.request.post(ana.base + "/api/tables", data={"game": "food-truck", "seats": 2}).json()
    tid = table["id"]
    bo.goto(f"/t/{tid}")
    expect(seat_row(bo.page, "0")).to_contain_text("Ana")

    # From the header to my page: the account section is mine alone, and as a guest I am shown how to save it.
    page = ana.page
    page.get_by_test_id("my-profile").click()
    page.wait_for_url(re.compile(r"/p/[0-9a-f]{16}$"))
    account = page.get_by_test_id("account")
    expect(account.get_by_test_id("account-guest")).to_be_visible()
    expect(account.get_by_test_id("account-password")).to_have_count(0)

    # A refusal is said beside the form and changes nothing.
    ana.expect_noise(r"status of 422 .*/api/me\)$")
    name = account.get_by_role("textbox", name="Display name")
    name.fill("   ")
    account.get_by_role("button", name="Change name").click()
    expect(account.get_by_test_id("account-name-error")).to_contain_text("must not be empty")
    expect(page.get_by_test_id("user-name")).to_have_text("Ana")

    # Keyboard only: the new name, Enter.
    name.fill("Anabel")
    name.press("Enter")
    expect(page.get_by_test_id("user-name")).to_have_text("Anabel")
    expect(page.get_by_test_id("profile-name")).to_contain_text("Anabel")
    expect(account.get_by_test_id("account-name-error")).to_be_empty()
    # On a 390-px phone nothing makes the page scroll sideways.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    # Bo, at the table, sees the seat change without reloading, and the log says who it is.
    expect(seat_row(bo.page, "0")).to_contain_text("Anabel")
    expect(bo.page.get_by_test_id("log")).to_contain_text("Ana is now called Anabel.")

    # The pointer to an account opens the sign-up that keeps Anabel's id: then the password form is offered.
    account.get_by_test_id("account-register").click()
    dialog = page.locator("dialog[open]")
    dialog.locator("input[name=username]").fill(f"anabel{tid[:6]}")
    dialog.locator("input[name=password]").fill("correct horse")
    dialog.locator("button[type=submit]").click()
    expect(page.get_by_test_id("account-password")).to_be_visible()
    expect(page.get_by_test_id("profile-kind")).to_have_text("Registered player")
    form = page.get_by_test_id("account-password")
    ana.expect_noise(r"status of 403 .*/api/me/password\)$")
    form.get_by_label("Current password").fill("wrong horse")
    form.get_by_label("New password").fill("battery staple")
    form.get_by_role("button", name="Change password").click()
    expect(page.get_by_test_id("account-password-error")).to_contain_text("current password is not right")
    form.get_by_label("Current password").fill("correct horse")
    form.get_by_role("button", name="Change password").click()
    expect(page.locator("#toasts")).to_contain_text("Password changed")
    # Still signed in here, with the new token.
    page.reload()
    expect(page.get_by_test_id("user-name")).to_have_text("Anabel")


def _log_in_elsewhere(make: Callable[..., Person], username: str, password: str = "correct horse") -> Person:
    """The same person in another browser, logged in from the lobby's form."""
    other = make()
    other.page.get_by_role("tab", name="Log in").click()
    other.page.locator("form input[name=username]").fill(username)
    other.page.locator("form input[name=password]").fill(password)
    other.page.locator("form button[type=submit]").click()
    other.page.get_by_test_id("user-name").wait_for()
    return other


def _running_table(ana: Person) -> str:
    table_id = create_table(ana, "food-truck", seats=2)
    seat_row(ana.page, "1").get_by_role("button", name="Add bot").click()
    ana.page.get_by_test_id("start").click()
    expect(ana.page.get_by_test_id("table-status")).to_have_text("In progress")
    return table_id


def _tab(who: Person, path: str) -> Page:
    """Another tab of the person's browser (its errors count as theirs)."""
    tab = who.context.new_page()
    tab.on("pageerror", lambda exc: who.errors.append(str(exc)))
    tab.goto(who.base + path)
    return tab


def _online(who: Person) -> None:
    expect(who.page.get_by_test_id("conn")).to_have_attribute("data-state", "online")


def test_a_password_change_signs_out_my_other_browser_and_this_one_plays_on(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    username = f"ana{secrets.token_hex(3)}"
    save_account(ana, username)
    table_id = _running_table(ana)
    laptop = _log_in_elsewhere(person, username)
    laptop.goto(f"/t/{table_id}")
    _online(laptop)
    _online(ana)
    phone = _log_in_elsewhere(person, username)  # a third browser, on the lobby: no socket, only its polls
    # Its polls are how it finds out: the first ones after the change are refused.
    phone.expect_noise(r"status of 401 .*/api/(me/)?tables")

    # Ana changes her password from her own page, in another tab of her first browser.
    account_tab = _tab(ana, ana.page.get_by_test_id("my-profile").get_attribute("href") or "")
    form = account_tab.get_by_test_id("account-password")
    form.get_by_label("Current password").fill("correct horse")
    form.get_by_label("New password").fill("battery staple")
    form.get_by_role("button", name="Change password").click()
    expect(account_tab.locator("#toasts")).to_contain_text("Password changed")

    # The other browser is signed out at once, and says why; its socket is closed.
    signed_out = laptop.page.get_by_test_id("signed-out")
    expect(signed_out).to_contain_text("You were signed out")
    expect(signed_out).to_contain_text("Your password changed")
    expect(laptop.page.get_by_test_id("user-name")).to_have_count(0)
    assert laptop.page.evaluate("window.foodGames.connected()") is False
    laptop.page.get_by_role("button", name="Español").click()
    expect(signed_out).to_contain_text("Se cerró tu sesión")
    # The phone's lobby finds out at its next poll, refused, and says so.
    expect(phone.page.locator("#toasts")).to_contain_text("Your password changed", timeout=10_000)
    expect(phone.page.get_by_test_id("user-name")).to_have_count(0)

    # The first browser's table carries on with the new token, with no error: still chatting, still playing.
    _online(ana)
    box = ana.page.get_by_test_id("chat-input")
    box.fill("new password, same game")
    box.press("Enter")
    expect(ana.page.get_by_test_id("chat-line").last).to_contain_text("new password, same game")
    ana.page.wait_for_function("() => window.foodGames.state().actions.length > 0")
    sent = ana.page.evaluate("window.foodGames.send(window.foodGames.state().actions[0]).then(() => 'sent', (e) => e.code)")
    assert sent == "sent"
    expect(ana.page.get_by_test_id("user-name")).to_have_text("Ana")
    assert ana.page.locator(".toast-error").count() == 0
    assert ana.page.get_by_test_id("signed-out").count() == 0

    # Signing in again on the laptop (the page opens as a visitor's first: its refused cookie is gone).
    laptop.page.get_by_role("button", name="Volver a entrar").click()
    expect(laptop.page.get_by_test_id("spectator-banner")).to_be_visible()
    expect(laptop.page.get_by_test_id("signin-inline")).to_be_visible()


def test_sign_out_everywhere_from_my_page_signs_out_every_browser(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    table_id = create_table(ana, "food-truck", seats=2)
    page = ana.page
    mine = page.get_by_test_id("my-profile")
    expect(mine).to_have_attribute("target", "_blank")  # from the table she plays at, her page opens beside it
    ana.goto(mine.get_attribute("href") or "")
    page.wait_for_url(re.compile(r"/p/[0-9a-f]{16}$"))
    account = page.get_by_test_id("account")
    # A guest is not offered it: with no password, a guest signed out could never come back.
    expect(account.get_by_test_id("account-guest")).to_be_visible()
    expect(account.get_by_test_id("account-everywhere")).to_have_count(0)
    username = f"ana{secrets.token_hex(3)}"
    save_account(ana, username)
    laptop = _log_in_elsewhere(person, username)
    laptop_lobby = _tab(laptop, "/")  # the laptop has the lobby open too
    # A lobby finds out from another tab or from its next poll, refused.
    for who in (ana, laptop):
        who.expect_noise(r"status of 401 .*/api/(me/)?tables")
    laptop.goto(f"/t/{table_id}")
    _online(laptop)
    lobby = _tab(ana, "/")  # and so has this browser, in another tab
    for tab in (laptop_lobby, lobby):
        expect(tab.get_by_test_id("user-name")).to_have_text("Ana")

    box = page.get_by_test_id("account-everywhere")
    box.get_by_role("button", name="Sign out everywhere").click()
    dialog = page.get_by_test_id("confirm-dialog")
    expect(dialog).to_contain_text("this one included")
    dialog.get_by_role("button", name="Cancel").click()  # asked first: nothing happens without a yes
    expect(page.get_by_test_id("user-name")).to_have_text("Ana")
    box.get_by_role("button", name="Sign out everywhere").click()
    page.get_by_test_id("confirm").click()

    # This page, signed out too, shows my profile as anyone sees it; the laptop is signed out at the table.
    expect(page.locator("#toasts")).to_contain_text("You are signed out everywhere.")
    expect(page.get_by_test_id("user-name")).to_have_count(0)
    expect(page.get_by_test_id("account")).to_have_count(0)
    expect(page.get_by_test_id("profile-name")).to_contain_text("Ana")
    expect(laptop.page.get_by_test_id("signed-out")).to_be_visible()
    assert laptop.page.evaluate("window.foodGames.connected()") is False
    # The lobbies, which hold no socket, find out too (from the other tab, or their next refused poll), and say so.
    for tab in (laptop_lobby, lobby):
        expect(tab.locator("#toasts")).to_contain_text("you signed out everywhere", timeout=10_000)
        expect(tab.get_by_test_id("user-name")).to_have_count(0)
    # Both sign back in with the password.
    page.goto(ana.base + "/")
    page.get_by_role("tab", name="Log in").click()
    page.locator("form input[name=username]").fill(username)
    page.locator("form input[name=password]").fill("correct horse")
    page.locator("form button[type=submit]").click()
    expect(page.get_by_test_id("user-name")).to_have_text("Ana")
