"""Ratings: one Elo rating per person and game, changed once by every rated finished game.

`player_ratings` holds each person's rating per game (no row: 1500, never rated), `rating_changes` what each rated
game did to each of its people, keyed by (table_id, user_id) so that a table is never rated twice, and
`game_tables.rated` says whether a finished game's rating is settled: null until then (the sweep looks for those
through a partial index, which stays about empty), true when rated, false when not (services/ratings.py says
which games are).

The games finished before this migration are marked not rated: everyone starts at 1500 from here, rather than
from a replay of history in an order nobody played it in.

Revision ID: 0011_ratings
Revises: 0010_rename_log
"""
import sqlalchemy as sa
from alembic import op

revision = "0011_ratings"
down_revision = "0010_rename_log"
branch_labels = None
depends_on = None

UNRATED = "status = 'finished' AND rated IS NULL"


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean(), nullable=True))
    op.execute("UPDATE game_tables SET rated = false WHERE status = 'finished'")
    op.create_index(
        "ix_game_tables_unrated", "game_tables", ["updated_at"],
        postgresql_where=sa.text(UNRATED), sqlite_where=sa.text(UNRATED),
    )
    op.create_table(
        "player_ratings",
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("last_change", sa.Integer(), nullable=True),
        sa.Column("last_table_id", sa.String(32), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("seat", sa.String(4), nullable=False),
        sa.Column("before", sa.Integer(), nullable=False),
        sa.Column("after", sa.Integer(), nullable=False),
        sa.Column("change", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("player_ratings")
    op.drop_index("ix_game_tables_unrated", table_name="game_tables")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("rated")
