"""The in-memory picture of a table: what the hub, the API and `apply_action` read.

A `TableRecord` mirrors one `game_tables` row with its seats and user names. It is a value: reading it from the
database is `services/loading.py`, keeping the newest one per table `services/table_cache.py`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from app.games import GAMES
from app.games.base import IllegalAction


class TableStatus(StrEnum):
    """Where a table is in its life (`game_tables.status`)."""

    OPEN = "open"  # seats are being taken; no game yet
    PLAYING = "playing"
    FINISHED = "finished"  # the game ended, by its rules, a timeout's loss or abandonment


class Visibility(StrEnum):
    """Who may find and watch a table (`game_tables.visibility`)."""

    PUBLIC = "public"  # listed in the lobby, anyone may watch
    PRIVATE = "private"  # its people, and whoever holds the invite


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
    # there is none or the game is not running; `abandoned`: the players agreed to end the game (services/lobby.py).
    abandon: dict[str, Any] | None = None
    abandoned: bool = False
    # The open request to take back moves (services/takeback.py), as stored: it counts only while the game runs at
    # the move count it was asked at (`takeback_open`).
    takeback: dict[str, Any] | None = None
    invite_round: int = 0  # how many times the host has changed the invite code (`lobby.rotate_invite`)
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
        if seat is None or self.status != TableStatus.PLAYING or seat not in self.awaiting:
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
        tell of it (docs/api/ratings.md)."""
        if self.rated is not None:
            return self.rated  # settled under the rule of its day, which a rule of later must not rewrite
        if self.time_control is not None and self.time_control.get("timeout") != "loss":
            return False  # a bot may play anyone's turn that runs out (services/timeouts.py)
        return self.visibility == Visibility.PUBLIC and not self.abandoned and len(self.rated_people()) >= 2

    def timed_out(self) -> list[str]:
        """The seats whose person ran out of time and lost (a bot plays them to the end)."""
        return list(self.clock.get("timed_out", [])) if self.clock is not None else []

    def abandon_voters(self, away_enough: float, now: datetime) -> list[str]:
        """The seats whose say an abandon needs: those played by their person, and those a bot plays for a person who
        has been away for less than `away_enough` seconds (the stand-in wait): whoever asked for the bot, a game
        cannot be ended behind the back of a player who just stepped out. A bot from the start has no say."""
        return [
            s.seat for s in self.seats
            if s.user_id is not None and (not s.bot or (
                s.away_since is not None and (now - as_utc(s.away_since)).total_seconds() < away_enough))
        ]

    def abandon_waiting(self, away_enough: float, now: datetime) -> list[str]:
        """The voters who have yet to agree to the open proposal to abandon (none when no proposal is open)."""
        if self.abandon is None:
            return []
        yes = self.abandon["yes"]
        return [seat for seat in self.abandon_voters(away_enough, now) if seat not in yes]

    def takeback_open(self) -> dict[str, Any] | None:
        """The request to take back moves that is open now: none once a move was made after it, or the game ended."""
        tb = self.takeback
        if tb is None or self.status != TableStatus.PLAYING or tb.get("at") != self.move_count:
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
        if self.visibility == Visibility.PUBLIC:
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


def as_utc(at: datetime) -> datetime:
    """The time with its zone: SQLite gives back UTC without one."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def hash_invite(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def seed_commitment(table_id: str, seed: int) -> str:
    """SHA-256 of "<table id>:<seed>", published at the start and checkable once the seed is revealed."""
    return hashlib.sha256(f"{table_id}:{seed}".encode()).hexdigest()


def valid_id(value: str) -> bool:
    """Ids are 16 hex digits; anything else names no table (and never reaches SQL)."""
    return len(value) == 16 and all(ch in "0123456789abcdef" for ch in value)


def redact_events(events: list[dict[str, Any]], seat: str | None, finished: bool) -> list[dict[str, Any]]:
    """The events this viewer may see (all of them once the game is over)."""
    out = []
    for ev in events:
        to = ev.get("visible_to")
        if finished or to is None or (seat is not None and seat in to):
            out.append(ev)
    return out


def invite_code(secret_key: str, table_id: str, invite_round: int = 0) -> str:
    """The table's invite code: derived from the server secret and how many times the host changed it, so only a hash
    needs storing, and a new round makes every older link useless."""
    what = f"invite:{table_id}" if invite_round == 0 else f"invite:{table_id}:{invite_round}"
    digest = hmac.new(secret_key.encode(), what.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


def waited(rec: TableRecord, now: datetime) -> float:
    """Seconds from the table's last change (a move or a seat change) to `now`."""
    at = rec.updated_at if rec.updated_at.tzinfo else rec.updated_at.replace(tzinfo=UTC)  # SQLite drops the zone
    return max(0.0, (now - at).total_seconds())
