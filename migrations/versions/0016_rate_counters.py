"""Rate limits every server process sees: `rate_counters`.

A per-process count of sign-in failures or new guests is bypassed by sending the next request to another process.
Deployments with Redis count there; the others count in this table (services/ratelimits.py), one row per limit and
client for the current window.

Revision ID: 0016_rate_counters
Revises: 0015_revoked_sessions
"""
import sqlalchemy as sa
from alembic import op

revision = "0016_rate_counters"
down_revision = "0015_revoked_sessions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_counters",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_rate_counters_expires_at", "rate_counters", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_rate_counters_expires_at", table_name="rate_counters")
    op.drop_table("rate_counters")
