"""Lobby use cases: create, list, join, leave, kick, add bots, start."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, exists, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import get_settings
from app.db.models import GameTable, Seat, TableLogEntry, User
from app.games import GAMES
from app.games.base import BotLevel, Game
from app.services import chat, clocks
from app.services.auth import check_distinct_name, clean_name, mark_guest_seats, new_id
from app.services.chat import ChatMode
from app.services.errors import ServiceError, not_found
from app.services.loading import load_record
from app.services.record import TableRecord, hash_invite, seed_commitment

if TYPE_CHECKING:
    from app.runtime import Runtime


def get_game(game_id: str) -> Game:
    game = GAMES.get(game_id) if isinstance(game_id, str) else None
    if game is None:
        raise ServiceError("unknown_game", f"There is no game called {game_id!r}.", 404)
    return game


def game_json(game: Game) -> dict[str, Any]:
    return {
        "id": game.id,
        "title": game.title,
        "description": getattr(game, "description", ""),
        "min_players": game.min_players,
        "max_players": game.max_players,
        "options": list(getattr(game, "options", [])),
        "i18n": dict(getattr(game, "i18n", {})),
    }


def invite_code(secret_key: str, table_id: str, invite_round: int = 0) -> str:
    """The table's invite code: derived from the server secret and how many times the host changed it, so only a hash
    needs storing, and a new round makes every older link useless."""
    what = f"invite:{table_id}" if invite_round == 0 else f"invite:{table_id}:{invite_round}"
    digest = hmac.new(secret_key.encode(), what.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


def check_options(game: Game, options: Any, seats: int) -> dict[str, Any]:
    """Validate lobby options against the game's option specs and the table's seats, filling defaults."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ServiceError("bad_options", "Options must be an object.", 422)
    specs = {spec["id"]: spec for spec in getattr(game, "options", [])}
    unknown = set(options) - set(specs)
    if unknown:
        raise ServiceError("bad_options", f"Unknown option(s): {', '.join(sorted(map(str, unknown)))}.", 422)
    out: dict[str, Any] = {}
    for oid, spec in specs.items():
        value = options.get(oid, spec.get("default"))
        kind = spec.get("type")
        if kind == "bool" and not isinstance(value, bool):
            raise ServiceError("bad_options", f"Option {oid} must be true or false.", 422)
        if kind == "int" and (not isinstance(value, int) or isinstance(value, bool)):
            raise ServiceError("bad_options", f"Option {oid} must be a whole number.", 422)
        if kind == "choice" and value not in spec.get("choices", []):
            raise ServiceError("bad_options", f"Option {oid} must be one of {spec.get('choices')}.", 422)
        if spec.get("seat") and str(value).isdigit() and int(value) > seats:
            raise ServiceError("bad_options", f"Option {oid} names seat {value}, but the table has {seats} seats.", 422)
        out[oid] = value
    return out


def seated_options(game: Game, options: dict[str, Any], taken: Sequence[str]) -> dict[str, Any]:
    """The options with each seat they name renumbered as the start closes up the empty seats (`taken`: the
    occupied seats in order); naming an empty seat is refused, since nobody would be there to be it."""
    out = dict(options)
    for spec in getattr(game, "options", []):
        value = out.get(spec["id"])
        if spec.get("seat") and isinstance(value, str) and value.isdigit():
            if str(int(value) - 1) not in taken:
                raise ServiceError(
                    "option_seat_empty",
                    f"{spec.get('label', spec['id'])} is seat {value}, which is empty: seat a player or a bot there.",
                    409,
                )
            out[spec["id"]] = str(taken.index(str(int(value) - 1)) + 1)
    return out


def table_json(rt: Runtime, rec: TableRecord, user_id: str | None) -> dict[str, Any]:
    """The table as the API shows it to this user."""
    return table_json_for(rt, rec, public_table_json(rec), user_id)


def public_table_json(rec: TableRecord) -> dict[str, Any]:
    """The part of `table_json` that is the same for every user (made once per change for all sockets)."""
    finished = rec.status == "finished"
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
        "awaiting": rec.awaiting if rec.status == "playing" else [],
        "outcome": rec.outcome if finished else None,
        "seed_commitment": rec.seed_commitment,
        "seed": rec.seed if finished else None,
        "rematch_id": rec.rematch_id,
        "abandoned": rec.abandoned,
        "chat_mode": rec.chat_mode,
        "abandon": abandon_json(rec),
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


def abandon_json(rec: TableRecord) -> dict[str, Any] | None:
    """The open proposal to abandon as the API shows it: its id (the version that opened it), who proposed it,
    who agreed so far and whose say it still waits for (as of this version: a player a bot stands in for loses
    their say once away for the stand-in wait, which the next vote finds)."""
    vote = rec.abandon
    if vote is None or rec.status != "playing":
        return None
    waiting = rec.abandon_waiting(get_settings().stand_in_after)
    return {"id": vote["since"], "by": vote["by"], "yes": list(vote["yes"]), "waiting": waiting}


def table_json_for(rt: Runtime, rec: TableRecord, public: dict[str, Any], user_id: str | None) -> dict[str, Any]:
    """`public_table_json` completed with what depends on the user (their seat, host rights, the invite) or
    on the moment: in a running game, how long the table has waited and when its players may call a bot."""
    data = {**public, "my_seat": rec.seat_of(user_id), "is_host": user_id is not None and user_id == rec.host_id}
    if rec.visibility == "private" and user_id == rec.host_id:
        data["invite_code"] = invite_code(rt.secret_key, rec.id, rec.invite_round)
    if rec.time_control is not None and rec.clock is not None:
        data.update(clock_fields(rt, rec))
    if rec.status == "playing":
        # Seconds rather than a time of day, so a client whose clock is off still counts right.
        data["waited"] = round(waited(rec), 1)
        data["stand_in_after"] = rt.settings.stand_in_after
        data["stand_in_after_online"] = rt.settings.stand_in_after_online
    return data


def clock_fields(rt: Runtime, rec: TableRecord) -> dict[str, Any]:
    """A clocked table's clocks as of the server's `now` (epoch ms), which a client compares with its own clock."""
    if rec.time_control is None or rec.clock is None:
        return {}
    now = clocks.epoch_ms(rt.now())
    return {"clock": clocks.view(rec.time_control, rec.clock, now), "now": now}


def waited(rec: TableRecord) -> float:
    """Seconds since the table last changed (a move or a seat change)."""
    at = rec.updated_at if rec.updated_at.tzinfo else rec.updated_at.replace(tzinfo=UTC)  # SQLite drops the zone
    return max(0.0, (datetime.now(UTC) - at).total_seconds())


async def create_table(
    rt: Runtime,
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
    if visibility not in ("public", "private"):
        raise ServiceError("bad_visibility", "Visibility must be 'public' or 'private'.", 422)
    opts = check_options(game, options, seats)
    tc = clocks.check_time_control(time_control)
    title = clean_name(name, "table name", 80) if name else f"{host.name}'s {game.title}"
    # Tables waiting with someone seated are the ones the lobby lists: one person may not fill it. (One the host
    # left empty is listed nowhere but in their own tables.)
    seated = exists().where(Seat.table_id == GameTable.id, Seat.user_id.is_not(None))
    waiting = await session.scalar(
        select(func.count()).select_from(GameTable)
        .where(GameTable.host_id == host.id, GameTable.status == "open", seated)
    )
    if (waiting or 0) >= rt.settings.max_open_tables:
        raise ServiceError(
            "too_many_open_tables",
            f"You already host {waiting} tables waiting for players: start one, or leave one, first.",
            429,
        )
    seating: list[tuple[str | None, bool, str | None]] = [(host.id, False, None)] + [(None, False, None)] * (seats - 1)
    table_id = await _add_table(rt, session, game, title, host, visibility, opts, seating, tc)
    rec = await load_record(session, table_id)  # what the commit makes, read in its transaction
    await session.commit()
    return rt.cache.put(rec)


async def _add_table(
    rt: Runtime,
    session: AsyncSession,
    game: Game,
    title: str,
    host: User,
    visibility: str,
    options: dict[str, Any],
    seating: Sequence[tuple[str | None, bool, str | None]],
    time_control: dict[str, Any] | None = None,
) -> str:
    """The rows of a new open table, seat i taken by `seating[i]` = (user id or None, bot, bot level); its id. The host is the
    only person it seats."""
    table_id = new_id()
    seed = secrets.randbits(63)
    session.add(GameTable(
        id=table_id,
        game=game.id,
        name=title,
        host_id=host.id,
        visibility=visibility,
        invite_hash=hash_invite(invite_code(rt.secret_key, table_id)) if visibility == "private" else None,
        status="open",
        seat_count=len(seating),
        options=options,
        seed=seed,
        seed_commitment=seed_commitment(table_id, seed),
        state=None,
        version=1,
        move_count=0,
        awaiting=[],
        outcome=None,
        time_control=time_control,
    ))
    await session.flush()
    for i, (user_id, bot, level) in enumerate(seating):
        assert user_id in (None, host.id)
        session.add(Seat(table_id=table_id, seat=str(i), user_id=user_id, bot=bot, bot_level=level))
    await mark_guest_seats(session, table_id)
    return table_id


async def list_tables(
    rt: Runtime, session: AsyncSession, status: str | None, game: str | None, limit: int = 100
) -> list[TableRecord]:
    """Public tables, newest activity first; an open one with nobody seated (its host left) is not listed."""
    if game and game not in GAMES:
        return []
    someone_seated = exists().where(Seat.table_id == GameTable.id, Seat.user_id.is_not(None))
    query = select(GameTable.id).where(GameTable.visibility == "public", (GameTable.status != "open") | someone_seated)
    if status:
        query = query.where(GameTable.status == status)
    if game:
        query = query.where(GameTable.game == game)
    ids = (await session.scalars(query.order_by(GameTable.updated_at.desc()).limit(limit))).all()
    return [await rt.record(session, tid) for tid in ids]


async def my_tables(rt: Runtime, session: AsyncSession, user: User, limit: int = 100) -> list[TableRecord]:
    """Tables where this user sits or hosts."""
    seated = select(Seat.table_id).where(Seat.user_id == user.id)
    query = (
        select(GameTable.id)
        .where((GameTable.host_id == user.id) | GameTable.id.in_(seated))
        .order_by(GameTable.updated_at.desc())
        .limit(limit)
    )
    ids = (await session.scalars(query)).all()
    return [await rt.record(session, tid) for tid in ids]


_BUMP = "foodgames.bump"  # a lobby change's own columns, waiting in its session's `info` for `lobby_change`


def _bump(session: AsyncSession, rec: TableRecord, **values: Any) -> None:
    """Advance the table's version along with a lobby change (the caller holds the row lock): `lobby_change` writes
    these columns, the version and the change's events in one statement."""
    session.info[_BUMP] = {"version": rec.version + 1, "updated_at": datetime.now(UTC), **values}


def _seat_number(rec: TableRecord, seat: Any) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool):
        seat = str(seat)
    if not isinstance(seat, str) or seat not in {s.seat for s in rec.seats}:
        raise ServiceError("no_such_seat", "There is no such seat at this table.", 422)
    return seat


def _require_open(rec: TableRecord) -> None:
    if rec.status != "open":
        raise ServiceError("already_started", "The game has already started.", 409)


def _require_host(rec: TableRecord, user: User) -> None:
    if rec.host_id != user.id:
        raise ServiceError("not_host", "Only the host can do that.", 403)


Events = list[dict[str, Any]]


async def join(
    rt: Runtime, session: AsyncSession, rec: TableRecord, user: User, seat: Any, invite: str | None
) -> Events:
    """Take a free seat (the first one if none is named)."""
    _require_open(rec)
    if rec.visibility == "private" and user.id != rec.host_id and not rec.invite_ok(invite):
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
    result = await session.execute(
        update(Seat)
        .where(Seat.table_id == rec.id, Seat.seat == target, Seat.user_id.is_(None), Seat.bot.is_(False))
        .values(user_id=user.id)
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise ServiceError("seat_taken", "That seat is taken.", 409)
    await mark_guest_seats(session, rec.id)
    _bump(session, rec)
    return [{"type": "seat_joined", "seat": target, "name": user.name, "bot": False, "visible_to": None}]


async def leave(session: AsyncSession, rec: TableRecord, user: User) -> Events:
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
    events: Events = [{"type": "seat_left", "seat": seat, "name": user.name, "visible_to": None}]
    heir = next((s for s in rec.seats if s.user_id not in (None, user.id)), None) if user.id == rec.host_id else None
    if heir is None:
        _bump(session, rec)
    else:
        _bump(session, rec, host_id=heir.user_id)
        events.append({"type": "host_changed", "seat": heir.seat, "name": heir.user_name, "visible_to": None})
    return events


async def kick(session: AsyncSession, rec: TableRecord, user: User, seat: Any) -> Events:
    """The host empties a seat (a player or a bot) before the start."""
    _require_host(rec, user)
    _require_open(rec)
    target = _seat_number(rec, seat)
    info = next(s for s in rec.seats if s.seat == target)
    if info.user_id is None and not info.bot:
        raise ServiceError("seat_empty", "That seat is already empty.", 409)
    await session.execute(
        update(Seat)
        .where(Seat.table_id == rec.id, Seat.seat == target)
        .values(user_id=None, bot=False, guest=False)
    )
    _bump(session, rec)
    name = bot_name(BotLevel(info.bot_level or BotLevel.NORMAL)) if info.bot else info.user_name
    return [{"type": "seat_left", "seat": target, "name": name, "bot": info.bot, "kicked": True, "visible_to": None}]


def bot_name(level: BotLevel) -> str:
    """A bot's name says how strongly it plays."""
    return f"Bot ({level.value})"


async def add_bot(
    session: AsyncSession, rec: TableRecord, user: User, seat: Any, level: BotLevel = BotLevel.NORMAL
) -> Events:
    """The host puts a bot that plays at `level` in an empty seat."""
    _require_host(rec, user)
    _require_open(rec)
    target = _seat_number(rec, seat)
    info = next(s for s in rec.seats if s.seat == target)
    if info.user_id is not None or info.bot:
        raise ServiceError("seat_taken", "That seat is taken.", 409)
    await session.execute(
        update(Seat).where(Seat.table_id == rec.id, Seat.seat == target).values(bot=True, bot_level=level.value)
    )
    _bump(session, rec)
    return [{"type": "seat_joined", "seat": target, "name": bot_name(level), "bot": True, "bot_level": level.value,
             "visible_to": None}]


async def stand_in(
    session: AsyncSession,
    rec: TableRecord,
    user: User,
    seat: Any,
    idle_after: float,
    idle_after_online: float | None = None,
    connected: Callable[[str], bool] = lambda _user_id: False,
) -> Events:
    """A bot plays a player's seat in a running game while they are away: the player's choice, the host's at an
    unrated table, or any other player's once the table has waited `idle_after` seconds on that seat, or
    `idle_after_online` if the seat's player is `connected` to the table (thinking, perhaps, rather than gone).
    At a rated table the host waits like everyone: a bot's place is rated as its player's (`rated_people`), so an
    immediate stand-in would let a host take a rival's game out of their hands.

    The player keeps the seat: they see it as before and take it back when they return (`reclaim`)."""
    if rec.status != "playing":
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
            _require_idle(rec, user, target, info.user_name, idle_after_online, online=True)
        else:
            _require_idle(rec, user, target, info.user_name, idle_after)
    # Away since the table began waiting on them, or since now if it was not (they asked, or the host did).
    now = datetime.now(UTC)
    away_since = now - timedelta(seconds=waited(rec)) if target in rec.awaiting else now
    await session.execute(
        update(Seat).where(Seat.table_id == rec.id, Seat.seat == target).values(bot=True, away_since=away_since)
    )
    event = {"type": "stand_in", "seat": target, "name": info.user_name, "visible_to": None}
    if user.id != info.user_id:
        # The player, back, learns who handed their seat over; the id links the name to its profile (a name alone
        # may be borne by two people at the table, or by nobody there after a rename).
        event["by"] = user.name
        event["by_id"] = user.id
    standing = rec.evolve(
        seats=[replace(s, bot=True, away_since=away_since) if s.seat == target else s for s in rec.seats]
    )
    if rec.abandon is not None and not standing.abandon_waiting(idle_after):
        # The proposal waited only on this player, whose seat no longer needs their say: it is agreed.
        await _abandon(session, rec)
        return [event, {"type": "abandoned", "visible_to": None}]
    _bump(session, rec)
    return [event]


def _require_idle(
    rec: TableRecord, user: User, target: str, name: str | None, idle_after: float, online: bool = False
) -> None:
    """Another player may call a bot only for a seat the table has waited on, unchanged, for `idle_after`."""
    if rec.seat_of(user.id) is None:
        raise ServiceError("not_seated", "Only the players at the table can hand a seat to a bot.", 403)
    if target not in rec.awaiting:
        raise ServiceError("not_awaited", f"The game is not waiting for {name}.", 409)
    left = idle_after - waited(rec)
    if left > 0:
        since = f", since {name} is still connected" if online else ""
        raise ServiceError(
            "not_idle_yet",
            f"The game has waited for {name} only a little while: any player may hand the seat to a bot "
            f"after {idle_after:.0f} s without a move{since} ({left:.0f} s from now).",
            409,
        )


async def rotate_invite(rt: Runtime, session: AsyncSession, rec: TableRecord, user: User) -> Events:
    """The host withdraws a private table's invite link (it leaked, or someone unwelcome has it) and gets a new one:
    the old code lets nobody in from now on, and those watching only by it lose sight of the table. Seated players
    and the host are not affected."""
    _require_host(rec, user)
    if rec.visibility != "private":
        raise ServiceError("not_private", "Only a private table has an invite link.", 409)
    new_round = rec.invite_round + 1
    _bump(session, rec, invite_round=new_round,
          invite_hash=hash_invite(invite_code(rt.secret_key, rec.id, new_round)))
    return [{"type": "invite_changed", "visible_to": None}]


async def set_chat_mode(session: AsyncSession, rec: TableRecord, user: User, mode: Any) -> Events:
    """The host chooses who may chat at the table: everyone, accounts (and the players), or the players only."""
    _require_host(rec, user)
    if mode not in {m.value for m in ChatMode}:
        raise ServiceError("bad_chat_mode", "The chat mode is \"everyone\", \"accounts\" or \"players\".", 422)
    if mode == rec.chat_mode:
        raise ServiceError("no_change", f"The chat is already open to {mode}.", 409)
    _bump(session, rec, chat_mode=mode)
    return [{"type": "chat_mode", "mode": mode, "visible_to": None}]


async def reclaim(session: AsyncSession, rec: TableRecord, user: User) -> Events:
    """A player takes their seat back from the bot that played it meanwhile."""
    if rec.status != "playing":
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
    _bump(session, rec)
    return [{"type": "reclaimed", "seat": seat, "name": user.name, "visible_to": None}]


async def vote_abandon(
    session: AsyncSession, rec: TableRecord, user: User, vote: Any, proposal: Any, away_enough: float
) -> Events:
    """A player's say on abandoning the running game: the first "yes" proposes it, every other player must agree
    (one a bot stands in for too, until they have been away `away_enough` seconds), and any one "no" (the proposer's
    too) ends the proposal. A "yes" said again ends the game if nobody's say is still awaited by now.

    `proposal` names the open proposal the vote answers (its `id`), so a "yes" meant for one that ended
    meanwhile opens no new one. Moves go on while a proposal is open; the game's end ends it."""
    if vote not in ("yes", "no"):
        raise ServiceError("bad_vote", "A vote is \"yes\" or \"no\".", 422)
    if proposal is not None and (not isinstance(proposal, int) or isinstance(proposal, bool)):
        raise ServiceError("bad_proposal", "proposal must be the id (a whole number) of the open proposal.", 422)
    if rec.status != "playing":
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
        events: Events = [{"type": "abandon_proposed", **who}]
    elif vote == "no":
        _bump(session, rec, abandon_vote=None)
        return [{"type": "abandon_declined", **who, "withdrawn": seat in current["yes"]}]
    elif seat in current["yes"]:
        if rec.abandon_waiting(away_enough):
            raise ServiceError("already_voted", "You have already agreed to abandon this game.", 409)
        events = []  # those it waited on have been away long enough since: agreed
    else:
        current = {**current, "yes": [*current["yes"], seat]}
        events = [{"type": "abandon_agreed", **who}]
    if rec.evolve(abandon=current).abandon_waiting(away_enough):
        _bump(session, rec, abandon_vote=current)
        return events
    await _abandon(session, rec)
    return [*events, {"type": "abandoned", "visible_to": None}]


async def _abandon(session: AsyncSession, rec: TableRecord) -> None:
    """End the running game as abandoned: no outcome, nobody awaited; the state as it stands is kept as the
    final snapshot (what `verify` replays to, and what the replay's last step shows)."""
    assert rec.state is not None
    _bump(session, rec, status="finished", abandoned=True, abandon_vote=None, outcome=None, awaiting=[],
          state=rec.state, state_seq=rec.move_count, rated=False)  # no result, so nothing to rate


async def start(session: AsyncSession, rec: TableRecord, user: User, now: datetime | None = None) -> Events:
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
    await session.execute(delete(Seat).where(Seat.table_id == rec.id))
    for i, s in enumerate(taken):
        session.add(Seat(table_id=rec.id, seat=str(i), user_id=s.user_id, bot=s.bot, bot_level=s.bot_level))
    await mark_guest_seats(session, rec.id)
    awaiting = game.awaiting(state)
    timing: dict[str, Any] = {}
    if rec.time_control is not None:
        people = [str(i) for i, s in enumerate(taken) if s.user_id is not None and not s.bot]
        clock = clocks.start(rec.time_control, people, awaiting, clocks.epoch_ms(now or datetime.now(UTC)))
        timing = {"clock": clock, "deadline": clocks.deadline(rec.time_control, clock)}
    _bump(
        session,
        rec,
        status="playing",
        seat_count=len(taken),
        options=options,
        state=state,
        awaiting=awaiting,
        **timing,
    )
    return [{"type": "game_started", "players": len(taken), "visible_to": None}]


async def rematch(rt: Runtime, table_id: str, user: User) -> TableRecord:
    """Play again: the first player of a finished game to ask opens a table like it (game, options,
    visibility, bots in their seats, themselves in their own seat, as its host), and the finished table
    points to it, its chat's mutes carried (chat.carry_mutes); every other player who asks takes their old seat there
    (no invite needed)."""
    async with rt.table_lock(table_id), rt.sessions() as session:
        old = await load_record(session, table_id, for_update=True)
        seat = old.seat_of(user.id)
        if old.status != "finished":
            raise ServiceError("not_finished", "A rematch can be asked for once the game is over.", 409)
        if seat is None:
            raise ServiceError("not_seated", "Only the players of this game can ask for a rematch.", 403)
        opened = None if old.rematch_id else await _open_rematch(rt, session, old, user, seat)
    if opened is not None:
        finished, new = opened
        await rt.after_change(finished)
        return new
    assert old.rematch_id is not None
    return await _join_rematch(rt, old.rematch_id, user, seat)


async def _open_rematch(
    rt: Runtime, session: AsyncSession, old: TableRecord, user: User, seat: str
) -> tuple[TableRecord, TableRecord]:
    """The new table and the finished one pointing to it, committed; (finished, new)."""
    # A bot that stood in for a player leaves the seat to them.
    seating = [(user.id if s.seat == seat else None, s.bot and s.user_id is None, s.bot_level) for s in old.seats]
    new_id = await _add_table(rt, session, get_game(old.game), old.name, user, old.visibility, old.options, seating,
                              old.time_control)
    await chat.carry_mutes(session, old.id, new_id, user.id)  # the host's moderation stands at the rematch
    await session.execute(
        update(GameTable).where(GameTable.id == old.id)
        .values(rematch_id=new_id, version=old.version + 1, updated_at=datetime.now(UTC))
    )
    events: Events = [{"type": "rematch", "seat": seat, "table_id": new_id, "visible_to": None}]
    await keep_events(session, old.id, old.version + 1, events)
    with rt.own_write(old.id, old.version + 1):
        await rt.notify_in_tx(session, old.id, old.version + 1)
        await session.commit()
        finished = rt.cache.put(await load_record(session, old.id))
        finished.remember_events(finished.version, events)
    return finished, rt.cache.put(await load_record(session, new_id))


async def _join_rematch(rt: Runtime, rematch_id: str, user: User, seat: str) -> TableRecord:
    """A player of the finished game takes their old seat at its rematch (any free one if that is taken)."""
    current = await rt.reload(rematch_id)
    if current.seat_of(user.id) is not None:
        return current  # asked twice
    mine = next((s.seat for s in current.seats if s.seat == seat and s.user_id is None and not s.bot), None)
    code = invite_code(rt.secret_key, rematch_id)  # the player does not need to know it
    return await lobby_change(rt, rematch_id, user, code, lambda s, r: join(rt, s, r, user, mine, code))


Change = Callable[[AsyncSession, TableRecord], Awaitable[Events]]


async def keep_events(
    session: AsyncSession, table_id: str, version: int, events: Events, columns: dict[str, Any] | None = None
) -> None:
    """Store a lobby change's events with the version it makes (in its transaction), and the change's own `columns`
    of the table row with them: they are no move. The other server processes, told only that the table changed,
    read the last change's on the table row for their sockets; the lobby log keeps them all for a log rebuilt from
    the moves."""
    await session.execute(
        update(GameTable).where(GameTable.id == table_id)
        .values(lobby_events={"version": version, "events": events}, **(columns or {}))
    )
    if events:
        session.add(TableLogEntry(table_id=table_id, version=version, events=events))


async def lobby_change(rt: Runtime, table_id: str, user: User, invite: str | None, change: Change) -> TableRecord:
    """Run one lobby operation in its own transaction with the table row locked, then publish it."""
    async with rt.table_lock(table_id), rt.sessions() as session:
        rec = await load_record(session, table_id, for_update=True)
        if not rec.can_see(user.id, invite) and invite is None:
            raise not_found()
        events = await change(session, rec)
        # The columns `_bump` left, if the change did not advance the version itself.
        await keep_events(session, rec.id, rec.version + 1, events, session.info.pop(_BUMP, None))
        # The record as the commit makes it, read inside the transaction (the row is locked, so nobody else can
        # change it): after the commit, the same read would cost a transaction of its own.
        fresh = await load_record(session, table_id)
        with rt.own_write(rec.id, rec.version + 1):
            await rt.notify_in_tx(session, rec.id, rec.version + 1)
            await session.commit()
            fresh = rt.cache.put(fresh)
            fresh.remember_events(fresh.version, events)
    await rt.after_change(fresh)
    return fresh
