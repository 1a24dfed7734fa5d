"""hardening: course invitations, sign-in attempt reservations, results stored once and bounded

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa  # noqa: F401  (used by the sections below as they are filled in)
from alembic import op  # noqa: F401

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Each part of the hardening keeps its own section, in this order.
    # -- course invitations --
    op.create_table(
        "course_invitations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("course_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("invited_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["course_id"], ["courses.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["invited_by"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("course_id", "user_id"),
    )
    op.create_index("ix_course_invitations_user", "course_invitations", ["user_id"])
    # -- sign-in attempt reservations --
    # -- stored results --
    pass


def downgrade() -> None:
    # The reverse of upgrade, sections in the reverse order.
    # -- stored results --
    # -- sign-in attempt reservations --
    # -- course invitations --
    op.drop_index("ix_course_invitations_user", table_name="course_invitations")
    op.drop_table("course_invitations")
