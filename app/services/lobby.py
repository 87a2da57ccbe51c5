"""Lobby use cases: create tables; join, leave, kick, add bots, stand-ins, start, abandon (each a change of the
table's record in the caller's transaction); and `Lobby.change`, which runs one of them in its own transaction and
publishes it."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy import (
    Row,
    ScalarSelect,
    Update,
    bindparam,
    delete,
    exists,
    false,
    func,
    null,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import Clock
from app.db.models import GAME_TABLES, SEATS, TABLE_LOG, USERS, GameTable, Seat, User
from app.db.session import unpinged
from app.games.base import BotLevel, Game
from app.services import clocks
from app.services.auth import check_distinct_name, clean_name, guest_now, mark_guest_seats, new_id
from app.services.chat import ChatMode
from app.services.errors import ServiceError, not_found
from app.services.events import TableEvent
from app.services.loading import ROW_COLUMNS, load_record, record_of
from app.services.options import check_options, get_game, seated_options
from app.services.record import (
    Draft,
    SeatInfo,
    TableRecord,
    TableStatus,
    Visibility,
    hash_invite,
    invite_code,
    seed_commitment,
    waited,
)
from app.services.table_writes import TableWrites

Events = list[dict[str, Any]]


@dataclass(frozen=True)
class Changed:
    """What a lobby change did: its events, and the columns of the table row it sets (the new version among them),
    which `Lobby.change` writes with the events in one statement."""

    events: Events
    columns: dict[str, Any]
    # The table's seats as the change leaves them, when it knows them without reading them again.
    seats: list[SeatInfo] | None = None


def bumped(rec: TableRecord, events: Events, **values: Any) -> Changed:
    """A change that advances the table's version (the caller holds the row lock) and sets these columns."""
    return Changed(events, {"version": rec.version + 1, "updated_at": datetime.now(UTC), **values})


def _seat_number(rec: TableRecord, seat: Any) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool):
        seat = str(seat)
    if not isinstance(seat, str) or seat not in {s.seat for s in rec.seats}:
        raise ServiceError("no_such_seat", "There is no such seat at this table.", 422)
    return seat


def _require_open(rec: TableRecord) -> None:
    if rec.status != TableStatus.OPEN:
        raise ServiceError("already_started", "The game has already started.", 409)


def _require_host(rec: TableRecord, user: User) -> None:
    if rec.host_id != user.id:
        raise ServiceError("not_host", "Only the host can do that.", 403)


async def join(session: AsyncSession, rec: TableRecord, user: User, seat: Any, invite: str | None) -> Changed:
    """Take a free seat (the first one if none is named)."""
    _require_open(rec)
    if rec.visibility == Visibility.PRIVATE and user.id != rec.host_id and not rec.invite_ok(invite):
        raise ServiceError("bad_invite", "This table is private: the invite code is missing or wrong.", 403)
    if rec.seat_of(user.id) is not None:
        raise ServiceError("already_seated", "You already have a seat at this table.", 409)
    others = [s.user_name for s in rec.seats if s.user_id not in (None, user.id)]
    check_distinct_name(user.name, [*others, rec.host_name if rec.host_id != user.id else None])
    free = [s for s in rec.seats if s.user_id is None and not s.bot]
    if seat is None:
        if not free:
            raise ServiceError("table_full", "Every seat is taken.", 409)
        target = free[0].seat
    else:
        target = _seat_number(rec, seat)
        if target not in {s.seat for s in free}:
            raise ServiceError("seat_taken", "That seat is taken.", 409)
    taken = (await session.execute(_TAKE_SEAT, {"of_table": rec.id, "target": target, "taker": user.id})).first()
    if taken is None:
        raise ServiceError("seat_taken", "That seat is taken.", 409)
    seats = [SeatInfo(target, user.id, taken.name, False, bool(taken.guest)) if s.seat == target else s
             for s in rec.seats]
    changed = bumped(rec, [{"type": TableEvent.SEAT_JOINED, "seat": target, "name": user.name, "bot": False,
                            "visible_to": None}])
    return replace(changed, seats=seats)


def _name_of(person: Any) -> ScalarSelect[str]:
    """A person's name as a statement finds it, `person` a bound parameter (an INSERT's RETURNING does not correlate
    with the row it makes, so it is named by the parameter, not the column)."""
    return select(USERS.c.name).where(USERS.c.id == person).scalar_subquery()


# Built once, as _WAITING. The seat is marked a guest's by what its person is as this commits (`guest_now`), and
# comes back with their name: the record needs no second read of the seats.
_TAKE_SEAT = (
    update(SEATS)
    .where(SEATS.c.table_id == bindparam("of_table"), SEATS.c.seat == bindparam("target"), SEATS.c.user_id.is_(None),
           SEATS.c.bot.is_(False))
    .values(user_id=bindparam("taker"), guest=guest_now(bindparam("taker")))
    .returning(SEATS.c.guest, _name_of(bindparam("taker")).label("name"))
)


async def leave(session: AsyncSession, rec: TableRecord, user: User) -> Changed:
    """Give up one's seat before the start; a host who leaves hands the table to the first person still seated.

    Only the host can start a table, so one left to players without a host could never start. With nobody
    seated the host keeps it (it stays in their tables, and out of the public list until someone sits)."""
    _require_open(rec)
    seat = rec.seat_of(user.id)
    if seat is None:
        raise ServiceError("not_seated", "You have no seat at this table.", 409)
    await session.execute(
        update(Seat).where(Seat.table_id == rec.id, Seat.seat == seat).values(user_id=None, guest=False)
    )
    events: Events = [{"type": TableEvent.SEAT_LEFT, "seat": seat, "name": user.name, "visible_to": None}]
    heir = next((s for s in rec.seats if s.user_id not in (None, user.id)), None) if user.id == rec.host_id else None
    if heir is None:
        return bumped(rec, events)
    events.append({"type": TableEvent.HOST_CHANGED, "seat": heir.seat, "name": heir.user_name,
                   "visible_to": None})
    return bumped(rec, events, host_id=heir.user_id)


def _hosts_open_seat(rec: TableRecord, user: User, seat: Any) -> tuple[str, SeatInfo]:
    """The seat the host names at a table not started yet, and who is in it."""
    _require_host(rec, user)
    _require_open(rec)
    target = _seat_number(rec, seat)
    return target, next(s for s in rec.seats if s.seat == target)


async def kick(session: AsyncSession, rec: TableRecord, user: User, seat: Any) -> Changed:
    """The host empties a seat (a player or a bot) before the start."""
    target, info = _hosts_open_seat(rec, user, seat)
    if info.user_id is None and not info.bot:
        raise ServiceError("seat_empty", "That seat is already empty.", 409)
    await session.execute(
        update(Seat)
        .where(Seat.table_id == rec.id, Seat.seat == target)
        .values(user_id=None, bot=False, guest=False)
    )
    name = bot_name(BotLevel(info.bot_level or BotLevel.NORMAL)) if info.bot else info.user_name
    return bumped(rec, [{"type": TableEvent.SEAT_LEFT, "seat": target, "name": name, "bot": info.bot,
                         "kicked": True, "visible_to": None}])


def bot_name(level: BotLevel) -> str:
    """A bot's name says how strongly it plays."""
    return f"Bot ({level.value})"


async def add_bot(
    session: AsyncSession, rec: TableRecord, user: User, seat: Any, level: BotLevel = BotLevel.NORMAL
) -> Changed:
    """The host puts a bot that plays at `level` in an empty seat."""
    target, info = _hosts_open_seat(rec, user, seat)
    if info.user_id is not None or info.bot:
        raise ServiceError("seat_taken", "That seat is taken.", 409)
    await session.execute(
        update(Seat).where(Seat.table_id == rec.id, Seat.seat == target).values(bot=True, bot_level=level.value)
    )
    return bumped(rec, [{"type": TableEvent.SEAT_JOINED, "seat": target, "name": bot_name(level), "bot": True,
                         "bot_level": level.value, "visible_to": None}])


async def stand_in(
    session: AsyncSession,
    rec: TableRecord,
    user: User,
    seat: Any,
    idle_after: float,
    idle_after_online: float | None = None,
    connected: Callable[[str], bool] = lambda _user_id: False,
    *,
    now: datetime,
) -> Changed:
    """A bot plays a player's seat in a running game while they are away: the player's choice, the host's at an
    unrated table, or any other player's once the table has waited `idle_after` seconds on that seat, or
    `idle_after_online` if the seat's player is `connected` to the table (thinking, perhaps, rather than gone).
    At a rated table the host waits like everyone: a bot's place is rated as its player's (`rated_people`), so an
    immediate stand-in would let a host take a rival's game out of their hands.

    The player keeps the seat: they see it as before and take it back when they return (`reclaim`)."""
    if rec.status != TableStatus.PLAYING:
        raise ServiceError("not_playing", "Only a running game's seats can be handed to a bot.", 409)
    target = _seat_number(rec, seat)
    info = next(s for s in rec.seats if s.seat == target)
    if info.user_id is None:
        raise ServiceError("not_a_player", "A bot already plays that seat.", 409)
    if info.bot:
        raise ServiceError("already_standing_in", "A bot is already playing for that player.", 409)
    host_may = user.id == rec.host_id and not rec.counts_for_ratings()
    if user.id != info.user_id and not host_may:
        if idle_after_online is not None and connected(info.user_id):
            _require_idle(rec, user, target, info.user_name, idle_after_online, now, online=True)
        else:
            _require_idle(rec, user, target, info.user_name, idle_after, now)
    # Away since the table began waiting on them, or since now if it was not (they asked, or the host did).
    away_since = now - timedelta(seconds=waited(rec, now)) if target in rec.awaiting else now
    await session.execute(
        update(Seat).where(Seat.table_id == rec.id, Seat.seat == target).values(bot=True, away_since=away_since)
    )
    event = {"type": TableEvent.STAND_IN, "seat": target, "name": info.user_name, "visible_to": None}
    if user.id != info.user_id:
        # The player, back, learns who handed their seat over; the id links the name to its profile (a name alone
        # may be borne by two people at the table, or by nobody there after a rename).
        event["by"] = user.name
        event["by_id"] = user.id
    standing = rec.evolve(
        seats=[replace(s, bot=True, away_since=away_since) if s.seat == target else s for s in rec.seats]
    )
    if rec.abandon is not None and not standing.abandon_waiting(idle_after, now):
        # The proposal waited only on this player, whose seat no longer needs their say: it is agreed.
        return _abandon(rec, [event, {"type": TableEvent.ABANDONED, "visible_to": None}])
    return bumped(rec, [event])


def _require_idle(
    rec: TableRecord, user: User, target: str, name: str | None, idle_after: float, now: datetime, online: bool = False
) -> None:
    """Another player may call a bot only for a seat the table has waited on, unchanged, for `idle_after`."""
    if rec.seat_of(user.id) is None:
        raise ServiceError("not_seated", "Only the players at the table can hand a seat to a bot.", 403)
    if target not in rec.awaiting:
        raise ServiceError("not_awaited", f"The game is not waiting for {name}.", 409)
    left = idle_after - waited(rec, now)
    if left > 0:
        since = f", since {name} is still connected" if online else ""
        raise ServiceError(
            "not_idle_yet",
            f"The game has waited for {name} only a little while: any player may hand the seat to a bot "
            f"after {idle_after:.0f} s without a move{since} ({left:.0f} s from now).",
            409,
        )


async def set_chat_mode(session: AsyncSession, rec: TableRecord, user: User, mode: Any) -> Changed:
    """The host chooses who may chat at the table: everyone, accounts (and the players), or the players only."""
    _require_host(rec, user)
    if mode not in {m.value for m in ChatMode}:
        raise ServiceError("bad_chat_mode", "The chat mode is \"everyone\", \"accounts\" or \"players\".", 422)
    if mode == rec.chat_mode:
        raise ServiceError("no_change", f"The chat is already open to {mode}.", 409)
    return bumped(rec, [{"type": TableEvent.CHAT_MODE, "mode": mode, "visible_to": None}], chat_mode=mode)


async def reclaim(session: AsyncSession, rec: TableRecord, user: User) -> Changed:
    """A player takes their seat back from the bot that played it meanwhile."""
    if rec.status != TableStatus.PLAYING:
        raise ServiceError("not_playing", "The game is not running.", 409)
    seat = rec.seat_of(user.id)
    if seat is None:
        raise ServiceError("not_seated", "You have no seat at this table.", 409)
    if seat not in rec.bot_seats():
        raise ServiceError("not_standing_in", "No bot is playing your seat.", 409)
    if seat in rec.timed_out():
        raise ServiceError("timed_out", "Your time ran out: a bot plays your seat to the end of this game.", 409)
    await session.execute(
        update(Seat).where(Seat.table_id == rec.id, Seat.seat == seat).values(bot=False, away_since=None)
    )
    return bumped(rec, [{"type": TableEvent.RECLAIMED, "seat": seat, "name": user.name, "visible_to": None}])


async def vote_abandon(
    session: AsyncSession, rec: TableRecord, user: User, vote: Any, proposal: Any, away_enough: float, *,
    now: datetime,
) -> Changed:
    """A player's say on abandoning the running game: the first "yes" proposes it, every other player must agree
    (one a bot stands in for too, until they have been away `away_enough` seconds), and any one "no" (the proposer's
    too) ends the proposal. A "yes" said again ends the game if nobody's say is still awaited by now.

    `proposal` names the open proposal the vote answers (its `id`), so a "yes" meant for one that ended
    meanwhile opens no new one. Moves go on while a proposal is open; the game's end ends it."""
    if vote not in ("yes", "no"):
        raise ServiceError("bad_vote", "A vote is \"yes\" or \"no\".", 422)
    if proposal is not None and (not isinstance(proposal, int) or isinstance(proposal, bool)):
        raise ServiceError("bad_proposal", "proposal must be the id (a whole number) of the open proposal.", 422)
    if rec.status != TableStatus.PLAYING:
        raise ServiceError("not_playing", "Only a running game can be abandoned.", 409)
    seat = rec.seat_of(user.id)
    if seat is None:
        raise ServiceError("not_seated", "Only the players at the table can vote on abandoning it.", 403)
    current = rec.abandon
    if proposal is not None and (current is None or current["since"] != proposal):
        raise ServiceError("no_proposal", "That proposal to abandon is over.", 409)
    who = {"seat": seat, "name": user.name, "visible_to": None}
    if current is None:
        if vote == "no":
            raise ServiceError("no_proposal", "Nobody has proposed to abandon this game.", 409)
        current = {"by": seat, "yes": [seat], "since": rec.version + 1}
        events: Events = [{"type": TableEvent.ABANDON_PROPOSED, **who}]
    elif vote == "no":
        declined = {"type": TableEvent.ABANDON_DECLINED, **who, "withdrawn": seat in current["yes"]}
        return bumped(rec, [declined], abandon_vote=None)
    elif seat in current["yes"]:
        if rec.abandon_waiting(away_enough, now):
            raise ServiceError("already_voted", "You have already agreed to abandon this game.", 409)
        events = []  # those it waited on have been away long enough since: agreed
    else:
        current = {**current, "yes": [*current["yes"], seat]}
        events = [{"type": TableEvent.ABANDON_AGREED, **who}]
    if rec.evolve(abandon=current).abandon_waiting(away_enough, now):
        return bumped(rec, events, abandon_vote=current)
    return _abandon(rec, [*events, {"type": TableEvent.ABANDONED, "visible_to": None}])


def _abandon(rec: TableRecord, events: Events) -> Changed:
    """End the running game as abandoned: no outcome, nobody awaited; the state as it stands is kept as the
    final snapshot (what `verify` replays to, and what the replay's last step shows)."""
    assert rec.state is not None
    return bumped(rec, events, status=TableStatus.FINISHED, abandoned=True, abandon_vote=None, outcome=None, awaiting=[],
                  state=rec.state, state_seq=rec.move_count, rated=False)  # no result, so nothing to rate


async def start(session: AsyncSession, rec: TableRecord, user: User, now: datetime | None = None) -> Changed:
    """The host starts the game with the occupied seats, renumbered 0..n-1 in seat order; the clocks, if the table
    has a time control, start at `now`."""
    _require_host(rec, user)
    _require_open(rec)
    game = get_game(rec.game)
    taken = [s for s in rec.seats if s.user_id is not None or s.bot]
    if not game.min_players <= len(taken) <= game.max_players:
        raise ServiceError(
            "not_enough_players",
            f"{game.title} needs {game.min_players} to {game.max_players} players; {len(taken)} seated.",
            409,
        )
    options = seated_options(game, rec.options, [s.seat for s in taken])
    players = [str(i) for i in range(len(taken))]
    try:
        state = game.new_game(players, rec.seed, options)
    except ValueError as exc:  # an option the engine cannot play with this many players
        raise ServiceError("bad_options", f"These options do not fit {len(taken)} players: {exc}.", 409) from exc
    kept = [s.seat for s in taken] == players
    if kept:
        # The taken seats are numbered 0..n-1 already (the usual case): they stay, with the guest marks their joins
        # left, which registrations keep up to date; only the empty seats after them go.
        if len(taken) < len(rec.seats):
            await session.execute(_EMPTY_SEATS_GO, {"of_table": rec.id, "kept": players})
    else:
        await session.execute(delete(Seat).where(Seat.table_id == rec.id))
        await session.execute(SEATS.insert().values([
            {"table_id": rec.id, "seat": str(i), "user_id": s.user_id, "bot": s.bot, "bot_level": s.bot_level}
            for i, s in enumerate(taken)
        ]))
        await mark_guest_seats(session, rec.id)
    awaiting = game.awaiting(state)
    timing: dict[str, Any] = {}
    if rec.time_control is not None:
        people = [str(i) for i, s in enumerate(taken) if s.user_id is not None and not s.bot]
        clock = clocks.start(rec.time_control, people, awaiting, clocks.epoch_ms(now or datetime.now(UTC)))
        timing = {"clock": clock, "deadline": clocks.deadline(rec.time_control, clock)}
    started = bumped(
        rec,
        [{"type": TableEvent.GAME_STARTED, "players": len(taken), "visible_to": None}],
        status=TableStatus.PLAYING,
        seat_count=len(taken),
        options=options,
        state=state,
        awaiting=awaiting,
        **timing,
    )
    return replace(started, seats=taken) if kept else started


_EMPTY_SEATS_GO = SEATS.delete().where(  # built once, as _WAITING
    SEATS.c.table_id == bindparam("of_table"), SEATS.c.seat.not_in(bindparam("kept", expanding=True))
)


Change = Callable[[AsyncSession, TableRecord], Awaitable[Changed]]


async def keep_events(
    session: AsyncSession, table_id: str, version: int, events: Events, columns: dict[str, Any] | None = None,
    *, returning: bool = False,
) -> Row[*tuple[Any, ...]] | None:
    """Store a lobby change's events with the version it makes (in its transaction), and the change's own `columns`
    of the table row with them: they are no move. The other server processes, told only that the table changed,
    read the last change's on the table row for their sockets; the lobby log keeps them all for a log rebuilt from
    the moves. With `returning`, the table's row as this leaves it (`ROW_COLUMNS`)."""
    columns = columns or {}
    # A column set to None is SQL NULL, as `values(name=None)` makes it (a bound None would be JSON's null).
    shape = tuple((name, value is None) for name, value in columns.items())
    params = {f"set_{name}": value for name, value in columns.items() if value is not None}
    params.update(key_id=table_id, set_lobby_events={"version": version, "events": events})
    result = await session.execute(_store(shape, returning), params)
    if events:
        await session.execute(_LOG, {"table_id": table_id, "version": version, "events": events})
    return result.one() if returning else None


@lru_cache(maxsize=128)
def _store(shape: tuple[tuple[str, bool], ...], returning: bool) -> Update:
    """The UPDATE that stores a lobby change's events and these columns (name, set to NULL), built once per shape:
    a statement made afresh costs more CPU than its execution."""
    values: dict[str, Any] = {
        name: null() if is_null else bindparam(f"set_{name}", type_=GAME_TABLES.c[name].type) for name, is_null in shape
    }
    values["lobby_events"] = bindparam("set_lobby_events", type_=GAME_TABLES.c.lobby_events.type)
    stored = update(GAME_TABLES).where(GAME_TABLES.c.id == bindparam("key_id")).values(values)
    return stored.returning(*ROW_COLUMNS) if returning else stored


_LOG = TABLE_LOG.insert()  # built once, as _WAITING


# A new table's row, returned with its host's name (`named`). Built once, as _WAITING.
_NEW_TABLE = GAME_TABLES.insert().returning(*GAME_TABLES.c, _name_of(bindparam("named")).label("host_name"))


# A new table's seat, from the parameters `of_table`, `number`, `person`, `is_bot` and `level`, marked a guest's by
# what its person (again in `guest_of`: a multi-row INSERT takes each parameter once) is as this commits
# (`guest_now`); returns (seat, guest). Executed with every seat's parameters at once, SQLAlchemy sends it as one
# multi-row INSERT compiled once: one written with several VALUES rows is compiled afresh for every table (such
# statements are not cached). Built once, as _NEW_TABLE.
_NEW_SEATS = (
    SEATS.insert()
    .values(table_id=bindparam("of_table"), seat=bindparam("number"), user_id=bindparam("person"),
            bot=bindparam("is_bot"), bot_level=bindparam("level"),
            guest=func.coalesce(guest_now(bindparam("guest_of", type_=SEATS.c.user_id.type)), false()))
    .returning(SEATS.c.seat, SEATS.c.guest)
)


_WAITING = (  # built once: a statement made afresh costs more CPU than its execution
    select(func.count()).select_from(GameTable)
    .where(GameTable.host_id == bindparam("host_id"), GameTable.status == TableStatus.OPEN,
           exists().where(Seat.table_id == GameTable.id, Seat.user_id.is_not(None)))
)


class Lobby:
    """The lobby changes that need more than the table's record: a table created (the host's limit of open tables,
    the invite's secret), and any change run in its own transaction and published (`change`)."""

    def __init__(self, *, tables: TableWrites, clock: Clock, secret_key: str, max_open_tables: int) -> None:
        self.tables = tables
        self.clock = clock  # the stand-in wait counts from a change's time on this clock
        self.secret_key = secret_key  # private tables' invite codes are derived from it
        self.max_open_tables = max_open_tables  # tables one host may have waiting for players

    async def create_table(
        self,
        session: AsyncSession,
        host: User,
        game_id: str,
        seats: Any,
        options: Any,
        visibility: Any,
        name: Any,
        time_control: Any = None,
    ) -> TableRecord:
        """Create a table; the host takes seat 0."""
        game = get_game(game_id)
        if not isinstance(seats, int) or isinstance(seats, bool) or not game.min_players <= seats <= game.max_players:
            raise ServiceError(
                "bad_seats", f"{game.title} is for {game.min_players} to {game.max_players} players.", 422
            )
        if visibility not in tuple(Visibility):
            raise ServiceError("bad_visibility", "Visibility must be 'public' or 'private'.", 422)
        opts = check_options(game, options, seats)
        tc = clocks.check_time_control(time_control)
        title = clean_name(name, "table name", 80) if name else f"{host.name}'s {game.title}"
        # Tables waiting with someone seated are the ones the lobby lists: one person may not fill it. (One the host
        # left empty is listed nowhere but in their own tables.)
        waiting = await session.scalar(_WAITING, {"host_id": host.id})
        if (waiting or 0) >= self.max_open_tables:
            raise ServiceError(
                "too_many_open_tables",
                f"You already host {waiting} tables waiting for players: start one, or leave one, first.",
                429,
            )
        seating: list[tuple[str | None, bool, str | None]] = [(host.id, False, None)] + [(None, False, None)] * (seats - 1)
        rec = await self.add_table(session, game, title, host, visibility, opts, seating, tc)
        await session.commit()
        return self.tables.cache.put(rec)

    async def add_table(
        self,
        session: AsyncSession,
        game: Game,
        title: str,
        host: User,
        visibility: str,
        options: dict[str, Any],
        seating: Sequence[tuple[str | None, bool, str | None]],
        time_control: dict[str, Any] | None = None,
    ) -> TableRecord:
        """A new open table's rows, seat i taken by `seating[i]` = (user id or None, bot, bot level), and its record
        as they stand in this transaction. The host is the only person it seats."""
        table_id = new_id()
        seed = secrets.randbits(63)
        for user_id, _bot, _level in seating:
            assert user_id in (None, host.id)
        # Core inserts returning what the record is made of: the unit of work would track objects nobody reads, and
        # reading the rows back would cost two statements more.
        row = (await session.execute(_NEW_TABLE, {
            "id": table_id,
            "game": game.id,
            "name": title,
            "host_id": host.id,
            "visibility": visibility,
            "invite_hash": hash_invite(invite_code(self.secret_key, table_id)) if visibility == Visibility.PRIVATE else None,
            "status": TableStatus.OPEN,
            "seat_count": len(seating),
            "options": options,
            "seed": seed,
            "seed_commitment": seed_commitment(table_id, seed),
            "state": None,
            "version": 1,
            "move_count": 0,
            "awaiting": [],
            "outcome": None,
            "time_control": time_control,
            "named": host.id,
        })).one()
        rows = [{"of_table": table_id, "number": str(i), "person": user_id, "guest_of": user_id, "is_bot": bot,
                 "level": level}
                for i, (user_id, bot, level) in enumerate(seating)]
        guests = {seat: bool(guest) for seat, guest in await session.execute(_NEW_SEATS, rows)}
        seats = [SeatInfo(str(i), user_id, row.host_name if user_id is not None else None, bot,
                          guests[str(i)], bot_level=level if bot else None)
                 for i, (user_id, bot, level) in enumerate(seating)]
        return await record_of(session, row, seats=seats)

    async def rotate_invite(self, session: AsyncSession, rec: TableRecord, user: User) -> Changed:
        """The host withdraws a private table's invite link (it leaked, or someone unwelcome has it) and gets a new one:
        the old code lets nobody in from now on, and those watching only by it lose sight of the table. Seated players
        and the host are not affected."""
        _require_host(rec, user)
        if rec.visibility != Visibility.PRIVATE:
            raise ServiceError("not_private", "Only a private table has an invite link.", 409)
        new_round = rec.invite_round + 1
        return bumped(rec, [{"type": TableEvent.INVITE_CHANGED, "visible_to": None}], invite_round=new_round,
                      invite_hash=hash_invite(invite_code(self.secret_key, rec.id, new_round)))

    async def change(
        self, table_id: str, user: User, invite: str | None, change: Change,
        check: Callable[[AsyncSession], Awaitable[None]] | None = None,
    ) -> TableRecord:
        """Run one lobby operation in its own transaction with the table row locked, then publish it; `check` (a rate
        limit's) first, in that transaction, which saves it a connection of its own.

        Its connection is not pinged first (a round trip saved on every change): should it turn out dead (Postgres
        restarted, or ended it) before the commit is sent, nothing was written, and the change is made again on a
        pinged one. A connection lost later (during the commit) fails the change, as it would have anyway."""
        try:
            with unpinged():
                fresh = await self._change(table_id, user, invite, change, check)
        except _NothingWritten:
            fresh = await self._change(table_id, user, invite, change, check, again=True)
        await self.tables.after_change(fresh)
        return fresh

    async def _change(
        self, table_id: str, user: User, invite: str | None, change: Change,
        check: Callable[[AsyncSession], Awaitable[None]] | None, *, again: bool = False,
    ) -> TableRecord:
        """The change made, committed and cached; `_NothingWritten` for a connection found dead before anything was
        written, unless this is the change made `again`."""
        async with self.tables.write(table_id) as session:
            try:
                if check is not None:
                    await check(session)
                fresh, events, version = await _changed(session, table_id, user, invite, change, self.clock.now)
            except DBAPIError as exc:
                if exc.connection_invalidated and not again:
                    raise _NothingWritten from exc
                raise
            with self.tables.own_write(table_id, version):
                await self.tables.notify_in_tx(session, table_id, version)
                await session.commit()
                fresh = self.tables.cache.put(fresh)
                fresh.remember_events(fresh.version, events)
        return fresh


class _NothingWritten(Exception):
    """A lobby change's connection was found dead before anything was written: Postgres rolled it back."""


async def _changed(
    session: AsyncSession, table_id: str, user: User, invite: str | None, change: Change, now: Callable[[], datetime]
) -> tuple[TableRecord, Events, int]:
    """The change made and stored in `session` with the table row locked: the record as the commit will make it, the
    change's events and the version it makes."""
    rec = await load_record(session, table_id, for_update=True)
    if not rec.can_see(user.id, invite) and invite is None:
        raise not_found()
    changed = await change(session, rec)
    events, columns = changed.events, changed.columns
    if "updated_at" in columns:  # the stand-in wait counts from here, on the clock that reads it
        columns = {**columns, "updated_at": now()}
    # The record as the commit makes it, read inside the transaction (the row is locked, so nobody else can change
    # it): after the commit, the same read would cost a transaction of its own. The row comes back from the UPDATE
    # that stores the change, which saves reading it again.
    row = await keep_events(session, rec.id, rec.version + 1, events, columns, returning=True)
    assert row is not None
    # Drafts are made only in a running game: a table that was open has none, whatever the change made of it.
    drafts: dict[str, tuple[Draft, ...]] | None = {} if rec.status == TableStatus.OPEN else None
    return await record_of(session, row, seats=changed.seats, drafts=drafts), events, rec.version + 1
