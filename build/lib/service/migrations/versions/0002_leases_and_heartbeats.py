"""submission leases and worker heartbeats

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("submissions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("lease_token", sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column("lease_expires_at", sa.DateTime(), nullable=True))
    op.create_table(
        "worker_heartbeats",
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("seen_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    op.drop_table("worker_heartbeats")
    with op.batch_alter_table("submissions", schema=None) as batch_op:
        batch_op.drop_column("lease_expires_at")
        batch_op.drop_column("lease_token")
