"""A forgotten password, in the browser: "Forgot your password?" under the sign-in form, a link mailed to the
account's confirmed address (a local SMTP server, aiosmtpd), the page that sets the new password, and signing in
with it."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import AppServer, mailing_server, people
from tests.mail import Inbox as Mailbox

pytestmark = pytest.mark.e2e


class Inbox(Mailbox):
    def link(self, subject: str, path: str) -> str:
        deadline = time.monotonic() + 10
        while True:
            for mail in self.mails:
                part = mail.get_body(("plain",))
                found = re.search(rf"https?://\S+{re.escape(path)}\S*", str(part.get_content()) if part else "")
                if subject in str(mail["Subject"]) and found:
                    return found.group(0)
            assert time.monotonic() < deadline, [str(m["Subject"]) for m in self.mails]
            time.sleep(0.05)


@pytest.fixture
def mailing(tmp_path: Path) -> Iterator[tuple[AppServer, Inbox]]:
    inbox = Inbox()
    with mailing_server(tmp_path, inbox) as server:
        yield server, inbox


def test_a_forgotten_password_is_reset_by_the_mailed_link(browser: Browser, mailing: tuple[AppServer, Inbox]) -> None:
    server, inbox = mailing
    username = f"ana{uuid.uuid4().hex[:8]}"
    with httpx.Client(base_url=server.url, timeout=30) as client:
        token = client.post("/api/auth/register", json={"username": username, "password": "old password",
                                                         "name": "Ana"}).json()["token"]
        client.put("/api/me/notifications", json={"email": "ana@example.test"},
                   headers={"Authorization": f"Bearer {token}"}).raise_for_status()
        assert "Address confirmed" in client.get(inbox.link("Confirm", "/api/email/verify?token=")).text

    with people(browser, server) as person:
        ana = person()
        page = ana.page
        page.get_by_role("tab", name="Log in").click()
        page.get_by_test_id("forgot-password").click()
        page.wait_for_url(re.compile(r"/reset\.html$"))
        page.get_by_label("Username or email address").fill(username)
        page.get_by_role("button", name="Mail me a link").click()
        expect(page.get_by_test_id("reset-done")).to_contain_text("a link is on its way")

        link = inbox.link("Reset your password", "/reset.html#token=")
        page.goto(link)
        form = page.get_by_test_id("reset-set")
        form.get_by_label("New password", exact=True).fill("a new secret")
        form.get_by_label("New password, again").fill("a new secret")
        form.get_by_role("button", name="Set new password").click()
        expect(page.get_by_test_id("reset-done")).to_contain_text("Password changed")
        assert "token" not in page.url  # the used link leaves the address bar

        # The old password is refused, the new one signs in.
        page.goto(server.url + "/")
        page.get_by_role("tab", name="Log in").click()
        page.locator("form input[name=username]").fill(username)
        page.locator("form input[name=password]").fill("a new secret")
        page.locator("form button[type=submit]").click()
        expect(page.get_by_test_id("user-name")).to_have_text("Ana")
