"""hardening: course invitations, sign-in attempt reservations, results stored once and bounded

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

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
    op.create_table(
        "sign_in_keys",
        sa.Column("key", sa.String(length=120), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_index("ix_sign_in_keys_used_at", "sign_in_keys", ["used_at"])
    op.create_index("ix_sign_in_failures_failed_at", "sign_in_failures", ["failed_at"])
    with op.batch_alter_table("sign_in_failures") as batch_op:
        batch_op.add_column(sa.Column("pending", sa.Boolean(), nullable=False, server_default=sa.false()))
    # -- stored results --
    _store_results_once()


def downgrade() -> None:
    # The reverse of upgrade, sections in the reverse order.
    # -- stored results --
    _restore_actual_key()
    # -- sign-in attempt reservations --
    with op.batch_alter_table("sign_in_failures") as batch_op:
        batch_op.drop_column("pending")
    op.drop_index("ix_sign_in_failures_failed_at", table_name="sign_in_failures")
    op.drop_index("ix_sign_in_keys_used_at", table_name="sign_in_keys")
    op.drop_table("sign_in_keys")
    # -- course invitations --
    op.drop_index("ix_course_invitations_user", table_name="course_invitations")
    op.drop_table("course_invitations")


# -- stored results --
# A returned value was stored twice, in full: as JSON ("actual") and as text ("actual_repr").
# Existing rows are brought to judge.stored_values' rules: the JSON copy goes, the text is cut
# with its note, explanations are cut, and each submission's tests keep the learner's fields
# within the submission's budget (in run order, as newly judged ones do).
_RESULTS = sa.table("test_results", sa.column("id", sa.Integer), sa.column("submission_id", sa.Integer),
                    sa.column("position", sa.Integer), sa.column("data", sa.JSON))


def _bounded(data: dict[str, Any]) -> dict[str, Any]:
    from judge.stored_values import SHOWN_CHARS, Shown, cut

    data = {key: value for key, value in data.items() if key != "actual"}
    for field in ("actual", "expected") if data.get("visibility") == "custom" else ("actual",):
        text = data.get(f"{field}_repr")
        if isinstance(text, str):
            value = Shown(text[:SHOWN_CHARS], len(text), "")
            data[f"{field}_repr"], data[f"{field}_note"] = value.text, value.note
            if field == "expected" and value.note is not None:
                data["expected"] = None  # its text is cut: the JSON copy of a large value goes too
    data.setdefault("expected_note", None)
    if isinstance(data.get("explanation"), str):
        data["explanation"] = cut(data["explanation"])
    data.setdefault("budget_note", None)
    return data


def _store_results_once() -> None:
    from judge.stored_values import within_budget

    bind = op.get_bind()
    # One submission at a time: an old row may hold megabytes.
    submissions = bind.execute(sa.select(_RESULTS.c.submission_id).distinct()).scalars().all()
    for submission_id in submissions:
        tests = bind.execute(sa.select(_RESULTS.c.id, _RESULTS.c.data)
                             .where(_RESULTS.c.submission_id == submission_id)
                             .order_by(_RESULTS.c.position)).all()
        bounded = within_budget([_bounded(data or {}) for _, data in tests])
        for (row_id, old), new in zip(tests, bounded, strict=True):
            if new != old:
                bind.execute(_RESULTS.update().where(_RESULTS.c.id == row_id).values(data=new))


def _restore_actual_key() -> None:
    """The JSON copy cannot come back; the key does (as null), for code that reads it."""
    bind = op.get_bind()
    for row_id, data in bind.execute(sa.select(_RESULTS.c.id, _RESULTS.c.data)).all():
        if isinstance(data, dict) and "actual" not in data:
            bind.execute(_RESULTS.update().where(_RESULTS.c.id == row_id)
                         .values(data={**data, "actual": None}))
