"""What the worker's tasks do, apart from Celery: judge a submission, validate a version,
re-queue what was lost. Each is idempotent: running it twice leaves the same rows."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta
from enum import StrEnum

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from judge.catalog import load_version
from judge.db.models import (
    ProblemVersion,
    Submission,
    SubmissionStatus,
    TestResultRow,
    VersionStatus,
    utcnow,
)
from judge.grading import grade
from judge.problems import ProblemError
from judge.results import Report, Verdict, safe_text
from judge.settings import get_settings
from judge.submissions import Mode
from judge.validation import validate_problem
from sandbox.interface import Sandbox, SandboxUnavailable

SandboxFactory = Callable[[], Sandbox]
log = logging.getLogger(__name__)


class Outcome(StrEnum):
    DONE = "done"
    RETRY = "retry"  # an internal error with retries left: queued again
    SKIPPED = "skipped"  # nothing to do (unknown id or already done)


def _judge(submission: Submission, make_sandbox: SandboxFactory) -> Report:
    """The report; an internal_error report when the judge itself cannot do its part."""
    try:
        problem = load_version(submission.version)
        return grade(problem, submission.code, make_sandbox(),
                     include_hidden=submission.mode == Mode.SUBMIT)
    except (ProblemError, SandboxUnavailable) as exc:
        reason = str(exc)
    except Exception as exc:  # a bug of the judge's: never the learner's, never a silent loop
        log.exception("judging submission %s failed", submission.id)
        reason = f"{type(exc).__name__}: {exc}"
    return Report(Verdict.INTERNAL_ERROR, 0.0, submission.problem.slug,
                  submission.version.version, message=f"the judge failed: {safe_text(reason)}")


def _store(session: Session, submission: Submission, report: Report) -> None:
    submission.results.clear()
    session.flush()
    for position, test in enumerate(report.tests):
        submission.results.append(TestResultRow(
            position=position, name=safe_text(test.name), visibility=test.visibility.value,
            status=test.status.value, data=test.as_json(),
        ))
    submission.verdict = report.verdict.value
    submission.score = report.score
    submission.message = safe_text(report.message)
    submission.status = SubmissionStatus.DONE
    submission.finished_at = utcnow()
    session.commit()


def judge_submission(session: Session, submission_id: int, make_sandbox: SandboxFactory) -> Outcome:
    submission = session.get(Submission, submission_id)
    if submission is None or submission.status == SubmissionStatus.DONE:
        return Outcome.SKIPPED
    submission.status = SubmissionStatus.RUNNING
    submission.started_at = utcnow()
    submission.attempts += 1
    session.commit()

    report = _judge(submission, make_sandbox)
    retries = get_settings().internal_error_retries
    if report.verdict is Verdict.INTERNAL_ERROR and submission.attempts <= retries:
        submission.status = SubmissionStatus.QUEUED
        submission.enqueued_at = utcnow()
        submission.message = report.message
        session.commit()
        return Outcome.RETRY
    try:
        _store(session, submission, report)
    except Exception as exc:  # the report could not be stored: store why, as the judge's fault
        log.exception("storing the verdict of submission %s failed", submission_id)
        session.rollback()
        failed = Report(Verdict.INTERNAL_ERROR, 0.0, report.problem, report.problem_version,
                        message=safe_text(f"the judge could not store the verdict: "
                                          f"{type(exc).__name__}: {str(exc)[:300]}"))
        _store(session, submission, failed)
    return Outcome.DONE


def validate_version(session: Session, version_id: int, make_sandbox: SandboxFactory) -> Outcome:
    version = session.get(ProblemVersion, version_id)
    if version is None or version.status != VersionStatus.DRAFT:
        return Outcome.SKIPPED
    try:
        failures = validate_problem(load_version(version), make_sandbox())
    except ProblemError as exc:
        failures = [str(exc)]
    except SandboxUnavailable:
        return Outcome.RETRY
    version.status = VersionStatus.INVALID if failures else VersionStatus.VALID
    version.validation = {"failures": failures, "validated_at": utcnow().isoformat()}
    session.commit()
    return Outcome.DONE


def recover_stale(session: Session) -> list[int]:
    """Re-queue submissions whose message was lost or whose worker died; return their ids.

    A submission that has already used every attempt is finished as internal_error instead,
    so that nothing a learner sends can make the judge loop forever.
    """
    settings = get_settings()
    cutoff = utcnow() - timedelta(seconds=settings.stale_after_seconds)
    stale = session.scalars(select(Submission).where(or_(
        (Submission.status == SubmissionStatus.QUEUED) & (Submission.enqueued_at < cutoff),
        (Submission.status == SubmissionStatus.RUNNING) & (Submission.started_at < cutoff),
    ))).all()
    requeued = []
    for submission in stale:
        if submission.attempts > settings.internal_error_retries:
            _store(session, submission, Report(
                Verdict.INTERNAL_ERROR, 0.0, submission.problem.slug, submission.version.version,
                message=f"the judge gave up after {submission.attempts} attempts"))
            continue
        submission.status = SubmissionStatus.QUEUED
        submission.enqueued_at = utcnow()
        requeued.append(submission.id)
    session.commit()
    return requeued
