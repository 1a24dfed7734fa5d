"""rejudge_items: each submission a rejudge put back in the queue with the verdict it had, so
that the rejudge can say which verdicts it changed

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rejudge_items",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("rejudge_id", sa.Integer(), nullable=False),
        sa.Column("submission_id", sa.Integer(), nullable=False),
        sa.Column("verdict_before", sa.String(length=30), nullable=True),
        sa.ForeignKeyConstraint(["rejudge_id"], ["rejudges.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["submission_id"], ["submissions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_rejudge_items_rejudge_id", "rejudge_items", ["rejudge_id"])


def downgrade() -> None:
    op.drop_index("ix_rejudge_items_rejudge_id", table_name="rejudge_items")
    op.drop_table("rejudge_items")
