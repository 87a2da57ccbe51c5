"""Presence: which seats of a table have their person connected right now, how many people watch, and who.

Soft state, never stored and never part of a table's version. Each process counts its own sockets of each
table (`Room.people`, `Room.anon`, kept by the hub as sockets come and go) and tells the other processes what
it holds on the broker's side channel: a `presence` notice naming the process and, per table, the signed-in
users with a socket there (the table's seated ones first, at most MAX_IDS of them; the rest as a count), the
number of signed-out sockets, and the names of the first NAMED of its signed-in watchers (the seated are named by
the table itself), so every process can say who watches. It announces a table again when its part changes, all of
its tables every `presence_refresh` seconds, and that it holds nothing when it stops. The others keep each
process's last word per table until `presence_expiry` seconds after they heard it (`PresenceBoard`), so the sockets
of a process that died stop counting. What a socket is shown is the union of all of them (`merge`, `watchers`).

Changes are coalesced: a socket arriving or leaving, a notice, or a change of the seats marks its table, and
`presence_debounce` seconds after the first mark every marked table's sockets get one `presence` message if
what they were last shown changed (one message, made once, for all of them), and the process announces the
parts that changed, several tables to a notice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Collection, Coroutine, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from app.clock import Clock, SystemClock
from app.messages import PresenceNotice

if TYPE_CHECKING:
    from app.realtime.broker import Broker
    from app.realtime.hub import Hub, Room
    from app.services.record import TableRecord

log = logging.getLogger("app.presence")
MAX_IDS = 100  # user ids one process announces per table; past them it sends a count
# Watchers named, with their names, in one process's part and in a socket's message: the rest are counted. 20 names
# of 40 characters (160 bytes in UTF-8 at most) beside 100 ids keep a table's part under NOTICE_BYTES.
NAMED = 20
NAME_CHARS = 40  # a display name's length at most (services/auth.clean_name)
NOTICE_BYTES = 7000  # a notice's size at most (Postgres refuses a NOTIFY payload of 8000 bytes or more)

Spawn = Callable[[Coroutine[Any, Any, None]], Any]


@dataclass(frozen=True, slots=True)
class Part:
    """What one process holds of one table: signed-in users by id, more of them by count, signed-out sockets, and
    the names of some of the users who watch (id, name)."""

    users: frozenset[str] = frozenset()
    more: int = 0
    anon: int = 0
    names: frozenset[tuple[str, str]] = frozenset()

    @property
    def empty(self) -> bool:
        return not self.users and not self.more and not self.anon

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"users": sorted(self.users), "more": self.more, "anon": self.anon}
        if self.names:  # left out when none: most parts name nobody, and a notice's bytes are counted
            doc["names"] = dict(sorted(self.names))
        return doc

    @classmethod
    def from_json(cls, doc: Any) -> Part:
        """A part as announced; whatever is malformed counts as nothing."""
        if not isinstance(doc, dict):
            return cls()
        users = doc.get("users")
        ids = frozenset(u for u in users[:MAX_IDS] if isinstance(u, str)) if isinstance(users, list) else frozenset()
        names = doc.get("names")
        named = frozenset(
            (u, name[:NAME_CHARS]) for u, name in list(names.items())[:NAMED] if u in ids and isinstance(name, str)
        ) if isinstance(names, dict) else frozenset()
        return cls(ids, _count(doc.get("more")), _count(doc.get("anon")), named)


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**7 else 0


EMPTY = Part()


def local_part(
    people: Collection[str], anon: int, seated: Collection[str], names: Mapping[str, str] | None = None
) -> Part:
    """This process's part of a table: its users with a socket there, the seated ones always named, and the names
    of the first NAMED watchers to arrive whose names it knows (`names`)."""
    watchers = named_watchers(people, seated, names or {})
    if len(people) <= MAX_IDS:
        return Part(frozenset(people), 0, anon, watchers)
    ids = [u for u in people if u in seated]
    ids += [u for u in people if u not in seated][: max(0, MAX_IDS - len(ids))]
    listed = frozenset(ids)
    return Part(listed, len(people) - len(ids), anon, frozenset(w for w in watchers if w[0] in listed))


def named_watchers(
    people: Iterable[str], seated: Collection[str], names: Mapping[str, str]
) -> frozenset[tuple[str, str]]:
    """(id, name) of the first NAMED of `people` (in their order: first come) who are not seated, named in `names`."""
    out: list[tuple[str, str]] = []
    for user in people:
        if len(out) == NAMED:
            break
        if user not in seated and user in names:
            out.append((user, names[user]))
    return frozenset(out)


def seat_order(seat: str) -> tuple[int, str]:
    return (len(seat), seat)


def merge(
    seat_by_user: Mapping[str, str], people: Collection[str], anon: int, remote: Iterable[Part]
) -> tuple[list[str], int]:
    """The seats with their person connected and the number watching: this process's sockets (`people`, the
    signed-in users with a socket here, and `anon` signed-out sockets) together with the other processes' parts.

    Watchers are the distinct signed-in users not seated, plus every signed-out socket; users another process
    counted past its MAX_IDS are added as its count (one of them with sockets on two processes counts twice)."""
    remote = [p for p in remote if not p.empty]
    if not remote:  # the usual case: all of a table's sockets in one process
        online = [seat for user, seat in seat_by_user.items() if user in people]
        return sorted(online, key=seat_order), len(people) - len(online) + anon
    users = set(people)
    extra = anon
    for part in remote:
        users |= part.users
        extra += part.more + part.anon
    online = [seat for user, seat in seat_by_user.items() if user in users]
    return sorted(online, key=seat_order), len(users) - len(online) + extra


def watchers(
    seat_by_user: Mapping[str, str], people: Iterable[str], names: Mapping[str, str], remote: Iterable[Part]
) -> list[dict[str, str]]:
    """The signed-in watchers a socket is shown by name, as {"id", "name"}: this process's (`people` with their
    `names`) and those the other processes named, each person once, not seated, in the order of their names, at
    most NAMED. The others who watch are in the count only."""
    found = {user: names[user] for user in people if user in names and user not in seat_by_user}
    for part in remote:
        for user, name in part.names:
            if user not in seat_by_user:
                found.setdefault(user, name)
    chosen = sorted(found.items(), key=lambda item: (item[1].casefold(), item[0]))[:NAMED]
    return [{"id": user, "name": name} for user, name in chosen]


Shown = tuple[list[str], int, list[dict[str, str]]]  # the seats online, the number watching, the watchers named


def presence_message(shown: Shown) -> dict[str, Any]:
    """The socket's `presence` message of what it is shown."""
    online, watching, named = shown
    return {"type": "presence", "online": online, "watching": watching, "watchers": named}


def seats_by_user(rec: TableRecord) -> dict[str, str]:
    """Each person's seat (a seat a bot plays for its person is still theirs); bots' own seats have nobody."""
    return {s.user_id: s.seat for s in rec.seats if s.user_id is not None}


class PresenceBoard:
    """The other processes' last announced parts, per table and process, each forgotten `expiry` seconds after
    it was last heard."""

    def __init__(self, expiry: float) -> None:
        self.expiry = expiry
        self.tables: dict[str, dict[str, tuple[Part, float]]] = {}

    def note(self, origin: str, table_id: str, part: Part, now: float) -> bool:
        """Keep what `origin` holds of the table; whether that changes what the table's sockets are shown."""
        parts = self.tables.get(table_id)
        old = parts.pop(origin, None) if parts is not None else None
        if not part.empty:
            self.tables.setdefault(table_id, {})[origin] = (part, now)
        elif parts is not None and not parts:
            del self.tables[table_id]
        return (old[0] if old is not None else EMPTY) != part

    def forget(self, origin: str) -> list[str]:
        """Drop everything `origin` held (it stopped); the tables that changed."""
        changed = []
        for table_id, parts in list(self.tables.items()):
            if parts.pop(origin, None) is not None:
                changed.append(table_id)
                if not parts:
                    del self.tables[table_id]
        return changed

    def expire(self, now: float) -> list[str]:
        """Drop the parts not heard of for `expiry` seconds (their process is gone); the tables that changed."""
        cutoff = now - self.expiry
        changed = []
        for table_id, parts in list(self.tables.items()):
            stale = [origin for origin, (_part, heard) in parts.items() if heard < cutoff]
            for origin in stale:
                del parts[origin]
            if stale:
                changed.append(table_id)
                if not parts:
                    del self.tables[table_id]
        return changed

    def parts(self, table_id: str) -> list[Part]:
        return [part for part, _heard in self.tables.get(table_id, {}).values()]


def notices(origin: str, parts: Mapping[str, Part]) -> list[str]:
    """The notices announcing these parts: as few as fit NOTICE_BYTES each (a table's part is never split)."""
    head = PresenceNotice(origin=origin).payload().encode()[:-1]  # the object left open for its tables
    out: list[str] = []
    chunk: list[bytes] = []
    size = len(head) + 12
    for table_id, part in parts.items():
        entry = orjson.dumps(table_id) + b":" + orjson.dumps(part.to_json())
        if chunk and size + len(entry) + 1 > NOTICE_BYTES:
            out.append((head + b',"tables":{' + b",".join(chunk) + b"}}").decode())
            chunk, size = [], len(head) + 12
        chunk.append(entry)
        size += len(entry) + 1
    if chunk:
        out.append((head + b',"tables":{' + b",".join(chunk) + b"}}").decode())
    return out


class Presence:
    """One process's presence: its rooms' parts, the other processes' (a PresenceBoard), and the messages."""

    def __init__(
        self, hub: Hub, broker: Broker, origin: str, spawn: Spawn,
        debounce: float = 0.5, refresh: float = 30.0, expiry: float = 90.0, *, clock: Clock | None = None,
    ) -> None:
        self.hub = hub
        self.clock: Clock = clock or SystemClock()
        self.broker = broker
        self.origin = origin
        self.spawn = spawn
        self.debounce = debounce
        self.refresh = refresh
        self.shared = broker.shared  # whether other processes may hold sockets of our tables
        self.board = PresenceBoard(expiry)
        self.announced: dict[str, Part] = {}  # what the others last heard from us, per table
        self.dirty: set[str] = set()
        self._timer: asyncio.TimerHandle | None = None
        self.stopped = False

    # ---- what a socket is shown

    def shown(self, table_id: str, room: Room) -> Shown:
        """The seats online, the number watching and the watchers named, as this table's sockets are to see them."""
        remote = self.board.parts(table_id) if self.shared else []
        online, watching = merge(room.seats, room.people, room.anon, remote)
        return online, watching, watchers(room.seats, room.people, room.names, remote)

    def connected(self, table_id: str, user_id: str) -> bool:
        """Whether the user has a socket open at the table, in this process or (as last announced) another."""
        room = self.hub.rooms.get(table_id)
        if room is not None and user_id in room.people:
            return True
        # Another process names every seated user it holds before any count (local_part), so a player is named.
        return self.shared and any(user_id in part.users for part in self.board.parts(table_id))

    def message(self, table_id: str, room: Room) -> dict[str, Any]:
        return presence_message(self.shown(table_id, room))

    # ---- changes, coalesced

    def touch(self, table_id: str) -> None:
        """Something that may change the table's presence happened: look again in a moment."""
        if self.stopped:
            return
        self.dirty.add(table_id)
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.debounce, self.flush)

    def flush(self) -> None:
        """Send every marked table's sockets what changed for them, and announce the parts that changed."""
        self._timer = None
        tables, self.dirty = self.dirty, set()
        changed: dict[str, Part] = {}
        for table_id in tables:
            try:
                room = self.hub.rooms.get(table_id)
                if self.shared:
                    part = EMPTY if room is None else local_part(room.people, room.anon, room.seats, room.names)
                    if part != self.announced.get(table_id, EMPTY):
                        changed[table_id] = part
                        if part.empty:
                            self.announced.pop(table_id, None)
                        else:
                            self.announced[table_id] = part
                if room is None:
                    continue
                shown = self.shown(table_id, room)
                if shown != room.presence:
                    room.presence = shown
                    self.hub.broadcast(room, presence_message(shown))
            except Exception:  # noqa: BLE001 - one table's trouble must not keep the others' presence back
                log.exception("presence failed", extra={"table_id": table_id})
        if changed:
            self.spawn(self.announce(changed))

    # ---- across processes

    async def announce(self, parts: Mapping[str, Part]) -> None:
        for notice in notices(self.origin, parts):
            await self.broker.announce(notice)

    async def announce_all(self, ask: bool = False) -> None:
        """Tell the others every table this process holds sockets of (and, with `ask`, to do the same)."""
        parts = {}
        for table_id, room in list(self.hub.rooms.items()):
            part = local_part(room.people, room.anon, room.seats, room.names)
            if not part.empty:
                parts[table_id] = self.announced[table_id] = part
        if ask:
            await self.broker.announce(PresenceNotice(origin=self.origin, ask=True).payload())
        await self.announce(parts)

    def on_notice(self, notice: PresenceNotice) -> None:
        """Another process's presence notice."""
        origin = notice.origin
        if notice.gone:
            for table_id in self.board.forget(origin):
                self.touch(table_id)
            return
        if notice.ask and not self.stopped:
            self.spawn(self.announce_all())
        tables = notice.tables
        if tables is not None:
            now = self.clock.monotonic()
            for table_id, doc in tables.items():
                if self.board.note(origin, str(table_id), Part.from_json(doc), now):
                    self.touch(str(table_id))

    async def run(self) -> None:
        """Announce this process's tables now and every `refresh` seconds; forget the parts not heard again."""
        if not self.shared:
            return
        await self.announce_all(ask=True)
        while True:
            await self.clock.sleep(self.refresh)
            try:
                for table_id in self.board.expire(self.clock.monotonic()):
                    self.touch(table_id)
                await self.announce_all()
            except Exception:  # noqa: BLE001 - try again next round
                log.exception("presence refresh failed")

    async def stop(self) -> None:
        """Tell the others this process holds no sockets any more (they would count them until they expire)."""
        self.stopped = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.shared:
            with contextlib.suppress(Exception):
                gone = PresenceNotice(origin=self.origin, gone=True).payload()
                await asyncio.wait_for(self.broker.announce(gone), 2)
