"""The hub in isolation: a snapshot is never older than what the room has published, and a failed publish
leaves the room ready to publish that version again."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import orjson
import pytest

from app.clock import FakeClock
from app.config import Settings
from app.games import GAMES
from app.realtime.connections import Connection, Message
from app.realtime.hub import Hub
from app.services.presentation import TablePresenter
from app.services.record import SeatInfo, TableRecord
from app.services.remote_changes import RemoteChanges
from app.services.table_cache import TableCache


class FakeSocket:
    """Stands for a websocket: the frames written to it, decoded."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def write(self, frame: bytes) -> bool:
        self.sent.append(orjson.loads(frame[2:] if frame[1] < 126 else frame[4:] if frame[1] == 126 else frame[10:]))
        return True


def record(version: int, state: dict[str, Any]) -> TableRecord:
    game = GAMES["food-truck"]
    now = datetime.now(UTC)
    return TableRecord(
        id="t1", game="food-truck", name="T", host_id="u0", host_name="Ana", visibility="public",
        invite_hash=None, status="playing", seat_count=2, options={}, seed=1, seed_commitment="c",
        state=state, version=version, state_seq=0, move_count=version - 1, awaiting=game.awaiting(state),
        outcome=None, created_at=now, updated_at=now,
        seats=[SeatInfo("0", "u0", "Ana", False), SeatInfo("1", "u1", "Ben", False)],
        recent_events={version: []},
    )


class StoredPeople:
    """The hub's database reads, answered from a list of stored (id, token epoch, name) rows: no events, no signed
    out sessions, no chat."""

    def __init__(self, people: list[tuple[str, int, str]] | None = None) -> None:
        self.rows = people or []

    async def events_after(self, table_id: str, version: int) -> list[dict[str, Any]]:
        return []

    async def revoked_among(self, sids: list[str]) -> list[str]:
        return []

    async def people(self, user_ids: list[str]) -> list[tuple[str, int, str]]:
        return [row for row in self.rows if row[0] in user_ids]

    async def chat_since(self, table_id: str, since: datetime, host_id: str) -> tuple[list[dict[str, Any]], list[int]]:
        return [], []


class CachedOnly:
    """Records from the cache alone: these tests read no table from a database."""

    def __init__(self, cache: TableCache) -> None:
        self.cache = cache

    async def reload(self, table_id: str) -> TableRecord:
        rec = self.cache.get(table_id)
        assert rec is not None
        return rec

    async def record_at_least(self, table_id: str, version: int) -> TableRecord:
        return await self.reload(table_id)


def make_hub(
    cache: TableCache,
    reads: StoredPeople | None = None,
    renamed: list[tuple[str, str]] | None = None,
    later: list[tuple[str, int]] | None = None,
    clock: FakeClock | None = None,
) -> Hub:
    """A hub with its collaborators: `renamed` and `later` collect the names it found changed and the versions it
    asked to publish in the background."""
    settings = Settings(stand_in_after=300.0, stand_in_after_online=900.0)
    hub: Hub

    def on_renamed(user_id: str, name: str) -> None:
        if renamed is not None:
            renamed.append((user_id, name))
        hub.rename(user_id, name)

    def publish_later(table_id: str, version: int) -> None:
        if later is not None:
            later.append((table_id, version))

    hub = Hub(
        cache=cache, records=CachedOnly(cache), reads=reads or StoredPeople(),
        presenter=TablePresenter(secret_key="k" * 32, settings=settings, now=lambda: datetime.now(UTC)),
        on_renamed=on_renamed, publish_later=publish_later, clock=clock,
    )
    return hub


def hub_with_socket(
    reads: StoredPeople | None = None,
    renamed: list[tuple[str, str]] | None = None,
    later: list[tuple[str, int]] | None = None,
    clock: FakeClock | None = None,
) -> tuple[Hub, Connection, FakeSocket, TableCache]:
    cache = TableCache()
    hub = make_hub(cache, reads, renamed, later, clock)
    sock = FakeSocket()
    conn = Connection(ws=None, table_id="t1", user_id="u0", write_frame=sock.write)  # type: ignore[arg-type]
    hub.attach(conn)
    return hub, conn, sock, cache


def two_versions() -> tuple[TableRecord, TableRecord]:
    game = GAMES["food-truck"]
    state = game.new_game(["0", "1"], 7)
    seat = game.awaiting(state)[0]
    later = game.apply(state, seat, game.actions(state, seat)[0]).state
    return record(1, state), record(2, later)


def test_a_snapshot_of_an_old_read_carries_the_newest_known_version() -> None:
    hub, conn, sock, cache = hub_with_socket()
    old, new = two_versions()
    cache.put(new)  # published while the socket's own read (of `old`) was under way
    hub.snapshot(old, conn)
    assert sock.sent[-1]["type"] == "snapshot" and sock.sent[-1]["version"] == 2
    assert hub.rooms["t1"].last_version == 2


def test_a_failed_publish_does_not_count_the_version_as_published(monkeypatch: pytest.MonkeyPatch) -> None:
    hub, conn, sock, cache = hub_with_socket()
    old, new = two_versions()
    cache.put(old)
    hub.snapshot(old, conn)

    def broken(doc: dict[str, Any]) -> Message:
        raise ValueError("cannot serialise")

    monkeypatch.setattr(Message, "of", broken)
    cache.put(new)
    with pytest.raises(ValueError):
        hub.publish_now(new)
    assert hub.rooms["t1"].last_version == 1 and [m["type"] for m in sock.sent] == ["snapshot"]
    monkeypatch.undo()
    assert hub.publish_now(new)
    assert sock.sent[-1]["type"] == "update" and sock.sent[-1]["version"] == 2


def test_a_snapshot_of_a_table_dropped_for_a_newer_change_elsewhere_brings_the_room_up_to_it() -> None:
    later: list[tuple[str, int]] = []
    hub, conn, sock, cache = hub_with_socket(later=later)
    old, _new = two_versions()
    cache.put(old)
    cache.drop("t1", newer=2)  # the notice came while the socket's read of `old` was under way
    hub.snapshot(old, conn)
    assert sock.sent[-1]["version"] == 1 and later == [("t1", 2)]


def test_a_change_elsewhere_to_a_table_neither_cached_nor_watched_still_reaches_a_socket_reading_it() -> None:
    """The socket's read of the table began before the change committed elsewhere, and its notice came before the
    read ended: the record read is not kept as the newest, and the socket's room is brought up to the change."""
    later: list[tuple[str, int]] = []
    cache = TableCache()
    hub = make_hub(cache, later=later)
    remote = RemoteChanges(cache=cache, writing={}, watched=hub, moves_after=None,
                           publish_later=lambda t, v: None, spawn=asyncio.ensure_future)
    old, _new = two_versions()
    remote.on_change("t1", 2)
    assert cache.put(old) is old and cache.get("t1") is None and cache.known_version("t1") == 2
    sock = FakeSocket()
    conn = Connection(ws=None, table_id="t1", user_id="u0", write_frame=sock.write)  # type: ignore[arg-type]
    hub.attach(conn)
    hub.snapshot(old, conn)
    assert sock.sent[-1]["version"] == 1 and later == [("t1", 2)]


async def test_ending_a_persons_sessions_closes_only_their_sockets_of_older_tokens() -> None:
    hub, conn, sock, _cache = hub_with_socket()  # u0's socket, opened with a token of epoch 0
    others: list[tuple[Connection, FakeSocket]] = []
    for user, epoch in [("u0", 1), ("u1", 0), (None, 0)]:  # u0 signed in again already, Ben, a watcher
        other_sock = FakeSocket()
        other = Connection(ws=None, table_id="t1", user_id=user, write_frame=other_sock.write, epoch=epoch)  # type: ignore[arg-type]
        hub.attach(other)
        others.append((other, other_sock))

    assert hub.end_sessions("u0", 1) == 1
    assert conn.closed and conn.close_code == 4401
    assert [(m["type"], m["code"]) for m in sock.sent] == [("error", "session_revoked")]
    assert all(not c.closed and not s.sent for c, s in others)
    # A socket whose token was checked before the change committed, joining after its notice: refused as it joins.
    late = Connection(ws=None, table_id="t1", user_id="u0", epoch=0)  # type: ignore[arg-type]
    assert hub.outdated(late)
    assert not any(hub.outdated(c) for c, _ in others)
    assert hub.end_sessions("u0", 1) == 0  # the same notice again (another process's, or a recheck): nothing more


async def test_a_rename_missed_while_the_broker_was_away_is_taken_up_by_the_recheck() -> None:
    renamed: list[tuple[str, str]] = []
    hub, conn, _sock, _cache = hub_with_socket(StoredPeople([("u0", 0, "Ana B"), ("u1", 0, "Ben")]), renamed)
    conn.user_name = "Ana"
    ben = Connection(ws=None, table_id="t1", user_id="u1", user_name="Ben")  # type: ignore[arg-type]
    hub.attach(ben)
    await hub.recheck_sessions()
    assert renamed == [("u0", "Ana B")]  # Ben's name did not change
    assert conn.user_name == "Ana B" and hub.rooms["t1"].names == {"u0": "Ana B", "u1": "Ben"}
    assert not conn.closed  # the same epoch: the session goes on
    await hub.recheck_sessions()
    assert renamed == [("u0", "Ana B")]  # once taken up, nothing more to do


async def test_a_socket_silent_for_the_idle_wait_is_closed_and_one_heard_from_is_kept() -> None:
    clock = FakeClock()
    hub, quiet, _, _ = hub_with_socket(clock=clock)
    chatty = Connection(ws=None, table_id="t1", user_id="u1", write_frame=FakeSocket().write)  # type: ignore[arg-type]
    hub.attach(chatty)
    sweep = asyncio.create_task(hub.sweep_idle(120, every=15))
    try:
        for _ in range(7):  # 105 s: within the wait, both stay
            clock.advance(15)
            await asyncio.sleep(0)
        assert not quiet.closed and not chatty.closed
        chatty.last_seen = clock.monotonic()  # a message (a ping, at least) from one of them
        clock.advance(15)  # 120 s since the quiet one was heard from: the next sweep finds it over the wait
        for _ in range(5):
            await asyncio.sleep(0)
        clock.advance(15)
        for _ in range(5):
            await asyncio.sleep(0)
        assert quiet.closed and quiet.close_code == 1001
        assert not chatty.closed
    finally:
        sweep.cancel()
