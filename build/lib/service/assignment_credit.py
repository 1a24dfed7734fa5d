"""Which assignment a learner's work counts for, whatever page, client or route it came through.

A submission (mode submit) names its assignment when it was sent from the assignment's link or
with ``assignment``; then that assignment's rules admit or refuse it (``submissions``). One that
names none still counts for an assignment of one of the learner's courses that holds the problem,
when that assignment takes it now by the learner's own rules (their extension's, or the
assignment's): open, and not past their last accepted time; late, with its penalty, past their
due time. Where several would take it, it counts for the one it is on time for, then the one due
first (then the oldest): one row, one assignment. A submission no assignment would take is
practice, never refused for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.access import Action, allowed
from service.db.models import Assignment, AssignmentProblem, CourseMember, Extension, ProblemRow, User
from service.lateness import Deadline, deadline, penalty


@dataclass(frozen=True)
class Counting:
    """An assignment that holds the problem, with the learner's own rules for it."""

    assignment: Assignment
    rule: Deadline

    def takes(self, now: datetime) -> bool:
        until = self.rule.late_until
        return self.assignment.opens_at <= now and (until is None or now <= until)


@dataclass(frozen=True)
class Credit:
    """The assignment a submission made now counts for, and what lateness costs it."""

    assignment_id: int
    late: bool
    penalty: float


def counting_assignments(session: Session, user: User, problem: ProblemRow) -> list[Counting]:
    """Every assignment ``user`` may hand work in for (``access``: a learner of its course) that
    holds ``problem``, due first by the learner's own due time."""
    rows = session.execute(
        select(Assignment, Extension)
        .join(AssignmentProblem, AssignmentProblem.assignment_id == Assignment.id)
        .join(CourseMember, CourseMember.course_id == Assignment.course_id)
        .outerjoin(Extension, (Extension.assignment_id == Assignment.id) & (Extension.user_id == user.id))
        .where(AssignmentProblem.problem_id == problem.id, CourseMember.user_id == user.id)).all()
    found = [Counting(assignment, deadline(assignment, extension)) for assignment, extension in rows
             if allowed(user, Action.SUBMIT, assignment)]
    return sorted(found, key=lambda c: (c.rule.due_at, c.assignment.id))


def chosen(counting: list[Counting], now: datetime) -> Counting | None:
    """Of the assignments that hold the problem, the one work that names none counts for ``now``."""
    taking = [c for c in counting if c.takes(now)]
    return min(taking, key=lambda c: (now > c.rule.due_at, c.rule.due_at, c.assignment.id), default=None)


def implied_credit(session: Session, user: User, problem: ProblemRow, now: datetime) -> Credit | None:
    """The assignment a submission of ``problem`` that names none counts for, made ``now``."""
    found = chosen(counting_assignments(session, user, problem), now)
    if found is None:
        return None
    return Credit(found.assignment.id, now > found.rule.due_at, penalty(found.assignment, found.rule, now))
