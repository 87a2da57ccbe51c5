"""Bringing a cached table record forward by stored moves (`loading.advance`), as a process does for the
tables other processes moved: the same record the writer would have stored, or None when it cannot."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson
import pytest

from app.games import GAMES
from app.services.loading import advance
from app.services.record import EVENT_WINDOW, SeatInfo, TableRecord
from app.services.table_cache import TableCache
from tests.platform.tiny_game import TinyGame

TINY = TinyGame()
T0 = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture(autouse=True)
def tiny_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "tiny", TINY)


def record(version: int = 3, target: int = 2) -> TableRecord:
    state = TINY.new_game(["0", "1"], 7, {"target": target})
    return TableRecord(
        id="t" * 16, game="tiny", name="t", host_id="h", host_name="H", visibility="public", invite_hash=None,
        status="playing", seat_count=2, options={"target": target}, seed=7, seed_commitment="c", state=state,
        version=version, state_seq=0, move_count=0, awaiting=TINY.awaiting(state), outcome=None,
        created_at=T0, updated_at=T0, seats=[SeatInfo("0", "a", "A", False), SeatInfo("1", "b", "B", False)],
    )


def stored(rec: TableRecord, plays: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The moves rows for these plays after `rec`, with JSON as text (as asyncpg returns jsonb)."""
    rows, state = [], rec.state
    for k, (seat, action) in enumerate(plays, start=1):
        applied = TINY.apply(state, seat, action)
        state = applied.state
        rows.append({"seq": rec.move_count + k, "version": rec.version + k, "seat": seat,
                     "action": orjson.dumps(action).decode(), "steps": None,
                     "events": orjson.dumps(applied.events).decode(),
                     "created_at": T0 + timedelta(seconds=k)})
    return rows


def test_moves_are_replayed_and_the_fields_derived_as_the_writer_stores_them() -> None:
    rec = record()
    rows = stored(rec, [("0", {"type": "pick", "n": 3}), ("1", {"type": "pick", "n": 1})])
    new = advance(rec, rows)
    assert new is not None
    expected = TINY.apply(TINY.apply(rec.state, "0", {"type": "pick", "n": 3}).state, "1", {"type": "pick", "n": 1})
    assert new.state == expected.state
    assert (new.version, new.move_count, new.status, new.outcome) == (5, 2, "playing", None)
    assert new.awaiting == TINY.awaiting(expected.state) and new.updated_at == T0 + timedelta(seconds=2)
    assert new.recent_events[5] == expected.events
    assert rec.version == 3 and rec.move_count == 0  # the cached record itself is left alone


def test_the_last_move_finishes_the_game() -> None:
    rec = record(target=1)
    plays = [("0", {"type": "pick", "n": 3}), ("1", {"type": "pick", "n": 0})]
    state = rec.state
    for seat, action in plays:
        state = TINY.apply(state, seat, action).state
    bumps = [(TINY.awaiting(state)[0], {"type": "bump"})]
    state = TINY.apply(state, *bumps[0]).state
    bumps.append((TINY.awaiting(state)[0], {"type": "bump"}))
    new = advance(rec, stored(rec, plays + bumps))
    assert new is not None and new.status == "finished" and new.awaiting == []
    assert new.outcome == dict(TINY.outcome(new.state) or {})


def test_a_gap_in_the_versions_asks_for_a_reload() -> None:
    rec = record()
    rows = stored(rec, [("0", {"type": "pick", "n": 3}), ("1", {"type": "pick", "n": 1})])
    rows[1]["version"] += 1  # a seat change bumped the version between the two moves
    assert advance(rec, rows) is None
    assert advance(rec, []) is None


def test_seats_bots_and_listed_actions_are_derived_once_and_follow_the_record() -> None:
    rec = record()
    assert (rec.seat_of("a"), rec.seat_of("b"), rec.seat_of("z"), rec.seat_of(None)) == ("0", "1", None, None)
    assert rec.bot_seats() == frozenset()
    listed = rec.actions_for("0")
    assert listed == TINY.actions(rec.state, "0") and rec.actions_for("0") is listed
    moved = rec.evolve(state=TINY.apply(rec.state, "0", {"type": "pick", "n": 3}).state, version=4)
    seat = moved.awaiting[0]
    # Each record lists its own state's actions, not those of the record it came from.
    assert moved.actions_for("0") == TINY.actions(moved.state, "0") != listed
    assert moved.actions_for(seat) == TINY.actions(moved.state, seat)
    assert moved.seat_of("a") == "0"
    reseated = moved.evolve(seats=[SeatInfo("0", "c", "C", False), SeatInfo("1", None, None, True)])
    assert (reseated.seat_of("a"), reseated.seat_of("c"), reseated.bot_seats()) == (None, "0", frozenset({"1"}))
    assert moved.seat_of("a") == "0"


def test_a_record_keeps_the_events_of_the_last_window_of_versions() -> None:
    rec = record()
    for version in range(4, 4 + EVENT_WINDOW + 10):
        rec.remember_events(version, [{"type": "e", "v": version}])
    newest = 3 + EVENT_WINDOW + 10
    assert sorted(rec.recent_events) == list(range(newest - EVENT_WINDOW + 1, newest + 1))


def test_a_write_of_ours_stored_after_a_newer_change_elsewhere_is_not_kept() -> None:
    # Our v4 committed before another process's v5, but its notice dropped our v3 before we stored v4.
    cache = TableCache()
    cache.put(record(version=3))
    cache.drop("t" * 16, newer=5)
    mine = record(version=4)
    assert cache.put(mine) is mine
    assert cache.get("t" * 16) is None and cache.known_version("t" * 16) == 5
    fresh = record(version=5)
    assert cache.put(fresh) is fresh and cache.get("t" * 16) is fresh
    assert cache.put(record(version=4)) is fresh  # the floor is gone, the newer record still wins


def test_floors_are_bounded_like_the_records() -> None:
    cache = TableCache(capacity=2)
    for k in range(5):
        cache.drop(f"t{k}", newer=k + 1)
    assert [cache.known_version(f"t{k}") for k in range(5)] == [None, None, None, 4, 5]


def test_a_record_read_afresh_keeps_the_cached_events_before_its_own() -> None:
    """Another process's lobby change is read afresh with only its own events; a room behind needs the rest."""
    cache = TableCache()
    old = record(version=3)
    old.remember_events(2, [{"type": "chose", "seat": "0", "visible_to": None}])
    old.remember_events(3, [{"type": "chose", "seat": "1", "visible_to": None}])
    cache.put(old)
    fresh = record(version=4)
    fresh.remember_events(4, [{"type": "abandon_proposed", "seat": "0", "name": "A", "visible_to": None}])
    kept = cache.put(fresh)
    assert list(kept.recent_events) == [2, 3, 4]
    assert kept.recent_events[4][0]["type"] == "abandon_proposed" and kept.recent_events[3][0]["seat"] == "1"
    assert list(old.recent_events) == [2, 3]  # the older record is left as it was


def test_the_proposal_to_abandon_waits_on_seats_their_person_plays_or_left_a_moment_ago() -> None:
    wait = 300.0
    now = datetime.now(UTC)
    rec = record()
    rec = rec.evolve(seats=[*rec.seats, SeatInfo("2", None, None, True), SeatInfo("3", "d", "D", True)])
    assert rec.abandon_voters(wait, now) == ["0", "1"] and rec.abandon_waiting(wait, now) == []  # no proposal open
    rec = rec.evolve(abandon={"by": "1", "yes": ["1"], "since": 4})
    assert rec.abandon_waiting(wait, now) == ["0"]
    just_left = SeatInfo("0", "a", "A", True, away_since=now - timedelta(seconds=wait - 5))
    long_gone = SeatInfo("0", "a", "A", True, away_since=now - timedelta(seconds=wait + 5))
    # A bot standing in for a player who just stepped out leaves them their say; one away the full wait has none.
    assert rec.evolve(seats=[just_left, *rec.seats[1:]]).abandon_waiting(wait, now) == ["0"]
    assert rec.evolve(seats=[long_gone, *rec.seats[1:]]).abandon_waiting(wait, now) == []


def test_a_rename_drops_the_cached_finished_tables_that_name_the_person_and_only_those() -> None:
    """Finished tables do not move on for a rename, so the cache forgets them; running ones are told by a change."""
    cache = TableCache()
    seated = replace(record(), id="f" * 16, status="finished")
    hosted = replace(record(), id="h" * 16, status="finished", host_id="a", seats=[SeatInfo("0", "c", "C", False)])
    other = replace(record(), id="o" * 16, status="finished", seats=[SeatInfo("0", "c", "C", False)])
    running = record()  # seats "a": its rename is a lobby change, which every process reloads
    for rec in (seated, hosted, other, running):
        cache.put(rec)
    assert sorted(cache.drop_finished_of("a")) == ["f" * 16, "h" * 16]
    assert cache.get("f" * 16) is None and cache.get("h" * 16) is None
    assert cache.get("o" * 16) is other and cache.get("t" * 16) is running
    assert cache.drop_finished_of("a") == [] and cache.drop_finished_of("nobody") == []
    assert cache.put(seated) is seated  # no floor left behind: the record read again is kept
