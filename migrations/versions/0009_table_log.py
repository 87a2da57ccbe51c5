"""The lobby log: `table_log` keeps the events of every lobby change with the version it made.

A seat taken, a bot called, a stand-in, an abandon vote or a rename is no move, so a log rebuilt from the moves
(after a reload or a reconnect) left out what the live log had said. `game_tables.lobby_events` keeps only the
last change's events, for the other server processes; this table keeps them all, read with the moves
(`GET /api/tables/{id}/moves`). No foreign key to game_tables, as for the chat: its check would share-lock the
row every move updates.

Revision ID: 0009_table_log
Revises: 0008_token_epoch
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0009_table_log"
down_revision = "0008_token_epoch"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_log",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("version", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("events", sa.JSON().with_variant(postgresql.JSONB(), "postgresql"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_log")
