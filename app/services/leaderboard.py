"""Leaderboards: the people rated in one game, best first (`GET /api/games/{id}/leaderboard`).

Who is listed: people with an account (`users.username` set) with at least `MIN_GAMES` rated games in the game. A
guest is left out whatever their stored rating: a guest's rating may come from before guests were unrated, and a
guest who creates an account keeps their id, and so is listed from then on. The minimum keeps one lucky game from
topping the list.

Order: rating, then more rated games (the same rating held over more games), then user id, so that equal ratings
always come in the same order and a page boundary never skips or repeats anyone. A rank is the place in that order
(1, 2, 3 for equal ratings too), which keeps "rank" and "row" the same thing on every page. A row says whether its
rating is still provisional (Glicko-2 deviation over 110).

Pages: the one cursor pagination (services/pagination.py), on that order's key. A page is one query, read in order
off `ix_player_ratings_board` (migration 0012_leaderboard) from the cursor's key and stopped after the page (one row
more tells whether another page follows); a page after the first counts the rows up to its cursor for its ranks.
The viewer's own row, when they are not on the page, is one more query that counts those ahead of them along the
same index.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import PlayerRating, User
from app.services import glicko2, pagination
from app.services.options import get_game
from app.services.pagination import PageRequest

MIN_GAMES = 3  # rated games a person needs in a game to be listed on its leaderboard
PAGE = 50  # rows per page, unless asked for fewer or more
MAX_PAGE = 100
_ORDER = [(PlayerRating.rating, True), (PlayerRating.games, True), (PlayerRating.user_id, False)]
KEY: list[pagination.Kind] = ["int", "int", "str"]


def _listed(game: str) -> Any:
    """The leaderboard's rows of `game` (rating rows joined to their people), not yet ordered."""
    return (
        select(PlayerRating.user_id, User.name, PlayerRating.rating, PlayerRating.games, PlayerRating.deviation)
        .join(User, User.id == PlayerRating.user_id)
        .where(PlayerRating.game == game, PlayerRating.games >= MIN_GAMES, User.username.is_not(None))
    )


def _row(rank: int, user_id: str, name: str, rating: int, games: int, deviation: float) -> dict[str, Any]:
    return {"rank": rank, "user": {"id": user_id, "name": name}, "rating": rating, "games": games,
            "provisional": deviation > glicko2.PROVISIONAL_DEVIATION}


async def leaderboard(
    session: AsyncSession, game_id: str, viewer: User | None, cursor: str | None = None, limit: int = PAGE
) -> dict[str, Any]:
    """One page of `game_id`'s leaderboard (`cursor`: the `next` of the page before), and the viewer's own place in
    it (or why they are not listed)."""
    game = get_game(game_id)
    asked = PageRequest(limit, pagination.decode(f"leaderboard:{game.id}", cursor, KEY))
    rows = (
        await session.execute(
            _listed(game.id)
            .where(pagination.after(_ORDER, asked.after))
            .order_by(PlayerRating.rating.desc(), PlayerRating.games.desc(), PlayerRating.user_id)
            .limit(limit + 1)
        )
    ).all()
    items, after = pagination.split(rows, asked, f"leaderboard:{game.id}", lambda r: (r.rating, r.games, r.user_id))
    before = 0
    if asked.after is not None and items:
        before = int(await session.scalar(
            select(func.count()).select_from(_listed(game.id).where(~pagination.after(_ORDER, asked.after)).subquery())
        ) or 0)
    page = [_row(before + i + 1, *r) for i, r in enumerate(items)]
    return {
        "game": game.id,
        "title": game.title,
        "min_games": MIN_GAMES,
        "limit": limit,
        "rows": page,
        "next": after,
        "me": await _with_page(session, game.id, limit, await _mine(session, game.id, viewer, page)),
    }


async def _with_page(session: AsyncSession, game: str, limit: int, mine: dict[str, Any] | None) -> dict[str, Any] | None:
    """The viewer's row with `page`, the cursor of the page of `limit` rows that shows them (null: the first page, or
    not listed): pages are counted from the top, so it starts after the row just above that page."""
    if mine is None:
        return None
    start = ((mine["rank"] - 1) // limit) * limit if mine["rank"] is not None else 0
    cursor = None
    if start:
        above = (
            await session.execute(
                _listed(game)
                .order_by(PlayerRating.rating.desc(), PlayerRating.games.desc(), PlayerRating.user_id)
                .offset(start - 1)
                .limit(1)
            )
        ).first()
        if above is not None:
            cursor = pagination.encode(f"leaderboard:{game}", (above.rating, above.games, above.user_id))
    return {**mine, "page": cursor}


async def _mine(
    session: AsyncSession, game: str, viewer: User | None, page: list[dict[str, Any]]
) -> dict[str, Any] | None:
    """The viewer's row: their rank when listed, else a null rank with their rating and games (guest: why)."""
    if viewer is None:
        return None
    for row in page:
        if row["user"]["id"] == viewer.id:
            return {**row, "guest": False}
    mine = await session.get(PlayerRating, (viewer.id, game))
    if mine is None:
        return None
    guest = viewer.username is None
    rank = None
    if not guest and mine.games >= MIN_GAMES:
        # The people ahead of the viewer in the list's order; the viewer's place is one after them.
        ahead = await session.scalar(
            select(func.count()).select_from(
                _listed(game).where(
                    or_(
                        PlayerRating.rating > mine.rating,
                        and_(
                            PlayerRating.rating == mine.rating,
                            or_(
                                PlayerRating.games > mine.games,
                                and_(PlayerRating.games == mine.games, PlayerRating.user_id < viewer.id),
                            ),
                        ),
                    )
                ).subquery()
            )
        )
        rank = int(ahead or 0) + 1
    return {**_row(0, viewer.id, viewer.name, mine.rating, mine.games, mine.deviation), "rank": rank, "guest": guest}
