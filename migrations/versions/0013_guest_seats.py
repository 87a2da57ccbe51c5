"""Guests are not rated: `seats.guest` marks a seat whose person played it as a guest (no account).

A guest seat is left out of ratings like a bot's own seat, and a game needs two registered people to be rated
(services/records.py). The flag is the seat's, set when the person sits down: a finished game keeps what its people
were when it was settled, and a guest who registers later changes only the seats of games not settled yet.

Existing seats are filled from what their people are now (`users.username` is null for a guest): whether someone
who has registered since was a guest when they played is not stored anywhere, and it no longer matters to a game
already settled.

Revision ID: 0013_guest_seats
Revises: 0012_leaderboard
"""
import sqlalchemy as sa
from alembic import op

revision = "0013_guest_seats"
down_revision = "0012_leaderboard"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("guest", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.execute(
        "UPDATE seats SET guest = true"
        " WHERE user_id IN (SELECT id FROM users WHERE username IS NULL)"
    )


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("guest")
