"""What the worker's tasks do, apart from Celery: judge a submission, validate a version,
re-queue what was lost. Each is idempotent: running it twice leaves the same rows."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from judge.custom_input import Rejected, run_try, typed_arguments
from judge.errors import ProblemError
from judge.grading import grade
from judge.results import Report, Verdict, safe_text
from judge.validation import BehindJudging, check_problem
from sandbox.interface import Sandbox, SandboxUnavailable
from service import lifecycle, metrics
from service.catalog import cached_version, load_version
from service.db.models import (
    ProblemVersion,
    Submission,
    SubmissionStatus,
    VersionStatus,
    utcnow,
)
from service.settings import get_settings
from service.submissions import Mode

SandboxFactory = Callable[[], Sandbox]
log = logging.getLogger(__name__)
# One line for each verdict stored and each validation finished: what `judge serve`'s terminal
# shows of the work (service.tasks keeps this logger at INFO whatever the worker's level).
VERDICTS = logging.getLogger("judge.verdicts")


class JobResult(StrEnum):
    DONE = "done"
    RETRY = "retry"  # the judge failed on this submission, attempts are left: queued again
    WAIT = "wait"  # the sandbox is unavailable: queued again later, no attempt spent
    SKIPPED = "skipped"  # nothing to do (unknown id, done, or another worker holds it)


def _failure(submission: Submission, reason: str) -> Report:
    return Report(Verdict.INTERNAL_ERROR, 0.0, submission.problem.slug,
                  submission.version.version, message=f"the judge failed: {safe_text(reason)}")


def _judge(submission: Submission, version: str, sandbox: Sandbox) -> Report | Rejected:
    problem = (cached_version(submission.version_id, version)
               or load_version(submission.version))  # its row read, with the files, once
    if submission.mode == Mode.TRY:
        arguments = typed_arguments(problem, submission.arguments)
        return run_try(problem, submission.code, arguments, sandbox)
    return grade(problem, submission.code, sandbox, include_hidden=submission.mode == Mode.SUBMIT)


def _grade(submission: Submission, version: str, sandbox: Sandbox) -> Report | Rejected:
    """The report. SandboxUnavailable propagates; any other failure is an internal_error."""
    try:
        return _judge(submission, version, sandbox)
    except SandboxUnavailable:
        raise
    except ProblemError as exc:
        return _failure(submission, str(exc))
    except Exception as exc:  # a bug of the judge's: never the learner's, never a silent loop
        log.exception("judging submission %s failed", submission.id)
        return _failure(submission, f"{type(exc).__name__}: {exc}")


@dataclass(frozen=True)
class StoredVerdict:
    """What the worker does once a verdict is committed: count it, log its line, time the job.

    When the commit raises, the database may still have taken it (the connection died after
    COMMIT reached the server): the task's retry carries this (``as_json``, a message's JSON) and
    does it then, once the row shows the commit landed (``lifecycle.confirm``)."""

    token: str | None  # the claim's; None for recovery giving up, which has no retry to carry it
    mode: str
    verdict: str | None  # None: a try the reference rejected, which no counter counts
    line: str  # verdict_line
    seconds: float | None  # from the claim to the verdict, for judge_judge_seconds

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StoredVerdict:
        return cls(**{field.name: data[field.name] for field in fields(cls)})


class VerdictUnconfirmed(Exception):
    """The commit of a verdict raised a database error; it may have landed (``StoredVerdict``)."""

    def __init__(self, verdict: StoredVerdict, cause: DBAPIError) -> None:
        # Not the verdict's line: a retry's log quoting it would read as a second verdict.
        super().__init__(f"the verdict's commit raised, it may have landed: "
                         f"{type(cause.orig).__name__}: {str(cause.orig)[:200]}")
        self.verdict = verdict


def _counted(done: StoredVerdict) -> None:
    """Count and log a committed verdict: the one place that does, once per verdict."""
    if done.verdict is not None:
        metrics.verdict_stored(done.verdict, done.mode)
    VERDICTS.info("%s", done.line)
    if done.seconds is not None:
        metrics.judged(done.mode, done.seconds)


def _store(session: Session, submission_id: int, token: str | None, report: Report | Rejected,
           mode: str, claimed_at: float | None = None, webhooks: bool = True) -> bool:
    """lifecycle.finish, then the verdict counted and logged. A database error raises
    VerdictUnconfirmed (for a claim's verdict): the retry does what follows if it landed."""
    done = StoredVerdict(token, mode, report.verdict.value if isinstance(report, Report) else None,
                         verdict_line(submission_id, report, mode),
                         None if claimed_at is None else time.monotonic() - claimed_at)
    try:
        stored = lifecycle.finish(session, submission_id, token, report, webhooks)
    except DBAPIError as exc:
        # The database is away, not the report at fault: the task asks again later, and once
        # this claim's lease lapses recovery gives the submission to a worker that can store it.
        session.rollback()
        if token is None:
            raise
        raise VerdictUnconfirmed(done, exc) from exc
    if stored:
        _counted(done)
    return stored


def _confirm(session: Session, submission_id: int, done: StoredVerdict) -> JobResult:
    """The retry of a verdict whose commit raised, finding the row done: under the claim's own
    token the commit landed, and what follows it happens now (once: ``lifecycle.confirm``)."""
    if done.token is None or not lifecycle.confirm(session, submission_id, done.token):
        return JobResult.SKIPPED  # stored by another claim, or confirmed already
    _counted(done)
    return JobResult.DONE


def verdict_line(submission_id: int, report: Report | Rejected, mode: str) -> str:
    """``submission 12 (two_sum, submit): accepted, 5/5 tests, score 1, 0.84 s``; a failure of
    the judge's own says why, a rejected try the reason."""
    head = f"submission {submission_id} ({report.problem}, {mode})"
    if isinstance(report, Rejected):
        return f"{head}: rejected: {safe_text(report.message)[:200]}"
    tests = f"{report.passed}/{len(report.tests)} tests"
    line = f"{head}: {report.verdict.value}, {tests}, score {report.score:g}"
    if report.seconds is not None:
        line += f", {report.seconds:.2f} s"
    if report.verdict is Verdict.INTERNAL_ERROR:
        line += f": {safe_text(report.message)[:300]}"
    return line


def _engine_down(sandbox: Sandbox) -> bool:
    try:
        sandbox.check()
    except SandboxUnavailable:
        return True
    return False


def _status(session: Session, submission_id: int) -> str | None:
    return session.scalar(select(Submission.status).where(Submission.id == submission_id))


def judge_submission(session: Session, submission_id: int, make_sandbox: SandboxFactory,
                     unconfirmed: StoredVerdict | None = None) -> JobResult:
    """Claim, judge and store one submission.

    An infrastructure fault (no engine, an engine that went away mid-run) puts the submission
    back in the queue without spending an attempt. A failure of the judge while everything it
    depends on answers spends one; after the last it is final as internal_error. ``unconfirmed``:
    the retry of a verdict whose commit raised (VerdictUnconfirmed), confirmed if it landed.
    """
    if unconfirmed is not None and _status(session, submission_id) == SubmissionStatus.DONE:
        return _confirm(session, submission_id, unconfirmed)
    try:
        sandbox = make_sandbox()
    except SandboxUnavailable:
        if _status(session, submission_id) in (None, SubmissionStatus.DONE):
            return JobResult.SKIPPED  # nothing to wait for
        metrics.sandbox_failure("no_engine")
        return JobResult.WAIT
    # No read before the claim: its update finds a missing, done or held row as well, and a
    # read is a round trip of every verdict's (about 2 ms at a learner's pace). The version's
    # row, with its files (bleu_1gram's are 130 KB), is read only when it is not cached yet.
    claimed = lifecycle.claim_row(session, submission_id)
    if claimed is None:
        return JobResult.SKIPPED
    claimed_at = time.monotonic()
    token, submission = claimed.token, claimed.submission
    mode = submission.mode
    if submission.started_at is not None:
        metrics.claimed(mode, (submission.started_at - submission.enqueued_at).total_seconds())
    with lifecycle.Heartbeat(submission_id, token) as heartbeat:
        try:
            report = _grade(submission, claimed.version, sandbox)
        except SandboxUnavailable as exc:
            if _engine_down(sandbox):
                metrics.sandbox_failure("engine_down")
                lifecycle.release(session, submission_id, token, f"waiting for a judge: {exc}", True)
                return JobResult.WAIT
            metrics.sandbox_failure("run_lost")
            report = _failure(submission, str(exc))
    if heartbeat.lost:
        return JobResult.SKIPPED  # another worker took it over; its verdict stands
    if isinstance(report, Report) and report.verdict is Verdict.INTERNAL_ERROR and (
            submission.attempts <= get_settings().internal_error_retries):
        lifecycle.release(session, submission_id, token, report.message, refund=False)
        return JobResult.RETRY
    webhooks = lifecycle.calls_webhooks(submission)
    try:
        stored = _store(session, submission_id, token, report, mode, claimed_at, webhooks)
    except VerdictUnconfirmed:
        raise
    except Exception as exc:  # the report could not be stored: store why, as the judge's fault
        log.exception("storing the verdict of submission %s failed", submission_id)
        session.rollback()
        stored = _store(session, submission_id, token, _failure(
            submission, f"the verdict could not be stored: {type(exc).__name__}: {str(exc)[:300]}"),
            mode, claimed_at, webhooks)
    return JobResult.DONE if stored else JobResult.SKIPPED


def validate_version(session: Session, version_id: int, make_sandbox: SandboxFactory,
                     let_through: tuple[type[BaseException], ...] = ()) -> JobResult:
    """Prove a draft version in the sandbox and store the report (see judge.validation) on it;
    ``failures`` stays in the report, empty when the version may be published. The whole of it
    runs within ``JUDGE_MAX_VALIDATION_SECONDS`` of wall clock. A failure of the judge's own
    ends the version invalid saying so (never a draft forever); ``let_through`` (the task's
    time limit) and database errors propagate."""
    version = session.get(ProblemVersion, version_id)
    if version is None or version.status != VersionStatus.DRAFT:
        return JobResult.SKIPPED
    propagate: tuple[type[BaseException], ...] = (DBAPIError, *let_through)
    try:
        report: dict[str, Any] = check_problem(
            load_version(version), BehindJudging(make_sandbox()),
            budget_seconds=get_settings().max_validation_seconds).as_json()
    except ProblemError as exc:
        report = {"failures": [str(exc)]}
    except SandboxUnavailable:
        metrics.sandbox_failure("no_engine")
        return JobResult.WAIT
    except propagate:
        raise
    except Exception as exc:
        log.exception("validating version %s failed", version_id)
        report = {"failures": [f"the judge failed while validating: {type(exc).__name__}: "
                               f"{safe_text(str(exc))[:300]}"]}
    _store_validation(session, version, report)
    return JobResult.DONE


def _store_validation(session: Session, version: ProblemVersion, report: dict[str, Any]) -> None:
    version.status = VersionStatus.INVALID if report["failures"] else VersionStatus.VALID
    version.validation = {**report, "validated_at": utcnow().isoformat()}
    session.commit()
    failures = len(report["failures"])
    VERDICTS.info("version %s of %s: %s", version.version, version.problem.slug,
                  f"invalid, {failures} failure{'s' if failures != 1 else ''}" if failures else "valid")


def validation_overran(session: Session, version_id: int, seconds: float) -> JobResult:
    """A validation the task's own time limit stopped (its sandbox hung past the budget's cut):
    the version is invalid with that reason, rather than a draft forever."""
    session.rollback()
    version = session.get(ProblemVersion, version_id)
    if version is None or version.status != VersionStatus.DRAFT:
        return JobResult.SKIPPED
    _store_validation(session, version, {"failures": [
        f"validation took over {seconds:g} s (the cap on a version's whole validation); "
        "it was stopped"]})
    return JobResult.DONE


def recover_stale(session: Session, every_queued: bool = False) -> list[int]:
    """Re-queue submissions whose message was lost or whose worker died; return their ids.
    ``every_queued``: the broker lost every message (``broker_memory``), so every queued
    submission is sent again whatever its age.

    A submission that has already used every attempt is finished as internal_error instead,
    so that nothing a learner sends can make the judge loop forever.
    """
    requeued = []
    for submission in lifecycle.stale(session, every_queued):
        if submission.attempts > get_settings().internal_error_retries:
            _store(session, submission.id, None, _failure(
                submission, f"gave up after {submission.attempts} attempts"), submission.mode)
            continue
        lifecycle.requeue_lost(submission)
        requeued.append(submission.id)
    session.commit()
    lifecycle.requeued(requeued)
    return requeued
