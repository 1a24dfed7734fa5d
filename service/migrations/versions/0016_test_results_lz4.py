"""test_results' JSON compressed with lz4 on PostgreSQL: a verdict's rows (bleu_1gram's: 96 KB,
one argument of 34 KB) took 1.6 ms more to store with the default pglz, for 23% less space

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import text

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

# A server built without lz4 (or older than PostgreSQL 14) does not list it: it keeps pglz.
_LZ4_ON_THIS_SERVER = ("SELECT count(*) FROM pg_settings WHERE name = 'default_toast_compression'"
                       " AND 'lz4' = ANY(enumvals)")


def _set(method: str) -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql" and bind.scalar(text(_LZ4_ON_THIS_SERVER)):
        # Rows stored before keep their compression; only new values are written with lz4.
        op.execute(f"ALTER TABLE test_results ALTER COLUMN data SET COMPRESSION {method}")


def upgrade() -> None:
    _set("lz4")


def downgrade() -> None:
    _set("pglz")
