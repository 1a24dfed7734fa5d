"""Problems: browse, author (JSON, an archive or a copy), share for copying, validate, publish or
roll back, rejudge and follow it, preview, statistics.

Each route parses, authorizes (``service.access.authorize``), calls the service
(``service.authoring``) and shapes the answer (``api.presenters``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from sqlalchemy.orm import Session

from api.deps import CurrentUser, Instructor, SessionDep
from api.presenters import hints_out, problem_detail, problem_summary, submission_detail, version_out
from api.rendering import render_markdown
from api.schemas import (
    EditorialOut,
    HintRevealOut,
    HintsOut,
    NewestVersion,
    ProblemAcceptance,
    ProblemCreate,
    ProblemDetail,
    ProblemListItem,
    PublishRequest,
    Rejudged,
    Stats,
    SubmissionOut,
    VersionOut,
)
from api.schemas.authoring import (
    CopyRequest,
    FormulaResult,
    ProblemSettings,
    ReferenceResult,
    RejudgePlan,
    RejudgeProgress,
    ValidationReport,
    VerdictChangeOut,
    VerdictCountOut,
    VersionDetail,
    VersionFiles,
    WrongResult,
)
from api.schemas.preview import PreviewDetail, PreviewHint, PreviewRun
from api.uploads import Upload, received, uploaded_files
from judge.errors import ProblemError
from judge.problems import Problem
from judge.results import Verdict
from service import authoring, editorials, hints, sharing
from service.access import Action, allowed, authorize, owns_problem
from service.catalog import load_version
from service.db.models import ProblemRow, ProblemVersion, User, VersionStatus
from service.errors import NotFound
from service.progress import progress_by_problem

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


@router.get("", response_model=list[ProblemListItem])
def list_problems(session: SessionDep, user: CurrentUser, mine: bool = Query(False, description=(
        "only the problems you own (an admin: every problem), each with its newest version "
        "and acceptance"))) -> list[ProblemListItem]:
    """Published problems, plus drafts you own, each with your progress on it; with mine=true,
    the problems you author, for the authoring page."""
    rows = [r for r in authoring.all_problems(session)
            if (owns_problem(user, r) if mine else allowed(user, Action.READ, r))]
    progress = progress_by_problem(session, user, [r.id for r in rows])
    items = [ProblemListItem(**problem_summary(
        r, load_version(authoring.current_version(session, r)), progress[r.id], user).model_dump())
        for r in rows]
    if mine:
        newest = authoring.newest_versions(session, rows)
        rates = authoring.acceptance_by_problem(session, rows)
        for item, row in zip(items, rows, strict=True):
            version, rate = newest[row.id], rates[row.id]
            item.newest_version = NewestVersion(version=version.version, status=VersionStatus(version.status),
                                                created_at=version.created_at)
            item.acceptance = ProblemAcceptance(submissions=rate.submissions, accepted=rate.accepted,
                                                rate=rate.rate)
    return items


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
def reveal_hint(slug: str, session: SessionDep, user: CurrentUser, hint: Annotated[int | None, Query(
        ge=1, le=1000, description="this hint (1 for the first) instead of the next in order: the one "
                                   "about a public test that failed")] = None) -> HintsOut:
    """Reveal your next hint (in order, or the one asked for; recorded for you)."""
    return hints_out(hints.reveal_next(session, user, _problem(session, user, slug, Action.READ), hint))


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


@router.patch("/{slug}", response_model=ProblemDetail, response_model_exclude_unset=True, responses={
    409: {"description": "a shipped problem is always shareable (code conflict)"}})
def change_problem(slug: str, body: ProblemSettings, session: SessionDep, user: Instructor) -> ProblemDetail:
    """Change a problem you own (an admin: any): whether other instructors may copy it
    (shareable); the problem as GET answers it."""
    row = _problem(session, user, slug, Action.MANAGE)
    if body.shareable is not None:
        row = sharing.set_shareable(session, row, body.shareable)
    return problem_detail(session, row, user)


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


@router.get("/{slug}/rejudge", response_model=RejudgePlan,
            responses={409: {"description": "no published version to judge against"}})
def rejudge_plan(slug: str, session: SessionDep, user: Instructor) -> RejudgePlan:
    """What a rejudge of a problem you own would do now, without starting it: the version and
    how many submissions (to ask before POSTing)."""
    plan = authoring.rejudge_plan(session, _problem(session, user, slug, Action.MANAGE))
    return RejudgePlan(problem=slug, version=plan.version, submissions=plan.requeued)


@router.post("/{slug}/rejudge", response_model=Rejudged)
def rejudge(slug: str, session: SessionDep, user: Instructor) -> Rejudged:
    """Judge every submission of a problem you own again, against its published version."""
    done = authoring.rejudge(session, _problem(session, user, slug, Action.MANAGE), user.id)
    return Rejudged(problem=slug, version=done.version, requeued=done.requeued)


def _verdict(stored: str | None) -> Verdict | None:
    return None if stored is None else Verdict(stored)


@router.get("/{slug}/rejudges/latest", response_model=RejudgeProgress | None)
def rejudge_progress(slug: str, session: SessionDep, user: Instructor) -> RejudgeProgress | None:
    """How far the latest rejudge of a problem you own has come (for a progress bar), the
    verdicts before and after, and the submissions whose verdict changed; null before the first
    rejudge."""
    progress = authoring.rejudge_progress(session, _problem(session, user, slug, Action.MANAGE))
    if progress is None:
        return None
    return RejudgeProgress(problem=slug, version=progress.version, requested_at=progress.requested_at,
                           requested_by=progress.requested_by, total=progress.total, done=progress.done,
                           queued=progress.queued, running=progress.running,
                           verdicts=[VerdictCountOut(verdict=_verdict(c.verdict), before=c.before,
                                                     after=c.after) for c in progress.verdicts],
                           changed=[VerdictChangeOut(id=c.submission_id, user=c.user,
                                                     before=_verdict(c.before), after=_verdict(c.after))
                                    for c in progress.changed],
                           changed_total=progress.changed_total)


@router.post("/{slug}/copy", status_code=201, response_model=VersionOut, responses={
    403: {"description": "someone else's problem that is not shareable, or a version of it other "
                         "than the published one (forbidden); or a learner"}})
def copy_problem(slug: str, body: CopyRequest, session: SessionDep, user: Instructor) -> VersionOut:
    """A new problem of yours with the files of a problem you own, or of a shareable problem's
    published version (shipped, or shared by its owner: to adapt it); a draft, validated in the
    sandbox."""
    source = authoring.copy_source(session, user, slug, body.version)
    row, version = authoring.copy_problem(session, source, user, body.new_slug, body.version)
    return version_out(row, version)


def _report(problem_version: ProblemVersion) -> ValidationReport | None:
    stored = problem_version.validation
    if stored is None:
        return None
    report = ValidationReport.model_validate({
        **stored,
        "reference": ReferenceResult.model_validate(stored["reference"]) if stored.get("reference") else None,
        "wrong": [WrongResult.model_validate(w) for w in stored.get("wrong") or []],
        "formulas": [FormulaResult.model_validate(f) for f in stored.get("formulas") or []],
    })
    if report.hidden_tests is None or report.public_tests is None:
        # Reports stored before they counted tests: the version's own files know.
        try:
            problem = load_version(problem_version)
        except ProblemError:
            return report
        report.public_tests, report.hidden_tests = len(problem.public_tests), len(problem.hidden_tests)
    return report


@router.get("/{slug}/versions/{version}", response_model=VersionDetail)
def read_version(slug: str, version: str, session: SessionDep, user: Instructor) -> VersionDetail:
    """One version of a problem you own, with its validation report: the reference's verdict and
    score, determinism, each wrong solution against its declared verdict, the test counts."""
    row = _problem(session, user, slug, Action.MANAGE)
    found = authoring.find_version(session, row, version)
    return VersionDetail(id=found.id, version=found.version, status=VersionStatus(found.status),
                         published=row.published_version_id == found.id, created_at=found.created_at,
                         validation=_report(found))


@router.get("/{slug}/versions/{version}/files", response_model=VersionFiles)
def version_files(slug: str, version: str, session: SessionDep, user: Instructor) -> VersionFiles:
    """Every file of one version of a problem you own (hidden tests included), to edit them."""
    found = authoring.find_version(session, _problem(session, user, slug, Action.MANAGE), version)
    return VersionFiles(version=found.version, files=dict(found.files))


def _owned_problem(session: Session, user: User, slug: str) -> ProblemRow:
    row = authoring.find_problem(session, slug)
    if not owns_problem(user, row):
        raise NotFound(f"no problem {slug!r}")  # a preview is the owner's alone
    return row


def _preview_hints(problem: Problem) -> list[PreviewHint]:
    about = problem.hint_tests or ((),) * len(problem.hints)  # older versions kept no tests
    return [PreviewHint(index=index, tests=list(tests), markdown=text, html=render_markdown(text))
            for index, (text, tests) in enumerate(zip(problem.hints, about, strict=True), start=1)]


@router.get("/{slug}/preview", response_model=PreviewDetail, response_model_exclude_unset=True)
def preview(slug: str, session: SessionDep, user: CurrentUser, version: str | None = None) -> PreviewDetail:
    """The problem's page as a learner would see it, for any version of a problem you own
    (default: the newest), published or not; with every hint and the editorial."""
    row = _owned_problem(session, user, slug)
    chosen = authoring.preview_version(session, row, version)
    detail = problem_detail(session, row, user, chosen)
    problem = load_version(chosen)
    return PreviewDetail(
        **detail.model_dump(exclude_unset=True),
        hints=_preview_hints(problem),
        editorial=(EditorialOut(markdown=problem.editorial, html=render_markdown(problem.editorial))
                   if problem.editorial is not None else None))


@router.post("/{slug}/versions/{version}/runs", status_code=202, response_model=SubmissionOut,
             responses={404: {"description": "no such problem of yours, or no such version"},
                        413: {"description": "the code is over JUDGE_MAX_CODE_BYTES"}})
def preview_run(slug: str, version: str, body: PreviewRun, session: SessionDep,
                user: CurrentUser) -> SubmissionOut:
    """Run code against the public tests of one version of a problem you own, published or not
    (the preview's Run): a submission of yours in mode run on that version; follow it at GET
    /submissions/{id}."""
    row = _owned_problem(session, user, slug)
    return submission_detail(authoring.preview_run(session, user, row, version, body.code), user)


@router.get("/{slug}/stats", response_model=Stats)
def stats(slug: str, session: SessionDep, user: CurrentUser) -> Stats:
    """Judged submissions (mode submit), accepted ones, and the Wilson 95% interval of the rate."""
    result = authoring.problem_acceptance(session, _problem(session, user, slug, Action.READ))
    return Stats(problem=slug, submissions=result.submissions, accepted=result.accepted,
                 acceptance_rate=result.rate, wilson_95=result.interval)
