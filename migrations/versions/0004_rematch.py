"""Rematch: a finished table points to the table its players opened to play again.

Revision ID: 0004
Revises: 0003
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("rematch_id", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("rematch_id")
