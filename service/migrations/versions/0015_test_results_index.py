"""test_results indexed by submission: a submission's tests were found by reading every test row
ever stored (its page, its API answer, and the worker's storing of a verdict)

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Not unique: an index is what the reads need, and one that refused a duplicate left by an
    # older bug would stop the upgrade, and the service with it.
    op.create_index("ix_test_results_submission", "test_results", ["submission_id", "position"])


def downgrade() -> None:
    op.drop_index("ix_test_results_submission", "test_results")
