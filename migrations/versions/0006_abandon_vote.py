"""Abandon by agreement: a running table's open proposal to abandon, and the mark of a game abandoned so.

`abandon_vote` (JSON, null when none is open) holds `{"by": seat, "yes": [seat], "since": version}`; it rides on
the table row, which every reader loads anyway, so a vote costs no extra read and bumps the table's version like
any other lobby change. `abandoned` marks a finished game its players agreed to end (it has no outcome).
`lobby_events` keeps the events of the last lobby change (`{"version", "events"}`), so a process that did not make
it can still tell its sockets what happened ("Ana proposed to abandon"), as the moves' events tell of a move.

Revision ID: 0006_abandon_vote
Revises: 0005
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0006_abandon_vote"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    json_type = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("abandon_vote", json_type, nullable=True))
        batch.add_column(sa.Column("abandoned", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("lobby_events", json_type, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("lobby_events")
        batch.drop_column("abandoned")
        batch.drop_column("abandon_vote")
