"""Signing out revokes the session: `revoked_sessions`.

A token is signed and stateless, so without a record a token signed out of stayed good until it expired (30 days).
A token now carries a session id (`sid`); signing out stores it here, and the user row that every authenticated
request reads is read with a check of this table in the same statement. A row is needed only until the token would
have expired anyway (`expires_at`), and is deleted after.

Revision ID: 0015_revoked_sessions
Revises: 0014_hot_table_rows
"""
import sqlalchemy as sa
from alembic import op

revision = "0015_revoked_sessions"
down_revision = "0014_hot_table_rows"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "revoked_sessions",
        sa.Column("sid", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.String(32), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_revoked_sessions_expires_at", "revoked_sessions", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_revoked_sessions_expires_at", table_name="revoked_sessions")
    op.drop_table("revoked_sessions")
