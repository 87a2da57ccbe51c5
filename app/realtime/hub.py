"""The hub: each table's sockets, and each viewer's own view after every change.

A view is computed once per distinct viewer per version (all spectators share
one), serialised once, and the same bytes go to every socket of that viewer. With
the framed protocol (`app.realtime.protocol`) the frame is encoded once too and
written straight to each socket's transport; otherwise each socket has a send
queue drained by a writer task that exists only while something is queued. Either
way one slow client never holds up the rest and an idle socket costs little.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from app.clock import Clock, SystemClock
from app.games import GAMES
from app.metrics import SOCKETS_OPEN
from app.realtime.catchup import events_since, recent_events_since
from app.realtime.connections import Connection, Message, end_session, lose_access
from app.realtime.presence import Presence, Shown, seats_by_user
from app.services.record import TableRecord, TableStatus, Visibility, redact_events
from app.services.table_cache import TableCache

log = logging.getLogger("app.hub")


class Presenter(Protocol):
    """How a table is shown (services/presentation.TablePresenter)."""

    def public(self, rec: TableRecord) -> dict[str, Any]:
        """The table as every viewer sees it."""

    def key(self, rec: TableRecord) -> tuple[Any, ...]:
        """What `public` shows beyond the fields every move changes: unchanged, an update need not repeat it."""

    def for_viewer(self, rec: TableRecord, public: dict[str, Any], user_id: str | None) -> dict[str, Any]:
        """`public` completed with what depends on the viewer and the moment."""

    def clock_fields(self, rec: TableRecord) -> dict[str, Any]: ...


class Records(Protocol):
    """Where the hub gets a table's record beyond its cache."""

    async def reload(self, table_id: str) -> TableRecord: ...

    async def record_at_least(self, table_id: str, version: int) -> TableRecord: ...


class HubReads(Protocol):
    """The database reads the hub needs (services/live_reads.LiveReads)."""

    async def events_after(self, table_id: str, version: int) -> list[dict[str, Any]]: ...

    async def revoked_among(self, sids: list[str]) -> list[str]: ...

    async def people(self, user_ids: list[str]) -> list[tuple[str, int, str]]: ...

    async def chat_since(
        self, table_id: str, since: datetime, host_id: str
    ) -> tuple[list[dict[str, Any]], list[int]]: ...


@dataclass
class Room:
    conns: set[Connection] = field(default_factory=set)
    last_version: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    table_key: tuple[Any, ...] | None = None  # the table as the last update showed it (see presentation.table_key)
    opened: float = field(default_factory=time.time)  # when its first socket came: chat since then is resent
    # Presence (realtime/presence.py): sockets here per signed-in user (in the order they came), their names as
    # their newest socket connected, signed-out sockets, each person's seat as of `seats_version`, and what the
    # room was last shown.
    people: dict[str, int] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    anon: int = 0
    seats: dict[str, str] = field(default_factory=dict)
    seats_version: int = -1
    presence: Shown | None = None

    def note_seats(self, rec: TableRecord) -> None:
        """Keep who sits where, from a record at least as new as the last one seen."""
        if rec.version >= self.seats_version:
            self.seats, self.seats_version = seats_by_user(rec), rec.version


def viewer_message(
    presenter: Presenter,
    rec: TableRecord,
    user_id: str | None,
    kind: str,
    events: list[dict[str, Any]] | None,
    view: dict[str, Any] | None = None,
    table: dict[str, Any] | None = None,
    with_table: bool = True,
) -> dict[str, Any]:
    """A snapshot or update for one viewer of the table.

    `view` and `table` (the `public_table_json`) may come made already, shared by every viewer; an update
    leaves the table out (`with_table` false) when only its per-move fields changed, which the message
    carries itself. The short fields come first, so a client can read them without parsing the rest."""
    seat = rec.seat_of(user_id)
    game = GAMES[rec.game]
    actions = None
    if rec.state is not None:
        if view is None:
            view = game.view(rec.state_for(seat), seat)
        actions = rec.actions_for(seat) if rec.status == TableStatus.PLAYING and seat in rec.awaiting else []
    message: dict[str, Any] = {
        "type": kind,
        "version": rec.version,
        "seat": seat,
        "awaiting": rec.awaiting if rec.status == TableStatus.PLAYING else [],
        "actions": actions or [],
    }
    drafts = len(rec.live_drafts(seat))
    if drafts:
        message["draft"] = drafts  # the viewer's own drafts, which its view and actions include
    if seat is not None and (seat == rec.undo_seat or drafts) and seat not in rec.bot_seats():
        message["undo"] = True  # this seat may take back its last step (a draft is always one)
    message.update(presenter.clock_fields(rec))  # every move changes a clocked table's clocks
    if with_table:
        message["table"] = presenter.for_viewer(rec, table if table is not None else presenter.public(rec), user_id)
    message["view"] = view
    if events is not None:
        message["events"] = redact_events(events, seat, rec.status == TableStatus.FINISHED)
    return message


class Hub:
    """Keeps every table's sockets in this process and sends them their views."""

    def __init__(
        self,
        *,
        cache: TableCache,
        records: Records,
        reads: HubReads,
        presenter: Presenter,
        on_renamed: Callable[[str, str], None],
        publish_later: Callable[[str, int], None],
        clock: Clock | None = None,
    ) -> None:
        self.clock: Clock = clock or SystemClock()  # when each socket was last heard from, and the idle sweep's waits
        self.cache = cache
        self.records = records
        self.reads = reads
        self.presenter = presenter
        self.on_renamed = on_renamed  # a name found changed meanwhile (`recheck_sessions`)
        self.publish_later = publish_later  # bring a table's sockets up to a version in the background
        self.rooms: dict[str, Room] = {}
        self.presence: Presence | None = None  # set by the runtime
        # Per person, the newest token epoch whose older sessions were ended: a socket let in with an older token
        # just before the change committed is refused as it joins (`outdated`). Epochs only grow, so an entry is
        # never wrong, only spent; the dict is emptied past a size rather than aged.
        self.ended: dict[str, int] = {}
        # Sessions signed out of (by id), for the same race; emptied past a size like `ended`.
        self.revoked: set[str] = set()
        self.addresses: dict[str, int] = {}  # open sockets per client address

    def watched_at(self, table_id: str) -> int | None:
        """The version the table's sockets here were last sent; None when none watches it."""
        room = self.rooms.get(table_id)
        return room.last_version if room is not None else None

    def sockets_of(self, table_id: str, user_id: str | None, address: str) -> tuple[int, int]:
        """How many sockets this person holds at the table, and this address at this process."""
        room = self.rooms.get(table_id)
        person = room.people.get(user_id, 0) if room is not None and user_id is not None else 0
        return person, self.addresses.get(address, 0)

    def attach(self, conn: Connection) -> None:
        room = self.rooms.setdefault(conn.table_id, Room())
        if conn not in room.conns:
            conn.last_seen = self.clock.monotonic()
            room.conns.add(conn)
            self.addresses[conn.address] = self.addresses.get(conn.address, 0) + 1
            if conn.user_id is None:
                room.anon += 1
            else:
                room.people[conn.user_id] = room.people.get(conn.user_id, 0) + 1
                if conn.user_name is not None:
                    room.names[conn.user_id] = conn.user_name
            if self.presence is not None:
                self.presence.touch(conn.table_id)
        SOCKETS_OPEN.inc()

    def detach(self, conn: Connection) -> None:
        room = self.rooms.get(conn.table_id)
        if room is not None and conn in room.conns:
            room.conns.discard(conn)
            left = self.addresses.get(conn.address, 0) - 1
            if left > 0:
                self.addresses[conn.address] = left
            else:
                self.addresses.pop(conn.address, None)
            if conn.user_id is None:
                room.anon -= 1
            elif room.people.get(conn.user_id, 0) > 1:
                room.people[conn.user_id] -= 1
            else:
                room.people.pop(conn.user_id, None)
                room.names.pop(conn.user_id, None)
            if not room.conns:
                self.rooms.pop(conn.table_id, None)
            if self.presence is not None:
                self.presence.touch(conn.table_id)
        conn.closed = True
        if conn.writer is not None:
            conn.writer.cancel()
        SOCKETS_OPEN.dec()

    def end_sessions(self, user_id: str, epoch: int) -> int:
        """Close this process's sockets of `user_id` opened with a token older than `epoch`; how many."""
        if len(self.ended) > 100_000:
            self.ended.clear()
        self.ended[user_id] = max(epoch, self.ended.get(user_id, 0))
        closed = 0
        for room in list(self.rooms.values()):
            if user_id not in room.people:
                continue
            for conn in list(room.conns):
                if conn.user_id == user_id and conn.epoch < epoch and not conn.closed:
                    end_session(conn)
                    closed += 1
        return closed

    def revoke_session(self, user_id: str, sid: str) -> int:
        """Close this process's sockets opened with the session `sid` (signed out of); how many."""
        if len(self.revoked) > 100_000:
            self.revoked.clear()
        self.revoked.add(sid)
        closed = 0
        for room in list(self.rooms.values()):
            if user_id not in room.people:
                continue
            for conn in list(room.conns):
                if conn.sid == sid and not conn.closed:
                    end_session(conn)
                    closed += 1
        return closed

    def rename(self, user_id: str, name: str) -> None:
        """The person's new name: their sockets here name them with it in `presence` (announced to the others too)."""
        for table_id, room in list(self.rooms.items()):
            if user_id not in room.people:
                continue
            for conn in room.conns:
                if conn.user_id == user_id:
                    conn.user_name = name  # what `recheck_sessions` compares with the stored name
            room.names[user_id] = name
            if self.presence is not None:
                self.presence.touch(table_id)

    async def refresh(self, table_id: str) -> None:
        """Send every socket of the table a snapshot read afresh: a name in it changed, though its version did not
        (a finished table's person renamed)."""
        room = self.rooms.get(table_id)
        if room is None:
            return
        try:
            async with room.lock:
                rec = await self.records.reload(table_id)
                for conn in list(room.conns):
                    if not conn.closed:
                        self.snapshot(rec, conn)
        except Exception:  # noqa: BLE001 - its sockets get the new name with their next snapshot
            log.exception("refresh failed", extra={"table_id": table_id})

    def outdated(self, conn: Connection) -> bool:
        """Whether the socket's session ended after its token was checked (it must not join its room)."""
        return conn.user_id is not None and (
            conn.epoch < self.ended.get(conn.user_id, -1) or (conn.sid is not None and conn.sid in self.revoked)
        )

    async def recheck_sessions(self) -> None:
        """After a broker reconnect: end the sockets whose session ended meanwhile, and take up the names changed
        meanwhile (those notices were lost here)."""
        held: dict[str, int] = {}
        names: dict[str, set[str | None]] = defaultdict(set)
        sessions: dict[str, str] = {}
        for room in list(self.rooms.values()):
            for conn in room.conns:
                if conn.user_id is not None:
                    held[conn.user_id] = min(conn.epoch, held.get(conn.user_id, conn.epoch))
                    names[conn.user_id].add(conn.user_name)
                    if conn.sid is not None:
                        sessions[conn.sid] = conn.user_id
        ids = sorted(held)
        sids = sorted(sessions)
        try:
            for sid in await self.reads.revoked_among(sids):
                self.revoke_session(sessions[sid], sid)
            for user_id, epoch, name in await self.reads.people(ids):
                if epoch > held[user_id]:
                    self.end_sessions(user_id, epoch)
                if names[user_id] != {name}:
                    self.on_renamed(user_id, name)
        except Exception:  # noqa: BLE001 - such a socket is refused anyway the next time it connects
            log.exception("session and name recheck failed")

    def snapshot(self, rec: TableRecord, conn: Connection) -> None:
        """Send one connection the full current picture: `rec`, or a newer record this process knows.

        `rec` may have been read before the socket joined its room (or before a resync's read ended), and a
        change published meanwhile either missed this socket or reached it already: a snapshot older than
        that change would leave the client behind with nothing more to come."""
        newest = self.cache.get(rec.id)
        if newest is not None and newest.version >= rec.version:  # the same version may have new drafts
            rec = newest
        room = self.rooms.get(conn.table_id)
        if room is not None and len(room.conns) == 1:
            # A new room starts at this snapshot; an existing room keeps its version, so a change not
            # yet published still reaches its other sockets.
            room.last_version = max(room.last_version, rec.version)
        conn.send(Message.of(viewer_message(self.presenter, rec, conn.user_id, "snapshot", None)))
        if room is not None and self.presence is not None:
            room.note_seats(rec)
            conn.send_json(self.presence.message(conn.table_id, room))
        known = self.cache.known_version(rec.id)
        if known is not None and known > rec.version:
            # Dropped meanwhile for a change made elsewhere, whose notice found no room to tell.
            self.publish_later(rec.id, known)

    def show_draft(self, rec: TableRecord, seat: str, events: list[dict[str, Any]]) -> None:
        """Show the author's sockets at this table (in this process) their new picture after a draft: a `draft`
        message, at the table's unchanged version. No one else hears of it."""
        room = self.rooms.get(rec.id)
        if room is None:
            return
        conns = [c for c in room.conns if not c.closed and rec.seat_of(c.user_id) == seat]
        if not conns:
            return
        doc = viewer_message(self.presenter, rec, conns[0].user_id, "draft", events, with_table=False)
        doc["draft"] = len(rec.live_drafts(seat))  # also when none is left (the last one taken back)
        message = Message.of(doc)
        for conn in conns:
            conn.send(message)

    def publish_now(self, rec: TableRecord) -> bool:
        """Publish a change this process just made, without a task, if everything needed is at hand.

        False when it must go the long way (`publish`): another publish is under way, or the room is
        more than the cached events behind."""
        room = self.rooms.get(rec.id)
        if room is None or rec.version <= room.last_version:
            return True
        if room.lock.locked():
            return False
        events = recent_events_since(rec, room.last_version)
        if events is None:
            return False
        self._deliver(room, rec, events)
        return True

    async def publish(self, table_id: str, version: int) -> None:
        """Send every socket at the table its view of the newest version (at least `version`)."""
        room = self.rooms.get(table_id)
        if room is None:
            return
        async with room.lock:
            if version <= room.last_version:
                return
            rec = await self.records.record_at_least(table_id, version)
            if rec.version <= room.last_version:
                return
            self._deliver(room, rec, await events_since(rec, room.last_version, self.reads))

    def _deliver(self, room: Room, rec: TableRecord, events: list[dict[str, Any]]) -> None:
        """Each distinct viewer's update, made once and sent to all of that viewer's sockets.

        Every message is made before any is sent or the room counts the version as published, so a failure
        here leaves the room as it was (the next publish brings its sockets up to date)."""
        key = self.presenter.key(rec)
        changed = key != room.table_key
        if changed and rec.visibility == Visibility.PRIVATE:
            # Only a change of the table (a seat, the host, the invite) can take someone's right to see it away:
            # the moves in between cost no check.
            self.drop_unseeing(room, rec)
        groups: dict[tuple[str | None, bool], list[Connection]] = defaultdict(list)
        for conn in list(room.conns):
            if conn.closed:
                continue
            groups[(rec.seat_of(conn.user_id), conn.user_id == rec.host_id)].append(conn)
        seats = list({seat for seat, _host in groups})
        views = dict(zip(seats, GAMES[rec.game].views(rec.state, seats), strict=True)) if rec.state else {}
        for seat in seats:
            if rec.live_drafts(seat):  # that seat sees its own drafts
                views[seat] = GAMES[rec.game].view(rec.state_for(seat), seat)
        table = self.presenter.public(rec) if changed else None
        messages = [
            (conns, Message.of(viewer_message(self.presenter, rec, conns[0].user_id, "update", events,
                                              views.get(seat), table, changed)))
            for (seat, _host), conns in groups.items()
        ]
        room.last_version, room.table_key = rec.version, key
        for conns, message in messages:
            for conn in conns:
                conn.send(message)
        if changed and self.presence is not None:  # someone sat down, left or moved: the seats shown may change
            room.note_seats(rec)
            self.presence.touch(rec.id)

    def drop_unseeing(self, room: Room, rec: TableRecord) -> None:
        """Close the sockets whose person may no longer see the private table `rec` (kicked from their seat, left
        it, no longer the host, or holding an invite that no longer works), saying why: they get nothing more."""
        for conn in list(room.conns):
            if not conn.closed and not conn.may_see(rec):
                lose_access(conn)

    def chat(self, table_id: str, line: dict[str, Any]) -> None:
        """Send a chat line to every socket at the table: all of them may see the table, so all may read it."""
        room = self.rooms.get(table_id)
        if room is not None:
            self.broadcast(room, {"type": "chat", "message": line})

    def chat_removed(self, table_id: str, message_id: int) -> None:
        """The host removed a line: every socket at the table drops it."""
        room = self.rooms.get(table_id)
        if room is not None:
            self.broadcast(room, {"type": "chat_removed", "id": message_id})

    def chat_mute(self, table_id: str, user: dict[str, Any], muted: bool, host_id: str) -> None:
        """The host muted or unmuted `user`: told to that person's sockets and the host's, nobody else's."""
        room = self.rooms.get(table_id)
        if room is None:
            return
        message = Message.of({"type": "chat_mute", "user": user, "muted": muted})
        for conn in list(room.conns):
            if conn.user_id is not None and conn.user_id in (user.get("id"), host_id):
                conn.send(message)

    def broadcast(self, room: Room, doc: dict[str, Any]) -> None:
        """The same message to every socket of the room, made once."""
        message = Message.of(doc)
        for conn in list(room.conns):
            conn.send(message)

    async def resync_all(self) -> None:
        """After a broker reconnect: bring every room up to the database's version, and resend its chat.

        Lines announced while the broker was away were lost for this process; a room gets again every line
        posted since it opened (the last chat.HISTORY of them), and clients keep one copy of each by its id."""
        for table_id in list(self.rooms):
            try:
                rec = await self.records.reload(table_id)
                await self.publish(table_id, rec.version)
                room = self.rooms.get(table_id)
                if room is not None:
                    since = datetime.fromtimestamp(room.opened - 1, UTC)
                    lines, removed = await self.reads.chat_since(table_id, since, rec.host_id)
                    for line in lines:
                        self.chat(table_id, line)
                    for message_id in removed:
                        self.chat_removed(table_id, message_id)
            except Exception:  # noqa: BLE001
                log.exception("resync failed", extra={"table_id": table_id})

    def close_all(self) -> None:
        for room in self.rooms.values():
            for conn in room.conns:
                conn.close_soon(1012)

    async def sweep_idle(self, idle: float, every: float = 15.0) -> None:
        """Close sockets that sent nothing (not even a ping) for `idle` seconds: one task for all."""
        while True:
            await self.clock.sleep(every)
            cutoff = self.clock.monotonic() - idle
            for room in list(self.rooms.values()):
                for conn in list(room.conns):
                    if conn.last_seen < cutoff:
                        conn.close_soon(1001)
