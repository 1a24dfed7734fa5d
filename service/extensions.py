"""What a course's instructors change about one learner's deadline: an extension of an
assignment's due time (with a reason), and excusing the lateness of one submission. Either
derives the late flags and penalties of that learner's submissions again."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from judge.errors import InvalidInput
from service.access import Action, authorize
from service.assignments import find_assignment
from service.db.models import Assignment, CourseRole, Extension, Submission, User
from service.errors import Forbidden, NotFound
from service.lateness import derive_again
from service.lti import grade_marks as lti_grades
from service.submissions import Mode, find_submission

MAX_REASON = 500


def _learner(assignment: Assignment, learner_id: int) -> User:
    member = next((m for m in assignment.course.members if m.user_id == learner_id), None)
    if member is None or member.role != CourseRole.LEARNER:
        raise NotFound(f"user {learner_id} is not a learner of course {assignment.course_id}")
    return member.user


def extensions(session: Session, user: User, assignment_id: int) -> list[Extension]:
    return list(find_assignment(session, user, assignment_id, Action.MANAGE).extensions)


def grant(session: Session, user: User, assignment_id: int, learner_id: int, due_at: datetime,
          late_until: datetime | None, reason: str) -> Extension:
    """Give (or replace) ``learner_id``'s own due time and last accepted time, and commit."""
    assignment = find_assignment(session, user, assignment_id, Action.MANAGE)
    _learner(assignment, learner_id)
    reason = reason.strip()
    if not 1 <= len(reason) <= MAX_REASON:
        raise InvalidInput(f"reason: say why, in 1 to {MAX_REASON} characters (not {len(reason)})",
                           param="reason")
    if late_until is not None and late_until < due_at:
        raise InvalidInput(f"late_until: must not be before due_at ({late_until.isoformat()}Z is "
                           f"before {due_at.isoformat()}Z)", param="late_until")
    extension = next((e for e in assignment.extensions if e.user_id == learner_id), None)
    if extension is None:
        extension = Extension(user_id=learner_id, due_at=due_at, reason=reason)
        assignment.extensions.append(extension)
    extension.due_at, extension.late_until, extension.reason = due_at, late_until, reason
    extension.granted_by = user.id
    session.flush()
    derive_again(session, assignment, learner_id)
    marked = lti_grades.touch_learner(session, learner_id)  # their scores on an LMS may move
    session.commit()
    lti_grades.enqueue(marked)
    return extension


def revoke(session: Session, user: User, assignment_id: int, learner_id: int) -> None:
    """Take ``learner_id``'s extension away (they are back on the assignment's rules), and commit."""
    assignment = find_assignment(session, user, assignment_id, Action.MANAGE)
    extension = next((e for e in assignment.extensions if e.user_id == learner_id), None)
    if extension is None:
        raise NotFound(f"user {learner_id} has no extension on assignment {assignment.id}")
    assignment.extensions.remove(extension)
    session.flush()
    derive_again(session, assignment, learner_id)
    marked = lti_grades.touch_learner(session, learner_id)  # their scores on an LMS may move
    session.commit()
    lti_grades.enqueue(marked)


def excuse(session: Session, user: User, submission_id: int, excused: bool) -> Submission:
    """Excuse (or no longer excuse) a handed-in submission's lateness, and commit. Only the
    instructors of the course it was handed in for."""
    submission = find_submission(session, user, submission_id)
    if submission.assignment is None or submission.mode != Mode.SUBMIT:
        raise InvalidInput(f"submission {submission.id} was not handed in for an assignment: there "
                           "is no lateness to excuse")
    try:
        authorize(user, Action.MANAGE, submission.assignment)
    except (Forbidden, NotFound):
        raise Forbidden("only the course's instructors excuse late work") from None
    submission.excused = excused
    derive_again(session, submission.assignment, submission.user_id)
    marked = lti_grades.touch_learner(session, submission.user_id)
    session.commit()
    lti_grades.enqueue(marked)
    return submission
