"""Account management: `users.token_epoch`, bumped when a person changes their password.

A session token is stateless (signed user id and issue time), so a password change could not otherwise sign out
the person's other sessions. A token now carries the epoch it was issued under (left out while it is 0, so every
token issued before this migration stays valid) and the user row that every authenticated request already reads
is checked against it: a token of an older epoch is refused with `session_revoked`.

Revision ID: 0008_token_epoch
Revises: 0007_chat_moderation
"""
import sqlalchemy as sa
from alembic import op

revision = "0008_token_epoch"
down_revision = "0007_chat_moderation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("token_epoch", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("token_epoch")
