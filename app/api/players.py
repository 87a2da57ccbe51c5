"""Player profiles (a person's name, their finished games and how they did) and each game's leaderboard."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import get_reads, optional_user
from app.api.paging import PageIn, paged
from app.api.schemas import LeaderboardOut, ProfileOut
from app.db.models import User
from app.services import leaderboard, profiles

router = APIRouter(prefix="/api", tags=["players"])


GAME_PAGES = paged(profiles.PAGE, profiles.MAX_PAGE)
BOARD_PAGES = paged(leaderboard.PAGE, leaderboard.MAX_PAGE)


@router.get("/players/{user_id}", response_model=ProfileOut)
async def player(
    user_id: str,
    page: PageIn = Depends(GAME_PAGES),
    session: AsyncSession = Depends(get_reads),
    viewer: User | None = Depends(optional_user),
) -> dict[str, Any]:
    """A player's profile: per-game counts and a page of their finished games, newest first, as far as the viewer
    may see them."""
    return await profiles.profile(session, user_id, viewer.id if viewer else None, page.cursor, page.limit)


@router.get("/games/{game_id}/leaderboard", response_model=LeaderboardOut)
async def game_leaderboard(
    game_id: str,
    page: PageIn = Depends(BOARD_PAGES),
    session: AsyncSession = Depends(get_reads),
    viewer: User | None = Depends(optional_user),
) -> dict[str, Any]:
    """A page of the game's leaderboard, best first, and the viewer's own place in it."""
    return await leaderboard.leaderboard(session, game_id, viewer, page.cursor, page.limit)
