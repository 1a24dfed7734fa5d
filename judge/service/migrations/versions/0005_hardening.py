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
    # -- sign-in attempt reservations --
    # -- stored results --
    pass


def downgrade() -> None:
    # The reverse of upgrade, sections in the reverse order.
    # -- stored results --
    # -- sign-in attempt reservations --
    # -- course invitations --
    pass
