"""Submissions: create, read (optionally waiting for the verdict), list."""

from __future__ import annotations

import logging
from typing import Annotated

from fastapi import APIRouter, Header, Query, Response
from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from api.deps import CurrentUser, SessionDep
from api.schemas import Page, SubmissionCreate, SubmissionOut, SubmissionSummary
from api.waits import watcher
from judge.errors import NotFound, Unavailable
from judge.results import HiddenPolicy, learner_view
from judge.service.access import can_see_submission, owns_problem
from judge.service.catalog import load_version
from judge.service.celery_app import RUN_QUEUE, SUBMIT_QUEUE, enqueue_submission
from judge.service.db.models import ProblemRow, Role, Submission, SubmissionStatus, User
from judge.service.db.session import new_session
from judge.service.submissions import Mode, create_submission
from judge.settings import get_settings

router = APIRouter(prefix="/submissions", tags=["submissions"])
log = logging.getLogger(__name__)


def summary(submission: Submission) -> SubmissionSummary:
    return SubmissionSummary(
        id=submission.id, problem=submission.problem.slug,
        problem_version=submission.version.version, user=submission.user.name,
        mode=Mode(submission.mode), status=submission.status, verdict=submission.verdict,
        score=submission.score, created_at=submission.created_at,
        started_at=submission.started_at, finished_at=submission.finished_at,
    )


def detail(submission: Submission, viewer: User) -> SubmissionOut:
    """The problem's owner sees every test; anyone else sees hidden tests as an aggregate."""
    tests = [row.data for row in submission.results]
    hidden = None
    if not owns_problem(viewer, submission.problem):
        policy = HiddenPolicy(load_version(submission.version).hidden_policy)
        view = learner_view(tests, policy)
        tests, hidden = view["tests"], view["hidden"]
    return SubmissionOut(**summary(submission).model_dump(), message=submission.message,
                         code=submission.code, tests=tests, hidden=hidden)


MAX_ID = 2**63 - 1  # the database's integer; a larger id would overflow the query, not miss


def _visible(session: Session, user: User, submission_id: int) -> Submission:
    submission = session.get(Submission, submission_id) if 0 < submission_id <= MAX_ID else None
    # Someone else's submission answers 404 exactly like a missing one: ids reveal nothing.
    if submission is None or not can_see_submission(user, submission):
        raise NotFound(f"no submission {submission_id}")
    return submission


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
    submission, created = create_submission(
        session, user, body.problem, body.code, body.mode, idempotency_key
    )
    if created:
        queue = RUN_QUEUE if body.mode is Mode.RUN else SUBMIT_QUEUE
        try:
            enqueue_submission(submission.id, queue=queue)
        except Exception as exc:  # the broker is down: the row is saved and recovery sends it
            log.warning("submission %s saved but not queued: %s", submission.id, exc)
            raise Unavailable(
                f"submission {submission.id} is saved but the queue is unreachable; it will be "
                "judged when the queue is back (poll it, or retry with the same Idempotency-Key)",
                retry_after=5) from exc
    response.headers["Location"] = f"/api/v1/submissions/{submission.id}"
    return detail(submission, user)


def _detail(user: User, submission_id: int) -> SubmissionOut:
    with new_session() as session:
        return detail(_visible(session, user, submission_id), user)


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
    query = select(Submission).join(ProblemRow, Submission.problem_id == ProblemRow.id)
    if user.role == Role.INSTRUCTOR:
        query = query.where(or_(Submission.user_id == user.id, ProblemRow.owner_id == user.id))
    elif user.role != Role.ADMIN:
        query = query.where(Submission.user_id == user.id)
    if problem is not None:
        query = query.where(ProblemRow.slug == problem)
    total = session.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = session.scalars(query.order_by(Submission.id.desc()).limit(limit).offset(offset)).all()
    return Page(items=[summary(s) for s in rows], total=total, limit=limit, offset=offset)
