"""The in-memory picture of a table: what the hub, the API and `apply_action` read.

A `TableRecord` mirrors one `game_tables` row with its seats and user names. The
`TableCache` keeps the newest record per table in this process, so the hot path
(a move, a broadcast) reads no row it already knows; a version check inside every
write transaction catches a record made stale by another process.
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import GameTable, Move, MoveDraft, RatingChange, Seat, User
from app.games import GAMES
from app.games.base import IllegalAction
from app.services.errors import not_found


@dataclass
class SeatInfo:
    seat: str
    user_id: str | None
    user_name: str | None
    bot: bool
    guest: bool = False  # its person plays it as a guest: not rated (`seats.guest`)
    # While a bot stands in for its person: since when the person has been away (`seats.away_since`).
    away_since: datetime | None = None
    bot_level: str | None = None  # the level of a bot the host put here; a stand-in plays at the normal level


@dataclass(frozen=True)
class Draft:
    """A secret step kept for its author only (services/drafts.py): the action, its client id and its events."""

    action: dict[str, Any]
    client_id: str | None
    events: list[dict[str, Any]]


# An update carries the events of at most this many versions (a client further behind resyncs), so a record
# remembers the events of that many.
EVENT_WINDOW = 64


@dataclass
class TableRecord:
    id: str
    game: str
    name: str
    host_id: str
    host_name: str
    visibility: str
    invite_hash: str | None
    status: str
    seat_count: int
    options: dict[str, Any]
    seed: int
    seed_commitment: str
    state: dict[str, Any] | None
    version: int
    state_seq: int
    move_count: int
    awaiting: list[str]
    outcome: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime
    seats: list[SeatInfo] = field(default_factory=list)
    rematch_id: str | None = None  # the table opened to play this finished game again
    # The open proposal to abandon the running game ({"by": seat, "yes": [seat], "since": version}), None when
    # there is none or the game is not running; `abandoned`: the players agreed to end the game (services/tables).
    abandon: dict[str, Any] | None = None
    abandoned: bool = False
    # The open request to take back moves (services/takeback.py), as stored: it counts only while the game runs at
    # the move count it was asked at (`takeback_open`).
    takeback: dict[str, Any] | None = None
    invite_round: int = 0  # how many times the host has changed the invite code (`tables.rotate_invite`)
    chat_mode: str = "everyone"  # who may chat (services/chat.ChatMode)
    # events of recent versions, for updates: version -> events
    recent_events: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    # The seat that may take back the last move: it made it, and the engine marked it undoable (it revealed
    # nothing, drew nothing and closed no one's window). Known from the move's own apply or its replay.
    undo_seat: str | None = None
    # `game_tables.rated`: null until the finished game's rating is settled, then whether it was rated; and once it
    # was, what it did to each person's rating, by seat: {"before", "after", "change"} (services/ratings.py).
    rated: bool | None = None
    ratings: dict[str, dict[str, int]] | None = None
    # Each seat's secret steps not yet carried by a move (services/drafts.py): `state` is the game without them; the
    # seat's own picture is `state_for(seat)`. Never shown to anyone else, and no version of their own.
    drafts: dict[str, tuple[Draft, ...]] = field(default_factory=dict)
    # The host's time control, the running clocks and their earliest deadline (services/clocks.py); None: no clock.
    time_control: dict[str, Any] | None = None
    clock: dict[str, Any] | None = None
    deadline: datetime | None = None
    # Derived once, on first use, for the hot path (a move and its updates look these up a dozen times).
    _seat_by_user: dict[str, str] | None = field(default=None, repr=False, compare=False)
    _bots: frozenset[str] | None = field(default=None, repr=False, compare=False)
    _actions: dict[str, list[Any]] = field(default_factory=dict, repr=False, compare=False)
    _draft_states: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False, compare=False)

    def seat_of(self, user_id: str | None) -> str | None:
        """The seat this user sits in, if any."""
        if user_id is None:
            return None
        by_user = self._seat_by_user
        if by_user is None:
            by_user = self._seat_by_user = {s.user_id: s.seat for s in self.seats if s.user_id is not None}
        return by_user.get(user_id)

    def bot_seats(self) -> frozenset[str]:
        if self._bots is None:
            self._bots = frozenset(s.seat for s in self.seats if s.bot)
        return self._bots

    def actions_for(self, seat: str) -> list[Any]:
        """The seat's legal actions in its state (with its drafts), listed once: the update that offers them to the
        player and the check of the move the player then sends share one list (a record's state is fixed)."""
        listed = self._actions.get(seat)
        if listed is None:
            listed = self._actions[seat] = GAMES[self.game].actions(self.state_for(seat), seat)
        return listed

    def live_drafts(self, seat: str | None) -> tuple[Draft, ...]:
        """The seat's drafts, while they can still be carried: the game runs and awaits the seat."""
        if seat is None or self.status != "playing" or seat not in self.awaiting:
            return ()
        return self.drafts.get(seat, ())

    def state_for(self, seat: str | None) -> dict[str, Any]:
        """The state as the seat knows it: the table's, with the seat's own drafts applied (engines are
        deterministic, and a draft touches only its author's secret choice, so it applies after any other move).
        A draft the game no longer takes is dropped here, with those after it."""
        assert self.state is not None
        drafts = self.live_drafts(seat)
        if not drafts or seat is None:
            return self.state
        known = self._draft_states.get(seat)
        if known is None:
            game, known, kept = GAMES[self.game], self.state, 0
            for draft in drafts:
                try:
                    known = game.apply(known, seat, draft.action).state
                except IllegalAction:
                    break
                kept += 1
            if kept < len(drafts):
                self.drafts = {**self.drafts, seat: drafts[:kept]}
            self._draft_states[seat] = known
        return known

    def rated_people(self) -> dict[str, str]:
        """The seats rated for their person, seat -> user id: every registered person's seat, a seat a bot finished
        for them included (it is theirs; a stand-in is no way out of a losing game); a bot's own seat and a guest's
        are left out (a guest costs one click, so games against guests would let anyone farm a rating)."""
        return {s.seat: s.user_id for s in self.seats if s.user_id is not None and not s.guest}

    def counts_for_ratings(self) -> bool:
        """Whether the game changes ratings (a running one: when it finishes normally; a settled one: whether it
        did): a public table with two registered people or more, not abandoned, and not one finished before ratings
        existed. A private table's result is its players' business, and a rating anyone can watch change would
        tell of it (docs/api.md)."""
        if self.rated is not None:
            return self.rated  # settled under the rule of its day, which a rule of later must not rewrite
        if self.time_control is not None and self.time_control.get("timeout") != "loss":
            return False  # a bot may play anyone's turn that runs out (services/timeouts.py)
        return self.visibility == "public" and not self.abandoned and len(self.rated_people()) >= 2

    def timed_out(self) -> list[str]:
        """The seats whose person ran out of time and lost (a bot plays them to the end)."""
        return list(self.clock.get("timed_out", [])) if self.clock is not None else []

    def abandon_voters(self, away_enough: float) -> list[str]:
        """The seats whose say an abandon needs: those played by their person, and those a bot plays for a person who
        has been away for less than `away_enough` seconds (the stand-in wait): whoever asked for the bot, a game
        cannot be ended behind the back of a player who just stepped out. A bot from the start has no say."""
        now = datetime.now(UTC)
        return [
            s.seat for s in self.seats
            if s.user_id is not None and (not s.bot or (
                s.away_since is not None and (now - _aware(s.away_since)).total_seconds() < away_enough))
        ]

    def abandon_waiting(self, away_enough: float) -> list[str]:
        """The voters who have yet to agree to the open proposal to abandon (none when no proposal is open)."""
        if self.abandon is None:
            return []
        yes = self.abandon["yes"]
        return [seat for seat in self.abandon_voters(away_enough) if seat not in yes]

    def takeback_open(self) -> dict[str, Any] | None:
        """The request to take back moves that is open now: none once a move was made after it, or the game ended."""
        tb = self.takeback
        if tb is None or self.status != "playing" or tb.get("at") != self.move_count:
            return None
        return tb

    def takeback_waiting(self) -> list[str]:
        """The players whose yes the open request still needs: every seat its own person plays, but the asker's."""
        tb = self.takeback_open()
        if tb is None:
            return []
        return [s.seat for s in self.seats
                if s.user_id is not None and not s.bot and s.seat != tb["by"] and s.seat not in tb["yes"]]

    def invite_ok(self, code: str | None) -> bool:
        return bool(code) and self.invite_hash == hash_invite(code or "")

    def can_see(self, user_id: str | None, invite: str | None) -> bool:
        """Whether this user may look at the table (public, seated, host, or holding the code)."""
        if self.visibility == "public":
            return True
        if user_id is not None and (user_id == self.host_id or self.seat_of(user_id) is not None):
            return True
        return self.invite_ok(invite)

    def evolve(self, **changes: Any) -> TableRecord:
        """A copy with these fields changed: `dataclasses.replace` without its per-field work (hot path)."""
        if not changes.keys() <= _RECORD_FIELDS:
            raise TypeError(f"no such field: {sorted(changes.keys() - _RECORD_FIELDS)}")
        new = object.__new__(TableRecord)
        new.__dict__.update(self.__dict__, **changes)
        new._actions = {}
        new._draft_states = {}
        new.undo_seat = changes.get("undo_seat")  # a change that does not say so leaves nothing to take back
        if "seats" in changes:
            new._seat_by_user = new._bots = None
        return new

    def remember_events(self, version: int, events: list[dict[str, Any]]) -> None:
        """Keep a version's events, forgetting those older than the window (versions come in order)."""
        recent = self.recent_events
        recent[version] = events
        cutoff = version - EVENT_WINDOW
        while (oldest := next(iter(recent))) <= cutoff:
            del recent[oldest]


_RECORD_FIELDS = frozenset(f.name for f in fields(TableRecord))


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)  # SQLite gives back UTC without its zone


def hash_invite(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def seed_commitment(table_id: str, seed: int) -> str:
    """SHA-256 of "<table id>:<seed>", published at the start and checkable once the seed is revealed."""
    return hashlib.sha256(f"{table_id}:{seed}".encode()).hexdigest()


def valid_id(value: str) -> bool:
    """Ids are 16 hex digits; anything else names no table (and never reaches SQL)."""
    return len(value) == 16 and all(ch in "0123456789abcdef" for ch in value)


async def load_record(session: AsyncSession, table_id: str, *, for_update: bool = False) -> TableRecord:
    """Read a table, its seats and names from the database."""
    if not valid_id(table_id):
        raise not_found()
    # The host's name comes with the row: a lobby change reads its table twice, and a statement costs more here than
    # the join.
    query = select(GameTable, User.name).outerjoin(User, User.id == GameTable.host_id).where(GameTable.id == table_id)
    if for_update:
        query = query.with_for_update(of=GameTable)  # not the users row: the nullable side of the join
    found = (await session.execute(query.execution_options(populate_existing=True))).one_or_none()
    if found is None:
        raise not_found()
    row, host_name = found[0], found[1] or "?"
    seat_rows = (
        await session.execute(
            select(Seat, User.name).outerjoin(User, User.id == Seat.user_id).where(Seat.table_id == table_id)
            .execution_options(populate_existing=True)  # seats this session wrote by statement (mark_guest_seats)
        )
    ).all()
    state, undo_seat = row.state, None
    if state is not None and row.state_seq < row.move_count:
        replayed = await replay_stored(session, row.game, row.id, state, row.state_seq, row.move_count)
        state = replayed.state
        undo_seat = replayed.undo_seat if row.status == "playing" else None
    seats = sorted(
        (SeatInfo(s.seat, s.user_id, name if s.user_id else None, s.bot, bool(s.guest) and s.user_id is not None,
                  away_since=s.away_since if s.bot else None,
                  bot_level=s.bot_level if s.bot and s.user_id is None else None)
         for s, name in seat_rows),
        key=lambda s: int(s.seat),
    )
    rec = TableRecord(
        id=row.id,
        game=row.game,
        name=row.name,
        host_id=row.host_id,
        host_name=host_name,
        visibility=row.visibility,
        invite_hash=row.invite_hash,
        invite_round=row.invite_round or 0,
        chat_mode=row.chat_mode or "everyone",
        status=row.status,
        seat_count=row.seat_count,
        options=dict(row.options or {}),
        seed=row.seed,
        seed_commitment=row.seed_commitment,
        state=state,
        version=row.version,
        state_seq=row.state_seq,
        move_count=row.move_count,
        awaiting=list(row.awaiting or []),
        outcome=row.outcome,
        created_at=_aware(row.created_at),
        updated_at=_aware(row.updated_at),
        seats=seats,
        rematch_id=row.rematch_id,
        # The column may outlive the game it was about (a move that ends the game does not clear it).
        abandon=row.abandon_vote if row.status == "playing" else None,
        abandoned=bool(row.abandoned),
        takeback=row.takeback if row.status == "playing" else None,
        undo_seat=undo_seat,
        rated=row.rated,
        time_control=row.time_control,
        clock=row.clock,
        deadline=_aware(row.deadline) if row.deadline is not None else None,
    )
    if row.rated:
        changes = await session.execute(
            select(RatingChange.seat, RatingChange.before, RatingChange.after, RatingChange.change)
            .where(RatingChange.table_id == table_id)
        )
        rec.ratings = {c.seat: {"before": c.before, "after": c.after, "change": c.change} for c in changes}
    if row.status == "playing":
        rec.drafts = await load_drafts(session, table_id)
    lobby = row.lobby_events
    if lobby and lobby.get("version") == row.version:
        # The events of the lobby change that made this version, which another process may have made.
        rec.remember_events(row.version, list(lobby.get("events") or []))
    return rec


async def load_drafts(session: AsyncSession, table_id: str) -> dict[str, tuple[Draft, ...]]:
    """The table's live drafts by seat, in their order: those no later move of their seat has carried."""
    carried = select(Move.seq).where(
        Move.table_id == MoveDraft.table_id, Move.seat == MoveDraft.seat, Move.seq > MoveDraft.after_seq
    ).exists()
    rows = await session.execute(
        select(MoveDraft.seat, MoveDraft.action, MoveDraft.client_id, MoveDraft.events)
        .where(MoveDraft.table_id == table_id, ~carried)
        .order_by(MoveDraft.seat, MoveDraft.n)
    )
    out: dict[str, tuple[Draft, ...]] = {}
    for seat, action, client_id, events in rows:
        out[seat] = (*out.get(seat, ()), Draft(action, client_id, events))
    return out


@dataclass
class Replayed:
    """A state brought forward by stored moves, and what the last of them leaves."""

    state: dict[str, Any]
    before_last: dict[str, Any]  # the state before the last replayed move (`state` when none was replayed)
    undo_seat: str | None  # the last move's seat, if the engine marked that move undoable


def initial_state(rec: TableRecord) -> dict[str, Any]:
    """The state the table's game started from (its seats are "0".."n-1" once started)."""
    return GAMES[rec.game].new_game([str(i) for i in range(rec.seat_count)], rec.seed, rec.options)


def replay(game_id: str, state: dict[str, Any], moves: Any) -> Replayed:
    """`state` with these `(seat, action, steps)` moves applied in order (engines are deterministic); a move's
    `steps` (its carried drafts, or None) go before its action."""
    game = GAMES[game_id]
    before, undo_seat = state, None
    for seat, action, steps in moves:
        before = state
        for step in steps or ():
            state = game.apply(state, seat, step).state
        applied = game.apply(state, seat, action)
        state, undo_seat = applied.state, seat if applied.undoable else None
    if undo_seat is not None and game.outcome(state) is not None:
        undo_seat = None
    return Replayed(state, before, undo_seat)


async def replay_stored(
    session: AsyncSession, game_id: str, table_id: str, state: dict[str, Any], after_seq: int, upto_seq: int
) -> Replayed:
    """A stored state (`state`, after `after_seq` moves) with the stored moves up to `upto_seq` replayed.

    Reads may not share one snapshot, so moves committed after the row was read are left out."""
    moves = await session.execute(
        select(Move.seat, Move.action, Move.steps)
        .where(Move.table_id == table_id, Move.seq > after_seq, Move.seq <= upto_seq)
        .order_by(Move.seq)
    )
    return replay(game_id, state, moves)


async def catch_up(session: AsyncSession, rec: TableRecord) -> TableRecord | None:
    """Apply the moves stored after `rec` to it; None when something else changed (seats): reload instead."""
    row = (
        await session.execute(
            select(GameTable.version, GameTable.status, GameTable.move_count, GameTable.state_seq,
                   GameTable.awaiting, GameTable.outcome, GameTable.updated_at, GameTable.clock,
                   GameTable.deadline)
            .where(GameTable.id == rec.id)
        )
    ).one_or_none()
    if row is None:
        return None
    # By seq, which the (table_id, seq) index ranges over; versions are checked below.
    moves = (
        await session.execute(
            select(Move.version, Move.seat, Move.action, Move.steps, Move.events)
            .where(Move.table_id == rec.id, Move.seq > rec.move_count, Move.seq <= row.move_count)
            .order_by(Move.seq)
        )
    ).all()
    versions = [m.version for m in moves]
    if versions != list(range(rec.version + 1, row.version + 1)) or rec.state is None:
        return None
    replayed = replay(rec.game, rec.state, ((m.seat, m.action, m.steps) for m in moves))
    new = rec.evolve(
        state=replayed.state,
        version=row.version,
        status=row.status,
        move_count=row.move_count,
        state_seq=row.state_seq,
        awaiting=list(row.awaiting or []),
        outcome=row.outcome,
        updated_at=_aware(row.updated_at),
        abandon=rec.abandon if row.status == "playing" else None,
        undo_seat=replayed.undo_seat,
        clock=row.clock,
        deadline=_aware(row.deadline) if row.deadline is not None else None,
    )
    for m in moves:
        new.remember_events(m.version, m.events)
    return new


# The moves after a known seq, for many tables in one query (Postgres: the tables other processes moved).
# LATERAL keeps it one primary-key range scan per table whatever plan Postgres caches for the statement.
_MOVES_AFTER_SQL = """
SELECT c.id AS table_id, m.seq, m.version, m.seat, m.action, m.steps, m.events, m.created_at
FROM unnest($1::text[], $2::int[]) AS c(id, after)
CROSS JOIN LATERAL (
    SELECT seq, version, seat, action, steps, events, created_at FROM moves
    WHERE table_id = c.id AND seq > c.after ORDER BY seq
) AS m
ORDER BY c.id, m.seq
"""


async def moves_after(conn: Any, known: dict[str, int]) -> dict[str, list[Any]]:
    """Each table's moves after the given seq (an asyncpg connection; rows in order), one query for all."""
    rows = await conn.fetch(_MOVES_AFTER_SQL, list(known), list(known.values()))
    out: dict[str, list[Any]] = {tid: [] for tid in known}
    for row in rows:
        out[row["table_id"]].append(row)
    return out


def advance(rec: TableRecord, moves: list[Any]) -> TableRecord | None:
    """`rec` with stored moves replayed, its other fields derived from the new state as the writer stores
    them; None unless the moves are exactly the versions after `rec` (a seat change also bumps the version:
    reload instead), or for a table with a clock, whose clocks only its row knows."""
    if rec.state is None or rec.time_control is not None or not moves or [m["version"] for m in moves] != list(
        range(rec.version + 1, rec.version + 1 + len(moves))
    ):
        return None
    game = GAMES[rec.game]
    replayed = replay(rec.game, rec.state, ((m["seat"], _doc(m["action"]), _doc(m["steps"])) for m in moves))
    state = replayed.state
    outcome = game.outcome(state)
    new = rec.evolve(
        state=state,
        version=moves[-1]["version"],
        move_count=moves[-1]["seq"],
        awaiting=[] if outcome is not None else game.awaiting(state),
        outcome=dict(outcome) if outcome is not None else None,
        status="finished" if outcome is not None else "playing",
        updated_at=moves[-1]["created_at"],
        abandon=None if outcome is not None else rec.abandon,
        undo_seat=replayed.undo_seat,
    )
    for m in moves:
        new.remember_events(m["version"], _doc(m["events"]))
    return new


def _doc(value: Any) -> Any:
    """A JSON column as asyncpg returns it (text) or as already decoded."""
    return orjson.loads(value) if isinstance(value, str | bytes) else value


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
            if rec.status == "finished"
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
