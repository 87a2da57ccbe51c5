"""Lean move writes: moves keyed by (table_id, seq) without id or foreign key; HOT-friendly game_tables.

Every move updates its game_tables row and inserts a moves row (services/writer.py), so both are cut to
what that write needs:

- moves: the bigserial `id` (a sequence and an index maintained per move, read by nothing) goes and the
  unique (table_id, seq) becomes the primary key; the foreign key to game_tables goes (its check looked up
  and row-locked the parent of every inserted move, a parent the same transaction has just updated).
- Postgres only: game_tables keeps room in each page for new row versions and stores the state snapshot
  out of line (toast_tuple_target), so a move's update is a heap-only (HOT) update of a small row: no new
  index entries, no relation growth, little WAL. The JSON documents are compressed with lz4 (PG >= 14 built
  with it) instead of pglz, which is cheaper to compress.

Revision ID: 0003
Revises: 0002
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

# game_tables' storage (Postgres): the per-move update rewrites a row of ~200 bytes once the snapshot is
# out of line; 10% of each page free is room for several new versions until the page is pruned.
GAME_TABLES_FILLFACTOR = 90
TOAST_TUPLE_TARGET = 128  # the minimum: anything compressible or large leaves the row
COMPRESSED = {"game_tables": ("state",), "moves": ("action", "events")}

# Names that SQLite's reflection gives the unnamed constraints of 0001, so batch mode can drop them.
SQLITE_NAMES = {
    "fk": "fk_%(table_name)s_%(column_0_name)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
}


def _where_lz4(statement: str) -> str:
    """`statement`, run only on a server that has lz4 (PG >= 14 built with it). Decided by the server when the
    statement runs rather than by a query here, so `alembic upgrade head --sql` writes the same script."""
    return (
        "DO $$ BEGIN IF current_setting('server_version_num')::int >= 140000 AND EXISTS (SELECT 1 FROM pg_settings"
        " WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)) THEN"
        f" EXECUTE '{statement}'; END IF; END $$"
    )


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE moves DROP CONSTRAINT moves_table_id_fkey")
        op.execute("ALTER TABLE moves DROP COLUMN id")  # with it go moves_pkey and the moves_id_seq sequence
        op.execute("ALTER TABLE moves ADD CONSTRAINT moves_pkey PRIMARY KEY (table_id, seq)")
        op.execute("ALTER TABLE moves DROP CONSTRAINT moves_table_id_seq_key")
        op.execute(
            f"ALTER TABLE game_tables SET (fillfactor = {GAME_TABLES_FILLFACTOR},"
            f" toast_tuple_target = {TOAST_TUPLE_TARGET})"
        )
        for table, columns in COMPRESSED.items():
            alters = ", ".join(f"ALTER COLUMN {c} SET COMPRESSION lz4" for c in columns)
            op.execute(_where_lz4(f"ALTER TABLE {table} {alters}"))
        return
    with op.batch_alter_table("moves", recreate="always", naming_convention=SQLITE_NAMES) as batch:
        batch.drop_constraint("fk_moves_table_id", type_="foreignkey")
        batch.drop_constraint("uq_moves_table_id", type_="unique")
        batch.drop_column("id")
        batch.create_primary_key("moves_pkey", ["table_id", "seq"])


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table, columns in COMPRESSED.items():
            alters = ", ".join(f"ALTER COLUMN {c} SET COMPRESSION pglz" for c in columns)
            op.execute(_where_lz4(f"ALTER TABLE {table} {alters}"))
        op.execute("ALTER TABLE game_tables RESET (fillfactor, toast_tuple_target)")
        op.execute("ALTER TABLE moves ADD CONSTRAINT moves_table_id_seq_key UNIQUE (table_id, seq)")
        op.execute("ALTER TABLE moves DROP CONSTRAINT moves_pkey")
        op.execute("ALTER TABLE moves ADD COLUMN id BIGSERIAL PRIMARY KEY")
        op.execute(
            "ALTER TABLE moves ADD CONSTRAINT moves_table_id_fkey FOREIGN KEY (table_id)"
            " REFERENCES game_tables (id) ON DELETE CASCADE"
        )
        return
    with op.batch_alter_table("moves", recreate="always") as batch:
        batch.drop_constraint("moves_pkey", type_="primary")
        batch.add_column(sa.Column("id", sa.Integer(), nullable=True))
    op.execute("UPDATE moves SET id = rowid")
    with op.batch_alter_table("moves", recreate="always") as batch:
        batch.alter_column("id", existing_type=sa.Integer(), nullable=False)
        batch.create_primary_key("moves_pkey", ["id"])
        batch.create_unique_constraint("uq_moves_table_id", ["table_id", "seq"])  # the names 0003 drops
        batch.create_foreign_key("fk_moves_table_id", "game_tables", ["table_id"], ["id"], ondelete="CASCADE")
