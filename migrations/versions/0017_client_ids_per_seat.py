"""A move's client id is its sender's: unique per table and seat, not per table.

With one id space per table, a second seat sending an id the first had used was answered with the first one's ack
and its move silently dropped. The id is now looked up, and kept unique, with the seat that sent it.

Revision ID: 0017_client_ids_per_seat
Revises: 0016_rate_counters
"""
from alembic import op

revision = "0017_client_ids_per_seat"
down_revision = "0016_rate_counters"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.drop_index("ix_moves_client")
        batch.create_index("ix_moves_client", ["table_id", "seat", "client_id"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.drop_index("ix_moves_client")
        batch.create_index("ix_moves_client", ["table_id", "client_id"], unique=True)
