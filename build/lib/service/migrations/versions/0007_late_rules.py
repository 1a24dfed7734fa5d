"""late rules: a last accepted time and a late penalty per assignment, per-learner extensions,
and each submission's derived penalty and instructor excuse

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("assignments") as batch_op:
        batch_op.add_column(sa.Column("late_until", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("penalty_percent", sa.Double(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("penalty_unit", sa.String(length=10), nullable=False,
                                      server_default="day"))
        batch_op.add_column(sa.Column("penalty_floor", sa.Double(), nullable=False, server_default="0"))
    with op.batch_alter_table("submissions") as batch_op:
        batch_op.add_column(sa.Column("penalty", sa.Double(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("excused", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "assignment_extensions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("assignment_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("due_at", sa.DateTime(), nullable=False),
        sa.Column("late_until", sa.DateTime(), nullable=True),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("granted_by", sa.Integer(), nullable=True),
        sa.Column("granted_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["assignment_id"], ["assignments.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["granted_by"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("assignment_id", "user_id"),
    )


def downgrade() -> None:
    op.drop_table("assignment_extensions")
    with op.batch_alter_table("submissions") as batch_op:
        batch_op.drop_column("excused")
        batch_op.drop_column("penalty")
    with op.batch_alter_table("assignments") as batch_op:
        batch_op.drop_column("penalty_floor")
        batch_op.drop_column("penalty_unit")
        batch_op.drop_column("penalty_percent")
        batch_op.drop_column("late_until")
