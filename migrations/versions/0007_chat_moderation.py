"""Table chat, moderated and limited across processes (services/chat.py).

- `chat_mutes`: the people a table's host muted in its chat, one row per (table, person); like
  `chat_messages`, no foreign key to game_tables (its check would share-lock the row every move updates).
- `chat_messages.removed_at`: a line the host removed is kept as a tombstone with its text emptied, so a
  retry of it under its client_id is not posted again, it still counts for its author's rate limit, and a
  process that missed the removal notice can send it again after a broker reconnect.
- `chat_messages.allowance` and ix_chat_messages_author (table, author, id): the author's rate-limit tokens
  left after each line, read back from their last line at the table in the transaction that stores the next,
  so the limit holds however many server processes the lines go through.

Revision ID: 0007_chat_moderation
Revises: 0006_abandon_vote
"""
import sqlalchemy as sa
from alembic import op

revision = "0007_chat_moderation"
down_revision = "0006_abandon_vote"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("chat_messages") as batch:
        batch.add_column(sa.Column("allowance", sa.Float(), nullable=True))
        batch.add_column(sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_chat_messages_author", ["table_id", "user_id", "id"], unique=False)
    op.create_table(
        "chat_mutes",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("muted_by", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("table_id", "user_id"),
    )


def downgrade() -> None:
    op.drop_table("chat_mutes")
    with op.batch_alter_table("chat_messages") as batch:
        batch.drop_index("ix_chat_messages_author")
        batch.drop_column("removed_at")
        batch.drop_column("allowance")
