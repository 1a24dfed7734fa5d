"""PUT /submissions/{id}/excuse: a course instructor excuses (or no longer excuses) the lateness
of a submission handed in for one of the course's assignments."""

from __future__ import annotations

from fastapi import APIRouter

from api.deps import CurrentUser, SessionDep
from api.presenters import submission_summary
from api.schemas import SubmissionSummary
from api.schemas.bounds import Id
from api.schemas.courses import ExcuseIn
from service import extensions

router = APIRouter(prefix="/submissions", tags=["courses"])


@router.put("/{submission_id}/excuse", response_model=SubmissionSummary)
def excuse(submission_id: Id, body: ExcuseIn, session: SessionDep, user: CurrentUser) -> SubmissionSummary:
    """Excuse a late submission (it keeps its whole score and is not counted late), or take the
    excuse back; the course's instructors only."""
    return submission_summary(extensions.excuse(session, user, submission_id, body.excused), user)
