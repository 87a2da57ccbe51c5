"""`game_tables.chat_mode`: the host may close the table's chat to accounts or to the players.

Fresh guests cost one click each, so muting them one by one could not stop a flood of them; a host can now keep the
chat to registered people (and the players), or to the players alone.

Revision ID: 0020_chat_mode
Revises: 0019_invite_rounds
"""
import sqlalchemy as sa
from alembic import op

revision = "0020_chat_mode"
down_revision = "0019_invite_rounds"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("chat_mode", sa.String(16), nullable=False, server_default="everyone"))


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("chat_mode")
