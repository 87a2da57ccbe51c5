"""Player profiles (a person's name, their finished games and how they did) and each game's leaderboard."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import get_reads, optional_user
from app.api.schemas import LeaderboardOut, ProfileOut
from app.db.models import User
from app.services import leaderboard, profiles

router = APIRouter(prefix="/api", tags=["players"])


@router.get("/players/{user_id}", response_model=ProfileOut)
async def player(
    user_id: str,
    before: str | None = Query(default=None, max_length=100),
    limit: int = Query(default=profiles.PAGE, ge=1, le=profiles.MAX_PAGE),
    session: AsyncSession = Depends(get_reads),
    viewer: User | None = Depends(optional_user),
) -> dict[str, Any]:
    """A player's profile: per-game counts and recent finished games, as far as the viewer may see them."""
    return await profiles.profile(session, user_id, viewer.id if viewer else None, before, limit)


@router.get("/games/{game_id}/leaderboard", response_model=LeaderboardOut)
async def game_leaderboard(
    game_id: str,
    offset: int = Query(default=0, ge=0, le=leaderboard.MAX_OFFSET),
    limit: int = Query(default=leaderboard.PAGE, ge=1, le=leaderboard.MAX_PAGE),
    session: AsyncSession = Depends(get_reads),
    viewer: User | None = Depends(optional_user),
) -> dict[str, Any]:
    """A page of the game's leaderboard, best first, and the viewer's own place in it."""
    return await leaderboard.leaderboard(session, game_id, viewer, offset, limit)
