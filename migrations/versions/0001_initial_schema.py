"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-30 07:52:59.081768
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('users',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('username', sa.String(length=40), nullable=True),
    sa.Column('password_hash', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('username')
    )
    op.create_table('game_tables',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('game', sa.String(length=40), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('host_id', sa.String(length=32), nullable=False),
    sa.Column('visibility', sa.String(length=10), nullable=False),
    sa.Column('invite_hash', sa.String(length=64), nullable=True),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('seat_count', sa.Integer(), nullable=False),
    sa.Column('options', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('seed_commitment', sa.String(length=64), nullable=False),
    sa.Column('state', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=True),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('move_count', sa.Integer(), nullable=False),
    sa.Column('awaiting', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('outcome', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['host_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('game_tables', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_game_tables_game'), ['game'], unique=False)
        batch_op.create_index(batch_op.f('ix_game_tables_status'), ['status'], unique=False)

    op.create_table('moves',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('seat', sa.String(length=4), nullable=False),
    sa.Column('client_id', sa.String(length=64), nullable=True),
    sa.Column('action', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('events', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['game_tables.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('table_id', 'seq')
    )
    with op.batch_alter_table('moves', schema=None) as batch_op:
        batch_op.create_index('ix_moves_client', ['table_id', 'client_id'], unique=True)

    op.create_table('seats',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('seat', sa.String(length=4), nullable=False),
    sa.Column('user_id', sa.String(length=32), nullable=True),
    sa.Column('bot', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['game_tables.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('table_id', 'seat')
    )
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seats_table_id'), ['table_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_seats_user_id'), ['user_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seats_user_id'))
        batch_op.drop_index(batch_op.f('ix_seats_table_id'))

    op.drop_table('seats')
    with op.batch_alter_table('moves', schema=None) as batch_op:
        batch_op.drop_index('ix_moves_client')

    op.drop_table('moves')
    with op.batch_alter_table('game_tables', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_tables_status'))
        batch_op.drop_index(batch_op.f('ix_game_tables_game'))

    op.drop_table('game_tables')
    op.drop_table('users')
