"""Takeback requests: a running table's open request to take back moves (`game_tables.takeback`, JSON, null when none
is open) holds `{"by": seat, "seq": the first move to take back, "at": the move count it was asked at, "yes": [seat],
"since": version}`. Like the proposal to abandon, it rides on the table row every reader loads, and a say on it is a
lobby change. It counts only while the table's move count is still `at`: a move made meanwhile ends it without the
move path touching the column.

Revision ID: 0024_takeback
Revises: 0023_email
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0024_takeback"
down_revision = "0023_email"
branch_labels = None
depends_on = None


def upgrade() -> None:
    json_type = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("takeback", json_type, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("takeback")
