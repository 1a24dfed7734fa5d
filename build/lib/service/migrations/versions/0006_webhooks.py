"""webhooks: a callback URL on submissions, batches, the delivery outbox and its attempts, and
each user's signing secret

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "webhook_batches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("callback_url", sa.String(length=2048), nullable=False),
        sa.Column("sealed", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("done_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_webhook_batches_user_id", "webhook_batches", ["user_id"])
    with op.batch_alter_table("users") as batch_op:
        batch_op.add_column(sa.Column("webhook_secret", sa.String(length=64), nullable=True))
    with op.batch_alter_table("submissions") as batch_op:
        batch_op.add_column(sa.Column("callback_url", sa.String(length=2048), nullable=True))
        batch_op.add_column(sa.Column("webhook_batch_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key("fk_submissions_webhook_batch", "webhook_batches",
                                    ["webhook_batch_id"], ["id"], ondelete="SET NULL")
        batch_op.create_index("ix_submissions_webhook_batch_id", ["webhook_batch_id"])
    op.create_table(
        "webhook_deliveries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("delivery_id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("submission_id", sa.Integer(), nullable=True),
        sa.Column("batch_id", sa.Integer(), nullable=True),
        sa.Column("event", sa.String(length=30), nullable=False),
        sa.Column("url", sa.String(length=2048), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(), nullable=False),
        sa.Column("sent_at", sa.DateTime(), nullable=True),
        sa.Column("lease_until", sa.DateTime(), nullable=True),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["submission_id"], ["submissions.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["batch_id"], ["webhook_batches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("delivery_id"),
    )
    op.create_index("ix_webhook_deliveries_due", "webhook_deliveries", ["state", "next_attempt_at"])
    op.create_index("ix_webhook_deliveries_user", "webhook_deliveries", ["user_id", "state"])
    op.create_index("ix_webhook_deliveries_submission_id", "webhook_deliveries", ["submission_id"])
    op.create_index("ix_webhook_deliveries_batch_id", "webhook_deliveries", ["batch_id"])
    op.create_table(
        "webhook_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("delivery_id", sa.Integer(), nullable=False),
        sa.Column("attempted_at", sa.DateTime(), nullable=False),
        sa.Column("duration_ms", sa.Integer(), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=True),
        sa.Column("error", sa.String(length=300), nullable=True),
        sa.Column("response_snippet", sa.String(length=300), nullable=True),
        sa.ForeignKeyConstraint(["delivery_id"], ["webhook_deliveries.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_webhook_attempts_delivery_id", "webhook_attempts", ["delivery_id"])


def downgrade() -> None:
    op.drop_index("ix_webhook_attempts_delivery_id", table_name="webhook_attempts")
    op.drop_table("webhook_attempts")
    for index in ("ix_webhook_deliveries_batch_id", "ix_webhook_deliveries_submission_id",
                  "ix_webhook_deliveries_user", "ix_webhook_deliveries_due"):
        op.drop_index(index, table_name="webhook_deliveries")
    op.drop_table("webhook_deliveries")
    with op.batch_alter_table("submissions") as batch_op:
        batch_op.drop_index("ix_submissions_webhook_batch_id")
        batch_op.drop_constraint("fk_submissions_webhook_batch", type_="foreignkey")
        batch_op.drop_column("webhook_batch_id")
        batch_op.drop_column("callback_url")
    with op.batch_alter_table("users") as batch_op:
        batch_op.drop_column("webhook_secret")
    op.drop_index("ix_webhook_batches_user_id", table_name="webhook_batches")
    op.drop_table("webhook_batches")
