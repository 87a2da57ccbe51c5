"""Time controls and the clocks of a running game: the arithmetic, pure (the caller says what time it is).

A time control is chosen by the host when the table is created (`check_time_control`):

- real time (`realtime`): each player has `base` seconds for the whole game, and `increment` seconds are added each
  time one of their turns ends (Fischer);
- turn based (`turn`): each turn may take `per_move` seconds, and beyond that a player draws on a `bank` of extra
  seconds that lasts the whole game.

A seat's *turn* is a stretch during which the game awaits it: a step that leaves it awaited (one of several actions
of a turn) goes on with the same turn. Every awaited seat's clock runs at once, so in a simultaneous secret step
(restructuring, prep, critiques, flyers) all the players who have yet to decide use their own time together. A bot's
own seat has no clock.

The clocks are a small JSON document stored with the table (`game_tables.clock`), times in milliseconds:
`{"left": {seat: ms}, "since": {seat: epoch ms}, "timed_out": [seat]}`. `left` is a seat's time outside its current
turn (real time: what its clock showed when the turn began; turn based: its bank); `since` holds the seats whose
turn is running and when it began. A seat runs out at `since + allowance + left` (`allowance`: `per_move` in turn
based, 0 in real time); the table's `deadline` is the earliest of these. Both are written with every move, in the
move's own transaction, so a restart or another process reads exactly what the last move left.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from datetime import UTC, datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from app.services.errors import ServiceError

if TYPE_CHECKING:
    from app.services.record import TableRecord


class ClockKind(StrEnum):
    NONE = "none"
    REALTIME = "realtime"
    TURN = "turn"


class TimeoutPolicy(StrEnum):
    """What happens when a player's time runs out (the host's choice)."""

    BOT_MOVE = "bot_move"  # a bot plays that turn and the game goes on; the table is not rated
    LOSS = "loss"  # the player loses: two players, the game ends; more, a bot plays the seat to the end


# Bounds of each figure, in seconds: (least, most).
LIMITS: dict[str, tuple[int, int]] = {
    "base": (5, 24 * 3600),
    "increment": (0, 3600),
    "per_move": (10, 14 * 24 * 3600),
    "bank": (0, 30 * 24 * 3600),
}
FIELDS = {ClockKind.REALTIME: ("base", "increment"), ClockKind.TURN: ("per_move", "bank")}
# A turn with this little left is shown as low on time (the browser warns), in milliseconds.
LOW_MS = {ClockKind.REALTIME: 20_000, ClockKind.TURN: 3_600_000}


def _bad(message: str) -> ServiceError:
    return ServiceError("bad_time_control", message, 422)


def check_time_control(raw: Any) -> dict[str, Any] | None:
    """The time control as stored, from what the host sent; None for no clock. Refuses anything else clearly."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise _bad("time_control must be an object with a 'kind'.")
    kinds = [k.value for k in ClockKind]
    kind = raw.get("kind")
    if kind not in kinds:
        raise _bad(f"time_control.kind must be one of {kinds}.")
    if kind == ClockKind.NONE:
        if set(raw) - {"kind"}:
            raise _bad("A table without a clock takes no other time_control field.")
        return None
    names = FIELDS[ClockKind(kind)]
    unknown = set(raw) - {"kind", "timeout", *names}
    if unknown:
        raise _bad(f"Unknown time_control field(s) for {kind}: {', '.join(sorted(map(str, unknown)))}.")
    out: dict[str, Any] = {"kind": kind}
    for name in names:
        value = raw.get(name)
        low, high = LIMITS[name]
        if not isinstance(value, int) or isinstance(value, bool):
            raise _bad(f"time_control.{name} must be a whole number of seconds.")
        if not low <= value <= high:
            raise _bad(f"time_control.{name} must be from {low} to {high} seconds.")
        out[name] = value
    policies = [p.value for p in TimeoutPolicy]
    policy = raw.get("timeout", TimeoutPolicy.BOT_MOVE.value)
    if policy not in policies:
        raise _bad(f"time_control.timeout must be one of {policies}.")
    out["timeout"] = policy
    return out


def epoch_ms(at: datetime) -> int:
    aware = at if at.tzinfo is not None else at.replace(tzinfo=UTC)  # SQLite gives back UTC without its zone
    return int(aware.timestamp() * 1000)


def from_ms(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, UTC)


def allowance(tc: Mapping[str, Any]) -> int:
    """The milliseconds every turn has before it draws on the seat's own time."""
    return int(tc["per_move"]) * 1000 if tc["kind"] == ClockKind.TURN else 0


def increment(tc: Mapping[str, Any]) -> int:
    return int(tc.get("increment", 0)) * 1000


def start(tc: Mapping[str, Any], seats: Iterable[str], awaiting: Collection[str], now: int) -> dict[str, Any]:
    """The clocks at the start of the game: `seats` are those with a clock (a person's), `now` in epoch ms."""
    own = int(tc["base"] if tc["kind"] == ClockKind.REALTIME else tc["bank"]) * 1000
    left = {seat: own for seat in seats}
    return {"left": left, "since": {seat: now for seat in awaiting if seat in left}, "timed_out": []}


def seat_deadline(tc: Mapping[str, Any], clock: Mapping[str, Any], seat: str) -> int | None:
    """When the seat's running turn runs out (epoch ms); None when its clock is not running."""
    since = clock["since"].get(seat)
    return None if since is None else int(since) + allowance(tc) + int(clock["left"][seat])


def deadline(tc: Mapping[str, Any], clock: Mapping[str, Any]) -> datetime | None:
    """The earliest moment a running clock runs out, as the table stores it."""
    due = [d for seat in clock["since"] if (d := seat_deadline(tc, clock, seat)) is not None]
    return from_ms(min(due)) if due else None


def expired(tc: Mapping[str, Any], clock: Mapping[str, Any], now: int) -> list[str]:
    """The seats whose running turn has run out by `now`, in seat order."""
    out = [seat for seat in clock["since"] if (d := seat_deadline(tc, clock, seat)) is not None and d <= now]
    return sorted(out, key=int)


def after_step(tc: Mapping[str, Any], clock: Mapping[str, Any], awaiting: Collection[str], now: int) -> dict[str, Any]:
    """The clocks after a step taken at `now` that leaves `awaiting` awaited: each turn that ended is charged (beyond
    the turn's allowance, never below zero) and given the increment; each seat newly awaited starts a turn."""
    left = dict(clock["left"])
    since = dict(clock["since"])
    for seat in [s for s in since if s not in awaiting]:
        used = max(0, now - int(since.pop(seat)))
        left[seat] = max(0, int(left[seat]) - max(0, used - allowance(tc))) + increment(tc)
    for seat in awaiting:
        if seat in left and seat not in since:
            since[seat] = now
    return {**clock, "left": left, "since": since}


def finished(clock: Mapping[str, Any]) -> dict[str, Any]:
    """The clocks of a game that ended: kept as they stand (time left, who timed out), none running."""
    return {**clock, "since": {}}


def without_seat(clock: Mapping[str, Any], seat: str) -> dict[str, Any]:
    """The clocks once a bot plays `seat` for the rest of the game (its person timed out): it has no clock."""
    left = {s: v for s, v in clock["left"].items() if s != seat}
    since = {s: v for s, v in clock["since"].items() if s != seat}
    return {**clock, "left": left, "since": since, "timed_out": [*clock.get("timed_out", []), seat]}


def view(tc: Mapping[str, Any], clock: Mapping[str, Any], now: int) -> dict[str, Any]:
    """The clocks as the API shows them at `now` (epoch ms): each seat's milliseconds until it runs out (`left`,
    counting down while `running`), in turn based what is left of its bank (`bank`), and the seats that timed out.
    A client counts down from these figures and the server's `now`, corrected for its own clock's offset."""
    seats: dict[str, Any] = {}
    allow = allowance(tc)
    for seat, own in clock["left"].items():
        since = clock["since"].get(seat)
        used = 0 if since is None else max(0, now - int(since))
        entry: dict[str, Any] = {"left": max(0, allow + int(own) - used), "running": since is not None}
        if tc["kind"] == ClockKind.TURN:
            entry["bank"] = max(0, int(own) - max(0, used - allow))
        seats[seat] = entry
    return {"seats": seats, "timed_out": list(clock.get("timed_out", [])), "low": LOW_MS[ClockKind(tc["kind"])]}


# The move path's two hooks (services/play.py).


def check_in_time(rec: TableRecord, seat: str, now: datetime) -> None:
    """Refuse a person's move that comes after their turn ran out: the timeout is the server's to apply (a bot
    standing in for them may still play)."""
    if rec.time_control is None or rec.clock is None or seat in rec.bot_seats():
        return
    due = seat_deadline(rec.time_control, rec.clock, seat)
    if due is not None and due <= epoch_ms(now):
        raise ServiceError("time_up", "Your time for this turn has run out.", 409)


def after_move(rec: TableRecord, awaiting: Collection[str], now: datetime) -> tuple[dict[str, Any] | None, datetime | None]:
    """A clocked table's clocks after a move made at `now` that leaves `awaiting` awaited, and their next deadline
    (none once the game is over); (None, None) for a table without a clock."""
    if rec.time_control is None or rec.clock is None:
        return None, None
    before = {k: v for k, v in rec.clock.items() if k != "prev"}
    clock = after_step(rec.time_control, before, awaiting, epoch_ms(now))
    if not awaiting:
        return finished(clock), None
    # The clocks before the move, for an undo (services/undo.py): taking the move back gives back neither the time its
    # turn used, which goes on running, nor an increment.
    return {**clock, "prev": before}, deadline(rec.time_control, clock)


def taken_back(rec: TableRecord) -> tuple[dict[str, Any] | None, datetime | None]:
    """A clocked table's clocks once its last move is taken back: as they were before it, its seat's turn running
    since it began; (None, None) for a table without a clock."""
    if rec.time_control is None or rec.clock is None or "prev" not in rec.clock:
        return None, None
    clock = rec.clock["prev"]
    return clock, deadline(rec.time_control, clock)
