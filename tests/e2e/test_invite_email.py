"""The host invites a registered person to their table by email from the table page: the field beside the invite
link, the confirmation, the mail at a local SMTP server (aiosmtpd), and refusals said under the field."""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Route, expect

from tests.e2e.conftest import AppServer, mailing_server, people
from tests.e2e.helpers import create_table
from tests.mail import Inbox

pytestmark = pytest.mark.e2e


@pytest.fixture
def mailing(tmp_path: Path) -> Iterator[tuple[AppServer, Inbox]]:
    inbox = Inbox()
    with mailing_server(tmp_path, inbox) as server:
        yield server, inbox


def mail_to(inbox: Inbox, address: str, subject: str, timeout: float = 10) -> EmailMessage:
    """The first mail to `address` whose subject holds `subject`, waited for."""
    deadline = time.monotonic() + timeout
    while not inbox.to(address, subject):
        assert time.monotonic() < deadline, f"no mail {subject!r} to {address}: {[m['Subject'] for m in inbox.mails]}"
        time.sleep(0.05)
    return inbox.to(address, subject)[0]


def body_of(mail: EmailMessage) -> str:
    part = mail.get_body(("plain",))
    return str(part.get_content()) if part else ""


def confirmed_account(server: AppServer, inbox: Inbox, name: str, address: str) -> str:
    """A registered person with a confirmed address and every mail on (the default); their username."""
    username = f"{name.lower()}{uuid.uuid4().hex[:8]}"
    with httpx.Client(base_url=server.url, timeout=30) as client:
        token = client.post("/api/auth/register", json={"username": username, "password": "a long secret",
                                                         "name": name}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        client.put("/api/me/notifications", json={"email": address}, headers=auth).raise_for_status()
        link = re.search(r"https?://\S+/api/email/verify\?token=\S+", body_of(mail_to(inbox, address, "Confirm")))
        assert link
        assert "Address confirmed" in client.get(link.group(0)).text
        assert client.get("/api/me/notifications", headers=auth).json()["invite"] is True
    return username


def test_the_host_invites_a_registered_person_by_email(browser: Browser, mailing: tuple[AppServer, Inbox]) -> None:
    server, inbox = mailing
    bo = confirmed_account(server, inbox, "Bo", "bo@example.test")
    with people(browser, server) as person:
        ana = person("Ana")
        table_id = create_table(ana, "food-truck", seats=2, private=True)
        page = ana.page
        form = page.get_by_test_id("invite-email")
        expect(form).to_be_visible()
        # Beside the invite link, in the same panel.
        expect(page.get_by_test_id("prestart").locator(".invite-url")).to_be_visible()
        form.get_by_label("Invite by email").fill(bo)
        form.get_by_test_id("invite-email-send").click()
        status = form.get_by_test_id("invite-email-status")
        expect(status).to_have_text(f"Invitation sent to {bo} if they take invitations by email.")
        expect(form.get_by_test_id("invite-email-name")).to_have_value("")

        mail = mail_to(inbox, "bo@example.test", "invites you")
        body = body_of(mail)
        # A private table's link carries its invite, so the link alone lets Bo in.
        assert re.search(rf"/t/{table_id}\?invite=\S+", body), body
        assert mail["List-Unsubscribe"]

        # Someone with no such account: the same answer (it tells nobody who has an address), and no mail.
        form.get_by_test_id("invite-email-name").fill("nobody-by-that-name")
        form.get_by_test_id("invite-email-send").click()
        expect(status).to_have_text("Invitation sent to nobody-by-that-name if they take invitations by email.")
        time.sleep(0.5)  # the outbox is swept every 0.05 s: a mail would have come by now
        assert len(inbox.to("bo@example.test", "invites you")) == 1


def test_refusals_show_under_the_field_and_the_page_carries_on(browser: Browser, mailing: tuple[AppServer, Inbox]) -> None:
    server, _inbox = mailing
    with people(browser, server) as person:
        ana = person("Ana")
        create_table(ana, "food-truck", seats=2)
        page = ana.page
        form = page.get_by_test_id("invite-email")
        status = form.get_by_test_id("invite-email-status")
        name = form.get_by_test_id("invite-email-name")

        # Nothing typed: said at once, nothing sent.
        form.get_by_test_id("invite-email-send").click()
        expect(status).to_have_text("Type the username of the person to invite.")
        expect(status).to_have_attribute("data-state", "error")

        # The server's refusals (a game started meanwhile, too many requests) are said where the person looks, and what
        # they typed stays to send again.
        refusals = [
            (409, {"error": {"code": "already_started", "message": "The game has already started."}}),
            (429, {"error": {"code": "too_many_requests", "message": "Too many attempts; wait a little."}}),
        ]

        def refuse(route: Route) -> None:
            code, body = refusals.pop(0)
            route.fulfill(status=code, content_type="application/json", body=json.dumps(body))

        ana.expect_noise(r"status of (409|429)")
        page.route(re.compile(r"/invite_email$"), refuse)
        name.fill("someone")
        form.get_by_test_id("invite-email-send").click()
        expect(status).to_have_text("The game has already started.")
        expect(name).to_have_value("someone")
        form.get_by_test_id("invite-email-send").click()
        expect(status).to_have_text("Too many attempts; wait a little.")
        page.unroute(re.compile(r"/invite_email$"))

        # The page still works: the host adds a bot and starts, and the form goes with the waiting room.
        seat = page.get_by_test_id("seats").locator("li[data-seat='1']")
        seat.get_by_role("button", name="Add bot").click()
        expect(seat).to_contain_text("Bot")
        page.get_by_test_id("start").click()
        expect(page.locator("main")).to_have_attribute("data-status", "playing")
        expect(form).to_have_count(0)


def test_only_the_host_is_offered_the_invitation(browser: Browser, mailing: tuple[AppServer, Inbox]) -> None:
    server, _inbox = mailing
    with people(browser, server) as person:
        ana = person("Ana")
        create_table(ana, "food-truck", seats=3)
        bo = person("Bo", at=ana.page.url.removeprefix(ana.base))
        expect(bo.page.get_by_test_id("prestart")).to_be_visible()
        expect(bo.page.get_by_test_id("invite-email")).to_have_count(0)
        # The API refuses anyone but the host, whatever a page offers.
        answer = bo.page.request.post(ana.page.url.replace("/t/", "/api/tables/") + "/invite_email",
                                      data={"username": "whoever"})
        assert answer.status == 403 and answer.json()["error"]["code"] == "not_host"
