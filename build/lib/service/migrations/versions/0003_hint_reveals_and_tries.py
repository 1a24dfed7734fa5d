"""hint reveals, and the arguments of a try

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("submissions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("arguments", sa.JSON(), nullable=True))
    op.create_table(
        "hint_reveals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("problem_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("revealed_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["problem_id"], ["problems.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("user_id", "problem_id", "position"),
    )
    op.create_index("ix_hint_reveals_problem", "hint_reveals", ["problem_id"])


def downgrade() -> None:
    op.drop_index("ix_hint_reveals_problem", table_name="hint_reveals")
    op.drop_table("hint_reveals")
    with op.batch_alter_table("submissions", schema=None) as batch_op:
        batch_op.drop_column("arguments")
