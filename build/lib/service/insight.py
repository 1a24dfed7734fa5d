"""What an instructor learns from a problem's submissions: acceptance with its Wilson interval,
the spread of scores, the tests that fail most, the verdicts and the failure categories.

Whose submissions count is decided here, once, by ``insight_scope``: the problem's owner and
admins count every learner's, or those sent for one course's assignments; an instructor of a
course that assigns the problem counts only what that course's learners sent for its
assignments, and sees hidden tests only as a count (their names and contents stay the owner's).
Every submission counted is one the viewer may read (``access.readable_submissions``, the SQL
twin of ``access.authorize``): a learner's other work, a try or a submission made outside the
course, never enters a course instructor's figures. Only learners' judged submissions in mode
submit count: runs and tries never do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, and_, func, select
from sqlalchemy.orm import Session

from judge.results import TestStatus, Visibility
from service.access import Action, authorize, owns_problem, readable_submissions
from service.db.models import (
    Assignment,
    AssignmentProblem,
    Course,
    CourseMember,
    CourseRole,
    ProblemRow,
    Role,
    Submission,
    SubmissionStatus,
    TestResultRow,
    User,
)
from service.errors import Forbidden, NotFound
from service.stats import Acceptance, acceptance
from service.submissions import Mode

BINS = 10  # score bins of width 0.1; the last one holds 1.0 as well


@dataclass(frozen=True)
class Scope:
    """Whose submissions a viewer may study, and whether hidden tests are shown by name."""

    viewer: User
    user_ids: frozenset[int] | None  # None: everyone's
    hidden_by_name: bool
    course_id: int | None = None
    # Only submissions sent for an assignment of these courses count; None: every submission.
    course_ids: frozenset[int] | None = None


def _assigning_courses(session: Session, row: ProblemRow, instructor_id: int) -> list[int]:
    """The courses ``instructor_id`` teaches in which an assignment holds the problem."""
    return list(session.scalars(
        select(Course.id).distinct()
        .join(CourseMember, and_(CourseMember.course_id == Course.id,
                                 CourseMember.user_id == instructor_id,
                                 CourseMember.role == CourseRole.INSTRUCTOR))
        .join(Assignment, Assignment.course_id == Course.id)
        .join(AssignmentProblem, and_(AssignmentProblem.assignment_id == Assignment.id,
                                      AssignmentProblem.problem_id == row.id))))


def _learners(session: Session, course_ids: Sequence[int]) -> frozenset[int]:
    return frozenset(session.scalars(select(CourseMember.user_id).where(
        CourseMember.course_id.in_(course_ids), CourseMember.role == CourseRole.LEARNER)))


def insight_scope(session: Session, user: User, row: ProblemRow, course_id: int | None = None) -> Scope:
    """Whose submissions of row ``user`` may study (restricted to one course when given);
    NotFound or Forbidden otherwise. Learners never may."""
    authorize(user, Action.READ, row)  # someone else's draft does not exist for anyone
    if user.role not in (Role.INSTRUCTOR, Role.ADMIN):
        raise Forbidden("only instructors and admins may study a problem's submissions")
    owner = owns_problem(user, row)
    if course_id is not None:
        if session.get(Course, course_id) is None:
            raise NotFound(f"no course {course_id}")
        if not owner and course_id not in _assigning_courses(session, row, user.id):
            raise Forbidden(f"you teach no assignment of problem {row.slug!r} in course {course_id}")
        return Scope(user, _learners(session, [course_id]), owner, course_id, frozenset([course_id]))
    if owner:
        return Scope(user, None, True)
    courses = _assigning_courses(session, row, user.id)
    if not courses:
        raise Forbidden(f"problem {row.slug!r} is neither yours nor in an assignment of a course "
                        "you teach")
    return Scope(user, _learners(session, courses), False, course_ids=frozenset(courses))


def judged(row: ProblemRow, scope: Scope) -> list[ColumnElement[bool]]:
    """The filter of the submissions that count: judged, mode submit, by learners within the
    scope, sent for the scope's courses' assignments when it names courses, and readable by the
    viewer. Staff's own submissions (an instructor trying the problem out) are no learner's work."""
    where = [Submission.problem_id == row.id, Submission.mode == Mode.SUBMIT,
             Submission.status == SubmissionStatus.DONE, readable_submissions(scope.viewer)]
    if scope.course_ids is not None:
        where.append(Submission.assignment_id.in_(
            select(Assignment.id).where(Assignment.course_id.in_(scope.course_ids))))
    if scope.user_ids is not None:
        where.append(Submission.user_id.in_(scope.user_ids))
    else:
        where.append(Submission.user_id.in_(select(User.id).where(User.role == Role.LEARNER.value)))
    return where


@dataclass(frozen=True)
class FailingTest:
    name: str | None  # None: every hidden test together, for a viewer who may not see their names
    visibility: str
    failures: int


@dataclass(frozen=True)
class Insight:
    acceptance: Acceptance
    bins: tuple[tuple[float, float], ...]
    counts: tuple[int, ...]
    failing_tests: tuple[FailingTest, ...]
    verdicts: tuple[tuple[str, int], ...]
    categories: tuple[tuple[str, int], ...]
    hidden_by_name: bool


def score_bins() -> tuple[tuple[float, float], ...]:
    return tuple((round(i / BINS, 2), round((i + 1) / BINS, 2)) for i in range(BINS))


def _histogram(scores: Sequence[float | None]) -> tuple[int, ...]:
    counts = [0] * BINS
    for score in scores:
        if score is not None:
            counts[min(BINS - 1, max(0, int(score * BINS)))] += 1
    return tuple(counts)


def _failed() -> ColumnElement[bool]:
    # A test not run never failed: an earlier one timed out.
    return TestResultRow.status.not_in([TestStatus.PASSED.value, TestStatus.NOT_RUN.value])


def _failing_tests(session: Session, row: ProblemRow, scope: Scope) -> tuple[FailingTest, ...]:
    counted = session.execute(
        select(TestResultRow.name, TestResultRow.visibility, func.count())
        .join(Submission, Submission.id == TestResultRow.submission_id)
        .where(*judged(row, scope), _failed())
        .group_by(TestResultRow.name, TestResultRow.visibility)).all()
    tests = [FailingTest(name, visibility, count) for name, visibility, count in counted
             if scope.hidden_by_name or visibility != Visibility.HIDDEN.value]
    if not scope.hidden_by_name:
        hidden = sum(count for _, visibility, count in counted if visibility == Visibility.HIDDEN.value)
        if hidden:
            tests.append(FailingTest(None, Visibility.HIDDEN.value, hidden))
    return tuple(sorted(tests, key=lambda t: (-t.failures, t.name or "")))


def _counted(session: Session, column: Any,
             *where: ColumnElement[bool], join_results: bool = False) -> tuple[tuple[str, int], ...]:
    query = select(column, func.count())
    if join_results:
        query = query.select_from(TestResultRow).join(
            Submission, Submission.id == TestResultRow.submission_id)
    rows = session.execute(query.where(*where).group_by(column)).all()
    return tuple(sorted(((str(value), count) for value, count in rows if value is not None),
                        key=lambda pair: (-pair[1], pair[0])))


def problem_insight(session: Session, row: ProblemRow, scope: Scope) -> Insight:
    """Everything the insight page shows, over the submissions ``scope`` allows."""
    where = judged(row, scope)
    scores = session.scalars(select(Submission.score).where(*where)).all()
    verdicts = _counted(session, Submission.verdict, *where)
    accepted = dict(verdicts).get("accepted", 0)
    category = TestResultRow.data["category"].as_string()
    return Insight(
        acceptance=acceptance(len(scores), accepted),
        bins=score_bins(), counts=_histogram(scores),
        failing_tests=_failing_tests(session, row, scope),
        verdicts=verdicts,
        categories=_counted(session, category, *where, _failed(), join_results=True),
        hidden_by_name=scope.hidden_by_name)

