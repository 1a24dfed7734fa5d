"""Held grades: an assignment may hold its learners' scores and feedback back until one of its
instructors releases them.

While an assignment holds its grades, what its learners hand in for it is judged at once, as
always, and its instructors see all of it; but the learner who sent a submission sees only that
it was judged: no verdict, score, test results, message, comments or score set by hand, on any
route (the pages, the API, the event stream, webhooks, judge-client), and their progress (the
problem list, tracks, the assignment page, the editorial's unlock) counts it as tried, never as
solved. Releasing shows all of it at once and notifies the course's learners; holding again
hides it again (nothing is lost either way). Runs and tries are a learner's own experiments
against the public tests: never held.

One rule in two forms: ``held_from`` for a submission in hand, ``withheld`` for a query.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, and_, select
from sqlalchemy.orm import Session

from service import notifications
from service.access import HANDED_IN
from service.db.models import (
    Assignment,
    CourseMember,
    CourseRole,
    NotificationKind,
    Submission,
    User,
    utcnow,
)


def held_from(viewer: User, submission: Submission) -> bool:
    """Whether ``viewer`` (the submission's own learner) may not see its result yet."""
    assignment = submission.assignment
    return (assignment is not None and assignment.grades_held and submission.mode == HANDED_IN
            and submission.user_id == viewer.id)


def withheld() -> ColumnElement[bool]:
    """Over ``Submission``: handed in for an assignment that holds its grades. Only a learner's
    own views filter on it; an instructor's never do."""
    held = select(Assignment.id).where(Assignment.grades_held.is_(True))
    # is_not(None) first: NULL IN (...) is NULL, not false, and NOT NULL would drop every
    # submission sent for no assignment from the learner's views.
    return and_(Submission.mode == HANDED_IN, Submission.assignment_id.is_not(None),
                Submission.assignment_id.in_(held))


def set_held(session: Session, assignment: Assignment, held: bool) -> None:
    """Hold the assignment's grades, or release them (notifying its learners); not committed.
    ``service.assignments`` calls it when an assignment is made, changed or released."""
    if assignment.grades_held and not held:
        assignment.released_at = utcnow()
        learners = session.scalars(
            select(User).join(CourseMember, CourseMember.user_id == User.id)
            .where(CourseMember.course_id == assignment.course_id,
                   CourseMember.role == CourseRole.LEARNER.value)).all()
        notifications.notify(session, learners, NotificationKind.GRADES_RELEASED,
                             f"Grades released: {assignment.title}", f"/assignments/{assignment.id}")
    assignment.grades_held = held

