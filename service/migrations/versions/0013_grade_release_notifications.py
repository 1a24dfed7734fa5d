"""grade_release_notifications: an assignment may hold its grades until released; users are
notified (on the pages, and by e-mail to the address they give, unless they opt out)

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("assignments") as batch:
        batch.add_column(sa.Column("grades_held", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("released_at", sa.DateTime(), nullable=True))
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
        batch.add_column(sa.Column("email_notifications", sa.Boolean(), nullable=False,
                                   server_default=sa.true()))
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("text", sa.String(300), nullable=False),
        sa.Column("link", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("read_at", sa.DateTime(), nullable=True),
        sa.Column("email_state", sa.String(10), nullable=False),
        sa.Column("email_attempts", sa.Integer(), nullable=False),
        sa.Column("email_next_at", sa.DateTime(), nullable=True),
        sa.Column("email_error", sa.String(300), nullable=True),
    )
    op.create_index("ix_notifications_user_id", "notifications", ["user_id"])
    op.create_index("ix_notifications_email_state", "notifications", ["email_state"])


def downgrade() -> None:
    op.drop_index("ix_notifications_email_state", table_name="notifications")
    op.drop_index("ix_notifications_user_id", table_name="notifications")
    op.drop_table("notifications")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("email_notifications")
        batch.drop_column("email")
    with op.batch_alter_table("assignments") as batch:
        batch.drop_column("released_at")
        batch.drop_column("grades_held")
