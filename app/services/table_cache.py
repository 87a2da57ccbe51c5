"""The newest record of each recently used table in this process, so the hot path (a move, a broadcast) reads no
row it already knows; a version check inside every write transaction catches a record made stale by another
process."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from app.services.record import EVENT_WINDOW, TableRecord, TableStatus


class TableCache:
    """The newest known record of recently used tables, bounded in size (LRU) and in time.

    A table unused (neither read nor stored) for `idle_seconds` leaves at the next use of the cache, so a
    process's memory follows the tables in play, not every table it ever served: a finished or abandoned
    game does not wait for `capacity` others to push it out. Either way it comes back from the database
    unchanged when next needed (tests/services/test_cache_eviction.py). 0 keeps idle tables until pushed out.
    A stored record keeps the events of its last `events_kept` versions (at most EVENT_WINDOW), for the rooms a
    few versions behind; a room further behind gets a snapshot instead. Those events are most of a played
    record's memory (bench/table_memory.py: 64 versions of them made a record 3-5x its size read back).

    A table dropped because another process moved it ahead keeps that version as a floor: a record
    older than it (this process's own write, committed before the other one but stored after its
    notice) is not kept, so no reader here sees a version it knows to be stale."""

    def __init__(self, capacity: int = 5000, idle_seconds: float = 0.0, events_kept: int = EVENT_WINDOW,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._items: OrderedDict[str, TableRecord] = OrderedDict()
        self._used: dict[str, float] = {}  # when each cached table was last read or stored
        self._floors: OrderedDict[str, int] = OrderedDict()
        self.capacity = capacity
        self.idle_seconds = idle_seconds
        self.events_kept = max(1, min(events_kept, EVENT_WINDOW))
        self._clock = clock

    def __len__(self) -> int:
        return len(self._items)

    def _touch(self, table_id: str) -> None:
        """Mark a table used now, and let the tables idle too long leave (the least recently used first)."""
        self._items.move_to_end(table_id)
        now = self._clock()
        self._used[table_id] = now
        if self.idle_seconds > 0:
            cutoff = now - self.idle_seconds
            while self._items:
                oldest = next(iter(self._items))
                if self._used[oldest] > cutoff:
                    break
                del self._items[oldest], self._used[oldest]

    def get(self, table_id: str) -> TableRecord | None:
        rec = self._items.get(table_id)
        if rec is not None:
            self._touch(table_id)
        return rec

    def versions(self) -> dict[str, int]:
        """The cached tables' versions, by id."""
        return {table_id: rec.version for table_id, rec in self._items.items()}

    def known_version(self, table_id: str) -> int | None:
        """The newest version this process has heard of: the cached one, or the floor of a dropped table."""
        rec = self._items.get(table_id)
        return rec.version if rec is not None else self._floors.get(table_id)

    def put(self, rec: TableRecord) -> TableRecord:
        """Store a record unless a newer one is already known; return the newest (or `rec`, if known stale)."""
        floor = self._floors.get(rec.id)
        if floor is not None:
            if rec.version < floor:
                return rec
            del self._floors[rec.id]
        old = self._items.get(rec.id)
        if old is not None and old.version > rec.version:
            return old
        if old is not None and old.recent_events is not rec.recent_events:
            if not rec.recent_events:
                rec.recent_events = old.recent_events
            else:
                # A record read afresh knows only the events of its own last lobby change; the cached one, those
                # before it, which a room a few versions behind still needs.
                first = min(rec.recent_events)
                cutoff = rec.version - EVENT_WINDOW  # no older than remember_events keeps: bounded by the window
                rec.recent_events = {**{v: e for v, e in old.recent_events.items() if cutoff < v < first},
                                     **rec.recent_events}
        recent = rec.recent_events  # in version order, oldest first (remember_events)
        while len(recent) > self.events_kept:
            del recent[next(iter(recent))]
        self._items[rec.id] = rec
        self._touch(rec.id)
        while len(self._items) > self.capacity:
            gone, _ = self._items.popitem(last=False)
            del self._used[gone]
        return rec

    def drop_finished_of(self, user_id: str) -> list[str]:
        """Forget the finished tables that name this person (a seat or the host); their ids.

        A rename moves no finished table's version (a person may have hundreds), so no notice of a change reaches
        the processes caching them: they are read again, with the new name, when next needed."""
        gone = [
            rec.id for rec in self._items.values()
            if rec.status == TableStatus.FINISHED
            and (rec.host_id == user_id or any(s.user_id == user_id for s in rec.seats))
        ]
        for table_id in gone:
            del self._items[table_id], self._used[table_id]
        return gone

    def drop(self, table_id: str, newer: int | None = None) -> None:
        """Forget a table; `newer` is a version committed elsewhere, below which nothing is stored again."""
        self._items.pop(table_id, None)
        self._used.pop(table_id, None)
        if newer is not None:
            self._floors[table_id] = max(newer, self._floors.get(table_id, newer))
            self._floors.move_to_end(table_id)
            while len(self._floors) > self.capacity:
                self._floors.popitem(last=False)
