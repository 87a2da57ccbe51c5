"""Accounts people can recover, and Web Push: the single-use password reset links mailed to a confirmed address
(`password_resets`: only a hash of each link's token, its account and when it stops working; services/recovery.py),
the browsers a person gets Web Push notifications on (`push_subscriptions`: the push service's endpoint and the
browser's keys, one row per endpoint; services/push.py), and the push notices made (`push_notices`, by the key that
names what each is about, so one is sent once however many processes see its change).

Revision ID: 0028_push
Revises: 0027_bans
"""
import sqlalchemy as sa
from alembic import op

revision = "0028_push"
down_revision = "0027_bans"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "password_resets",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_password_resets_user_id", "password_resets", ["user_id"])
    op.create_table(
        "push_subscriptions",
        sa.Column("endpoint", sa.String(1000), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_push_subscriptions_user_id", "push_subscriptions", ["user_id"])
    op.create_table(
        "push_notices",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_push_notices_created_at", "push_notices", ["created_at"])


def downgrade() -> None:
    op.drop_table("push_notices")
    op.drop_table("push_subscriptions")
    op.drop_table("password_resets")
