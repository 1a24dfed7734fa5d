"""Problems: browse, author (JSON or an archive), validate, publish, rejudge, statistics.

Each route parses, authorizes (``judge.service.access.authorize``), calls the service
(``judge.service.authoring``) and shapes the answer (``api.presenters``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from sqlalchemy.orm import Session

from api.deps import CurrentUser, Instructor, SessionDep
from api.presenters import hints_out, problem_detail, problem_summary, version_out
from api.rendering import render_markdown
from api.schemas import (
    EditorialOut,
    HintRevealOut,
    HintsOut,
    ProblemCreate,
    ProblemDetail,
    ProblemSummary,
    PublishRequest,
    Rejudged,
    Stats,
    VersionOut,
)
from api.uploads import Upload, received, uploaded_files
from judge.service import authoring, editorials, hints
from judge.service.access import Action, allowed, authorize
from judge.service.catalog import load_version
from judge.service.db.models import ProblemRow, User
from judge.service.progress import progress_by_problem

router = APIRouter(prefix="/problems", tags=["problems"])

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


def _problem(session: Session, user: User, slug: str, action: Action) -> ProblemRow:
    row = authoring.find_problem(session, slug)
    authorize(user, action, row)
    return row


@router.get("", response_model=list[ProblemSummary])
def list_problems(session: SessionDep, user: CurrentUser) -> list[ProblemSummary]:
    """Published problems, plus drafts you own, each with your progress on it."""
    rows = [r for r in authoring.all_problems(session) if allowed(user, Action.READ, r)]
    mine = progress_by_problem(session, user, [r.id for r in rows])
    return [problem_summary(r, load_version(authoring.current_version(session, r)), mine[r.id])
            for r in rows]


@router.get("/{slug}", response_model=ProblemDetail, response_model_exclude_unset=True)
def read_problem(slug: str, session: SessionDep, user: CurrentUser) -> ProblemDetail:
    """Statement, signature, starter code, limits, public tests, your progress and hints
    (hidden tests and versions: owner only)."""
    return problem_detail(session, _problem(session, user, slug, Action.READ), user)


@router.get("/{slug}/hints", response_model=HintsOut)
def read_hints(slug: str, session: SessionDep, user: CurrentUser) -> HintsOut:
    """How many hints there are, and the ones you have revealed so far."""
    return hints_out(hints.hints(session, user, _problem(session, user, slug, Action.READ)))


@router.post("/{slug}/hints", response_model=HintsOut,
             responses={409: {"description": "every hint is revealed (code no_more_hints)"}})
def reveal_hint(slug: str, session: SessionDep, user: CurrentUser) -> HintsOut:
    """Reveal your next hint (in order; recorded for you)."""
    return hints_out(hints.reveal_next(session, user, _problem(session, user, slug, Action.READ)))


@router.get("/{slug}/hint-reveals", response_model=list[HintRevealOut])
def hint_reveals(slug: str, session: SessionDep, user: Instructor) -> list[HintRevealOut]:
    """Who revealed which hint when, on a problem you own."""
    row = _problem(session, user, slug, Action.MANAGE)
    return [HintRevealOut(user=r.user, index=r.index, revealed_at=r.revealed_at)
            for r in hints.reveals(session, row)]


@router.get("/{slug}/editorial", response_model=EditorialOut,
            responses={403: {"description": "not before an accepted submission (code not_solved)"},
                       404: {"description": "no such problem, or it has no editorial"}})
def read_editorial(slug: str, session: SessionDep, user: CurrentUser) -> EditorialOut:
    """The editorial, once you have an accepted submission (the owner may always read it)."""
    text = editorials.editorial(session, user, _problem(session, user, slug, Action.READ))
    return EditorialOut(markdown=text, html=render_markdown(text))


def _create(session: Session, user: User, upload: Upload) -> VersionOut:
    slug, files = uploaded_files(upload)
    row, version = authoring.create_problem(session, user.id, slug, files)
    return version_out(row, version)


def _update(session: Session, row: ProblemRow, upload: Upload) -> VersionOut:
    _, files = uploaded_files(upload)
    return version_out(row, authoring.add_draft(session, row, files))


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
    # Refused before the body is read.
    row = await run_in_threadpool(_problem, session, user, slug, Action.MANAGE)
    async with received(request) as upload:
        return await run_in_threadpool(_update, session, row, upload)


@router.get("/{slug}/versions", response_model=list[VersionOut])
def list_versions(slug: str, session: SessionDep, user: Instructor) -> list[VersionOut]:
    """Every version of a problem you own, with its validation results."""
    row = _problem(session, user, slug, Action.MANAGE)
    return [version_out(row, v) for v in authoring.versions(session, row)]


@router.post("/{slug}/publish", response_model=VersionOut)
def publish(slug: str, body: PublishRequest, session: SessionDep, user: Instructor) -> VersionOut:
    """Publish a version whose validation passed (default: the newest version)."""
    row = _problem(session, user, slug, Action.MANAGE)
    return version_out(row, authoring.publish(session, row, body.version))


@router.post("/{slug}/rejudge", response_model=Rejudged)
def rejudge(slug: str, session: SessionDep, user: Instructor) -> Rejudged:
    """Judge every submission of a problem you own again, against its published version."""
    done = authoring.rejudge(session, _problem(session, user, slug, Action.MANAGE))
    return Rejudged(problem=slug, version=done.version, requeued=done.requeued)


@router.get("/{slug}/stats", response_model=Stats)
def stats(slug: str, session: SessionDep, user: CurrentUser) -> Stats:
    """Judged submissions (mode submit), accepted ones, and the Wilson 95% interval of the rate."""
    result = authoring.problem_acceptance(session, _problem(session, user, slug, Action.READ))
    return Stats(problem=slug, submissions=result.submissions, accepted=result.accepted,
                 acceptance_rate=result.rate, wilson_95=result.interval)
