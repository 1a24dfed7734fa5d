"""Assignment and Grade Services: a learner's grade on an LTI resource link goes to the
platform's line item.

A row (``LtiGradeSync``) per learner and link says what was last sent; whatever may change a
grade marks the rows ``pending`` (``grade_marks``), and the webhook worker sends them: never does
a judging worker or the API call the platform.

Sending reads the grade afresh (so it is idempotent: the newest grade goes, however many
messages asked), claims the row under a lease (two messages never post it at once), takes a token
(``tokens``) and posts the score, stamped with the moment its grade was read, only if no change
took the lease meanwhile. A failure is tried again after each wait of
JUDGE_LTI_SCORE_BACKOFF_SECONDS, then given up with its error kept, for the instructor to see
and send again. The webhook worker's sweep sends what is due and what a lost message left.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import and_, or_, select, update
from sqlalchemy.orm import Session

from service.db.models import (
    Assignment,
    AssignmentProblem,
    LtiContext,
    LtiGradeSync,
    LtiLink,
    LtiPlatform,
    LtiUser,
    User,
    utcnow,
)
from service.errors import PlatformError
from service.lti import claims as c
from service.lti import remote, tokens
from service.lti.grade_marks import SyncState, enqueue, pending_values
from service.settings import get_settings

log = logging.getLogger(__name__)

LEASE = timedelta(seconds=90)  # longer than an attempt's calls together
# What became of an attempt whose row was made pending again while it ran (``_settle``).
SUPERSEDED = "superseded"
LOST_AFTER = timedelta(seconds=30)  # a first message not taken by then is taken as lost
SWEEP_BATCH = 200
SCORE_TYPE = "application/vnd.ims.lis.v1.score+json"


@dataclass(frozen=True)
class Grade:
    given: float
    maximum: float
    completed: bool  # everything accepted
    comment: str


def grade_of(session: Session, row: LtiGradeSync) -> Grade | SyncState:
    """What to send for ``row`` now: a Grade, or the state that says why nothing is sent."""
    from service.gradebook import best_on_problem, progress

    link = row.link
    if link.lineitem_url is None:
        return SyncState.NO_LINE_ITEM
    if link.assignment_id is not None:
        assignment = session.get(Assignment, link.assignment_id)
        if assignment is None:
            return SyncState.IDLE
        if assignment.grades_held:
            return SyncState.HELD
        cells = progress(session, row.user, [assignment]).get(assignment.id, [])
        if not any(cell.attempts for cell in cells):
            return SyncState.IDLE
        solved = sum(1 for cell in cells if cell.accepted)
        return Grade(sum(cell.best_score or 0.0 for cell in cells), float(max(1, len(cells))),
                     solved == len(cells), f"Solved {solved} of {len(cells)} on the judge")
    if link.problem_id is not None:
        best, accepted = best_on_problem(session, row.user_id, link.problem_id)
        if best is None:
            return SyncState.IDLE
        return Grade(float(best), 1.0, accepted,
                     f"Best score {best:.2f}{', accepted' if accepted else ''} on the judge")
    return SyncState.IDLE


def _claim(session: Session, sync_id: int, now: datetime) -> datetime | None:
    """The row's lease, taken; None when it is not pending or another sender holds it. The
    lease's time names this claim: ``_settle`` writes only while the row still holds it."""
    lease = now + LEASE
    claimed = session.execute(update(LtiGradeSync).where(
        LtiGradeSync.id == sync_id, LtiGradeSync.state == SyncState.PENDING.value,
        or_(LtiGradeSync.lease_until.is_(None), LtiGradeSync.lease_until <= now))
        .values(lease_until=lease))
    session.commit()
    return lease if getattr(claimed, "rowcount", 0) else None


def _still_held(session: Session, sync_id: int, lease: datetime) -> bool:
    """Whether the row still holds ``lease``, seen after what was read before (the read's
    transaction ends first: SQLite would answer from the snapshot it began with)."""
    session.commit()
    held = session.scalar(select(LtiGradeSync.id).where(LtiGradeSync.id == sync_id,
                                                        LtiGradeSync.lease_until == lease))
    session.commit()
    return held is not None


def _settle(session: Session, sync_id: int, lease: datetime, **values: object) -> bool:
    """Write an attempt's outcome and end its lease, only while the row still holds ``lease``:
    a verdict, a score or an assignment that changed the grade meanwhile made the row pending
    again (``grade_marks.pending_values`` clears the lease), and the grade worked out here is
    older than the one its message sends. Whether it was written."""
    settled = session.execute(update(LtiGradeSync).where(
        LtiGradeSync.id == sync_id, LtiGradeSync.lease_until == lease)
        .values(lease_until=None, **values).execution_options(synchronize_session=False))
    session.commit()
    return bool(getattr(settled, "rowcount", 0))


def scores_url(lineitem_url: str) -> str:
    """The line item's scores endpoint: ``/scores`` after its path, before any query."""
    path, _, query = lineitem_url.partition("?")
    return f"{path.rstrip('/')}/scores" + (f"?{query}" if query else "")


def _post(session: Session, platform: LtiPlatform, lineitem_url: str, sub: str, grade: Grade,
          read_at: datetime) -> None:
    body = {"userId": sub, "scoreGiven": round(grade.given, 6), "scoreMaximum": grade.maximum,
            "activityProgress": "Completed" if grade.completed else "Submitted",
            "gradingProgress": "FullyGraded", "comment": grade.comment,
            "timestamp": read_at.isoformat(timespec="microseconds")}
    what = f"a score to platform {platform.name!r}"
    for retry in (False, True):
        token = tokens.access_token(session, platform, (c.SCOPE_SCORE,))
        try:
            remote.call("POST", scores_url(lineitem_url), what, body=body, content_type=SCORE_TYPE,
                        headers={"Authorization": f"Bearer {token}"}, ok=(200, 201, 202, 204))
            return
        except PlatformError as exc:
            if retry or " answered 401" not in str(exc):
                raise
            tokens.forget(platform.id)  # revoked or expired early: one more try with a new token


def deliver(session: Session, sync_id: int) -> str:
    """One attempt at one row; what became of it."""
    lease = _claim(session, sync_id, utcnow())
    if lease is None:
        return "skipped"  # sent, given up, or another worker holds it
    row = session.get(LtiGradeSync, sync_id)
    if row is None:
        return "skipped"
    # The score is stamped with the moment before its grade is read, not the moment it is posted:
    # an attempt that a change overtook posts, if at all, an older stamp than the attempt that
    # sends the change, and a platform keeps the newer (AGS: one older than the last is refused).
    read_at = datetime.now(UTC)
    grade = grade_of(session, row)
    if isinstance(grade, SyncState):
        return grade.value if _settle(session, sync_id, lease, state=grade.value) else SUPERSEDED
    context = session.get(LtiContext, row.link.context_id)
    platform = session.get(LtiPlatform, context.platform_id) if context is not None else None
    sub = session.scalar(select(LtiUser.sub).where(LtiUser.user_id == row.user_id,
                                                   LtiUser.issuer == (platform.issuer if platform else "")))
    if not _still_held(session, sync_id, lease):
        # A change made the row pending while its grade was read: its own message sends it, and
        # this one would post a grade it may already have changed, or the same one twice.
        return SUPERSEDED
    attempts = row.attempts + 1
    try:
        if platform is None or sub is None or row.link.lineitem_url is None:
            raise PlatformError("the learner is not known to the link's platform (no launch, no roster)")
        _post(session, platform, row.link.lineitem_url, sub, grade, read_at)
    except PlatformError as exc:
        error = exc.message[:300]
        waits = get_settings().lti_score_backoff_seconds
        failed = attempts > len(waits)
        later: dict[str, object] = ({"state": SyncState.FAILED.value} if failed else
                                    {"next_attempt_at": utcnow() + timedelta(seconds=waits[attempts - 1])})
        if not _settle(session, sync_id, lease, attempts=attempts, error=error, **later):
            return SUPERSEDED
        log.warning("LTI grade %d: attempt %d failed: %s", sync_id, attempts, error)
        return SyncState.FAILED.value if failed else "retry"
    if not _settle(session, sync_id, lease, attempts=attempts, state=SyncState.SENT.value,
                   error=None, score_given=grade.given, score_maximum=grade.maximum,
                   sent_at=utcnow()):
        return SUPERSEDED  # the newer grade follows with the message that made it pending
    return SyncState.SENT.value


def due(session: Session) -> list[int]:
    """Pending rows to send a message for: a retry whose wait is over, or a first message not
    taken within LOST_AFTER; a row under a live lease is someone's already."""
    now = utcnow()
    return list(session.scalars(
        select(LtiGradeSync.id).where(
            LtiGradeSync.state == SyncState.PENDING.value,
            or_(LtiGradeSync.lease_until.is_(None), LtiGradeSync.lease_until <= now),
            or_(and_(LtiGradeSync.attempts > 0, LtiGradeSync.next_attempt_at <= now),
                LtiGradeSync.next_attempt_at <= now - LOST_AFTER))
        .order_by(LtiGradeSync.id).limit(SWEEP_BATCH)))


def sweep(session: Session) -> None:
    enqueue(due(session))


def syncs_of_assignment(session: Session, assignment_id: int) -> list[LtiGradeSync]:
    """Every learner's row on the links to an assignment and to its problems, for its instructors."""
    problems = select(AssignmentProblem.problem_id).where(AssignmentProblem.assignment_id == assignment_id)
    course = select(Assignment.course_id).where(Assignment.id == assignment_id).scalar_subquery()
    return list(session.scalars(
        select(LtiGradeSync).join(LtiLink, LtiLink.id == LtiGradeSync.link_id)
        .join(LtiContext, LtiContext.id == LtiLink.context_id).join(User, User.id == LtiGradeSync.user_id)
        .where(LtiContext.course_id == course,
               or_(LtiLink.assignment_id == assignment_id, LtiLink.problem_id.in_(problems)))
        .order_by(User.name, LtiLink.id)))


def send_again(session: Session, sync_ids: Sequence[int]) -> list[int]:
    """Make these rows pending again (an instructor's "Send again"); committed; their ids."""
    if not sync_ids:
        return []
    ids = list(session.scalars(update(LtiGradeSync).where(LtiGradeSync.id.in_(list(sync_ids)))
                               .values(**pending_values(utcnow()))
                               .returning(LtiGradeSync.id).execution_options(synchronize_session=False)))
    session.commit()
    session.expire_all()  # rows read before hold the old state
    return ids
