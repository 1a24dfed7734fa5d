"""Submissions: create, read (optionally waiting for the verdict), list.

Each route parses, calls ``judge.service.submissions`` (which authorizes through
``judge.service.access``) and shapes the answer (``api.presenters``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query, Response
from starlette.concurrency import run_in_threadpool

from api.deps import CurrentUser, SessionDep
from api.presenters import submission_detail, submission_summary
from api.schemas import Page, SubmissionCreate, SubmissionOut
from api.waits import watcher
from judge.service import submissions
from judge.service.db.models import SubmissionStatus, User
from judge.service.db.session import new_session
from judge.settings import get_settings

router = APIRouter(prefix="/submissions", tags=["submissions"])


@router.post("", status_code=202, response_model=SubmissionOut,
             responses={503: {"description": "saved, but the queue is unreachable: it will be "
                                             "judged when the queue is back"}})
def submit(
    body: SubmissionCreate,
    session: SessionDep,
    user: CurrentUser,
    response: Response,
    idempotency_key: Annotated[str | None, Header()] = None,
) -> SubmissionOut:
    """Store a submission and queue it for judging."""
    submission = submissions.submit(session, user, body.problem, body.code, body.mode, idempotency_key)
    response.headers["Location"] = f"/api/v1/submissions/{submission.id}"
    return submission_detail(submission, user)


def _detail(user: User, submission_id: int) -> SubmissionOut:
    with new_session() as session:
        return submission_detail(submissions.find_submission(session, user, submission_id), user)


@router.get("/{submission_id}", response_model=SubmissionOut)
async def read(
    submission_id: int,
    user: CurrentUser,
    wait: Annotated[float, Query(ge=0, description="hold up to this many seconds for the verdict")] = 0,
) -> SubmissionOut:
    """A submission with its verdict and per-test results; ?wait=S holds until it is done.

    While it waits it holds no database connection and no thread (see ``api.waits``).
    """
    current = await run_in_threadpool(_detail, user, submission_id)  # 404 before any wait
    wait = min(wait, get_settings().max_wait_seconds)
    if current.status == SubmissionStatus.DONE or wait <= 0:
        return current
    await watcher.wait_done(submission_id, wait)
    return await run_in_threadpool(_detail, user, submission_id)


@router.get("", response_model=Page)
def list_submissions(
    session: SessionDep,
    user: CurrentUser,
    problem: Annotated[str | None, Query(description="only this problem's submissions")] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> Page:
    """Your submissions, newest first; instructors also see those to the problems they own."""
    rows, total = submissions.list_submissions(session, user, problem, limit, offset)
    return Page(items=[submission_summary(s) for s in rows], total=total, limit=limit, offset=offset)
