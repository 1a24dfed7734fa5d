"""Assignments: a course's set of problems with an opening time, a due time and a late policy.

Times are naive UTC here, as every column of the models (``utcnow``); the API turns a time with
any offset into UTC before it arrives and answers with a "Z". Whether a submission for an
assignment is taken, and marked late, is decided by ``window`` when it is submitted.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from judge.errors import Forbidden, InvalidInput, NotFound
from judge.service.access import Action, authorize
from judge.service.courses import MAX_ID, checked_title, find_course
from judge.service.db.models import (
    Assignment,
    AssignmentProblem,
    Course,
    CourseMember,
    CourseRole,
    LatePolicy,
    ProblemRow,
    User,
)

MAX_PROBLEMS = 50


class NotOpen(Forbidden):
    code = "not_open"


class PastDue(Forbidden):
    code = "past_due"


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


def due_state(assignment: Assignment, now: datetime) -> DueState:
    if now < assignment.opens_at:
        return DueState.UPCOMING
    return DueState.OPEN if now <= assignment.due_at else DueState.DUE


def window(assignment: Assignment, now: datetime) -> bool:
    """Whether a submission made ``now`` is late; NotOpen before the opening time, PastDue after
    the due time when the assignment refuses late work."""
    state = due_state(assignment, now)
    if state is DueState.UPCOMING:
        raise NotOpen(f"assignment {assignment.id} opens at {assignment.opens_at.isoformat()}Z")
    if state is DueState.DUE and assignment.late_policy == LatePolicy.REFUSE:
        raise PastDue(f"assignment {assignment.id} was due at {assignment.due_at.isoformat()}Z and "
                      "takes no late submissions")
    return state is DueState.DUE


def _checked(session: Session, data: AssignmentInput) -> tuple[str, list[ProblemRow]]:
    title = checked_title(data.title)
    if data.due_at <= data.opens_at:
        raise InvalidInput(f"due_at: must be after opens_at ({data.due_at.isoformat()}Z is not after "
                           f"{data.opens_at.isoformat()}Z)")
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


def update_assignment(session: Session, user: User, assignment_id: int, data: AssignmentInput) -> Assignment:
    """Replace every field (submissions already stored keep their late flag)."""
    assignment = find_assignment(session, user, assignment_id, Action.MANAGE)
    title, rows = _checked(session, data)
    assignment.title, assignment.opens_at, assignment.due_at = title, data.opens_at, data.due_at
    assignment.late_policy = data.late_policy.value
    _place(assignment, rows)
    session.commit()
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
        .options(selectinload(Assignment.problems).selectinload(AssignmentProblem.problem))
        .order_by(Assignment.due_at, Assignment.id)).all()
    return [(assignment, CourseRole(role)) for assignment, role in rows]
