"""The browser's session: the token stays in the HttpOnly cookie (never in storage or a socket's address), and
signing out ends it on the server."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Person
from tests.e2e.helpers import create_table

pytestmark = pytest.mark.e2e


def test_the_page_keeps_no_token_and_signing_out_ends_the_session(person: Callable[..., Person]) -> None:
    ana = person()
    addresses: list[str] = []
    ana.page.on("websocket", lambda ws: addresses.append(ws.url))
    ana.sign_in_as_guest("Ana")
    create_table(ana, "food-truck", seats=2)
    expect(ana.page.get_by_test_id("seats")).to_be_visible()
    for _ in range(50):  # the table's socket opens as the page loads
        if addresses:
            break
        ana.page.wait_for_timeout(100)
    (cookie,) = [c for c in ana.context.cookies() if c["name"] == "session"]
    token = cookie["value"]
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    stored = ana.page.evaluate("JSON.stringify(Object.entries(localStorage))")
    assert token not in stored and token.split(".")[-1] not in stored, stored
    assert ana.page.evaluate("document.cookie").find(token) == -1  # out of reach of scripts
    assert addresses and not any("token" in url for url in addresses), addresses

    ana.page.get_by_role("button", name="Sign out").click()
    expect(ana.page.get_by_test_id("user-name")).to_have_count(0)
    refused = httpx.get(ana.base + "/api/me", headers={"Authorization": f"Bearer {token}"})
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "session_revoked"
