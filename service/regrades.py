"""Regrade requests: a learner asks that a submission handed in for an assignment be looked at
again, saying why; one of the course's instructors answers, and either sets a new score by hand
(``feedback.set_score``, with the answer as its reason) or keeps the score. Both read the thread.

Who: the submission's own learner asks (only for their work handed in for an assignment, once
judged); the instructors of its course, and admins, answer (``Action.FEEDBACK``); whoever may read
the submission reads its requests. Bounded: one open request per submission at a time, a few in
all, and the length of a reason and of an answer.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from judge.errors import InvalidInput
from service import feedback
from service.access import Action, authorize
from service.db.models import (
    NotificationKind,
    RegradeOutcome,
    RegradeRequest,
    SubmissionStatus,
    User,
    utcnow,
)
from service.errors import Conflict, Forbidden, NotFound
from service.grade_release import held_from
from service.submissions import Mode, find_submission

MAX_REASON = 2000  # characters
MAX_ANSWER = 5000
MAX_REQUESTS = 5  # per submission, answered ones included


def requests(session: Session, user: User, submission_id: int) -> list[RegradeRequest]:
    """The submission's regrade requests, oldest first, for whoever may read it (none for its
    learner while its grades are held)."""
    submission = find_submission(session, user, submission_id)
    return [] if held_from(user, submission) else list(submission.regrade_requests)


def ask(session: Session, user: User, submission_id: int, reason: str) -> RegradeRequest:
    """The submission's learner asks for a regrade; commit."""
    submission = find_submission(session, user, submission_id)
    if submission.user_id != user.id:
        raise Forbidden("only the learner who handed the submission in asks for its regrade")
    if submission.mode != Mode.SUBMIT or submission.assignment_id is None:
        raise Forbidden(f"submission {submission.id} was not handed in for an assignment: a regrade is "
                        "asked of a course's instructors")
    if submission.status != SubmissionStatus.DONE:
        raise Conflict(f"submission {submission.id} is {submission.status}: ask once it is judged")
    if held_from(user, submission):
        raise Conflict(f"submission {submission.id}'s grade is held until the course's instructors "
                       "release the assignment's grades: ask once it is released")
    text = reason.strip()
    if not 1 <= len(text) <= MAX_REASON:
        raise InvalidInput(f"reason: say why, in 1 to {MAX_REASON} characters (not {len(text)})",
                           param="reason")
    if any(r.outcome == RegradeOutcome.OPEN for r in submission.regrade_requests):
        raise Conflict(f"submission {submission.id} already has a regrade request waiting for an answer")
    if len(submission.regrade_requests) >= MAX_REQUESTS:
        raise Conflict(f"submission {submission.id} has had {MAX_REQUESTS} regrade requests, the most it "
                       "may have")
    request = RegradeRequest(requested_by=user.id, reason=text)
    submission.regrade_requests.append(request)
    session.commit()
    return request


def answer(session: Session, user: User, submission_id: int, request_id: int, text: str,
           score: float | None) -> RegradeRequest:
    """A course instructor answers an open request: ``score`` sets a new score by hand (the
    answer is its reason), None keeps the score; commit."""
    submission = find_submission(session, user, submission_id)
    authorize(user, Action.FEEDBACK, submission)
    request = next((r for r in submission.regrade_requests if r.id == request_id), None)
    if request is None:
        raise NotFound(f"submission {submission.id} has no regrade request {request_id}")
    if request.outcome != RegradeOutcome.OPEN:
        raise Conflict(f"regrade request {request_id} is answered already")
    words = text.strip()
    if not 1 <= len(words) <= MAX_ANSWER:
        raise InvalidInput(f"answer: write 1 to {MAX_ANSWER} characters (not {len(words)})", param="answer")
    if score is not None:
        # The score's own checks and trail; its reason is bounded shorter than an answer.
        feedback.set_score(session, user, submission.id, score,
                           f"regrade request {request.id}: {words}"[: feedback.MAX_REASON], tell=False)
    request.outcome = (RegradeOutcome.CHANGED if score is not None else RegradeOutcome.KEPT).value
    request.answer, request.answered_by, request.answered_at = words, user.id, utcnow()
    feedback.tell_learner(session, submission, NotificationKind.REGRADE_ANSWER,
                          f"Your regrade request on submission {submission.id} ({submission.problem.slug}) "
                          f"was answered: score {'changed' if score is not None else 'kept'}")
    session.commit()
    return request
