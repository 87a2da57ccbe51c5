"""`game_tables.invite_round`: the host can withdraw an invite link.

An invite code was derived from the server secret and the table id alone, so a leaked link was good for the
table's life. The code is now derived with this round too (0: the code as before), and the host's change of link
bumps it: older codes no longer match `invite_hash`.

Revision ID: 0019_invite_rounds
Revises: 0018_seat_away_since
"""
import sqlalchemy as sa
from alembic import op

revision = "0019_invite_rounds"
down_revision = "0018_seat_away_since"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("invite_round", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("invite_round")
