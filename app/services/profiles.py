"""Player profiles: who someone is, and how their finished games went.

Only finished tables count, and only those the viewer may see (`TableRecord.can_see` without an invite: a
public table, or a private one the viewer sits at or hosts). The counts and the list then agree, and a private
table gives away nothing, not even that a game was played then (docs/api/players.md says why).

Wins are read from each table's stored `outcome` in SQL (JSON functions of each database), so the summary is
one grouped query whatever the number of games; the recent games are one page query and one query for the
seats of that page. The ratings are one read of the person's rating rows, and a page's rating changes one query.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Boolean, ColumnElement, and_, case, exists, func, literal_column, or_, select, true
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.db.models import GameTable, Move, PlayerRating, RatingChange, Seat, User
from app.games import GAMES
from app.services import glicko2, pagination
from app.services.auth import is_guest
from app.services.errors import not_found
from app.services.pagination import PageRequest
from app.services.record import TableStatus, Visibility, valid_id

PAGE = 20  # recent games per page, unless asked for fewer or more
MAX_PAGE = 50

# Whether the profile's seat is among the outcome's winners, and whether the winners are several (a shared win),
# per database. Written out because SQLAlchemy's JSON type has no portable "array contains" and SQLite's
# JSON1 reads the stored text where Postgres reads JSONB.
_WON = {
    "postgresql": "(game_tables.outcome -> 'winners') @> jsonb_build_array(seats.seat)",
    "sqlite": "EXISTS (SELECT 1 FROM json_each(game_tables.outcome, '$.winners') AS w WHERE w.value = seats.seat)",
}
_WINNERS = {
    "postgresql": "jsonb_array_length(game_tables.outcome -> 'winners')",
    "sqlite": "json_array_length(game_tables.outcome, '$.winners')",
}


def _dialect(session: AsyncSession) -> str:
    name = session.get_bind().dialect.name
    if name not in _WON:
        raise RuntimeError(f"profiles need SQLite or Postgres, not {name}")
    return name


def _utc(at: datetime) -> datetime:
    return at if at.tzinfo else at.replace(tzinfo=UTC)  # SQLite drops the zone; everything is stored in UTC


def _visible(user_id: str, viewer_id: str | None) -> ColumnElement[bool]:
    """The tables of `user_id`'s seats that `viewer_id` may see: the same rule as `TableRecord.can_see`."""
    if viewer_id == user_id:
        return true()  # they sit at every one of them
    if viewer_id is None:
        return GameTable.visibility == Visibility.PUBLIC
    viewer_seat = aliased(Seat)
    return or_(
        GameTable.visibility == Visibility.PUBLIC,
        GameTable.host_id == viewer_id,
        exists().where(viewer_seat.table_id == GameTable.id, viewer_seat.user_id == viewer_id),
    )


def _finished_at() -> ColumnElement[datetime]:
    # The last move's time: `updated_at` moves again when a rematch is opened from the finished table.
    return func.coalesce(Move.created_at, GameTable.updated_at)


def _played(user_id: str, viewer_id: str | None) -> Any:
    """The finished tables where `user_id` had a seat (one row each), as the viewer may see them."""
    return (
        select()
        .select_from(Seat)
        .join(GameTable, GameTable.id == Seat.table_id)
        .where(Seat.user_id == user_id, GameTable.status == TableStatus.FINISHED, _visible(user_id, viewer_id))
    )


async def profile(
    session: AsyncSession, user_id: str, viewer_id: str | None, cursor: str | None = None, limit: int = PAGE
) -> dict[str, Any]:
    """A player's profile as `viewer_id` may see it, with a page of their finished games (`cursor`: the `next` of the
    page before, services/pagination.py)."""
    page = PageRequest(limit, pagination.decode("recent-games", cursor, ["time", "str"]))
    if not valid_id(user_id):
        raise not_found("player")
    user = await session.get(User, user_id)
    if user is None:
        raise not_found("player")
    dialect = _dialect(session)
    won: ColumnElement[bool] = literal_column(_WON[dialect], Boolean())
    shared = and_(won, literal_column(_WINNERS[dialect]) > 1)
    summary = (
        await session.execute(
            _played(user_id, viewer_id)
            .where(GameTable.abandoned.is_(False))  # no result: in the list of games, not in the counts
            .add_columns(
                GameTable.game,
                func.count(),
                func.sum(case((won, 1), else_=0)),
                func.sum(case((shared, 1), else_=0)),
            )
            .group_by(GameTable.game)
        )
    ).all()
    order = {gid: i for i, gid in enumerate(GAMES)}
    games = sorted(
        (
            {"game": game, "title": _title(game), "played": int(n), "won": int(w or 0), "shared": int(s or 0)}
            for game, n, w, s in summary
        ),
        key=lambda g: (order.get(g["game"], len(order)), g["game"]),
    )
    recent, after = await _recent(session, user_id, viewer_id, page)
    guest = is_guest(user)
    # A guest is not rated: no ratings, not even the rows a guest earned before that rule (they show again once the
    # guest registers, as the games that made them are theirs).
    rated: Sequence[PlayerRating] = []
    if not guest:
        rated = (await session.scalars(select(PlayerRating).where(PlayerRating.user_id == user_id))).all()
    return {
        "user": {
            "id": user.id,
            "name": user.name,
            "registered": not guest,
            "member_since": _utc(user.created_at).isoformat(),
        },
        "games": games,
        "totals": {key: sum(g[key] for g in games) for key in ("played", "won", "shared")},
        # Every rated game is public, so a rating tells every viewer nothing they may not see in `recent`.
        "ratings": [] if guest else ratings_json(rated),
        "recent": recent,
        "next": after,
    }


def ratings_json(rows: Sequence[PlayerRating]) -> list[dict[str, Any]]:
    """A person's rating in every game, in the order of `GET /api/games` (1500 and no games where never rated)."""
    by_game = {row.game: row for row in rows}
    out = []
    for game_id in GAMES:
        row = by_game.get(game_id)
        out.append({
            "game": game_id,
            "title": _title(game_id),
            "rating": row.rating if row else round(glicko2.START),
            "deviation": round(row.deviation if row else glicko2.START_DEVIATION),
            "provisional": (row.deviation if row else glicko2.START_DEVIATION) > glicko2.PROVISIONAL_DEVIATION,
            "games": row.games if row else 0,
            "last_change": row.last_change if row else None,
        })
    return out


def _title(game_id: str) -> str:
    game = GAMES.get(game_id)
    return game.title if game is not None else game_id


async def _recent(
    session: AsyncSession, user_id: str, viewer_id: str | None, page: PageRequest
) -> tuple[list[dict[str, Any]], str | None]:
    """One page of the player's finished games, newest first, and the cursor of the next page (or None)."""
    finished_at = _finished_at().label("finished_at")
    query = (
        _played(user_id, viewer_id)
        .outerjoin(Move, and_(Move.table_id == GameTable.id, Move.seq == GameTable.move_count))
        .add_columns(GameTable.id, GameTable.game, GameTable.name, GameTable.visibility, GameTable.outcome,
                     GameTable.abandoned, Seat.seat, finished_at)
    )
    # Ties on the time are broken by the id, so a page boundary never skips or repeats a table.
    query = query.where(pagination.after([(_finished_at(), True), (GameTable.id, True)], page.after))
    fetched = (
        await session.execute(query.order_by(_finished_at().desc(), GameTable.id.desc()).limit(page.limit + 1))
    ).all()
    rows, after = pagination.split(fetched, page, "recent-games", lambda r: (r.finished_at, r.id))
    seats = await _seats(session, [r.id for r in rows])
    rated = await _rating_changes(session, [r.id for r in rows])
    entries = [
        _entry(r.id, r.game, r.name, r.visibility, r.outcome or {}, r.seat, r.finished_at, seats.get(r.id, []),
               bool(r.abandoned), rated.get(r.id, {}))
        for r in rows
    ]
    return entries, after


async def _seats(session: AsyncSession, table_ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
    """The seats of these tables with their people's names, in seat order, in one query."""
    if not table_ids:
        return {}
    rows = (
        await session.execute(
            select(Seat.table_id, Seat.seat, Seat.user_id, Seat.bot, Seat.guest, User.name)
            .outerjoin(User, User.id == Seat.user_id)
            .where(Seat.table_id.in_(table_ids))
        )
    ).all()
    out: dict[str, list[dict[str, Any]]] = {}
    for r in sorted(rows, key=lambda r: (r.table_id, int(r.seat))):
        out.setdefault(r.table_id, []).append(
            {"seat": r.seat, "user": {"id": r.user_id, "name": r.name} if r.user_id else None, "bot": r.bot,
             "guest": bool(r.guest) and r.user_id is not None}
        )
    return out


async def _rating_changes(session: AsyncSession, table_ids: Sequence[str]) -> dict[str, dict[str, dict[str, int]]]:
    """What these tables did to their people's ratings: table id -> seat -> {before, after, change}, one query."""
    if not table_ids:
        return {}
    rows = await session.execute(
        select(RatingChange.table_id, RatingChange.seat, RatingChange.before, RatingChange.after, RatingChange.change)
        .where(RatingChange.table_id.in_(table_ids))
    )
    out: dict[str, dict[str, dict[str, int]]] = {}
    for r in rows:
        out.setdefault(r.table_id, {})[r.seat] = {"before": r.before, "after": r.after, "change": r.change}
    return out


def places(ranking: Sequence[Sequence[str]]) -> dict[str, int]:
    """Each seat's place from an outcome's ranking (groups of tied seats, best first): 1, 1, 3 …"""
    out: dict[str, int] = {}
    ahead = 0
    for group in ranking:
        for seat in group:
            out[str(seat)] = ahead + 1
        ahead += len(group)
    return out


def _entry(
    table_id: str,
    game: str,
    name: str,
    visibility: str,
    outcome: dict[str, Any],
    seat: str,
    finished_at: datetime,
    seats: list[dict[str, Any]],
    abandoned: bool = False,
    rated: dict[str, dict[str, int]] | None = None,
) -> dict[str, Any]:
    """One finished game on the profile: the table, everyone's place, score and rating change, and how this player
    did (an abandoned game has no outcome: no places, scores or winners)."""
    rated = rated or {}
    place = places(outcome.get("ranking") or [])
    scores = outcome.get("scores") or {}
    winners = [str(s) for s in outcome.get("winners") or []]
    for s in seats:
        s["place"] = place.get(s["seat"])
        s["score"] = scores.get(s["seat"])
        s["won"] = s["seat"] in winners
        s["rating"] = rated.get(s["seat"])
    won = seat in winners
    return {
        "table_id": table_id,
        "game": game,
        "title": _title(game),
        "name": name,
        "visibility": visibility,
        "finished_at": _utc(finished_at).isoformat(),
        "abandoned": abandoned,
        "seat": seat,
        "place": place.get(seat),
        "score": scores.get(seat),
        "won": won,
        "shared": won and len(winners) > 1,
        "winners": winners,
        "rating": rated.get(seat),
        "seats": seats,
    }
