"""Email notifications end to end: a real server sends to a local SMTP server (aiosmtpd) started here. An address is
confirmed by its link before anything else goes there; then your turn in a turn-based game (once per turn, and not
while you are at the table), an invitation, the end of a game, each with a one-click unsubscribe that works."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Iterator
from email.message import EmailMessage
from pathlib import Path

import httpx
import pytest

from tests.conftest import Database, Server
from tests.mail import Inbox
from tests.platform.client import Player, Socket

TURN_BASED = {"kind": "turn", "per_move": 3600, "bank": 0, "timeout": "bot_move"}


@pytest.fixture
def mailing(fresh_db: Database, tmp_path: Path, smtp: tuple[Inbox, int]) -> Iterator[Server]:
    srv = Server(fresh_db, tmp_path, SMTP_HOST="127.0.0.1", SMTP_PORT=str(smtp[1]), SMTP_STARTTLS="false",
                 EMAIL_SWEEP_SECONDS="0.05").start()
    yield srv
    srv.stop()


def body(mail: EmailMessage) -> str:
    part = mail.get_body(("plain",))
    assert part is not None
    return str(part.get_content())


def link_in(mail: EmailMessage, path: str) -> str:
    found = re.search(rf"https?://\S+{re.escape(path)}\S*", body(mail))
    assert found, body(mail)
    return found.group(0)


async def confirmed(player: Player, inbox: Inbox, address: str) -> None:
    answer = (await player.http.put("/api/me/notifications", json={"email": address})).json()
    assert answer["email"] == address and answer["email_verified"] is False
    [mail] = await inbox.wait(address, "Confirm your email address")
    assert mail["List-Unsubscribe"] is None  # a confirmation is no notice to turn off
    async with httpx.AsyncClient() as anyone:  # the link works without signing in
        page = await anyone.get(link_in(mail, "/api/email/verify?token="))
    assert "Address confirmed" in page.text
    assert (await player.http.get("/api/me/notifications")).json()["email_verified"] is True


@pytest.fixture
async def people(mailing: Server, smtp: tuple[Inbox, int]) -> AsyncIterator[tuple[Player, Player, Inbox]]:
    ana, bo = await Player.account(mailing.url, "Ana"), await Player.account(mailing.url, "Bo")
    await confirmed(ana, smtp[0], "ana@example.test")
    await confirmed(bo, smtp[0], "bo@example.test")
    yield ana, bo, smtp[0]
    await ana.close()
    await bo.close()


async def test_an_address_must_be_an_accounts_and_well_formed(mailing: Server, smtp: tuple[Inbox, int]) -> None:
    guest, ana = await Player.guest(mailing.url, "Gus"), await Player.account(mailing.url, "Ana")
    r = await guest.http.put("/api/me/notifications", json={"email": "gus@example.test"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_registered"
    assert (await ana.http.get("/api/me/notifications")).json() == {
        "enabled": True, "push": True, "email": None, "email_verified": False, "turn": True, "finished": True,
        "invite": True}
    for sent, code in [({"email": "not an address"}, "bad_email"), ({"email": 5}, "bad_email"),
                       ({"turn": "yes"}, "bad_notify"), ({"email": "ana@example.test", "turn": 1}, "bad_notify")]:
        r = await ana.http.put("/api/me/notifications", json=sent)
        assert r.status_code == 422 and r.json()["error"]["code"] == code, r.text
    assert (await ana.http.get("/api/me/notifications")).json()["email"] is None  # nothing half changed
    async with httpx.AsyncClient(base_url=mailing.url) as anyone:
        assert "not valid" in (await anyone.get("/api/email/verify", params={"token": "forged"})).text
    await asyncio.sleep(0.3)
    assert smtp[0].mails == []  # nothing was sent for any of it
    await guest.close()
    await ana.close()


async def test_turns_invitations_and_the_end_are_mailed_once_and_each_kind_can_be_turned_off(
    people: tuple[Player, Player, Inbox],
) -> None:
    ana, bo, inbox = people
    t = await ana.table(time_control=TURN_BASED, options={"target": 1}, name="Slow lunch")
    # An invitation by username: Bo gets a link to the table; an unknown name gets the same answer and no mail.
    assert (await ana.post(f"/api/tables/{t['id']}/invite_email", {"username": bo.user["username"]})).json() == {
        "ok": True}
    assert (await ana.post(f"/api/tables/{t['id']}/invite_email", {"username": "nobody-here"})).json() == {"ok": True}
    r = await bo.post(f"/api/tables/{t['id']}/invite_email", {"username": ana.user["username"]}, ok=False)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    [invited] = await inbox.wait("bo@example.test", "Ana invites you")
    assert f"/t/{t['id']}" in body(invited) and "Slow lunch" in str(invited["Subject"])

    await bo.post(f"/api/tables/{t['id']}/join", {})
    await ana.post(f"/api/tables/{t['id']}/start")
    # Both pick at once: each is told, once.
    for address in ("ana@example.test", "bo@example.test"):
        [mail] = await inbox.wait(address, "Your turn: Slow lunch")
        assert f"/t/{t['id']}" in body(mail) and mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    sa = await Socket.open(ana.base.replace("http", "ws"), t["id"], ana.token)
    await sa.expect("snapshot")
    assert (await sa.act({"type": "pick", "n": 1}))["type"] == "ack"
    await sa.close()
    sb = await Socket.open(bo.base.replace("http", "ws"), t["id"], bo.token)
    await sb.expect("snapshot")
    assert (await sb.act({"type": "pick", "n": 1}))["type"] == "ack"
    first = (await bo.http.get(f"/api/tables/{t['id']}")).json()["awaiting"]
    await asyncio.sleep(0.5)
    # A new turn for whoever bumps first: mailed to Ana, who left the table; not to Bo, who is at it.
    assert len(inbox.to("ana@example.test", "Your turn")) == (2 if first == ["0"] else 1)
    assert len(inbox.to("bo@example.test", "Your turn")) == 1

    # Ana turns "your turn" mails off with the one click of her first one.
    [turn_mail, *_] = inbox.to("ana@example.test", "Your turn")
    unsubscribe = str(turn_mail["List-Unsubscribe"]).strip("<>")
    async with httpx.AsyncClient() as client:
        assert "Unsubscribe" in (await client.get(unsubscribe)).text  # opening the link changes nothing
        assert (await ana.http.get("/api/me/notifications")).json()["turn"] is True
        done = await client.post(unsubscribe, content=b"List-Unsubscribe=One-Click",
                                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert "No more mails about your turn in a turn-based game" in done.text
    assert (await ana.http.get("/api/me/notifications")).json()["turn"] is False

    await sb.close()
    for _ in range(2):  # each bumps once; the target is 1, so the round's end ends the game
        table = (await ana.http.get(f"/api/tables/{t['id']}")).json()
        mover = ana if table["awaiting"] == [table["my_seat"]] else bo
        sock = await Socket.open(mover.base.replace("http", "ws"), t["id"], mover.token)
        await sock.expect("snapshot")
        assert (await sock.act({"type": "bump"}))["type"] == "ack"
        await sock.close()
    assert (await ana.http.get(f"/api/tables/{t['id']}")).json()["status"] == "finished"
    for address in ("ana@example.test", "bo@example.test"):
        [over] = await inbox.wait(address, "Game over: Slow lunch")
        assert "Won by" in body(over) and "/api/email/unsubscribe?token=" in body(over)
    await asyncio.sleep(0.5)
    assert len(inbox.to("ana@example.test", "Game over")) == 1  # the rating's change after the end mails nothing
    # Her turns after she turned them off were not mailed.
    assert len(inbox.to("ana@example.test", "Your turn")) == (2 if first == ["0"] else 1)


async def test_without_smtp_nothing_is_offered(server: Server) -> None:
    ana = await Player.account(server.url, "Ana")
    assert (await ana.http.get("/api/me/notifications")).json()["enabled"] is False
    await ana.close()
