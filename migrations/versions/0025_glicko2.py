"""Glicko-2 ratings: `player_ratings.deviation` (how unsure a rating is) and `volatility` (how erratic its results).

An existing rating keeps its value. Its deviation is taken as 350/sqrt(1 + games), at least 45: about what a run of
that many games against players of like standing leaves, so that a rating earned over many games is not shown as
provisional again, while one of a few games still is. The volatility starts at the usual 0.06.

Revision ID: 0025_glicko2
Revises: 0024_takeback
"""
import math

import sqlalchemy as sa
from alembic import op

revision = "0025_glicko2"
down_revision = "0024_takeback"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("player_ratings") as batch:
        batch.add_column(sa.Column("deviation", sa.Float(), nullable=False, server_default="350"))
        batch.add_column(sa.Column("volatility", sa.Float(), nullable=False, server_default="0.06"))
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":  # one statement, which `alembic upgrade --sql` can write out too
        op.execute("UPDATE player_ratings SET deviation = GREATEST(45.0, 350.0 / SQRT(1.0 + games))")
        return
    # SQLite has a square root only when built with its maths functions: in Python, one update per games count.
    for (games,) in bind.execute(sa.text("SELECT DISTINCT games FROM player_ratings")).all():
        bind.execute(sa.text("UPDATE player_ratings SET deviation = :d WHERE games = :g"),
                     {"d": max(45.0, 350.0 / math.sqrt(1.0 + games)), "g": games})


def downgrade() -> None:
    with op.batch_alter_table("player_ratings") as batch:
        batch.drop_column("volatility")
        batch.drop_column("deviation")
