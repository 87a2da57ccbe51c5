"""Table chat: one chat per table, for its players and spectators (services/chat.py).

`chat_messages` has no foreign key to game_tables (its check would share-lock the row every move updates);
the service inserts lines only for a table it has just read. The history is read newest first by table
(ix_chat_messages_table); a line re-sent under the same client_id is found by ix_chat_messages_client.

Revision ID: 0005
Revises: 0004
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("seat", sa.String(length=4), nullable=True),
        sa.Column("client_id", sa.String(length=64), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("chat_messages") as batch:
        batch.create_index("ix_chat_messages_table", ["table_id", "id"], unique=False)
        batch.create_index("ix_chat_messages_client", ["table_id", "user_id", "client_id"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("chat_messages") as batch:
        batch.drop_index("ix_chat_messages_client")
        batch.drop_index("ix_chat_messages_table")
    op.drop_table("chat_messages")
