"""Problems: browse, author (JSON or an archive), validate, publish, rejudge, statistics."""

from __future__ import annotations

import tomllib
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from markdown_it import MarkdownIt
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from api.deps import CurrentUser, Instructor, SessionDep
from api.schemas import (
    ProblemCreate,
    ProblemDetail,
    ProblemSummary,
    PublishRequest,
    Rejudged,
    Stats,
    VersionOut,
)
from api.uploads import Upload, received, uploaded_files
from judge.errors import Conflict, Forbidden, InvalidInput, NotFound
from judge.problems import Problem, ProblemError, TestCase
from judge.results import Verdict, json_safe
from judge.service.access import owns_problem
from judge.service.catalog import add_version, claim_slug, load_version
from judge.service.celery_app import BACKGROUND_QUEUE, enqueue_submission, enqueue_validation
from judge.service.db.models import (
    ProblemRow,
    ProblemVersion,
    Submission,
    SubmissionStatus,
    User,
    VersionStatus,
    utcnow,
)
from judge.service.stats import acceptance
from judge.service.submissions import Mode
from judge.settings import get_settings

router = APIRouter(prefix="/problems", tags=["problems"])
markdown = MarkdownIt("commonmark", {"html": False}).enable("table")  # raw HTML is escaped

UPLOAD_DOC: dict[str, Any] = {
    "requestBody": {
        "content": {
            "application/json": {"schema": ProblemCreate.model_json_schema()},
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "properties": {"archive": {"type": "string", "format": "binary"},
                                   "slug": {"type": "string"}},
                    "required": ["archive"],
                }
            },
        },
        "required": True,
    }
}


def _row(session: Session, slug: str) -> ProblemRow:
    row = session.scalar(select(ProblemRow).where(ProblemRow.slug == slug))
    if row is None:
        raise NotFound(f"no problem {slug!r}")
    return row


def _readable(session: Session, user: User, slug: str) -> ProblemRow:
    """Published problems are for everyone; drafts only for their owner (else 404)."""
    row = _row(session, slug)
    if row.published_version_id is None and not owns_problem(user, row):
        raise NotFound(f"no problem {slug!r}")
    return row


def _owned(session: Session, user: User, slug: str) -> ProblemRow:
    row = _row(session, slug)
    if not owns_problem(user, row):
        raise Forbidden(f"you do not own problem {slug!r}")
    return row


def _versions(session: Session, row: ProblemRow) -> list[ProblemVersion]:
    return list(session.scalars(select(ProblemVersion).where(ProblemVersion.problem_id == row.id)
                                .order_by(ProblemVersion.id)))


def _current_version(session: Session, row: ProblemRow) -> ProblemVersion:
    if row.published_version is not None:
        return row.published_version
    return _versions(session, row)[-1]


def _test_json(test: TestCase) -> dict[str, Any]:
    data: dict[str, Any] = {"name": test.name, "args": json_safe(test.args),
                            "kwargs": json_safe(test.kwargs)}
    if test.raises:
        data["raises"] = test.raises
    else:
        data["expected"] = json_safe(test.expected)
    data["explanation"] = test.explanation
    return data


def _summary(row: ProblemRow, problem: Problem) -> ProblemSummary:
    return ProblemSummary(
        slug=row.slug, title=problem.title, difficulty=problem.difficulty, tags=list(problem.tags),
        version=row.published_version.version if row.published_version else None,
        published=row.published_version_id is not None,
    )


def _version_out(row: ProblemRow, version: ProblemVersion) -> VersionOut:
    return VersionOut(id=version.id, version=version.version, status=version.status,
                      published=row.published_version_id == version.id,
                      validation=version.validation, created_at=version.created_at)


def _detail(session: Session, row: ProblemRow, user: User) -> ProblemDetail:
    version = _current_version(session, row)
    problem = load_version(version)
    owner = owns_problem(user, row)
    return ProblemDetail(
        **_summary(row, problem).model_dump(),
        signature=problem.signature,
        function=problem.function,
        parameters=[{"name": p.name, "type": str(p.type), "optional": p.optional}
                    for p in problem.parameters],
        returns=str(problem.returns),
        statement_markdown=problem.statement,
        statement_html=markdown.render(problem.statement),
        starter=problem.starter,
        limits={"time_per_test": problem.limits.time_per_test,
                "time_per_submission": problem.limits.time_per_submission,
                "memory_mb": problem.limits.memory_mb},
        checker={"name": problem.checker.name, "abs_tol": problem.checker.abs_tol,
                 "rel_tol": problem.checker.rel_tol},
        public_tests=[_test_json(t) for t in problem.public_tests],
        hidden_test_count=len(problem.hidden_tests),
        hidden_tests=[_test_json(t) for t in problem.hidden_tests] if owner else None,
        versions=[_version_out(row, v) for v in _versions(session, row)] if owner else None,
    )


def _slug_of(files: dict[str, str]) -> str | None:
    try:
        slug = tomllib.loads(files.get("problem.toml", "")).get("slug")
    except tomllib.TOMLDecodeError:
        return None
    return slug if isinstance(slug, str) else None


def _store(session: Session, row: ProblemRow, files: dict[str, str]) -> ProblemVersion:
    try:
        version, created = add_version(session, row, files)
    except ProblemError as exc:
        session.rollback()
        raise InvalidInput(str(exc)) from exc
    session.commit()
    if created:
        enqueue_validation(version.id)
    return version


@router.get("", response_model=list[ProblemSummary])
def list_problems(session: SessionDep, user: CurrentUser) -> list[ProblemSummary]:
    """Published problems, plus drafts you own."""
    rows = session.scalars(select(ProblemRow).order_by(ProblemRow.slug)).all()
    visible = [r for r in rows if r.published_version_id is not None or owns_problem(user, r)]
    return [_summary(r, load_version(_current_version(session, r))) for r in visible]


@router.get("/{slug}", response_model=ProblemDetail, response_model_exclude_none=True)
def read_problem(slug: str, session: SessionDep, user: CurrentUser) -> ProblemDetail:
    """Statement, signature, starter code, limits and public tests (hidden tests: owner only)."""
    return _detail(session, _readable(session, user, slug), user)


def _create(session: Session, user: User, upload: Upload) -> VersionOut:
    slug, files = uploaded_files(upload)
    slug = slug or _slug_of(files)
    if not slug:
        raise InvalidInput("slug: give a slug, or a problem.toml that names one")
    row = claim_slug(session, slug, user.id, get_settings().problems_dir)
    return _version_out(row, _store(session, row, files))


def _update(session: Session, row: ProblemRow, upload: Upload) -> VersionOut:
    _, files = uploaded_files(upload)
    return _version_out(row, _store(session, row, files))


# The two upload routes are async only to await the body; reading the archive, loading the
# problem and the database work are blocking, so they go to the thread pool and a slow or
# hostile upload cannot stall other requests.
@router.post("", status_code=201, response_model=VersionOut, openapi_extra=UPLOAD_DOC)
async def create_problem(request: Request, session: SessionDep, user: Instructor) -> VersionOut:
    """Author a new problem (JSON or archive); stored as a draft version and validated."""
    async with received(request) as upload:
        return await run_in_threadpool(_create, session, user, upload)


@router.put("/{slug}", response_model=VersionOut, openapi_extra=UPLOAD_DOC)
async def update_problem(slug: str, request: Request, session: SessionDep, user: Instructor) -> VersionOut:
    """Add a new draft version of a problem you own; it is validated in the sandbox."""
    row = await run_in_threadpool(_owned, session, user, slug)  # refuse before reading the body
    async with received(request) as upload:
        return await run_in_threadpool(_update, session, row, upload)


@router.get("/{slug}/versions", response_model=list[VersionOut])
def list_versions(slug: str, session: SessionDep, user: Instructor) -> list[VersionOut]:
    """Every version of a problem you own, with its validation results."""
    row = _owned(session, user, slug)
    return [_version_out(row, v) for v in _versions(session, row)]


@router.post("/{slug}/publish", response_model=VersionOut)
def publish(slug: str, body: PublishRequest, session: SessionDep, user: Instructor) -> VersionOut:
    """Publish a version whose validation passed (default: the newest such version)."""
    row = _owned(session, user, slug)
    versions = _versions(session, row)
    if body.version is not None:
        chosen = next((v for v in versions if v.version == body.version), None)
        if chosen is None:
            raise NotFound(f"problem {slug!r} has no version {body.version!r}")
    else:
        chosen = versions[-1]
    if chosen.status != VersionStatus.VALID:
        failures = (chosen.validation or {}).get("failures") or []
        why = f": {failures[0]}" if failures else " (validation has not finished)"
        raise Conflict(f"version {chosen.version} cannot be published: it is {chosen.status}{why}")
    row.published_version_id = chosen.id
    session.commit()
    return _version_out(row, chosen)


@router.post("/{slug}/rejudge", response_model=Rejudged)
def rejudge(slug: str, session: SessionDep, user: Instructor) -> Rejudged:
    """Judge every submission of a problem you own again, against its published version."""
    row = _owned(session, user, slug)
    if row.published_version is None:
        raise Conflict(f"problem {slug!r} has no published version to judge against")
    submissions = session.scalars(select(Submission).where(Submission.problem_id == row.id)).all()
    for submission in submissions:
        submission.version_id = row.published_version.id
        submission.status = SubmissionStatus.QUEUED
        submission.verdict = submission.score = submission.message = None
        submission.started_at = submission.finished_at = None
        submission.attempts = 0
        # Dropping the claim means the verdict of a judge still running no longer lands.
        submission.lease_token = submission.lease_expires_at = None
        submission.enqueued_at = utcnow()
        submission.results.clear()
    session.commit()
    for submission in submissions:  # behind every learner's run and submit
        enqueue_submission(submission.id, queue=BACKGROUND_QUEUE)
    return Rejudged(problem=slug, version=row.published_version.version, requeued=len(submissions))


@router.get("/{slug}/stats", response_model=Stats)
def stats(slug: str, session: SessionDep, user: CurrentUser) -> Stats:
    """Judged submissions (mode submit), accepted ones, and the Wilson 95% interval of the rate."""
    row = _readable(session, user, slug)
    judged = select(func.count()).select_from(Submission).where(
        Submission.problem_id == row.id, Submission.mode == Mode.SUBMIT,
        Submission.status == SubmissionStatus.DONE)
    total = session.scalar(judged) or 0
    accepted = session.scalar(judged.where(Submission.verdict == Verdict.ACCEPTED)) or 0
    result = acceptance(total, accepted)
    return Stats(problem=slug, submissions=total, accepted=accepted,
                 acceptance_rate=result.rate, wilson_95=result.interval)
