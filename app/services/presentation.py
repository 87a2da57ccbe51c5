"""A table as the API and the sockets show it: the part every viewer shares, what depends on the viewer, the clocks.

`TablePresenter` holds what the JSON depends on beyond the record (the server's secret for the host's invite code,
the stand-in waits, the clock's now); the runtime builds one, which the hub and the routes show tables with."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol

from app.config import Settings
from app.games.base import BotLevel
from app.services import clocks
from app.services.record import TableRecord, TableStatus, Visibility, invite_code, waited


class Shows(Protocol):
    """What a table's JSON depends on besides the record."""

    secret_key: str
    settings: Settings

    def now(self) -> datetime: ...


def table_json(shows: Shows, rec: TableRecord, user_id: str | None) -> dict[str, Any]:
    """The table as the API shows it to this user."""
    return table_json_for(shows, rec, public_table_json(rec), user_id)


def public_table_json(rec: TableRecord) -> dict[str, Any]:
    """The part of `table_json` that is the same for every user (made once per change for all sockets)."""
    finished = rec.status == TableStatus.FINISHED
    return {
        "id": rec.id,
        "game": rec.game,
        "name": rec.name,
        "visibility": rec.visibility,
        "status": rec.status,
        "host": {"id": rec.host_id, "name": rec.host_name},
        "seat_count": rec.seat_count,
        "seats": [
            {
                "seat": s.seat,
                "user": {"id": s.user_id, "name": s.user_name} if s.user_id else None,
                "bot": s.bot,
                "bot_level": (s.bot_level or BotLevel.NORMAL.value) if s.bot else None,
                "guest": s.guest,
            }
            for s in rec.seats
        ],
        "options": rec.options,
        "version": rec.version,
        "move_count": rec.move_count,
        "awaiting": rec.awaiting if rec.status == TableStatus.PLAYING else [],
        "outcome": rec.outcome if finished else None,
        "seed_commitment": rec.seed_commitment,
        "seed": rec.seed if finished else None,
        "rematch_id": rec.rematch_id,
        "abandoned": rec.abandoned,
        "chat_mode": rec.chat_mode,
        "takeback": takeback_json(rec),
        "rated": rec.counts_for_ratings(),
        "ratings": rec.ratings,
        "time_control": rec.time_control,
        "created_at": rec.created_at.isoformat(),
        "updated_at": rec.updated_at.isoformat(),
    }


def table_key(rec: TableRecord) -> tuple[Any, ...]:
    """What `public_table_json` shows beyond the fields every move changes (version, move_count, awaiting,
    updated_at): when it is unchanged, an update need not repeat the table."""
    # The host and the invite are not shown, but a change of either may take someone's right to see the table.
    vote = rec.abandon
    return (rec.status, rec.name, rec.visibility, rec.host_id, rec.host_name, rec.invite_hash,
            rec.outcome is not None, rec.rematch_id,
            tuple((s.seat, s.user_id, s.user_name, s.bot, s.guest) for s in rec.seats),
            rec.abandoned, (vote["since"], tuple(vote["yes"])) if vote is not None else None,
            rec.rated, rec.ratings is not None, _takeback_key(rec))


def _takeback_key(rec: TableRecord) -> tuple[Any, ...] | None:
    tb = rec.takeback_open()
    return (tb["since"], tuple(tb["yes"])) if tb is not None else None


def takeback_json(rec: TableRecord) -> dict[str, Any] | None:
    """The open request to take back moves as the API shows it: its id (the version that opened it), who asked, from
    which move on (`seq`) and how many moves that is, who agreed so far and whose yes it still waits for."""
    tb = rec.takeback_open()
    if tb is None:
        return None
    return {"id": tb["since"], "by": tb["by"], "seq": tb["seq"], "moves": rec.move_count - tb["seq"] + 1,
            "yes": list(tb["yes"]), "waiting": rec.takeback_waiting()}


def abandon_json(shows: Shows, rec: TableRecord) -> dict[str, Any] | None:
    """The open proposal to abandon as the API shows it: its id (the version that opened it), who proposed it,
    who agreed so far and whose say it still waits for (as of `shows.now()`: a player a bot stands in for loses their
    say once away for the stand-in wait, which the next vote finds)."""
    vote = rec.abandon
    if vote is None or rec.status != TableStatus.PLAYING:
        return None
    waiting = rec.abandon_waiting(shows.settings.stand_in_after, shows.now())
    return {"id": vote["since"], "by": vote["by"], "yes": list(vote["yes"]), "waiting": waiting}


def table_json_for(shows: Shows, rec: TableRecord, public: dict[str, Any], user_id: str | None) -> dict[str, Any]:
    """`public_table_json` completed with what depends on the user (their seat, host rights, the invite) or
    on the moment: in a running game, how long the table has waited, when its players may call a bot and whose say
    an abandon proposal still waits for."""
    data = {**public, "my_seat": rec.seat_of(user_id), "is_host": user_id is not None and user_id == rec.host_id,
            "abandon": abandon_json(shows, rec)}
    if rec.visibility == Visibility.PRIVATE and user_id == rec.host_id:
        data["invite_code"] = invite_code(shows.secret_key, rec.id, rec.invite_round)
    if rec.time_control is not None and rec.clock is not None:
        data.update(clock_fields(shows, rec))
    if rec.status == TableStatus.PLAYING:
        # Seconds rather than a time of day, so a client whose clock is off still counts right.
        data["waited"] = round(waited(rec, shows.now()), 1)
        data["stand_in_after"] = shows.settings.stand_in_after
        data["stand_in_after_online"] = shows.settings.stand_in_after_online
    return data


def clock_fields(shows: Shows, rec: TableRecord) -> dict[str, Any]:
    """A clocked table's clocks as of the server's `now` (epoch ms), which a client compares with its own clock."""
    if rec.time_control is None or rec.clock is None:
        return {}
    now = clocks.epoch_ms(shows.now())
    return {"clock": clocks.view(rec.time_control, rec.clock, now), "now": now}


class TablePresenter:
    """The table's JSON for one process's secret, settings and clock."""

    def __init__(self, *, secret_key: str, settings: Settings, now: Callable[[], datetime]) -> None:
        self.secret_key = secret_key
        self.settings = settings
        self.now = now

    @staticmethod
    def public(rec: TableRecord) -> dict[str, Any]:
        return public_table_json(rec)

    @staticmethod
    def key(rec: TableRecord) -> tuple[Any, ...]:
        return table_key(rec)

    def table_json(self, rec: TableRecord, user_id: str | None) -> dict[str, Any]:
        return table_json(self, rec, user_id)

    def for_viewer(self, rec: TableRecord, public: dict[str, Any], user_id: str | None) -> dict[str, Any]:
        return table_json_for(self, rec, public, user_id)

    def clock_fields(self, rec: TableRecord) -> dict[str, Any]:
        return clock_fields(self, rec)
