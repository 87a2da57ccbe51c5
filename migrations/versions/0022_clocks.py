"""Clocks: a table's time control (`time_control`), its running clocks (`clock`) and their earliest deadline
(`deadline`), with a partial index of the deadlines for the timeout sweep (services/timeouts.py).

Existing tables have no time control and keep playing as they did.

Revision ID: 0022_clocks
Revises: 0021_bot_levels
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0022_clocks"
down_revision = "0021_bot_levels"
branch_labels = None
depends_on = None

JSON_TYPE = sa.JSON().with_variant(JSONB(), "postgresql")
DUE = "deadline IS NOT NULL"


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("time_control", JSON_TYPE, nullable=True))
        batch.add_column(sa.Column("clock", JSON_TYPE, nullable=True))
        batch.add_column(sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
    op.create_index(
        "ix_game_tables_deadline", "game_tables", ["deadline"],
        postgresql_where=sa.text(DUE), sqlite_where=sa.text(DUE),
    )


def downgrade() -> None:
    op.drop_index("ix_game_tables_deadline", table_name="game_tables")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("deadline")
        batch.drop_column("clock")
        batch.drop_column("time_control")
