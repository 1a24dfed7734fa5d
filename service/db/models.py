"""Database models. One row per user, token, problem, problem version, submission, test result."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, ClassVar

from sqlalchemy import JSON, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from service.roles import Role as Role  # re-exported: the rest of the service names it here


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class SubmissionStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"


class VersionStatus(StrEnum):
    DRAFT = "draft"  # stored, validation queued or running
    VALID = "valid"  # validation passed: may be published
    INVALID = "invalid"  # validation failed: cannot be published


class LatePolicy(StrEnum):
    ACCEPT = "accept"  # judged as usual and marked late
    REFUSE = "refuse"  # refused once the assignment is due


class PenaltyUnit(StrEnum):
    HOUR = "hour"
    DAY = "day"


class CourseRole(StrEnum):
    INSTRUCTOR = "instructor"
    LEARNER = "learner"


class User(Base):
    __tablename__ = "users"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    role: Mapped[str] = mapped_column(String(20))
    # An argon2 hash; None for a user who signs in with API tokens only (e.g. made by the CLI).
    password_hash: Mapped[str | None] = mapped_column(String(200), default=None)
    # The key that signs this user's webhooks (service.webhooks.signing): kept as it is,
    # since signing needs it; made at first use, replaced on rotation.
    webhook_secret: Mapped[str | None] = mapped_column(String(64), default=None)
    # Where notifications are e-mailed (service.notification_mail), when the user gave one and
    # has not opted out; None: notifications stay on the pages.
    email: Mapped[str | None] = mapped_column(String(254), default=None)
    email_notifications: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ApiToken(Base):
    __tablename__ = "api_tokens"
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)  # sha256, never the token
    label: Mapped[str | None] = mapped_column(String(100), default=None)  # the user's own name for it
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(default=None)
    user: Mapped[User] = relationship()


class WebSession(Base):
    """A signed-in browser: the cookie holds a random secret whose SHA-256 is stored here, and
    the CSRF token that state-changing requests made with the cookie must echo in a header."""

    __tablename__ = "web_sessions"
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]
    user: Mapped[User] = relationship()


class SignInFailure(Base):
    """One sign-in attempt, by the name tried and the client's address: the rate limit counts
    them. Written before the password is checked (``pending``) and deleted when it proves right,
    so a row is a failure, or an attempt still being checked (service.sign_in_limits)."""

    __tablename__ = "sign_in_failures"
    __table_args__ = (Index("ix_sign_in_failures_name", "name", "failed_at"),
                      Index("ix_sign_in_failures_address", "address", "failed_at"),
                      Index("ix_sign_in_failures_failed_at", "failed_at"))
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    address: Mapped[str] = mapped_column(String(64))
    failed_at: Mapped[datetime] = mapped_column(default=utcnow)
    # True while its password is being checked: a success elsewhere forgets only settled failures.
    pending: Mapped[bool] = mapped_column(default=False)


class SignInKey(Base):
    """A name or an address the rate limit counts (``name:...``, ``address:...``): a sign-in
    locks its two rows while it counts and writes its attempt, so attempts for one key are
    counted one at a time, never side by side."""

    __tablename__ = "sign_in_keys"
    __table_args__ = (Index("ix_sign_in_keys_used_at", "used_at"),)
    key: Mapped[str] = mapped_column(String(120), primary_key=True)
    used_at: Mapped[datetime]


class Course(Base):
    __tablename__ = "courses"
    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    # The secret of the course's join link (/join/<code>); replaced to invalidate a leaked link.
    join_code: Mapped[str] = mapped_column(String(64), unique=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    members: Mapped[list[CourseMember]] = relationship(back_populates="course", cascade="all, delete-orphan")
    invitations: Mapped[list[CourseInvitation]] = relationship(
        back_populates="course", cascade="all, delete-orphan", order_by="CourseInvitation.id")
    assignments: Mapped[list[Assignment]] = relationship(
        back_populates="course", cascade="all, delete-orphan", order_by="Assignment.due_at")


class CourseMember(Base):
    __tablename__ = "course_members"
    __table_args__ = (UniqueConstraint("course_id", "user_id"), Index("ix_course_members_user", "user_id"))
    id: Mapped[int] = mapped_column(primary_key=True)
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    role: Mapped[str] = mapped_column(String(20))  # a CourseRole
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)
    course: Mapped[Course] = relationship(back_populates="members")
    user: Mapped[User] = relationship()


class CourseInvitation(Base):
    """An instructor's offer of a place in a course to a user named by them: the user becomes a
    member only by accepting it (membership is consent: it lets the course's instructors read what
    they send for its assignments)."""

    __tablename__ = "course_invitations"
    __table_args__ = (UniqueConstraint("course_id", "user_id"),
                      Index("ix_course_invitations_user", "user_id"))
    id: Mapped[int] = mapped_column(primary_key=True)
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    role: Mapped[str] = mapped_column(String(20))  # a CourseRole
    invited_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    course: Mapped[Course] = relationship(back_populates="invitations")
    user: Mapped[User] = relationship(foreign_keys=[user_id])
    inviter: Mapped[User | None] = relationship(foreign_keys=[invited_by])


class Assignment(Base):
    """A set of problems a course's learners solve between opens_at and due_at."""

    __tablename__ = "assignments"
    id: Mapped[int] = mapped_column(primary_key=True)
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id", ondelete="CASCADE"), index=True)
    title: Mapped[str] = mapped_column(String(200))
    opens_at: Mapped[datetime]
    due_at: Mapped[datetime]
    late_policy: Mapped[str] = mapped_column(String(10), default=LatePolicy.ACCEPT)
    # Late work (policy accept): taken until late_until (None: no limit), and its score loses
    # penalty_percent per started penalty_unit past the due time, down to penalty_floor percent.
    late_until: Mapped[datetime | None] = mapped_column(default=None)
    penalty_percent: Mapped[float] = mapped_column(default=0.0)
    penalty_unit: Mapped[str] = mapped_column(String(10), default=PenaltyUnit.DAY)
    penalty_floor: Mapped[float] = mapped_column(default=0.0)
    # Scores and feedback held back from its learners until an instructor releases them
    # (service.grade_release); released_at: when they last were.
    grades_held: Mapped[bool] = mapped_column(default=False)
    released_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    course: Mapped[Course] = relationship(back_populates="assignments")
    problems: Mapped[list[AssignmentProblem]] = relationship(
        cascade="all, delete-orphan", order_by="AssignmentProblem.position")
    extensions: Mapped[list[Extension]] = relationship(
        cascade="all, delete-orphan", order_by="Extension.id")


class Extension(Base):
    """One learner's own due time (and last accepted time) for an assignment, with the reason."""

    __tablename__ = "assignment_extensions"
    __table_args__ = (UniqueConstraint("assignment_id", "user_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    assignment_id: Mapped[int] = mapped_column(ForeignKey("assignments.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    due_at: Mapped[datetime]
    late_until: Mapped[datetime | None] = mapped_column(default=None)
    reason: Mapped[str] = mapped_column(String(500))
    granted_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    granted_at: Mapped[datetime] = mapped_column(default=utcnow)
    user: Mapped[User] = relationship(foreign_keys=[user_id])
    granter: Mapped[User | None] = relationship(foreign_keys=[granted_by])


class AssignmentProblem(Base):
    __tablename__ = "assignment_problems"
    __table_args__ = (UniqueConstraint("assignment_id", "problem_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    assignment_id: Mapped[int] = mapped_column(ForeignKey("assignments.id", ondelete="CASCADE"))
    problem_id: Mapped[int] = mapped_column(ForeignKey("problems.id", ondelete="CASCADE"))
    position: Mapped[int]
    problem: Mapped[ProblemRow] = relationship()


class Rejudge(Base):
    """One rejudge of a problem against a version: its progress is that version's submissions."""

    __tablename__ = "rejudges"
    id: Mapped[int] = mapped_column(primary_key=True)
    problem_id: Mapped[int] = mapped_column(ForeignKey("problems.id", ondelete="CASCADE"), index=True)
    version_id: Mapped[int] = mapped_column(ForeignKey("problem_versions.id", ondelete="CASCADE"))
    requested_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    requested_at: Mapped[datetime] = mapped_column(default=utcnow)
    total: Mapped[int]


class RejudgeItem(Base):
    """One submission a rejudge put back in the queue, with the verdict it had before (None:
    it had none yet), so the rejudge can say which verdicts it changed."""

    __tablename__ = "rejudge_items"
    id: Mapped[int] = mapped_column(primary_key=True)
    rejudge_id: Mapped[int] = mapped_column(ForeignKey("rejudges.id", ondelete="CASCADE"), index=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id", ondelete="CASCADE"))
    verdict_before: Mapped[str | None] = mapped_column(String(30))


class ProblemRow(Base):
    __tablename__ = "problems"
    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(64), unique=True)
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    published_version_id: Mapped[int | None] = mapped_column(
        ForeignKey("problem_versions.id", use_alter=True, name="fk_problem_published_version")
    )
    # The owner lets other instructors copy it, hidden tests and all (service.sharing);
    # a shipped problem (no owner) is shareable whatever this says.
    shareable: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    published_version: Mapped[ProblemVersion | None] = relationship(
        foreign_keys=[published_version_id], post_update=True
    )


class ProblemVersion(Base):
    """A complete problem folder (hidden tests included) as a mapping of path to text."""

    __tablename__ = "problem_versions"
    __table_args__ = (UniqueConstraint("problem_id", "version"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    problem_id: Mapped[int] = mapped_column(ForeignKey("problems.id", ondelete="CASCADE"))
    version: Mapped[str] = mapped_column(String(32))
    files: Mapped[dict[str, Any]]
    status: Mapped[str] = mapped_column(String(20), default=VersionStatus.DRAFT)
    validation: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    problem: Mapped[ProblemRow] = relationship(foreign_keys=[problem_id])


class Submission(Base):
    __tablename__ = "submissions"
    __table_args__ = (
        UniqueConstraint("user_id", "idempotency_key"),
        Index("ix_submissions_status", "status"),
        Index("ix_submissions_problem", "problem_id"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    problem_id: Mapped[int] = mapped_column(ForeignKey("problems.id"))
    version_id: Mapped[int] = mapped_column(ForeignKey("problem_versions.id"))
    mode: Mapped[str] = mapped_column(String(10))
    code: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(10), default=SubmissionStatus.QUEUED)
    verdict: Mapped[str | None] = mapped_column(String(30))
    score: Mapped[float | None]
    message: Mapped[str | None] = mapped_column(Text)
    attempts: Mapped[int] = mapped_column(default=0)
    # A try's arguments as the learner sent them (JSON, one per parameter); None for the other modes.
    arguments: Mapped[list[Any] | None] = mapped_column(JSON, default=None)
    # Sent for an assignment (it counts in that assignment's gradebook), and whether after its due time.
    assignment_id: Mapped[int | None] = mapped_column(
        ForeignKey("assignments.id", ondelete="SET NULL"), default=None, index=True)
    # Derived from the assignment's rules and the learner's extension, and derived again whenever
    # they change (service.lateness): past the learner's due time, and the percent of its
    # score that lateness costs. An instructor may excuse it: no penalty, not counted late.
    late: Mapped[bool] = mapped_column(default=False)
    penalty: Mapped[float] = mapped_column(default=0.0)
    excused: Mapped[bool] = mapped_column(default=False)
    # A score a course instructor set by hand (service.feedback), which the gradebook counts
    # instead of the judged one, late penalty and all; None: the judged score counts.
    score_override: Mapped[float | None] = mapped_column(default=None)
    idempotency_key: Mapped[str | None] = mapped_column(String(200))
    request_hash: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    enqueued_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    # The claim of the one worker judging it: renewed while it judges, taken over only once expired.
    lease_token: Mapped[str | None] = mapped_column(String(32))
    lease_expires_at: Mapped[datetime | None]
    # Where the verdict is posted once it is committed (service.webhooks), and the batch
    # whose ``batch.done`` waits for it.
    callback_url: Mapped[str | None] = mapped_column(String(2048), default=None)
    webhook_batch_id: Mapped[int | None] = mapped_column(
        ForeignKey("webhook_batches.id", ondelete="SET NULL"), default=None, index=True)
    user: Mapped[User] = relationship()
    problem: Mapped[ProblemRow] = relationship()
    version: Mapped[ProblemVersion] = relationship()
    assignment: Mapped[Assignment | None] = relationship()  # its course's instructors may read it
    results: Mapped[list[TestResultRow]] = relationship(
        order_by="TestResultRow.position", cascade="all, delete-orphan"
    )
    comments: Mapped[list[Comment]] = relationship(
        order_by="Comment.id", cascade="all, delete-orphan", back_populates="submission")
    score_changes: Mapped[list[ScoreChange]] = relationship(
        order_by="ScoreChange.id", cascade="all, delete-orphan")
    regrade_requests: Mapped[list[RegradeRequest]] = relationship(
        order_by="RegradeRequest.id", cascade="all, delete-orphan")


class Comment(Base):
    """A course instructor's comment on a handed-in submission: on one line of its code, or on
    the whole of it (line None). Markdown; the learner's page shows it rendered."""

    __tablename__ = "submission_comments"
    id: Mapped[int] = mapped_column(primary_key=True)
    submission_id: Mapped[int] = mapped_column(
        ForeignKey("submissions.id", ondelete="CASCADE"), index=True)
    author_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    line: Mapped[int | None] = mapped_column(default=None)
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # When the submission's learner first saw it: until then their list marks it as new.
    read_at: Mapped[datetime | None] = mapped_column(default=None)
    author: Mapped[User | None] = relationship()
    submission: Mapped[Submission] = relationship(back_populates="comments")


class RegradeOutcome(StrEnum):
    OPEN = "open"  # waiting for an instructor's answer
    CHANGED = "changed"  # answered, with a new score set by hand
    KEPT = "kept"  # answered, the score as it was


class RegradeRequest(Base):
    """A learner's request that a handed-in submission's score be looked at again, with their
    reason, and a course instructor's answer: the score changed (a ScoreChange beside it) or kept."""

    __tablename__ = "regrade_requests"
    id: Mapped[int] = mapped_column(primary_key=True)
    submission_id: Mapped[int] = mapped_column(
        ForeignKey("submissions.id", ondelete="CASCADE"), index=True)
    requested_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    reason: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    outcome: Mapped[str] = mapped_column(String(16), default=RegradeOutcome.OPEN.value)
    answer: Mapped[str | None] = mapped_column(Text, default=None)
    answered_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"),
                                                    default=None)
    answered_at: Mapped[datetime | None] = mapped_column(default=None)
    requester: Mapped[User | None] = relationship(foreign_keys=[requested_by])
    answerer: Mapped[User | None] = relationship(foreign_keys=[answered_by])


class ScoreChange(Base):
    """One hand change of a submission's score, kept for good: who, when, from what (the score
    that counted) to what (None: the judged score again), and why."""

    __tablename__ = "score_changes"
    id: Mapped[int] = mapped_column(primary_key=True)
    submission_id: Mapped[int] = mapped_column(
        ForeignKey("submissions.id", ondelete="CASCADE"), index=True)
    changed_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    changed_at: Mapped[datetime] = mapped_column(default=utcnow)
    previous: Mapped[float | None]
    score: Mapped[float | None]
    reason: Mapped[str] = mapped_column(String(500))
    changer: Mapped[User | None] = relationship()


class NotificationKind(StrEnum):
    FEEDBACK = "feedback"  # an instructor commented on, or set the score of, a submission
    REGRADE_ANSWER = "regrade_answer"  # an instructor answered a regrade request
    GRADES_RELEASED = "grades_released"  # an assignment's held grades were released


class EmailState(StrEnum):
    NONE = "none"  # not to be e-mailed: no address, opted out, or no SMTP server configured
    PENDING = "pending"
    SENT = "sent"
    FAILED = "failed"  # given up after its attempts
    CAPPED = "capped"  # not sent: the user had been sent the most e-mails an hour allows


class Notification(Base):
    """Something a user is told: shown on the pages until read, and e-mailed where configured."""

    __tablename__ = "notifications"
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(20))  # a NotificationKind
    text: Mapped[str] = mapped_column(String(300))
    link: Mapped[str] = mapped_column(String(200))  # a page path: where to look
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    read_at: Mapped[datetime | None] = mapped_column(default=None)
    email_state: Mapped[str] = mapped_column(String(10), default=EmailState.NONE.value, index=True)
    email_attempts: Mapped[int] = mapped_column(default=0)
    # Pending: when its next attempt is due (a lease while one is under way); sent: when it was.
    email_next_at: Mapped[datetime | None] = mapped_column(default=None)
    email_error: Mapped[str | None] = mapped_column(String(300), default=None)


class TestResultRow(Base):
    """One test of one judged submission: the TestResult's JSON, hidden fields included."""

    __tablename__ = "test_results"
    __table_args__ = (Index("ix_test_results_submission", "submission_id", "position"),)
    __test__ = False  # not a pytest test class
    id: Mapped[int] = mapped_column(primary_key=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id", ondelete="CASCADE"))
    position: Mapped[int]
    name: Mapped[str] = mapped_column(String(200))
    visibility: Mapped[str] = mapped_column(String(10))
    status: Mapped[str] = mapped_column(String(30))
    data: Mapped[dict[str, Any]]


class HintReveal(Base):
    """One hint of a problem shown to one user (position 1 is the first hint), and when."""

    __tablename__ = "hint_reveals"
    __table_args__ = (
        UniqueConstraint("user_id", "problem_id", "position"),
        Index("ix_hint_reveals_problem", "problem_id"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    problem_id: Mapped[int] = mapped_column(ForeignKey("problems.id", ondelete="CASCADE"))
    position: Mapped[int]
    revealed_at: Mapped[datetime] = mapped_column(default=utcnow)
    user: Mapped[User] = relationship()


class WorkerHeartbeat(Base):
    """When each worker last said it was alive: readiness needs one that spoke recently."""

    __tablename__ = "worker_heartbeats"
    name: Mapped[str] = mapped_column(String(200), primary_key=True)
    seen_at: Mapped[datetime] = mapped_column(default=utcnow)


class WebhookBatch(Base):
    """Submissions sent together with one callback URL: ``batch.done`` is posted once every one
    of them is done, after the batch is sealed (all its submissions are stored)."""

    __tablename__ = "webhook_batches"
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    callback_url: Mapped[str] = mapped_column(String(2048))
    sealed: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    done_at: Mapped[datetime | None] = mapped_column(default=None)


class WebhookDelivery(Base):
    """One event to post (the outbox): written in the transaction that commits the verdict, then
    posted by the webhook worker until the receiver answers 2xx or a day has passed. ``body`` is
    fixed when the row is written, so every attempt signs and sends the same bytes."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (Index("ix_webhook_deliveries_due", "state", "next_attempt_at"),
                      Index("ix_webhook_deliveries_user", "user_id", "state"))
    id: Mapped[int] = mapped_column(primary_key=True)
    delivery_id: Mapped[str] = mapped_column(String(32), unique=True)  # the Judge-Delivery header
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    submission_id: Mapped[int | None] = mapped_column(
        ForeignKey("submissions.id", ondelete="CASCADE"), default=None, index=True)
    batch_id: Mapped[int | None] = mapped_column(
        ForeignKey("webhook_batches.id", ondelete="CASCADE"), default=None, index=True)
    event: Mapped[str] = mapped_column(String(30))  # a WebhookEvent
    url: Mapped[str] = mapped_column(String(2048))
    body: Mapped[str] = mapped_column(Text)
    state: Mapped[str] = mapped_column(String(10), default="pending")  # a DeliveryState
    attempts: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    next_attempt_at: Mapped[datetime] = mapped_column(default=utcnow)
    # When its message was last sent: the sweep sends another only once this is old (lost).
    sent_at: Mapped[datetime | None] = mapped_column(default=None)
    # The claim of the one worker posting it now, so that two messages never post it twice at once.
    lease_until: Mapped[datetime | None] = mapped_column(default=None)
    finished_at: Mapped[datetime | None] = mapped_column(default=None)
    attempt_log: Mapped[list[WebhookAttempt]] = relationship(
        order_by="WebhookAttempt.id", cascade="all, delete-orphan")


class WebhookAttempt(Base):
    """One POST of a delivery: the receiver's status, or why there was none."""

    __tablename__ = "webhook_attempts"
    id: Mapped[int] = mapped_column(primary_key=True)
    delivery_id: Mapped[int] = mapped_column(ForeignKey("webhook_deliveries.id", ondelete="CASCADE"),
                                             index=True)
    attempted_at: Mapped[datetime] = mapped_column(default=utcnow)
    duration_ms: Mapped[int]
    status_code: Mapped[int | None] = mapped_column(default=None)
    error: Mapped[str | None] = mapped_column(String(300), default=None)
    # The start of the receiver's answer, cut short: enough to debug, never a store of its data.
    response_snippet: Mapped[str | None] = mapped_column(String(300), default=None)


# LTI 1.3 (service.lti): platforms (LMSs) that launch the judge, the judge's own keys, and what
# their launches made: users, courses, resource links, and the grades sent back.


class LtiPlatform(Base):
    """An LMS registered by an admin (or by LTI Dynamic Registration): where its launches come
    from and where the judge asks for tokens. ``jwks`` caches its public keys."""

    __tablename__ = "lti_platforms"
    __table_args__ = (UniqueConstraint("issuer", "client_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    issuer: Mapped[str] = mapped_column(String(500))
    client_id: Mapped[str] = mapped_column(String(255))
    deployment_ids: Mapped[list[Any]] = mapped_column(default=list)  # strings
    auth_login_url: Mapped[str] = mapped_column(String(1000))  # its OIDC authorization endpoint
    token_url: Mapped[str] = mapped_column(String(1000))
    jwks_url: Mapped[str] = mapped_column(String(1000))
    # The audience of the judge's token requests when it is not the token URL (some LMSs want one).
    token_audience: Mapped[str | None] = mapped_column(String(1000), default=None)
    jwks: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    jwks_fetched_at: Mapped[datetime | None] = mapped_column(default=None)
    registered_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"),
                                                      default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class LtiKey(Base):
    """One of the judge's own RSA keys (a private JWK): the oldest signs, the newer is published
    ahead of its turn, so a platform holding a cached key set never meets an unknown key."""

    __tablename__ = "lti_keys"
    id: Mapped[int] = mapped_column(primary_key=True)
    kid: Mapped[str] = mapped_column(String(64), unique=True)
    private_jwk: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class LtiLaunchState(Base):
    """A login in progress: its state (as a SHA-256) and nonce, used once by the launch that
    ends it; ``login`` keeps the login's parameters, to start it again in a new window."""

    __tablename__ = "lti_launch_states"
    id: Mapped[int] = mapped_column(primary_key=True)
    state_hash: Mapped[str] = mapped_column(String(64), unique=True)
    nonce: Mapped[str] = mapped_column(String(64))
    platform_id: Mapped[int] = mapped_column(ForeignKey("lti_platforms.id", ondelete="CASCADE"))
    login: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(index=True)


class LtiUser(Base):
    """An issuer's user (its ``sub``) and the judge user they are: never matched by name or
    e-mail. By issuer, not by registration: the same LMS registered again (or under a second
    client id) finds the same people."""

    __tablename__ = "lti_users"
    __table_args__ = (UniqueConstraint("issuer", "sub"), UniqueConstraint("issuer", "user_id"))
    id: Mapped[int] = mapped_column(primary_key=True)
    issuer: Mapped[str] = mapped_column(String(500))
    sub: Mapped[str] = mapped_column(String(255))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)


class LtiContext(Base):
    """A platform's course (context) and the judge course it is, with its services' URLs."""

    __tablename__ = "lti_contexts"
    __table_args__ = (UniqueConstraint("platform_id", "deployment_id", "context_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("lti_platforms.id", ondelete="CASCADE"))
    deployment_id: Mapped[str] = mapped_column(String(255))
    context_id: Mapped[str] = mapped_column(String(255))
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id", ondelete="CASCADE"), unique=True)
    memberships_url: Mapped[str | None] = mapped_column(String(1000), default=None)  # NRPS
    roster_pulled_at: Mapped[datetime | None] = mapped_column(default=None)
    platform: Mapped[LtiPlatform] = relationship()


class LtiLink(Base):
    """A resource link placed in a platform's course: what it opens (a problem, an assignment or
    a track) and the line item its grades go to."""

    __tablename__ = "lti_links"
    __table_args__ = (UniqueConstraint("context_id", "resource_link_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    context_id: Mapped[int] = mapped_column(ForeignKey("lti_contexts.id", ondelete="CASCADE"))
    resource_link_id: Mapped[str] = mapped_column(String(255))
    title: Mapped[str] = mapped_column(String(200), default="")
    problem_id: Mapped[int | None] = mapped_column(ForeignKey("problems.id", ondelete="CASCADE"),
                                                   default=None)
    assignment_id: Mapped[int | None] = mapped_column(ForeignKey("assignments.id", ondelete="CASCADE"),
                                                      default=None)
    track: Mapped[str | None] = mapped_column(String(100), default=None)
    lineitem_url: Mapped[str | None] = mapped_column(String(1000), default=None)
    context: Mapped[LtiContext] = relationship()


class LtiGradeSync(Base):
    """One learner's grade on one resource link, as last sent to the platform's line item: a row
    whose grade may have changed waits ``pending`` for the webhook worker (service.lti.grades)."""

    __tablename__ = "lti_grade_syncs"
    __table_args__ = (UniqueConstraint("link_id", "user_id"), Index("ix_lti_grade_syncs_due", "state",
                                                                   "next_attempt_at"))
    id: Mapped[int] = mapped_column(primary_key=True)
    link_id: Mapped[int] = mapped_column(ForeignKey("lti_links.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    # The link's target, kept here so that a verdict finds its rows without a join.
    problem_id: Mapped[int | None] = mapped_column(default=None)
    assignment_id: Mapped[int | None] = mapped_column(default=None)
    state: Mapped[str] = mapped_column(String(10), default="pending")  # a service.lti.grades.SyncState
    attempts: Mapped[int] = mapped_column(default=0)
    next_attempt_at: Mapped[datetime | None] = mapped_column(default=utcnow)
    lease_until: Mapped[datetime | None] = mapped_column(default=None)
    score_given: Mapped[float | None] = mapped_column(default=None)  # as last sent
    score_maximum: Mapped[float | None] = mapped_column(default=None)
    sent_at: Mapped[datetime | None] = mapped_column(default=None)
    error: Mapped[str | None] = mapped_column(String(300), default=None)
    link: Mapped[LtiLink] = relationship()
    user: Mapped[User] = relationship()


class LtiDeepLink(Base):
    """An instructor's deep-linking request waiting for their choice on the judge's page."""

    __tablename__ = "lti_deep_links"
    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    context_id: Mapped[int] = mapped_column(ForeignKey("lti_contexts.id", ondelete="CASCADE"))
    return_url: Mapped[str] = mapped_column(String(1000))
    data: Mapped[str | None] = mapped_column(String(2000), default=None)  # echoed back, opaque
    accept_multiple: Mapped[bool] = mapped_column(default=True)
    expires_at: Mapped[datetime] = mapped_column(index=True)
    context: Mapped[LtiContext] = relationship()
