"""Presence in isolation: the merge of this process's sockets with the others' announcements, their expiry,
the cap on the ids a process names, the notices' size, and the coalescing of a burst of sockets."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import orjson

from app.realtime.hub import Connection, Hub
from app.realtime.presence import (
    MAX_IDS,
    NOTICE_BYTES,
    Part,
    Presence,
    PresenceBoard,
    local_part,
    merge,
    notices,
)
from tests.realtime.test_hub import FakeSocket, two_versions

SEATS = {"u0": "0", "u1": "1", "u2": "2", "u10": "10"}


def test_alone_a_process_shows_its_own_sockets() -> None:
    assert merge(SEATS, {"u2": 1, "u0": 2, "w1": 1}, 3, []) == (["0", "2"], 4)  # w1 and three signed out
    assert merge(SEATS, {}, 0, []) == ([], 0)
    assert merge(SEATS, {"u10": 1, "u1": 1}, 0, []) == (["1", "10"], 0)  # seats in their order, not as text


def test_the_union_with_other_processes_counts_each_person_once() -> None:
    others = [Part(frozenset({"u1", "w1", "w2"}), 0, 1), Part(frozenset({"w2", "u0"}), 0, 2)]
    # u0 here and there, w1 here and there, w2 on two other processes: each once; signed-out sockets all count.
    assert merge(SEATS, {"u0": 1, "w1": 1}, 1, others) == (["0", "1"], 2 + 1 + 1 + 2)
    # Users another process counted past its ids come as its count.
    assert merge(SEATS, {}, 0, [Part(frozenset({"u2"}), 5, 0)]) == (["2"], 5)
    assert merge(SEATS, {"w1": 1}, 0, [Part()]) == ([], 1)


def test_a_process_names_the_seated_first_and_counts_the_rest() -> None:
    few = {f"w{i}": 1 for i in range(MAX_IDS)}
    assert local_part(few, 2, SEATS) == Part(frozenset(few), 0, 2)
    crowd = {**{f"w{i}": 1 for i in range(MAX_IDS + 50)}, "u1": 1}
    part = local_part(crowd, 0, SEATS)
    assert "u1" in part.users and len(part.users) == MAX_IDS and part.more == 51
    assert merge(SEATS, {}, 0, [part]) == (["1"], MAX_IDS - 1 + 51)


def test_an_announcement_is_kept_until_it_expires_or_its_process_stops() -> None:
    board = PresenceBoard(expiry=90)
    assert board.note("A", "t1", Part(frozenset({"u0"})), now=0)
    assert not board.note("A", "t1", Part(frozenset({"u0"})), now=30)  # said again: heard later, nothing new
    assert board.note("B", "t1", Part(frozenset({"u1"}), anon=1), now=50)
    assert board.note("B", "t2", Part(anon=3), now=50)
    assert board.expire(now=119) == []
    assert board.expire(now=121) == ["t1"]  # A, last heard at 30
    assert board.parts("t1") == [Part(frozenset({"u1"}), anon=1)]
    assert sorted(board.forget("B")) == ["t1", "t2"]
    assert board.tables == {}


def test_an_empty_announcement_forgets_the_process_at_the_table() -> None:
    board = PresenceBoard(expiry=90)
    board.note("A", "t1", Part(anon=1), now=0)
    assert board.note("A", "t1", Part(), now=1)
    assert board.tables == {}
    assert not board.note("A", "t1", Part(), now=2)


def test_a_malformed_part_counts_as_nothing() -> None:
    assert Part.from_json({"users": ["u1", 7, None], "more": -3, "anon": True}) == Part(frozenset({"u1"}))
    assert Part.from_json("nonsense") == Part()
    assert Part.from_json({"users": [f"u{i}" for i in range(5 * MAX_IDS)]}).users == {f"u{i}" for i in range(MAX_IDS)}


def test_notices_fit_a_postgres_notify_and_never_split_a_table() -> None:
    parts = {f"t{i:030d}": Part(frozenset(f"{i:03d}{j:029d}" for j in range(MAX_IDS)), 4, 2) for i in range(5)}
    sent = notices("p1", parts)
    assert len(sent) > 1
    seen: dict[str, Part] = {}
    for text in sent:
        assert len(text.encode()) <= NOTICE_BYTES
        doc = orjson.loads(text)
        assert doc["kind"] == "presence" and doc["origin"] == "p1"
        seen.update({tid: Part.from_json(p) for tid, p in doc["tables"].items()})
    assert seen == parts
    assert [orjson.loads(n)["tables"] for n in notices("p1", {"t": Part(anon=1)})] == [
        {"t": {"users": [], "more": 0, "anon": 1}}]


class FakeBroker:
    shared = True

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def announce(self, payload: str) -> None:
        self.sent.append(orjson.loads(payload))


async def test_a_burst_of_sockets_gives_each_socket_one_message_and_the_others_one_notice() -> None:
    _old, rec = two_versions()
    cache = SimpleNamespace(get=lambda _tid: rec, known_version=lambda _tid: rec.version)
    rt = SimpleNamespace(cache=cache, secret_key="k" * 32, settings=SimpleNamespace(stand_in_after=300.0, stand_in_after_online=900.0))
    hub = Hub(rt)  # type: ignore[arg-type]
    broker = FakeBroker()
    tasks: list[asyncio.Task[None]] = []
    hub.presence = Presence(hub, broker, "me", lambda c: tasks.append(asyncio.ensure_future(c)),  # type: ignore[arg-type]
                            debounce=0.05)
    sockets = []
    for user in ["u0", *[f"w{i}" for i in range(100)], *[None] * 99]:
        sock = FakeSocket()
        conn = Connection(ws=None, table_id="t1", user_id=user, write_frame=sock.write)  # type: ignore[arg-type]
        hub.attach(conn)
        hub.snapshot(rec, conn)
        sockets.append((sock, conn))
    assert sockets[0][0].sent[1] == {"type": "presence", "online": ["0"], "watching": 0}  # right after the snapshot
    assert sockets[-1][0].sent[1] == {"type": "presence", "online": ["0"], "watching": 199}
    await asyncio.sleep(0.1)
    await asyncio.gather(*tasks)
    for sock, _conn in sockets:
        got = [m for m in sock.sent if m["type"] == "presence"]
        assert got[-1] == {"type": "presence", "online": ["0"], "watching": 199}
        assert len(got) == 2  # its own, after its snapshot, and the one for everyone
    assert len(broker.sent) == 1
    assert broker.sent[0]["tables"]["t1"]["anon"] == 99 and len(broker.sent[0]["tables"]["t1"]["users"]) == 100

    # Another process's sockets join the count; a process that stops takes its own away.
    hub.presence.on_notice({"kind": "presence", "origin": "other", "tables": {"t1": {"users": ["u1", "w0"], "anon": 1}}})
    await asyncio.sleep(0.1)
    assert sockets[0][0].sent[-1] == {"type": "presence", "online": ["0", "1"], "watching": 200}
    hub.presence.on_notice({"kind": "presence", "origin": "other", "gone": True})
    await asyncio.sleep(0.1)
    assert sockets[0][0].sent[-1] == {"type": "presence", "online": ["0"], "watching": 199}

    # The last socket gone, the others hear this process holds nothing of the table.
    for _sock, conn in sockets:
        hub.detach(conn)
    await asyncio.sleep(0.1)
    await asyncio.gather(*tasks)
    assert broker.sent[-1]["tables"] == {"t1": {"users": [], "more": 0, "anon": 0}}
    assert hub.rooms == {}
