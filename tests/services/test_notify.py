"""The email outbox (services/notify.py) on this run's database, sending to a local SMTP server: every mail goes once,
though two runtimes standing for two server processes send at the same moment (Postgres); a mail the server keeps
refusing is tried a few times and given up, without holding up the others."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import EmailOut, User
from app.main import run_migrations
from app.runtime import Runtime
from app.services.notify import MAX_ATTEMPTS, enqueue
from tests.conftest import IS_POSTGRES, SECRET, Database
from tests.mail import smtp_server


class Inbox:
    def __init__(self) -> None:
        self.subjects: list[str] = []

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:  # noqa: N802
        if address.startswith("bounce@"):
            return "550 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        subject = next(line for line in envelope.content.decode().splitlines() if line.startswith("Subject: "))
        self.subjects.append(subject.removeprefix("Subject: "))
        return "250 OK"


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    with smtp_server(inbox) as port:
        yield inbox, port


@pytest.fixture
async def runtimes(fresh_db: Database, smtp: tuple[Inbox, int]) -> AsyncIterator[list[Runtime]]:
    settings = Settings(database_url=fresh_db.url, secret_key=SECRET, smtp_host="127.0.0.1", smtp_port=smtp[1],
                        smtp_starttls=False)
    await asyncio.to_thread(run_migrations, settings.effective_database_url)
    made = [Runtime(settings) for _ in range(2 if IS_POSTGRES else 1)]
    async with made[0].sessions() as session:
        for name in ("ana", "bounce"):
            session.add(User(id=name, name=name.title(), username=name, email=f"{name}@example.test",
                             email_verified=True))
        await session.commit()
    try:
        yield made
    finally:
        for rt in made:
            await rt.stop()


async def queued(rt: Runtime, user_id: str, keys: list[str]) -> None:
    async with rt.sessions() as session:
        user = await session.get(User, user_id)
        assert user is not None
        for key in [*keys, *keys]:  # each twice: kept once
            await enqueue(session, key, user, f"mail {key}", "Hello.", None)
        await session.commit()


async def test_every_mail_is_sent_once_by_whichever_process_claims_it(
    runtimes: list[Runtime], smtp: tuple[Inbox, int]
) -> None:
    keys = [f"k{i}" for i in range(45)]
    await queued(runtimes[0], "ana", keys)
    while True:
        sent = await asyncio.gather(*(rt.notifications.send_due() for rt in runtimes for _ in range(2)))
        if not any(sent):
            break
    assert sorted(smtp[0].subjects) == sorted(f"mail {k}" for k in keys)
    async with runtimes[0].reads() as session:
        rows = list(await session.scalars(select(EmailOut)))
    assert len(rows) == len(keys) and all(r.sent_at is not None and r.attempts == 0 for r in rows)


async def test_a_refused_mail_is_given_up_after_a_few_tries_and_the_others_go(
    runtimes: list[Runtime], smtp: tuple[Inbox, int]
) -> None:
    rt = runtimes[0]
    await queued(rt, "bounce", ["b"])
    await queued(rt, "ana", ["a"])
    for _ in range(MAX_ATTEMPTS + 2):
        await rt.notifications.send_due()
    assert smtp[0].subjects == ["mail a"]
    async with rt.reads() as session:
        bounced = await session.scalar(select(EmailOut).where(EmailOut.key == "b"))
    assert bounced is not None and bounced.sent_at is None and bounced.attempts == MAX_ATTEMPTS
    assert bounced.last_error is not None and "no such mailbox" in bounced.last_error
