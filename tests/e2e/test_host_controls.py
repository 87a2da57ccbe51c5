"""The host's controls against abuse: a new invite link that retires the old one, and who may chat."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Person
from tests.e2e.helpers import create_table

pytestmark = pytest.mark.e2e


def test_the_host_replaces_a_leaked_invite_link(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    table_id = create_table(ana, "food-truck", seats=3, private=True)
    old = ana.page.locator(".invite-url").input_value()
    ana.page.get_by_test_id("invite-renew").click()
    expect(ana.page.locator(".invite-url")).not_to_have_value(old)
    new = ana.page.locator(".invite-url").input_value()
    assert re.search(rf"/t/{table_id}\?invite=\S+$", new)

    # The old link shows nothing any more to someone else; the new one works.
    for link, status in ((old, 404), (new, 200)):
        answer = httpx.get(ana.base + f"/api/tables/{table_id}", params={"invite": link.rsplit("=", 1)[1]})
        assert answer.status_code == status, (link, answer.text)


def test_the_host_keeps_the_chat_to_the_players(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    create_table(ana, "food-truck", seats=2)
    cy = person("Cy", at=ana.page.url.removeprefix(ana.base))
    expect(cy.page.get_by_test_id("chat-input")).to_be_visible()
    expect(cy.page.get_by_test_id("chat-mode")).to_be_hidden()  # not the host's

    mode = ana.page.get_by_test_id("chat-mode")
    expect(mode).to_be_visible()
    mode.select_option("players")
    expect(ana.page.get_by_test_id("log")).to_contain_text("the players only")

    cy.page.get_by_test_id("chat-input").fill("hello from the rail")
    cy.page.get_by_test_id("chat-send").click()
    expect(cy.page.get_by_test_id("chat-error")).to_contain_text("keeps this table's chat to its players")
    ana.page.get_by_test_id("chat-input").fill("just us")
    ana.page.get_by_test_id("chat-send").click()
    expect(cy.page.get_by_test_id("chat-list")).to_contain_text("just us")
