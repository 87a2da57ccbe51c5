"""Operators' marks on a person: `users.is_admin` (made by `foodgames admin grant`) and `users.banned_at` (set by
`foodgames admin ban`, cleared by `unban`; a banned person's tokens are refused and they cannot sign in).

Revision ID: 0027_bans
Revises: 0026_move_drafts
"""
import sqlalchemy as sa
from alembic import op

revision = "0027_bans"
down_revision = "0026_move_drafts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("is_admin", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("banned_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("banned_at")
        batch.drop_column("is_admin")
