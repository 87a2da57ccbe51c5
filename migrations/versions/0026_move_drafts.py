"""Secret steps as author-only drafts: `move_drafts`, and `moves.steps` (the drafts a move carried).

A step that reveals nothing to anyone but its author (a card put to work in Food Chain Magnate's restructuring, one
stacked in Food Truck's prep) is kept as a draft, outside the table's versions, so that no one else can count the
author's steps; the author's next other move carries the drafts in `moves.steps` (services/drafts.py).

Revision ID: 0026_move_drafts
Revises: 0025_glicko2
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0026_move_drafts"
down_revision = "0025_glicko2"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "move_drafts",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.String(4), primary_key=True),
        sa.Column("n", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("after_seq", sa.Integer(), nullable=False),
        sa.Column("client_id", sa.String(64), nullable=True),
        sa.Column("action", JSON, nullable=False),
        sa.Column("events", JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("moves") as batch:
        batch.add_column(sa.Column("steps", JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("steps")
    op.drop_table("move_drafts")
