"""`seats.away_since`: since when a person a bot stands in for has been away.

A bot standing in took the seat's say on abandoning the game at once, so a host could hand a player's seat to a
bot and end the game as abandoned without that player ever voting. The player now keeps their say until they have
been away for the stand-in wait, counted from here. Seats stood in for before this keep none, as before.

Revision ID: 0018_seat_away_since
Revises: 0017_client_ids_per_seat
"""
import sqlalchemy as sa
from alembic import op

revision = "0018_seat_away_since"
down_revision = "0017_client_ids_per_seat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("away_since", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("away_since")
