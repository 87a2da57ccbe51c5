"""Bot levels: `seats.bot_level` is how strongly the bot the host put in a seat plays (easy, normal, hard).

Null where no bot was put in the seat, and for a bot standing in for an away player, which plays at the normal
level; existing bots keep playing as they did, at the normal level.

Revision ID: 0021_bot_levels
Revises: 0020_chat_mode
"""
import sqlalchemy as sa
from alembic import op

revision = "0021_bot_levels"
down_revision = "0020_chat_mode"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("bot_level", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("bot_level")
