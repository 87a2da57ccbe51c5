"""What a room missed since the version it last published: the events of the versions in between, from the
record's window of recent events or else from the stored moves."""

from __future__ import annotations

from typing import Any, Protocol

from app.services.record import EVENT_WINDOW, TableRecord


class StoredEvents(Protocol):
    async def events_after(self, table_id: str, version: int) -> list[dict[str, Any]]: ...


def recent_events_since(rec: TableRecord, after: int) -> list[dict[str, Any]] | None:
    """The events of the versions after `after` (the last EVENT_WINDOW at most), if the record has them all."""
    versions = range(max(after + 1, rec.version - EVENT_WINDOW + 1), rec.version + 1)
    if all(v in rec.recent_events for v in versions if v > 1):
        return [ev for v in versions for ev in rec.recent_events.get(v, [])]
    return None


async def events_since(rec: TableRecord, after: int, stored: StoredEvents) -> list[dict[str, Any]]:
    """The events of the versions after `after` (the last EVENT_WINDOW at most): the record's, else the stored ones."""
    events = recent_events_since(rec, after)
    if events is None:
        events = await stored.events_after(rec.id, max(after, rec.version - EVENT_WINDOW))
    return events
