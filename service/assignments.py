"""Assignments: a course's set of problems with an opening time, a due time and a late policy.

Times are naive UTC here, as every column of the models (``utcnow``); the API turns a time with
any offset into UTC before it arrives and answers with a "Z". Whether a submission for an
assignment is taken is decided by ``admit`` when it is submitted, and whether it is late, and
what that costs, by ``service.lateness``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from judge.errors import InvalidInput
from service.access import Action, authorize
from service.courses import MAX_ID, checked_title, find_course
from service.db.models import (
    Assignment,
    AssignmentProblem,
    Course,
    CourseMember,
    CourseRole,
    LatePolicy,
    PenaltyUnit,
    ProblemRow,
    User,
)
from service.errors import Conflict, NotFound
from service.grade_release import set_held
from service.lateness import derive_again
from service.lti import grade_marks as lti_grades
from service.track_progress import track_problems

MAX_PROBLEMS = 50


class DueState(StrEnum):
    UPCOMING = "upcoming"  # not open yet
    OPEN = "open"  # open, not due yet
    DUE = "due"  # past its due time (late submissions may still be taken)


@dataclass(frozen=True)
class AssignmentInput:
    title: str
    opens_at: datetime  # naive UTC
    due_at: datetime  # naive UTC
    late_policy: LatePolicy
    problems: list[str]  # slugs, in the order the learners see them
    track: str | None = None  # instead of problems: a track's published problems, in its order
    late_until: datetime | None = None  # naive UTC; None: late work is taken at any time
    penalty_percent: float = 0.0  # taken from a late submission's score per started unit
    penalty_unit: PenaltyUnit = PenaltyUnit.DAY
    penalty_floor: float = 0.0  # the percent of its score late work keeps at least
    grades_held: bool = False  # scores and feedback hidden from learners until released


def due_state(assignment: Assignment, now: datetime, due_at: datetime | None = None) -> DueState:
    """``due_at``: a learner's own due time (an extension) instead of the assignment's."""
    if now < assignment.opens_at:
        return DueState.UPCOMING
    return DueState.OPEN if now <= (due_at or assignment.due_at) else DueState.DUE


def _checked_rules(data: AssignmentInput) -> None:
    def utc(moment: datetime) -> str:
        return moment.isoformat() + "Z"

    if data.due_at <= data.opens_at:
        raise InvalidInput(f"due_at: must be after opens_at ({utc(data.due_at)} is not after "
                           f"{utc(data.opens_at)})")
    late_work = data.late_policy == LatePolicy.ACCEPT
    if data.late_until is not None and not late_work:
        raise InvalidInput("late_until: an assignment that refuses late work takes nothing after "
                           "due_at; leave it out", param="late_until")
    if data.late_until is not None and data.late_until < data.due_at:
        raise InvalidInput(f"late_until: must not be before due_at ({utc(data.late_until)} is before "
                           f"{utc(data.due_at)})", param="late_until")
    for name in ("penalty_percent", "penalty_floor"):
        value = getattr(data, name)
        if not 0.0 <= value <= 100.0:  # NaN fails too
            raise InvalidInput(f"{name}: a percent from 0 to 100, not {value!r}", param=name)
    if data.penalty_percent and not late_work:
        raise InvalidInput("penalty_percent: an assignment that refuses late work has no late penalty",
                           param="penalty_percent")


def _checked(session: Session, data: AssignmentInput) -> tuple[str, list[ProblemRow]]:
    title = checked_title(data.title)
    _checked_rules(data)
    if data.track is not None:
        if data.problems:
            raise InvalidInput("give problems or a track, not both", param="track")
        try:
            data = replace(data, problems=track_problems(data.track, session))
        except NotFound as exc:
            raise InvalidInput(f"track: {exc.message}", param="track") from None
    if not 1 <= len(data.problems) <= MAX_PROBLEMS:
        raise InvalidInput(f"problems: an assignment has 1 to {MAX_PROBLEMS} problems, not "
                           f"{len(data.problems)}")
    found = {row.slug: row for row in session.scalars(
        select(ProblemRow).where(ProblemRow.slug.in_(set(data.problems))))}
    seen: set[str] = set()
    rows = []
    for index, slug in enumerate(data.problems):
        row = found.get(slug)
        # Published only: every learner of the course must be able to open what is assigned.
        if row is None or row.published_version_id is None:
            raise InvalidInput(f"problems[{index}]: no published problem {slug[:64]!r}")
        if slug in seen:
            raise InvalidInput(f"problems[{index}]: {slug!r} is listed twice")
        seen.add(slug)
        rows.append(row)
    return title, rows


def _place(assignment: Assignment, rows: list[ProblemRow]) -> None:
    """Make the assignment's problems exactly ``rows``, in order. Rows that stay are updated in
    place: deleting and inserting the same (assignment, problem) in one flush would meet the
    unique constraint, as inserts are flushed before deletes."""
    kept = {link.problem_id: link for link in assignment.problems}
    links = []
    for position, row in enumerate(rows, start=1):
        link = kept.pop(row.id, None) or AssignmentProblem(problem_id=row.id, position=position)
        link.position = position
        links.append(link)
    assignment.problems = links


def create_assignment(session: Session, user: User, course_id: int, data: AssignmentInput) -> Assignment:
    course = find_course(session, user, course_id, Action.MANAGE)
    title, rows = _checked(session, data)
    assignment = Assignment(course_id=course.id, title=title, opens_at=data.opens_at,
                            due_at=data.due_at, late_policy=data.late_policy.value)
    _set_rules(assignment, data)
    assignment.grades_held = data.grades_held
    _place(assignment, rows)
    session.add(assignment)
    session.commit()
    return assignment


def find_assignment(session: Session, user: User, assignment_id: int,
                    action: Action = Action.READ) -> Assignment:
    """The assignment when ``user`` may do ``action`` to it; NotFound exactly as for a missing id."""
    assignment = session.get(Assignment, assignment_id) if 0 < assignment_id <= MAX_ID else None
    if assignment is None:
        raise NotFound(f"no assignment {assignment_id}")
    authorize(user, action, assignment)
    return assignment


def _set_rules(assignment: Assignment, data: AssignmentInput) -> None:
    assignment.opens_at, assignment.due_at = data.opens_at, data.due_at
    assignment.late_policy, assignment.late_until = data.late_policy.value, data.late_until
    assignment.penalty_percent, assignment.penalty_floor = data.penalty_percent, data.penalty_floor
    assignment.penalty_unit = data.penalty_unit.value


def update_assignment(session: Session, user: User, assignment_id: int, data: AssignmentInput) -> Assignment:
    """Replace every field; the late flags and penalties of its submissions follow the new rules."""
    assignment = find_assignment(session, user, assignment_id, Action.MANAGE)
    title, rows = _checked(session, data)
    assignment.title = title
    _set_rules(assignment, data)
    _place(assignment, rows)
    session.flush()
    derive_again(session, assignment)
    set_held(session, assignment, data.grades_held)  # false where it held them: a release
    marked = lti_grades.touch_assignment(session, assignment.id)  # due times, problems, release
    session.commit()
    lti_grades.enqueue(marked)
    return assignment


def release_grades(session: Session, user: User, assignment_id: int) -> Assignment:
    """Show the learners the scores and feedback the assignment held back, and tell them; commit."""
    assignment = find_assignment(session, user, assignment_id, Action.MANAGE)
    if not assignment.grades_held:
        raise Conflict(f"assignment {assignment.id} does not hold its grades: there is nothing to release")
    set_held(session, assignment, False)
    marked = lti_grades.touch_assignment(session, assignment.id)
    session.commit()
    lti_grades.enqueue(marked)
    return assignment


def delete_assignment(session: Session, user: User, assignment_id: int) -> None:
    """Remove it; its submissions stay, no longer counted for any assignment."""
    session.delete(find_assignment(session, user, assignment_id, Action.MANAGE))
    session.commit()


def my_assignments(session: Session, user: User) -> list[tuple[Assignment, CourseRole]]:
    """Every assignment of the courses ``user`` teaches or takes, by due time, with their place."""
    rows = session.execute(
        select(Assignment, CourseMember.role)
        .join(CourseMember, CourseMember.course_id == Assignment.course_id)
        .join(Course, Course.id == Assignment.course_id)
        .where(CourseMember.user_id == user.id)
        .options(selectinload(Assignment.problems).selectinload(AssignmentProblem.problem),
                 selectinload(Assignment.extensions))
        .order_by(Assignment.due_at, Assignment.id)).all()
    return [(assignment, CourseRole(role)) for assignment, role in rows]
