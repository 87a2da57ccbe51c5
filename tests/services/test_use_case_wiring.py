"""The account side's use cases (chat, accounts, recovery, push, notifications, admin), each built from only what it
uses: a real `Database` on this run's database and a publisher that records what it is told, with no `Runtime`."""

from __future__ import annotations

import base64
import os
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import FakeClock
from app.config import Settings
from app.db.models import ChatMessage, EmailOut, GameTable, PasswordReset, PushSubscription, Seat, User
from app.services.account import Accounts
from app.services.admin import Admin
from app.services.chat import Chat, ChatLimits
from app.services.database import Database
from app.services.errors import ServiceError
from app.services.loading import load_record, moves_after
from app.services.lobby import Change
from app.services.notify import Notifications
from app.services.push import PushNotices, VapidKeys, new_private_key
from app.services.record import TableRecord, TableStatus
from app.services.recovery import Recovery
from app.services.table_cache import TableCache
from app.services.table_records import TableRecords
from app.services.table_writes import TableWrites
from tests.conftest import IS_POSTGRES, SECRET
from tests.services.conftest import TABLE, World

ORIGIN = "this-process"
PUBLIC_URL = "https://games.example.test"


class RecordingPublisher:
    """The live side, as a list of what the use case told it (`told`) and of the side notices it sent."""

    def __init__(self, *, connected: frozenset[tuple[str, str]] = frozenset()) -> None:
        self.told: list[tuple[Any, ...]] = []
        self.in_tx: list[str] = []
        self.after_commit: list[str] = []
        self.present = connected  # (table id, user id) of the sockets open

    async def notice_in_tx(self, session: AsyncSession, notice: str) -> None:
        self.in_tx.append(notice)

    async def notice_after_commit(self, notice: str) -> None:
        self.after_commit.append(notice)

    def chat_line(self, table_id: str, line: dict[str, Any]) -> None:
        self.told.append(("chat_line", table_id, line["text"]))

    def chat_removed(self, table_id: str, message_id: int) -> None:
        self.told.append(("chat_removed", table_id, message_id))

    def chat_mute(self, table_id: str, user: dict[str, Any], muted: bool, host_id: str) -> None:
        self.told.append(("chat_mute", table_id, user["id"], muted))

    def sessions_ended(self, user_id: str, epoch: int) -> None:
        self.told.append(("sessions_ended", user_id, epoch))

    def session_revoked(self, user_id: str, sid: str) -> None:
        self.told.append(("session_revoked", user_id, sid))

    def renamed(self, user_id: str, name: str) -> None:
        self.told.append(("renamed", user_id, name))

    def draft_shown(self, rec: TableRecord, seat: str, events: list[dict[str, Any]]) -> None:
        self.told.append(("draft_shown", rec.id, seat))

    def table_changed(self, table_id: str, version: int) -> None:
        self.told.append(("table_changed", table_id, version))

    def connected(self, table_id: str, user_id: str) -> bool:
        return (table_id, user_id) in self.present


@pytest.fixture
def database(world: World) -> Database:
    return Database(sessions=world.sessions, reads=world.reads, is_postgres=IS_POSTGRES)


@pytest.fixture
def publisher() -> RecordingPublisher:
    return RecordingPublisher()


@pytest.fixture
async def ana_confirmed(world: World) -> AsyncIterator[None]:
    """Ana has a confirmed address (the fixture's Ana has a password already)."""
    async with world.sessions() as session:
        user = await session.get(User, "ana")
        assert user is not None
        user.email, user.email_verified = "ana@example.test", True
        await session.commit()
    yield


async def ana(world: World) -> User:
    async with world.reads() as session:
        user = await session.get(User, "ana")
    assert user is not None
    return user


async def table(world: World) -> TableRecord:
    async with world.reads() as session:
        return await load_record(session, TABLE)


async def test_chat_stores_a_line_and_tells_the_publisher(
    world: World, database: Database, publisher: RecordingPublisher
) -> None:
    clock = FakeClock(datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC))
    chat = Chat(database=database, publisher=publisher, clock=clock, origin=ORIGIN,
                limits=ChatLimits(burst=2, per_second=0.001, newcomers_per_minute=5))
    rec = await table(world)
    durable: list[dict[str, Any]] = []
    line = await chat.post(rec, "ana", "  hello  ", "c1", durable.append)
    assert line["text"] == "hello" and durable == [line]
    assert publisher.told == [("chat_line", TABLE, "hello")]
    assert len(publisher.in_tx) == 1 and publisher.after_commit == publisher.in_tx
    assert ORIGIN in publisher.in_tx[0]
    async with world.reads() as session:
        stored = (await session.scalars(select(ChatMessage))).one()
    assert (stored.text, stored.user_id, stored.client_id) == ("hello", "ana", "c1")
    assert stored.created_at.replace(tzinfo=UTC) == clock.now()
    # The limits it was given hold: a burst of two, refilled slowly (the clock stands still).
    await chat.post(rec, "ana", "again")
    with pytest.raises(ServiceError) as refused:
        await chat.post(rec, "ana", "a third")
    assert refused.value.code == "rate_limited"


async def test_chat_with_no_refill_refuses_past_the_burst_without_a_wait(
    world: World, database: Database, publisher: RecordingPublisher
) -> None:
    """CHAT_RATE_PER_SECOND=0: a person says the burst at a table and no more; the refusal names no wait."""
    chat = Chat(database=database, publisher=publisher, clock=FakeClock(datetime(2026, 1, 2, tzinfo=UTC)),
                origin=ORIGIN, limits=ChatLimits(burst=1, per_second=0, newcomers_per_minute=5))
    rec = await table(world)
    await chat.post(rec, "ana", "once")
    with pytest.raises(ServiceError) as refused:
        await chat.post(rec, "ana", "twice")
    assert (refused.value.code, refused.value.status) == ("rate_limited", 429)
    assert "wait" not in refused.value.message


async def test_accounts_rename_tells_the_publisher_and_changes_each_live_table(
    world: World, database: Database, publisher: RecordingPublisher
) -> None:
    changed: list[tuple[str, str, str | None]] = []

    async def lobby_change(table_id: str, user: User, invite: str | None, change: Change) -> TableRecord:
        changed.append((table_id, user.id, invite))
        return await table(world)

    accounts = Accounts(database=database, publisher=publisher, origin=ORIGIN, token_max_age=3600,
                        lobby_change=lobby_change)
    renamed = await accounts.rename(await ana(world), "Anna")
    assert renamed.name == "Anna"
    assert publisher.told == [("renamed", "ana", "Anna")]
    assert changed == [(TABLE, "ana", None)]  # the open table she hosts shows her new name

    ended = await accounts.sign_out_everywhere("ana")
    assert ended.token_epoch == 1
    assert publisher.told[-1] == ("sessions_ended", "ana", 1)


async def test_recovery_mails_a_link_that_resets_the_password_and_ends_sessions(
    world: World, database: Database, publisher: RecordingPublisher, ana_confirmed: None
) -> None:
    recovery = Recovery(database=database, publisher=publisher, clock=FakeClock(), origin=ORIGIN,
                        mail_enabled=True, public_url=PUBLIC_URL, link_max_age=600)
    await recovery.request_reset("ANA")
    async with world.reads() as session:
        mail = (await session.scalars(select(EmailOut))).one()
    found = re.search(re.escape(PUBLIC_URL) + r"/reset\.html#token=(\S+)", mail.body)
    assert found is not None and "10 minutes" in mail.body
    user = await recovery.reset(found.group(1), "a new long password")
    assert user.token_epoch == 1
    assert publisher.told == [("sessions_ended", "ana", 1)]
    async with world.reads() as session:
        assert (await session.scalars(select(PasswordReset))).all() == []


async def test_recovery_without_mail_refuses(database: Database, publisher: RecordingPublisher) -> None:
    recovery = Recovery(database=database, publisher=publisher, clock=FakeClock(), origin=ORIGIN,
                        mail_enabled=False, public_url=PUBLIC_URL, link_max_age=600)
    with pytest.raises(ServiceError) as refused:
        await recovery.request_reset("ana")
    assert refused.value.code == "email_off"


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


async def test_push_keeps_a_browser_subscription(world: World, database: Database) -> None:
    keys = VapidKeys.load(Settings(vapid_private_key=new_private_key(), public_url=PUBLIC_URL))
    assert keys is not None
    push = PushNotices(database=database, vapid=keys, insecure_endpoints=False)
    browser = ec.generate_private_key(ec.SECP256R1()).public_key()
    p256dh = _b64(browser.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))
    async with database.write() as session:
        await push.subscribe(session, await ana(world), "https://push.example.test/a", p256dh, _b64(os.urandom(16)))
    async with world.reads() as session:
        held = (await session.scalars(select(PushSubscription))).one()
    assert (held.user_id, held.endpoint) == ("ana", "https://push.example.test/a")
    with pytest.raises(ServiceError) as refused:
        async with database.write() as session:
            await push.subscribe(session, await ana(world), "http://push.example.test/b", p256dh, _b64(os.urandom(16)))
    assert refused.value.code == "bad_subscription"  # plain http only where the server allows it
    assert await PushNotices(database=database, vapid=None, insecure_endpoints=False).send(
        [("k", "ana", {"title": "t", "body": "b", "url": "/"})]
    ) == 0


async def test_notifications_mail_a_confirmation_link_that_confirms(
    world: World, database: Database, publisher: RecordingPublisher
) -> None:
    settings = Settings(public_url=PUBLIC_URL, smtp_host="mail.example.test")
    notifications = Notifications(
        database=database, publisher=publisher, push=PushNotices(database=database, vapid=None,
                                                                 insecure_endpoints=False),
        settings=settings, secret_key=SECRET,
    )
    async with database.write() as session:
        user = await notifications.update(session, await ana(world), {"email": "ana@example.test", "invite": False})
    assert notifications.preferences(user) == {
        "enabled": True, "push": False, "email": "ana@example.test", "email_verified": False,
        "turn": True, "finished": True, "invite": False,
    }
    async with world.reads() as session:
        mail = (await session.scalars(select(EmailOut))).one()
    found = re.search(re.escape(PUBLIC_URL) + r"/api/email/verify\?token=(\S+)", mail.body)
    assert found is not None
    async with database.write() as session:
        confirmed = await notifications.verify(session, found.group(1))
    assert confirmed.email_verified


async def test_notifications_spare_a_person_at_the_table_their_turn(world: World, database: Database) -> None:
    publisher = RecordingPublisher(connected=frozenset({(TABLE, "ana")}))
    notifications = Notifications(
        database=database, publisher=publisher, push=PushNotices(database=database, vapid=None,
                                                                 insecure_endpoints=False),
        settings=Settings(), secret_key=SECRET,
    )
    since = "2026-01-01T00:00:00+00:00"
    async with world.sessions() as session:
        session.add(User(id="bo", name="Bo", username="bo", password_hash="x"))
        await session.flush()
        session.add_all([Seat(table_id=TABLE, seat="0", user_id="ana"), Seat(table_id=TABLE, seat="1", user_id="bo")])
        await session.commit()
    await world.store(status=TableStatus.PLAYING, time_control={"kind": "turn", "seconds": 86400},
                      clock={"left": {}, "since": {"0": since, "1": since}})
    # Both turns began; Ana is at the table and sees hers.
    assert notifications.turns_started(await table(world)) == [(f"turn:{TABLE}:1:{since}", "bo")]


def _table_writes(world: World, database: Database, changes: list[TableRecord],
                  notified: list[tuple[str, int]]) -> TableWrites:
    async def notify_in_tx(session: AsyncSession, table_id: str, version: int, /) -> None:
        notified.append((table_id, version))

    async def after_change(rec: TableRecord) -> None:
        changes.append(rec)

    cache = TableCache()
    records = TableRecords(cache=cache, reads=world.reads, shared=False, engine=world.engine, moves_query=moves_after)
    return TableWrites(database=database, records=records, cache=cache, notify_in_tx=notify_in_tx,
                       after_change=after_change)


async def test_admin_ban_ends_the_sessions_and_close_table_publishes_the_change(
    world: World, database: Database, publisher: RecordingPublisher
) -> None:
    changes: list[TableRecord] = []
    notified: list[tuple[str, int]] = []
    admin = Admin(database=database, tables=_table_writes(world, database, changes, notified), publisher=publisher,
                  origin=ORIGIN)
    banned = await admin.ban("ana")
    assert banned.banned_at is not None and banned.token_epoch == 1
    assert publisher.told == [("sessions_ended", "ana", 1)]
    assert len(publisher.in_tx) == 1 and publisher.after_commit == publisher.in_tx

    assert await admin.close_table(TABLE) == TableStatus.OPEN
    assert notified == [(TABLE, 2)]
    assert [(rec.id, rec.version, rec.status) for rec in changes] == [(TABLE, 2, TableStatus.FINISHED)]
    async with world.reads() as session:
        row = await session.get(GameTable, TABLE)
    assert row is not None and row.abandoned
