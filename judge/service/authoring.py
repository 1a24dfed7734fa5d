"""What instructors do to problems: look them up, add versions, publish, rejudge.

The routes parse and authorize; the decisions and the writes are here. Every version added is
queued for validation in the sandbox, and only a version that passed may be published.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from judge.errors import Conflict, InvalidInput, NotFound
from judge.problems import ProblemError
from judge.results import Verdict
from judge.service import lifecycle
from judge.service.catalog import add_version, claim_slug
from judge.service.celery_app import BACKGROUND_QUEUE, enqueue_submission, enqueue_validation
from judge.service.db.models import ProblemRow, ProblemVersion, Submission, SubmissionStatus, VersionStatus
from judge.service.stats import Acceptance, acceptance
from judge.service.submissions import Mode
from judge.settings import get_settings


def find_problem(session: Session, slug: str) -> ProblemRow:
    row = session.scalar(select(ProblemRow).where(ProblemRow.slug == slug))
    if row is None:
        raise NotFound(f"no problem {slug!r}")
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


def add_draft(session: Session, row: ProblemRow, files: dict[str, str]) -> ProblemVersion:
    """Store files as a draft version of row (unless that exact version exists) and queue its
    validation. A folder that does not load is refused (ProblemError) and nothing is stored."""
    try:
        version, created = add_version(session, row, files)
    except ProblemError:
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
    row = claim_slug(session, slug, owner_id, get_settings().problems_dir)
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
class Rejudge:
    version: str
    requeued: int


def rejudge(session: Session, row: ProblemRow) -> Rejudge:
    """Judge every submission of row again against its published version, on the background
    queue, behind every learner's run and submit. Tries are left as they were: a learner's
    experiment, never counted, with arguments the new version may not even accept."""
    published = row.published_version
    if published is None:
        raise Conflict(f"problem {row.slug!r} has no published version to judge against")
    submissions = session.scalars(select(Submission).where(
        Submission.problem_id == row.id, Submission.mode != Mode.TRY)).all()
    ids = [submission.id for submission in submissions]
    for submission in submissions:
        lifecycle.reset_for_rejudge(submission, published.id)
    session.commit()
    lifecycle.requeued(ids)  # before the messages: a worker's "running" must come after "queued"
    for submission_id in ids:
        enqueue_submission(submission_id, queue=BACKGROUND_QUEUE)
    return Rejudge(published.version, len(ids))


def problem_acceptance(session: Session, row: ProblemRow) -> Acceptance:
    """Judged submissions (mode submit) and accepted ones, with the Wilson interval."""
    judged = select(func.count()).select_from(Submission).where(
        Submission.problem_id == row.id, Submission.mode == Mode.SUBMIT,
        Submission.status == SubmissionStatus.DONE)
    total = session.scalar(judged) or 0
    accepted = session.scalar(judged.where(Submission.verdict == Verdict.ACCEPTED)) or 0
    return acceptance(total, accepted)
