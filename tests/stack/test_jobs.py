"""The worker's jobs apart from Celery: idempotence and the internal-error retry."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from sandbox.docker_runner import DockerSandbox
from sandbox.interface import Sandbox, SandboxRun, SandboxUnavailable
from service import jobs
from service.db.models import Submission, SubmissionStatus
from service.db.session import new_session
from service.settings import get_settings
from tests.utils.fake_sandbox import FakeSandbox
from tests.utils.service import store_submission
from tests.utils.service_fixtures import Tokens


def _queued_submission() -> int:
    # Never sent to the broker; the recovery beat would only re-queue it after a minute.
    return store_submission(user="test-other_learner", status=SubmissionStatus.QUEUED)


def broken() -> Sandbox:
    raise SandboxUnavailable("the engine went away")


class FailingRun(FakeSandbox):
    """The engine answers, but running this submission fails: the judge's own failure."""

    def __init__(self, engine_up: bool = True) -> None:
        super().__init__(lambda payload: [])
        self.engine_up = engine_up

    def check(self) -> None:
        if not self.engine_up:
            raise SandboxUnavailable("the engine went away")

    def run(self, payload: object) -> SandboxRun:  # type: ignore[override]
        raise SandboxUnavailable("the container vanished")


def _row(session: Session, submission_id: int) -> Submission:
    row = session.get(Submission, submission_id, populate_existing=True)
    assert row is not None
    return row


@pytest.mark.usefixtures("tokens")  # the users the rows belong to
def test_an_engine_outage_spends_no_attempt(client: TestClient) -> None:
    submission_id = _queued_submission()
    with new_session() as session:
        for _ in range(5):
            assert jobs.judge_submission(session, submission_id, broken) is jobs.JobResult.WAIT
        down = FailingRun(engine_up=False)
        assert jobs.judge_submission(session, submission_id, lambda: down) is jobs.JobResult.WAIT
        row = _row(session, submission_id)
        assert row.status == SubmissionStatus.QUEUED and row.attempts == 0
        assert "waiting for a judge" in (row.message or "")


def test_internal_errors_are_retried_then_final(client: TestClient, tokens: Tokens) -> None:
    submission_id = _queued_submission()
    retries = get_settings().internal_error_retries
    with new_session() as session:
        for _ in range(retries):
            assert jobs.judge_submission(session, submission_id, FailingRun) is jobs.JobResult.RETRY
            assert _row(session, submission_id).status == SubmissionStatus.QUEUED
        assert jobs.judge_submission(session, submission_id, FailingRun) is jobs.JobResult.DONE
        final = _row(session, submission_id)
        assert final.verdict == "internal_error"
        assert final.attempts == retries + 1 and "the container vanished" in (final.message or "")


def test_one_claim_at_a_time(client: TestClient) -> None:
    from service import lifecycle

    submission_id = _queued_submission()
    with new_session() as session:
        token = lifecycle.claim(session, submission_id)
        assert token is not None
        assert lifecycle.claim(session, submission_id) is None  # the lease is alive
        assert jobs.judge_submission(session, submission_id, FailingRun) is jobs.JobResult.SKIPPED
        assert lifecycle.renew(submission_id, token)
        assert lifecycle.renew(submission_id, "someone-else") is False


def test_judging_twice_is_harmless(client: TestClient, docker_sandbox: DockerSandbox) -> None:
    submission_id = _queued_submission()
    with new_session() as session:
        assert jobs.judge_submission(session, submission_id, lambda: docker_sandbox) is jobs.JobResult.DONE
        # A redelivered message (acks_late) finds the work done and changes nothing.
        assert jobs.judge_submission(session, submission_id, lambda: docker_sandbox) is jobs.JobResult.SKIPPED
        done = session.get(Submission, submission_id)
        assert done is not None and done.verdict == "accepted" and len(done.results) == 2


@pytest.mark.parametrize("missing", [10**9])
def test_unknown_ids_are_skipped(client: TestClient, missing: int) -> None:
    with new_session() as session:
        assert jobs.judge_submission(session, missing, broken) is jobs.JobResult.SKIPPED
        assert jobs.validate_version(session, missing, broken) is jobs.JobResult.SKIPPED


class Exploding:
    """A sandbox whose run fails with a bug of the judge's, not an engine outage."""

    def run(self, payload: object) -> object:
        raise RuntimeError("a bug\x00 in the judge \ud800")


def test_any_judge_exception_is_stored_as_internal_error(client: TestClient) -> None:
    submission_id = _queued_submission()
    with new_session() as session:
        outcomes = [jobs.judge_submission(session, submission_id, Exploding)
                    for _ in range(get_settings().internal_error_retries + 1)]
        assert outcomes[-1] is jobs.JobResult.DONE
        final = session.get(Submission, submission_id)
        assert final is not None and final.verdict == "internal_error"
        # Shown escaped: PostgreSQL rejects NUL, and a lone surrogate cannot be encoded.
        assert "RuntimeError: a bug\\x00 in the judge \\ud800" in (final.message or "")


def test_recovery_gives_up_after_every_attempt(client: TestClient) -> None:
    from datetime import timedelta

    from service.db.models import utcnow

    attempts = get_settings().internal_error_retries + 1
    stuck = store_submission(status=SubmissionStatus.RUNNING, attempts=attempts,
                             started_at=utcnow() - timedelta(hours=1))
    with new_session() as session:
        assert stuck not in jobs.recover_stale(session)
        final = session.get(Submission, stuck)
        assert final is not None and final.status == SubmissionStatus.DONE
        assert final.verdict == "internal_error"
        assert f"gave up after {attempts} attempts" in (final.message or "")
