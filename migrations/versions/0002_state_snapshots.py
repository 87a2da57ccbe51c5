"""State snapshots: `state` holds the state after `state_seq` moves; later moves replay on load.

Revision ID: 0002
Revises: 0001
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("state_seq", sa.Integer(), nullable=False, server_default="0"))
    op.execute("UPDATE game_tables SET state_seq = move_count")


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("state_seq")
