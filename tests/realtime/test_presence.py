"""Presence in isolation: the merge of this process's sockets with the others' announcements, their expiry,
the cap on the ids a process names, the notices' size, and the coalescing of a burst of sockets."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest

from app.messages import SIDE_NOTICE, SessionEndedNotice
from app.realtime.connections import Connection
from app.realtime.presence import (
    MAX_IDS,
    NAME_CHARS,
    NAMED,
    NOTICE_BYTES,
    Part,
    Presence,
    PresenceBoard,
    local_part,
    merge,
    notices,
    watchers,
)
from app.realtime.side_notices import read_side_notice
from app.services.table_cache import TableCache
from tests.realtime.test_hub import FakeSocket, make_hub, two_versions

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


def test_a_part_names_the_first_watchers_to_come_and_never_the_seated() -> None:
    people = {"u0": 1, **{f"w{i}": 1 for i in range(NAMED + 5)}, "anon_name": 1}
    names = {"u0": "Ana", **{f"w{i}": f"Watcher {i}" for i in range(NAMED + 5)}}
    part = local_part(people, 1, SEATS, names)
    assert part.names == {(f"w{i}", f"Watcher {i}") for i in range(NAMED)}  # the first to come; no seated u0
    assert Part.from_json(orjson.loads(orjson.dumps(part.to_json()))) == part
    assert "names" not in local_part({"u0": 1}, 0, SEATS, names).to_json()  # nobody named: nothing sent
    # Past MAX_IDS, a watcher named must be one of the ids sent.
    crowd = {f"x{i}": 1 for i in range(MAX_IDS + 10)}
    big = local_part(crowd, 0, SEATS, {user: "X" for user in crowd})
    assert all(user in big.users for user, _name in big.names) and len(big.names) == NAMED


def test_a_malformed_name_is_dropped_or_cut() -> None:
    doc = {"users": ["w1", "w2", "w3"], "names": {"w1": "Cy", "w2": 7, "w9": "not sent as an id", "w3": "x" * 500}}
    assert Part.from_json(doc).names == {("w1", "Cy"), ("w3", "x" * NAME_CHARS)}
    assert Part.from_json({"users": ["w1"], "names": ["w1"]}).names == frozenset()


def test_the_watchers_shown_are_everyones_named_once_in_the_order_of_their_names() -> None:
    here = {"u0": 1, "w1": 1, "w2": 1}
    names = {"u0": "Ana", "w1": "dee", "w2": "Cy"}
    other = Part(frozenset({"w1", "w3", "u1"}), 0, 2, frozenset({("w1", "Dee"), ("w3", "Bo"), ("u1", "Ben")}))
    assert watchers(SEATS, here, names, [other]) == [
        {"id": "w3", "name": "Bo"}, {"id": "w2", "name": "Cy"}, {"id": "w1", "name": "dee"}]  # w1 once, u1 seated
    crowd = {f"w{i:03d}": 1 for i in range(3 * NAMED)}
    shown = watchers(SEATS, crowd, {u: u for u in crowd}, [])
    assert [w["id"] for w in shown] == sorted(crowd)[:NAMED]


def test_a_notice_with_every_id_and_the_longest_names_fits_a_postgres_notify() -> None:
    people = {f"{i:016x}": 1 for i in range(MAX_IDS + 5)}
    names = {user: "🍔" * NAME_CHARS for user in people}  # four bytes a character
    part = local_part(people, 3, {}, names)
    assert len(part.names) == NAMED
    (text,) = notices("p" * 16, {"t" * 16: part})
    assert len(text.encode()) <= NOTICE_BYTES
    assert Part.from_json(orjson.loads(text)["tables"]["t" * 16]) == part


class FakeBroker:
    shared = True

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def announce(self, payload: str) -> None:
        self.sent.append(orjson.loads(payload))


async def test_a_burst_of_sockets_gives_each_socket_one_message_and_the_others_one_notice() -> None:
    _old, rec = two_versions()
    cache = TableCache()
    cache.put(rec)
    hub = make_hub(cache)
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
    assert sockets[0][0].sent[1] == {"type": "presence", "online": ["0"], "watching": 0, "watchers": []}  # right after
    assert sockets[-1][0].sent[1] == {"type": "presence", "online": ["0"], "watching": 199, "watchers": []}
    await asyncio.sleep(0.1)
    await asyncio.gather(*tasks)
    for sock, _conn in sockets:
        got = [m for m in sock.sent if m["type"] == "presence"]
        assert got[-1] == {"type": "presence", "online": ["0"], "watching": 199, "watchers": []}
        assert len(got) == 2  # its own, after its snapshot, and the one for everyone
    assert len(broker.sent) == 1
    assert broker.sent[0]["tables"]["t1"]["anon"] == 99 and len(broker.sent[0]["tables"]["t1"]["users"]) == 100

    # Another process's sockets join the count; a process that stops takes its own away.
    hub.presence.on_notice(SIDE_NOTICE.validate_python(
        {"kind": "presence", "origin": "other", "tables": {"t1": {"users": ["u1", "w0"], "anon": 1}}}))
    await asyncio.sleep(0.1)
    assert sockets[0][0].sent[-1] == {"type": "presence", "online": ["0", "1"], "watching": 200, "watchers": []}
    hub.presence.on_notice(SIDE_NOTICE.validate_python({"kind": "presence", "origin": "other", "gone": True}))
    await asyncio.sleep(0.1)
    assert sockets[0][0].sent[-1] == {"type": "presence", "online": ["0"], "watching": 199, "watchers": []}

    # The last socket gone, the others hear this process holds nothing of the table.
    for _sock, conn in sockets:
        hub.detach(conn)
    await asyncio.sleep(0.1)
    await asyncio.gather(*tasks)
    assert broker.sent[-1]["tables"] == {"t1": {"users": [], "more": 0, "anon": 0}}
    assert hub.rooms == {}



def test_a_side_notice_of_an_unknown_kind_is_ignored_and_a_malformed_one_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A newer process's notice kind, during a rolling upgrade, is not an error; a malformed one is logged."""
    assert read_side_notice('{"kind": "from_the_future", "origin": "other"}') is None
    assert "side notice" not in caplog.text
    assert read_side_notice('{"kind": "session_ended", "origin": "other", "user_id": "u"}') is None
    assert "side notice malformed" in caplog.text
    ended = read_side_notice('{"kind": "session_ended", "origin": "other", "user_id": "u", "epoch": 3}')
    assert ended == SessionEndedNotice(kind="session_ended", origin="other", user_id="u", epoch=3)
