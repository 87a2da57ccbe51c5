"""Moves rewrite their table row in place again: the sweep's partial index of unrated finished tables covers `id`,
not `updated_at`.

Postgres can rewrite a row in place (a HOT update, which adds no index entries) only when no column an index covers
changes, and a partial index's columns count even for rows outside it. Every move sets `updated_at`, so since 0011
every move's update of its table row added an entry to each of game_tables' indexes: more work and WAL per move for
Postgres, and indexes that grew with the moves until vacuumed. The sweep reads the few rows of this index and orders
them itself.

Revision ID: 0014_hot_table_rows
Revises: 0013_guest_seats
"""
import sqlalchemy as sa
from alembic import op

revision = "0014_hot_table_rows"
down_revision = "0013_guest_seats"
branch_labels = None
depends_on = None

UNRATED = "status = 'finished' AND rated IS NULL"


def _index(column: str) -> None:
    op.drop_index("ix_game_tables_unrated", table_name="game_tables")
    op.create_index(
        "ix_game_tables_unrated", "game_tables", [column],
        postgresql_where=sa.text(UNRATED), sqlite_where=sa.text(UNRATED),
    )


def upgrade() -> None:
    _index("id")


def downgrade() -> None:
    _index("updated_at")
