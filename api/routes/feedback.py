"""A submission's feedback: the course instructors' comments, a score set by hand, and the
learner's regrade requests with their answers.

The course's instructors (and admins) write; whoever may read the submission reads, so a learner
reads the feedback on their own submissions only. ``service.feedback`` holds the rules.
"""

from __future__ import annotations

from fastapi import APIRouter, Response

from api.deps import CurrentUser, SessionDep
from api.presenters import submission_summary
from api.rendering import render_markdown
from api.schemas import SubmissionSummary
from api.schemas.bounds import Id
from api.schemas.feedback import (
    CommentIn,
    CommentOut,
    RegradeAnswerIn,
    RegradeIn,
    RegradeOut,
    ScoreChangeOut,
    ScoreIn,
)
from service import feedback, regrades
from service.db.models import Comment, RegradeOutcome, RegradeRequest, ScoreChange

router = APIRouter(prefix="/submissions", tags=["feedback"])


def comment_out(comment: Comment) -> CommentOut:
    return CommentOut(id=comment.id, line=comment.line,
                      author=None if comment.author is None else comment.author.name,
                      body=comment.body, html=render_markdown(comment.body),
                      created_at=comment.created_at, read_at=comment.read_at)


def change_out(change: ScoreChange) -> ScoreChangeOut:
    return ScoreChangeOut(changed_by=None if change.changer is None else change.changer.name,
                          changed_at=change.changed_at, previous=change.previous, score=change.score,
                          reason=change.reason)


@router.get("/{submission_id}/comments", response_model=list[CommentOut])
def list_comments(submission_id: Id, session: SessionDep, user: CurrentUser) -> list[CommentOut]:
    """The comments on a submission, oldest first."""
    return [comment_out(c) for c in feedback.comments(session, user, submission_id)]


@router.post("/{submission_id}/comments", status_code=201, response_model=CommentOut)
def add_comment(submission_id: Id, body: CommentIn, session: SessionDep, user: CurrentUser) -> CommentOut:
    """Comment on one line of a handed-in submission's code, or on the whole of it; the course's
    instructors only. Its learner sees it as new until they open the submission."""
    return comment_out(feedback.add_comment(session, user, submission_id, body.body, body.line))


@router.delete("/{submission_id}/comments/{comment_id}", status_code=204)
def delete_comment(submission_id: Id, comment_id: Id, session: SessionDep, user: CurrentUser) -> Response:
    """Take a comment back; the course's instructors only."""
    feedback.delete_comment(session, user, submission_id, comment_id)
    return Response(status_code=204)


@router.post("/{submission_id}/comments/read", status_code=204)
def mark_comments_read(submission_id: Id, session: SessionDep, user: CurrentUser) -> Response:
    """The submission's learner has read its comments: none is marked new any more."""
    feedback.mark_read(session, user, submission_id)
    return Response(status_code=204)


@router.put("/{submission_id}/score", response_model=SubmissionSummary)
def set_score(submission_id: Id, body: ScoreIn, session: SessionDep, user: CurrentUser) -> SubmissionSummary:
    """Set the score that counts in the gradebook by hand (null: the judged score again), with a
    reason kept in the submission's score trail; the course's instructors only."""
    return submission_summary(feedback.set_score(session, user, submission_id, body.score, body.reason), user)


@router.get("/{submission_id}/score-changes", response_model=list[ScoreChangeOut])
def score_changes(submission_id: Id, session: SessionDep, user: CurrentUser) -> list[ScoreChangeOut]:
    """Every hand change of the submission's score (who, when, from what to what, why), oldest first."""
    return [change_out(c) for c in feedback.score_changes(session, user, submission_id)]


def regrade_out(request: RegradeRequest) -> RegradeOut:
    return RegradeOut(id=request.id, submission=request.submission_id,
                      requested_by=None if request.requester is None else request.requester.name,
                      reason=request.reason, created_at=request.created_at,
                      outcome=RegradeOutcome(request.outcome), answer=request.answer,
                      answered_by=None if request.answerer is None else request.answerer.name,
                      answered_at=request.answered_at)


@router.get("/{submission_id}/regrade-requests", response_model=list[RegradeOut])
def list_regrade_requests(submission_id: Id, session: SessionDep, user: CurrentUser) -> list[RegradeOut]:
    """A submission's regrade requests with their answers, oldest first."""
    return [regrade_out(r) for r in regrades.requests(session, user, submission_id)]


@router.post("/{submission_id}/regrade-requests", status_code=201, response_model=RegradeOut)
def ask_for_regrade(submission_id: Id, body: RegradeIn, session: SessionDep, user: CurrentUser) -> RegradeOut:
    """Ask the course's instructors to look at the score of your submission handed in for an
    assignment again, saying why (one request open at a time)."""
    return regrade_out(regrades.ask(session, user, submission_id, body.reason))


@router.post("/{submission_id}/regrade-requests/{request_id}/answer", response_model=RegradeOut)
def answer_regrade(submission_id: Id, request_id: Id, body: RegradeAnswerIn, session: SessionDep,
                   user: CurrentUser) -> RegradeOut:
    """Answer a regrade request (the course's instructors): with a score, it is set by hand (the
    answer is its reason); without, the score is kept."""
    return regrade_out(regrades.answer(session, user, submission_id, request_id, body.answer, body.score))
