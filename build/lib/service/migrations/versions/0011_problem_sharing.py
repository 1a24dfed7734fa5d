"""problems.shareable: the owner's consent that other instructors copy a problem (its files,
hidden tests, reference and wrong solutions included); false for every authored problem until
its owner says otherwise, and ignored for shipped ones, which are public anyway

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("problems") as batch_op:
        batch_op.add_column(sa.Column("shareable", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("problems") as batch_op:
        batch_op.drop_column("shareable")
