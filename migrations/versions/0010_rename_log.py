"""Account management: `rename_log`, one row per display-name change, for the rename limit.

The limit (5 changes in 10 minutes, services/account.py) was counted in each server process's memory, so with several
processes a person could rename that many times on each. It is now decided from these rows, in the transaction that
changes the name (the user row is locked, so two renames of one person cannot both pass the last place); rows older
than the window are deleted as the next rename of that person is stored.

Revision ID: 0010_rename_log
Revises: 0009_table_log
"""
import sqlalchemy as sa
from alembic import op

revision = "0010_rename_log"
down_revision = "0009_table_log"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rename_log",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rename_log_user", "rename_log", ["user_id", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_rename_log_user", table_name="rename_log")
    op.drop_table("rename_log")
