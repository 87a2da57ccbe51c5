"""Email notifications: a person's address (`users.email`, confirmed by a link: `email_verified`), which notices they
want (`users.notify`), and the outbox of mails to send (`email_outbox`, one row per notice by its `key`).

Revision ID: 0023_email
Revises: 0022_clocks
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0023_email"
down_revision = "0022_clocks"
branch_labels = None
depends_on = None

JSON_TYPE = sa.JSON().with_variant(JSONB(), "postgresql")
UNSENT = "sent_at IS NULL"


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
        batch.add_column(sa.Column("email_verified", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("notify", JSON_TYPE, nullable=True))
    op.create_table(
        "email_outbox",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(200), nullable=False, unique=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("unsubscribe", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("last_error", sa.Text(), nullable=True),
    )
    op.create_index("ix_email_outbox_user_id", "email_outbox", ["user_id"])
    op.create_index("ix_email_outbox_unsent", "email_outbox", ["id"],
                    postgresql_where=sa.text(UNSENT), sqlite_where=sa.text(UNSENT))


def downgrade() -> None:
    op.drop_table("email_outbox")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("notify")
        batch.drop_column("email_verified")
        batch.drop_column("email")
