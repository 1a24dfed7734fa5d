"""Late work: each learner's deadline for an assignment, and what lateness costs a submission.

A learner's deadline is the assignment's, or their extension's when they have one. Whether a
submission is late and the percent of its score lateness takes (``Submission.late`` and
``penalty``) follow from its time and that deadline alone, so they are derived again, for every
submission of the assignment, whenever the rules change: the assignment's times or penalty, an
extension, an excuse. The gradebook reads the stored result in SQL.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.db.models import Assignment, Extension, LatePolicy, PenaltyUnit, Submission
from service.errors import NotOpen, PastDue

UNIT = {PenaltyUnit.HOUR: timedelta(hours=1), PenaltyUnit.DAY: timedelta(days=1)}


@dataclass(frozen=True)
class Deadline:
    due_at: datetime  # naive UTC
    late_until: datetime | None  # the last time late work is taken; None: no limit
    extension: Extension | None = None


def deadline(assignment: Assignment, extension: Extension | None) -> Deadline:
    """An extension without a last accepted time keeps the assignment's rule, moved to its own
    due time: nothing after it when late work is refused, else until the later of the two."""
    refuse = assignment.late_policy == LatePolicy.REFUSE
    if extension is None:
        return Deadline(assignment.due_at, assignment.due_at if refuse else assignment.late_until)
    until = extension.late_until
    if until is None and refuse:
        until = extension.due_at
    elif until is None and assignment.late_until is not None:
        until = max(extension.due_at, assignment.late_until)
    return Deadline(extension.due_at, until, extension)


def deadline_of(session: Session, assignment: Assignment, user_id: int) -> Deadline:
    return deadline(assignment, session.scalar(select(Extension).where(
        Extension.assignment_id == assignment.id, Extension.user_id == user_id)))


def penalty(assignment: Assignment, rule: Deadline, made_at: datetime) -> float:
    """The percent of the score a submission made at ``made_at`` loses: the assignment's
    percent per started unit past the due time, never below its floor. The last accepted time
    only stops new work: what was taken before the rules were tightened keeps this penalty."""
    if made_at <= rule.due_at:
        return 0.0
    units = math.ceil((made_at - rule.due_at) / UNIT[PenaltyUnit(assignment.penalty_unit)])
    return min(assignment.penalty_percent * units, 100.0 - assignment.penalty_floor)


def admit(assignment: Assignment, rule: Deadline, now: datetime) -> tuple[bool, float]:
    """(late, penalty) of a submission handed in ``now``; NotOpen before the opening time,
    PastDue after the learner's last accepted time."""
    if now < assignment.opens_at:
        raise NotOpen(f"assignment {assignment.id} opens at {assignment.opens_at.isoformat()}Z")
    if rule.late_until is not None and now > rule.late_until:
        until = "was due" if rule.late_until == rule.due_at else "took late submissions until"
        raise PastDue(f"assignment {assignment.id} {until} {rule.late_until.isoformat()}Z and "
                      "takes no later submissions")
    return now > rule.due_at, penalty(assignment, rule, now)


def derive_again(session: Session, assignment: Assignment, user_id: int | None = None) -> int:
    """Derive late and penalty again for the assignment's submissions (one learner's, or every
    one's); how many changed. The caller commits."""
    rules = {e.user_id: deadline(assignment, e) for e in assignment.extensions}
    plain = deadline(assignment, None)
    query = select(Submission).where(Submission.assignment_id == assignment.id)
    if user_id is not None:
        query = query.where(Submission.user_id == user_id)
    changed = 0
    for submission in session.scalars(query):
        rule = rules.get(submission.user_id, plain)
        late = submission.created_at > rule.due_at
        cost = 0.0 if submission.excused else penalty(assignment, rule, submission.created_at)
        if (submission.late, submission.penalty) != (late, cost):
            submission.late, submission.penalty = late, cost
            changed += 1
    return changed
