"""lti: LTI 1.3 platforms, the judge's keys, launches in progress, and what launches made (users,
courses, resource links, grades sent back, deep-linking requests)

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def _id() -> sa.Column[int]:
    return sa.Column("id", sa.Integer(), primary_key=True)


def _fk(name: str, target: str, nullable: bool = False, ondelete: str = "CASCADE") -> sa.Column[int]:
    return sa.Column(name, sa.Integer(), sa.ForeignKey(target, ondelete=ondelete), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "lti_platforms", _id(),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("issuer", sa.String(500), nullable=False),
        sa.Column("client_id", sa.String(255), nullable=False),
        sa.Column("deployment_ids", sa.JSON(), nullable=False),
        sa.Column("auth_login_url", sa.String(1000), nullable=False),
        sa.Column("token_url", sa.String(1000), nullable=False),
        sa.Column("jwks_url", sa.String(1000), nullable=False),
        sa.Column("token_audience", sa.String(1000), nullable=True),
        sa.Column("jwks", sa.JSON(), nullable=True),
        sa.Column("jwks_fetched_at", sa.DateTime(), nullable=True),
        _fk("registered_by", "users.id", nullable=True, ondelete="SET NULL"),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("issuer", "client_id"),
    )
    op.create_table(
        "lti_keys", _id(),
        sa.Column("kid", sa.String(64), nullable=False, unique=True),
        sa.Column("private_jwk", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "lti_launch_states", _id(),
        sa.Column("state_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("nonce", sa.String(64), nullable=False),
        _fk("platform_id", "lti_platforms.id"),
        sa.Column("login", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_lti_launch_states_expires_at", "lti_launch_states", ["expires_at"])
    op.create_table(
        "lti_users", _id(),
        sa.Column("issuer", sa.String(500), nullable=False),
        sa.Column("sub", sa.String(255), nullable=False),
        _fk("user_id", "users.id"),
        sa.UniqueConstraint("issuer", "sub"),
        sa.UniqueConstraint("issuer", "user_id"),
    )
    op.create_index("ix_lti_users_user_id", "lti_users", ["user_id"])
    op.create_table(
        "lti_contexts", _id(),
        _fk("platform_id", "lti_platforms.id"),
        sa.Column("deployment_id", sa.String(255), nullable=False),
        sa.Column("context_id", sa.String(255), nullable=False),
        sa.Column("course_id", sa.Integer(), sa.ForeignKey("courses.id", ondelete="CASCADE"), nullable=False,
                  unique=True),
        sa.Column("memberships_url", sa.String(1000), nullable=True),
        sa.Column("roster_pulled_at", sa.DateTime(), nullable=True),
        sa.UniqueConstraint("platform_id", "deployment_id", "context_id"),
    )
    op.create_table(
        "lti_links", _id(),
        _fk("context_id", "lti_contexts.id"),
        sa.Column("resource_link_id", sa.String(255), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        _fk("problem_id", "problems.id", nullable=True),
        _fk("assignment_id", "assignments.id", nullable=True),
        sa.Column("track", sa.String(100), nullable=True),
        sa.Column("lineitem_url", sa.String(1000), nullable=True),
        sa.UniqueConstraint("context_id", "resource_link_id"),
    )
    op.create_table(
        "lti_grade_syncs", _id(),
        _fk("link_id", "lti_links.id"),
        _fk("user_id", "users.id"),
        sa.Column("problem_id", sa.Integer(), nullable=True),
        sa.Column("assignment_id", sa.Integer(), nullable=True),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(), nullable=True),
        sa.Column("lease_until", sa.DateTime(), nullable=True),
        sa.Column("score_given", sa.Double(), nullable=True),
        sa.Column("score_maximum", sa.Double(), nullable=True),
        sa.Column("sent_at", sa.DateTime(), nullable=True),
        sa.Column("error", sa.String(300), nullable=True),
        sa.UniqueConstraint("link_id", "user_id"),
    )
    op.create_index("ix_lti_grade_syncs_user_id", "lti_grade_syncs", ["user_id"])
    op.create_index("ix_lti_grade_syncs_due", "lti_grade_syncs", ["state", "next_attempt_at"])
    op.create_table(
        "lti_deep_links", _id(),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        _fk("user_id", "users.id"),
        _fk("context_id", "lti_contexts.id"),
        sa.Column("return_url", sa.String(1000), nullable=False),
        sa.Column("data", sa.String(2000), nullable=True),
        sa.Column("accept_multiple", sa.Boolean(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_lti_deep_links_expires_at", "lti_deep_links", ["expires_at"])


def downgrade() -> None:
    for table in ("lti_deep_links", "lti_grade_syncs", "lti_links", "lti_contexts", "lti_users",
                  "lti_launch_states", "lti_keys", "lti_platforms"):
        op.drop_table(table)
