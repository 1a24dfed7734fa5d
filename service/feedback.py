"""Feedback on a handed-in submission: the course instructors' comments (on one line of the
code, or on the whole of it) and a score set by hand, with the trail of every change.

Who: the instructors of the course the submission was handed in for, and admins, write
(``Action.FEEDBACK``); whoever may read the submission reads its comments and score trail, so a
learner reads their own and never another's. Each comment stays "new" on the learner's list until
the learner opens the submission. A score set by hand replaces the judged one in the gradebook
(late penalty included: the instructor sets what counts); setting None goes back to the judged
score. Nothing is ever removed from the trail.

Every resource is bounded: a comment's length, comments per submission and changes per
submission, so an instructor's script gone wrong cannot fill the database.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from judge.errors import InvalidInput
from service import notifications
from service.access import Action, authorize
from service.db.models import (
    Comment,
    NotificationKind,
    ScoreChange,
    Submission,
    SubmissionStatus,
    User,
    utcnow,
)
from service.errors import Conflict, Forbidden, NotFound
from service.grade_release import held_from, withheld
from service.lti import grade_marks as lti_grades
from service.submissions import find_submission

MAX_COMMENT = 5000  # characters of Markdown
MAX_COMMENTS = 200  # per submission
MAX_REASON = 500
MAX_SCORE_CHANGES = 100  # per submission


def _for_feedback(session: Session, user: User, submission_id: int) -> Submission:
    submission = find_submission(session, user, submission_id)
    authorize(user, Action.FEEDBACK, submission)
    return submission


def comments(session: Session, user: User, submission_id: int) -> list[Comment]:
    """The submission's comments, oldest first, for whoever may read it (none for its learner
    while its grades are held)."""
    submission = find_submission(session, user, submission_id)
    return [] if held_from(user, submission) else list(submission.comments)


def tell_learner(session: Session, submission: Submission, kind: NotificationKind, text: str) -> None:
    """Notify the submission's learner (not committed): at once, unless its grades are held,
    when the release tells it all."""
    if submission.assignment is None or not submission.assignment.grades_held:
        notifications.notify(session, [submission.user], kind, text, f"/submissions/{submission.id}")


def add_comment(session: Session, user: User, submission_id: int, body: str,
                line: int | None) -> Comment:
    """A comment on line ``line`` of the code (1 is the first), or on the whole (None); commit."""
    submission = _for_feedback(session, user, submission_id)
    text = body.strip()
    if not 1 <= len(text) <= MAX_COMMENT:
        raise InvalidInput(f"body: write 1 to {MAX_COMMENT} characters (not {len(text)})", param="body")
    lines = len(submission.code.splitlines()) or 1
    if line is not None and not 1 <= line <= lines:
        raise InvalidInput(f"line: the code has lines 1 to {lines}, not {line}", param="line")
    if len(submission.comments) >= MAX_COMMENTS:
        raise Conflict(f"submission {submission.id} already has {MAX_COMMENTS} comments, the most "
                       "it may hold: delete one first")
    comment = Comment(author_id=user.id, line=line, body=text)
    submission.comments.append(comment)
    tell_learner(session, submission, NotificationKind.FEEDBACK,
                 f"New feedback on your submission {submission.id} ({submission.problem.slug})")
    session.commit()
    return comment


def delete_comment(session: Session, user: User, submission_id: int, comment_id: int) -> None:
    """Take a comment back (any of the course's instructors may); commit."""
    submission = _for_feedback(session, user, submission_id)
    comment = next((c for c in submission.comments if c.id == comment_id), None)
    if comment is None:
        raise NotFound(f"submission {submission.id} has no comment {comment_id}")
    submission.comments.remove(comment)
    session.commit()


def mark_read(session: Session, user: User, submission_id: int) -> int:
    """The submission's learner has seen its comments: none is new any more. How many were; commit."""
    submission = find_submission(session, user, submission_id)
    if submission.user_id != user.id:
        raise Forbidden("only the learner who sent the submission marks its comments read")
    if held_from(user, submission):
        return 0  # not shown yet: new once the grades are released
    new = [c for c in submission.comments if c.read_at is None]
    now = utcnow()
    for comment in new:
        comment.read_at = now
    session.commit()
    return len(new)


def unread_counts(session: Session, user: User, submission_ids: Sequence[int]) -> dict[int, int]:
    """Of these submissions, ``user``'s own that have comments they have not seen: id -> how many."""
    if not submission_ids:
        return {}
    rows = session.execute(
        select(Comment.submission_id, func.count())
        .join(Submission, Submission.id == Comment.submission_id)
        .where(Comment.submission_id.in_(list(submission_ids)), Submission.user_id == user.id,
               Comment.read_at.is_(None), ~withheld())
        .group_by(Comment.submission_id)).all()
    return {submission_id: count for submission_id, count in rows}


def score_changes(session: Session, user: User, submission_id: int) -> list[ScoreChange]:
    """Every hand change of the submission's score, oldest first, for whoever may read it (none
    for its learner while its grades are held)."""
    submission = find_submission(session, user, submission_id)
    return [] if held_from(user, submission) else list(submission.score_changes)


def set_score(session: Session, user: User, submission_id: int, score: float | None,
              reason: str, *, tell: bool = True) -> Submission:
    """Set the score that counts (0 to 1), or None for the judged one again; commit. The same
    score again changes nothing and adds nothing to the trail. ``tell``: notify the learner
    (a regrade's answer tells them itself)."""
    submission = _for_feedback(session, user, submission_id)
    reason = reason.strip()
    if not 1 <= len(reason) <= MAX_REASON:
        raise InvalidInput(f"reason: say why, in 1 to {MAX_REASON} characters (not {len(reason)})",
                           param="reason")
    if score is not None and not (math.isfinite(score) and 0.0 <= score <= 1.0):
        raise InvalidInput(f"score: a number from 0 to 1, or null for the judged score (not {score})",
                           param="score")
    if score is not None and submission.status != SubmissionStatus.DONE:
        raise Conflict(f"submission {submission.id} is {submission.status}: set a score once it is judged")
    if score == submission.score_override:
        return submission
    if len(submission.score_changes) >= MAX_SCORE_CHANGES:
        raise Conflict(f"submission {submission.id}'s score has been changed {MAX_SCORE_CHANGES} "
                       "times, the most its trail holds")
    previous = submission.score if submission.score_override is None else submission.score_override
    submission.score_changes.append(ScoreChange(changed_by=user.id, previous=previous, score=score,
                                                reason=reason))
    submission.score_override = score
    if tell:
        tell_learner(session, submission, NotificationKind.FEEDBACK,
                     f"Your score on submission {submission.id} ({submission.problem.slug}) was changed")
    rows = lti_grades.touch_work(session, submission.user_id, submission.problem_id, submission.assignment_id)
    session.commit()
    lti_grades.enqueue(rows)
    return submission
