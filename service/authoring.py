"""What instructors do to problems: look them up, copy them, add versions, publish or roll back,
rejudge and follow the rejudge, preview a version.

The routes parse and authorize; the decisions and the writes are here. Every version added is
queued for validation in the sandbox, and only a version that passed may be published.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Select, case, func, select
from sqlalchemy.orm import Session

from judge.engine_settings import engine_settings
from judge.errors import InvalidInput, ProblemError
from judge.problem_paths import shown
from judge.problems import SLUG
from judge.results import Verdict
from service import lifecycle
from service.access import Action, authorize, owns_problem
from service.catalog import add_version, claim_slug, no_such_problem
from service.celery_app import (
    BACKGROUND_QUEUE,
    RUN_QUEUE,
    enqueue_submission,
    enqueue_validation,
)
from service.db.models import (
    ProblemRow,
    ProblemVersion,
    Rejudge,
    RejudgeItem,
    Submission,
    SubmissionStatus,
    User,
    VersionStatus,
)
from service.errors import Conflict, Forbidden, NotFound, QuotaExceeded, Unavailable
from service.grade_release import withheld
from service.settings import get_settings
from service.stats import Acceptance, acceptance
from service.submissions import Mode, check_code


def find_problem(session: Session, slug: str) -> ProblemRow:
    row = session.scalar(select(ProblemRow).where(ProblemRow.slug == slug))
    if row is None:
        raise no_such_problem(session, slug)
    return row


def all_problems(session: Session) -> list[ProblemRow]:
    return list(session.scalars(select(ProblemRow).order_by(ProblemRow.slug)))


def versions(session: Session, row: ProblemRow) -> list[ProblemVersion]:
    return list(session.scalars(select(ProblemVersion).where(ProblemVersion.problem_id == row.id)
                                .order_by(ProblemVersion.id)))


def current_version(session: Session, row: ProblemRow) -> ProblemVersion:
    """The published version, else the newest draft (what its owner is working on)."""
    if row.published_version is not None:
        return row.published_version
    return versions(session, row)[-1]


def _slug_in(files: dict[str, str]) -> str | None:
    try:
        slug = tomllib.loads(files.get("problem.toml", "")).get("slug")
    except tomllib.TOMLDecodeError:
        return None
    return slug if isinstance(slug, str) else None


def _check_validation_quota(session: Session, row: ProblemRow) -> None:
    """QuotaExceeded when row's owner has more drafts waiting for validation than the quota
    (the one just added counted). On PostgreSQL the owner's row is locked until the upload commits,
    so parallel uploads count one after another (under READ COMMITTED each count then sees every
    draft committed before it); SQLite's write lock, taken by the insert above, does the same.
    FOR NO KEY UPDATE: the insert's foreign keys already hold the row FOR KEY SHARE, which a plain
    FOR UPDATE would wait on in every other upload (a deadlock)."""
    quota = get_settings().author_validation_quota
    session.execute(select(User.id).where(User.id == row.owner_id).with_for_update(key_share=True))
    waiting = session.scalar(select(func.count()).select_from(ProblemVersion).join(
        ProblemRow, ProblemRow.id == ProblemVersion.problem_id).where(
        ProblemRow.owner_id == row.owner_id, ProblemVersion.status == VersionStatus.DRAFT)) or 0
    if waiting > quota:
        raise QuotaExceeded(f"{waiting - 1} drafts of your problems are waiting for validation; "
                            f"the limit is {quota}: upload again once one is validated",
                            retry_after=30)


def add_draft(session: Session, row: ProblemRow, files: dict[str, str]) -> ProblemVersion:
    """Store files as a draft version of row (unless that exact version exists) and queue its
    validation. A folder that does not load is refused (ProblemError), as is a draft over its
    owner's validation quota (QuotaExceeded), and then nothing is stored."""
    try:
        version, created = add_version(session, row, files,
                                       max_wrong=get_settings().max_wrong_solutions)
        if created:
            _check_validation_quota(session, row)
    except (ProblemError, QuotaExceeded):
        session.rollback()  # a problem row claimed for this upload goes too
        raise
    session.commit()
    if created:
        enqueue_validation(version.id)
    return version


def create_problem(session: Session, owner_id: int, slug: str | None,
                   files: dict[str, str]) -> tuple[ProblemRow, ProblemVersion]:
    """A new problem owned by owner_id with files as its first draft."""
    slug = slug or _slug_in(files)
    if not slug:
        raise InvalidInput("slug: give a slug, or a problem.toml that names one")
    row = claim_slug(session, slug, owner_id, engine_settings().problems_dir)
    return row, add_draft(session, row, files)


def publish(session: Session, row: ProblemRow, wanted: str | None) -> ProblemVersion:
    """Publish the version named ``wanted`` (default: the newest), which must have passed."""
    every = versions(session, row)
    if wanted is not None:
        chosen = next((v for v in every if v.version == wanted), None)
        if chosen is None:
            raise NotFound(f"problem {row.slug!r} has no version {wanted!r}")
    else:
        chosen = every[-1]
    if chosen.status != VersionStatus.VALID:
        failures = (chosen.validation or {}).get("failures") or []
        why = f": {failures[0]}" if failures else " (validation has not finished)"
        raise Conflict(f"version {chosen.version} cannot be published: it is {chosen.status}{why}")
    row.published_version_id = chosen.id
    session.commit()
    return chosen


@dataclass(frozen=True)
class Rejudged:
    version: str
    requeued: int


def _rejudge_target(row: ProblemRow) -> ProblemVersion:
    if row.published_version is None:
        raise Conflict(f"problem {row.slug!r} has no published version to judge against")
    return row.published_version


def _rejudged(row: ProblemRow) -> Select[Submission]:
    """The submissions a rejudge of row judges again: all but tries."""
    return select(Submission).where(Submission.problem_id == row.id, Submission.mode != Mode.TRY)


def rejudge_plan(session: Session, row: ProblemRow) -> Rejudged:
    """What a rejudge of row would do now (the version, how many submissions), without doing it:
    for the page to ask before it starts one."""
    published = _rejudge_target(row)
    count = session.scalar(select(func.count()).select_from(_rejudged(row).subquery())) or 0
    return Rejudged(published.version, count)


def rejudge(session: Session, row: ProblemRow, requested_by: int | None = None) -> Rejudged:
    """Judge every submission of row again against its published version, on the background
    queue, behind every learner's run and submit. Tries are left as they were: a learner's
    experiment, never counted, with arguments the new version may not even accept. A Rejudge
    row records it, and a RejudgeItem per submission the verdict it had, for ``rejudge_progress``."""
    published = _rejudge_target(row)
    submissions = session.scalars(_rejudged(row)).all()
    ids = [submission.id for submission in submissions]
    asked = Rejudge(problem_id=row.id, version_id=published.id, requested_by=requested_by,
                    total=len(ids))
    session.add(asked)
    session.flush()
    # The verdicts before, kept before they are forgotten: the rejudge's progress says which changed.
    session.add_all(RejudgeItem(rejudge_id=asked.id, submission_id=submission.id,
                                verdict_before=submission.verdict) for submission in submissions)
    for submission in submissions:
        lifecycle.reset_for_rejudge(submission, published.id)
    session.commit()
    lifecycle.requeued(ids)  # before the messages: a worker's "running" must come after "queued"
    for submission_id in ids:
        enqueue_submission(submission_id, queue=BACKGROUND_QUEUE)
    return Rejudged(published.version, len(ids))


def newest_versions(session: Session, rows: list[ProblemRow]) -> dict[int, ProblemVersion]:
    """Each row's newest version (problem id -> version), in one query."""
    if not rows:
        return {}
    newest = (select(func.max(ProblemVersion.id)).where(ProblemVersion.problem_id.in_([r.id for r in rows]))
              .group_by(ProblemVersion.problem_id))
    found = session.scalars(select(ProblemVersion).where(ProblemVersion.id.in_(newest)))
    return {version.problem_id: version for version in found}


def acceptance_by_problem(session: Session, rows: list[ProblemRow]) -> dict[int, Acceptance]:
    """``problem_acceptance`` of every row (problem id -> acceptance), in one GROUP BY query."""
    ids = [r.id for r in rows]
    counts = {problem_id: (total, accepted) for problem_id, total, accepted in session.execute(
        select(Submission.problem_id, func.count(),
               func.count(case((Submission.verdict == Verdict.ACCEPTED, 1))))
        .where(Submission.problem_id.in_(ids), Submission.mode == Mode.SUBMIT,
               Submission.status == SubmissionStatus.DONE)
        .group_by(Submission.problem_id))} if ids else {}
    return {problem_id: acceptance(*counts.get(problem_id, (0, 0))) for problem_id in ids}


def problem_acceptance(session: Session, row: ProblemRow) -> Acceptance:
    """Judged submissions (mode submit) and accepted ones, with the Wilson interval: every
    learner's to read, so results still held (``service.grade_release``) are left out, or a
    learner could tell their own verdict from the count before and after it."""
    judged = select(func.count()).select_from(Submission).where(
        Submission.problem_id == row.id, Submission.mode == Mode.SUBMIT,
        Submission.status == SubmissionStatus.DONE, ~withheld())
    total = session.scalar(judged) or 0
    accepted = session.scalar(judged.where(Submission.verdict == Verdict.ACCEPTED)) or 0
    return acceptance(total, accepted)


def find_version(session: Session, row: ProblemRow, wanted: str) -> ProblemVersion:
    """The version of row whose hash is ``wanted``."""
    found = session.scalar(select(ProblemVersion).where(
        ProblemVersion.problem_id == row.id, ProblemVersion.version == wanted))
    if found is None:
        raise NotFound(f"problem {row.slug!r} has no version {wanted!r}")
    return found


def newest_version(session: Session, row: ProblemRow) -> ProblemVersion:
    return versions(session, row)[-1]


_TABLE = re.compile(r"^\s*\[")
_SLUG_KEY = re.compile(r"^\s*slug\s*=")


def with_slug(toml_text: str, slug: str) -> str:
    """problem.toml with its top-level slug set to ``slug`` (added when it has none); every other
    line, comments included, stays as it was."""
    lines = toml_text.splitlines(keepends=True)
    for index, line in enumerate(lines):
        if _TABLE.match(line):  # past the top-level keys: the slug was not among them
            break
        if _SLUG_KEY.match(line):
            lines[index] = f'slug = "{slug}"\n'
            return "".join(lines)
    return f'slug = "{slug}"\n' + "".join(lines)


def copy_source(session: Session, user: User, slug: str, wanted: str | None) -> ProblemRow:
    """The problem ``user`` may copy: one they own (any version), or a shareable one (its
    published version): a shipped one, the library every instructor adapts from as PrairieLearn's
    is, or one its owner shares (``service.sharing``)."""
    row = find_problem(session, slug)
    authorize(user, Action.COPY, row)  # a draft of someone else's does not exist
    if owns_problem(user, row):
        return row
    published = session.get(ProblemVersion, row.published_version_id)
    if wanted is not None and (published is None or wanted != published.version):
        raise Forbidden(f"of problem {slug!r}, which you do not own, only the published version "
                        "may be copied")
    return row


def copy_problem(session: Session, source: ProblemRow, owner: User, new_slug: str,
                 wanted: str | None = None) -> tuple[ProblemRow, ProblemVersion]:
    """A new problem owned by ``owner`` with the files of one of source's versions (default:
    the published one, else the newest), its slug rewritten; a draft, validated like any upload."""
    if not SLUG.fullmatch(new_slug):  # before it is written into problem.toml
        raise InvalidInput(f"new_slug: {shown(new_slug)} must match {SLUG.pattern}")
    chosen = find_version(session, source, wanted) if wanted else current_version(session, source)
    files = dict(chosen.files)
    if "problem.toml" not in files:
        raise InvalidInput(f"version {chosen.version} of {source.slug!r} has no problem.toml")
    files["problem.toml"] = with_slug(files["problem.toml"], new_slug)
    return create_problem(session, owner.id, new_slug, files)


@dataclass(frozen=True)
class VerdictCount:
    """How many of a rejudge's submissions had ``verdict`` before it and have it now (None: no
    verdict: not judged before, or not judged again yet)."""

    verdict: str | None
    before: int
    after: int


@dataclass(frozen=True)
class VerdictChange:
    """A submission the rejudge has judged again to another verdict than it had."""

    submission_id: int
    user: str
    before: str | None
    after: str | None


MAX_CHANGES_LISTED = 200  # a progress poll stays small; the count says when there are more


@dataclass(frozen=True)
class RejudgeProgress:
    version: str
    requested_at: datetime
    requested_by: str | None
    total: int
    done: int
    queued: int
    running: int
    verdicts: tuple[VerdictCount, ...] = ()
    changed: tuple[VerdictChange, ...] = ()
    changed_total: int = 0


def _verdict_changes(session: Session, rejudge: Rejudge) -> tuple[
        tuple[VerdictCount, ...], tuple[VerdictChange, ...], int]:
    """Before -> after counts per verdict of a rejudge's submissions, and those whose verdict
    changed once judged again (a submission still waiting has not changed yet). A rejudge asked
    for before its items were kept has neither: () and 0."""
    rows = session.execute(
        select(RejudgeItem.submission_id, RejudgeItem.verdict_before, Submission.verdict,
               Submission.status, User.name)
        .join(Submission, Submission.id == RejudgeItem.submission_id)
        .join(User, User.id == Submission.user_id)
        .where(RejudgeItem.rejudge_id == rejudge.id).order_by(RejudgeItem.submission_id)).all()
    before: dict[str | None, int] = {}
    after: dict[str | None, int] = {}
    changed: list[VerdictChange] = []
    for submission_id, was, now, status, name in rows:
        judged = status == SubmissionStatus.DONE
        now = now if judged else None
        before[was] = before.get(was, 0) + 1
        after[now] = after.get(now, 0) + 1
        if judged and now != was:
            changed.append(VerdictChange(submission_id, name, was, now))
    names = sorted(set(before) | set(after), key=lambda v: (v is None, v or ""))
    counts = tuple(VerdictCount(v, before.get(v, 0), after.get(v, 0)) for v in names)
    return counts, tuple(changed[:MAX_CHANGES_LISTED]), len(changed)


def rejudge_progress(session: Session, row: ProblemRow) -> RejudgeProgress | None:
    """How far the latest rejudge of row has come: of the submissions it put back in the queue
    (those now on its version that existed when it was asked for), how many are done, queued
    and running. A submission made later on the same version is not part of it. None before
    any rejudge: nothing to follow is an answer, not an error."""
    latest = session.scalar(select(Rejudge).where(Rejudge.problem_id == row.id)
                            .order_by(Rejudge.requested_at.desc(), Rejudge.id.desc()).limit(1))
    if latest is None:
        return None
    counts = dict(session.execute(
        select(Submission.status, func.count()).where(
            Submission.problem_id == row.id, Submission.version_id == latest.version_id,
            Submission.mode != Mode.TRY, Submission.created_at <= latest.requested_at)
        .group_by(Submission.status)).all())
    version = session.get(ProblemVersion, latest.version_id)
    by = session.get(User, latest.requested_by) if latest.requested_by is not None else None
    done = min(counts.get(SubmissionStatus.DONE, 0), latest.total)
    verdicts, changed, changed_total = _verdict_changes(session, latest)
    return RejudgeProgress(
        version=version.version if version else "", requested_at=latest.requested_at,
        requested_by=by.name if by else None, total=latest.total, done=done,
        queued=counts.get(SubmissionStatus.QUEUED, 0), running=counts.get(SubmissionStatus.RUNNING, 0),
        verdicts=verdicts, changed=changed, changed_total=changed_total)


def preview_version(session: Session, row: ProblemRow, wanted: str | None) -> ProblemVersion:
    """The version to preview: the one named, else the newest (a draft, typically)."""
    return find_version(session, row, wanted) if wanted else newest_version(session, row)


def preview_run(session: Session, user: User, row: ProblemRow, wanted: str, code: str) -> Submission:
    """A run of ``code`` against the public tests of version ``wanted`` of row, published or
    not, for the author trying the preview: a submission of the caller's in mode run on that
    version (the caller must manage row), judged on the run queue like a learner's Run. It is
    theirs, in their history, and counted nowhere (statistics count submissions, not runs)."""
    version = find_version(session, row, wanted)
    check_code(code)
    submission = Submission(user_id=user.id, problem_id=row.id, version_id=version.id,
                            mode=Mode.RUN.value, code=code)
    session.add(submission)
    session.commit()
    try:
        enqueue_submission(submission.id, queue=RUN_QUEUE)
    except Exception as exc:  # saved and queued: recovery sends it once the queue is back
        raise Unavailable(f"run {submission.id} is saved but the queue is unreachable; it will be "
                          "judged when the queue is back", retry_after=5) from exc
    return submission
