"""My account on my own page: a new name shows in the header and at the tables at once; a guest may save an account."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Person
from tests.e2e.helpers import seat_row

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
