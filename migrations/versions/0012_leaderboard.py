"""Leaderboards: an index of each game's ratings in the leaderboard's order (services/leaderboard.py).

A page of `GET /api/games/{id}/leaderboard` is read off it in order (game, then rating, rated games and user id
as the list sorts them) and the read stops at the page's end, so no page sorts all of a game's ratings. It costs a
rating's update an index entry: a rating changes once per rated game, off the move path.

Nothing else depends on this revision: another branch's migration chains in front of or after it by changing
`down_revision` alone.

Revision ID: 0012_leaderboard
Revises: 0011_ratings
"""
import sqlalchemy as sa
from alembic import op

revision = "0012_leaderboard"
down_revision = "0011_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_player_ratings_board", "player_ratings",
        ["game", sa.text("rating DESC"), sa.text("games DESC"), "user_id"],
    )


def downgrade() -> None:
    op.drop_index("ix_player_ratings_board", table_name="player_ratings")
