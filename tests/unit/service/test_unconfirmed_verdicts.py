"""A verdict whose commit raised although the database took it (the connection died after COMMIT
reached the server, and only the reply was lost): the task's retry finds the row done under its
own claim and does, once, what follows a stored verdict: its line in the log, its counts in
/metrics, the announcement that wakes waiting clients, the messages of its webhook deliveries. A
commit that did not land is not taken for one."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

import service.tasks as worker_tasks
from service import jobs, lifecycle
from service.db.models import SubmissionStatus
from service.db.session import new_session
from tests.unit.service.conftest import EagerQueue
from tests.unit.service.exec_sandbox import ExecSandbox
from tests.unit.service.local_bus import LocalBus
from tests.unit.service.test_metrics import Samples, scrape, value
from tests.utils.service import store_submission, stored_row

HOOK = "http://127.0.0.1:9/hook"  # never posted to: the delivery's message is held
# tokens: the learner the rows belong to; refused_connections: a scrape of /metrics tries the broker
pytestmark = pytest.mark.usefixtures("tokens", "refused_connections")


class CommitReplyLost:
    """Makes the next verdict's commit raise OperationalError, as a connection that died does:
    after the commit (``landed``) or before it. Records the claim's token."""

    def __init__(self, landed: bool) -> None:
        self.landed = landed
        self.tokens: list[str | None] = []
        self.armed = True
        self.real_finish = lifecycle.finish

    def finish(self, session: Session, submission_id: int, token: str | None, report: Any,
               webhooks: bool = True) -> bool:
        self.tokens.append(token)
        real_commit = session.commit

        def commit() -> None:
            delattr(session, "commit")  # only the verdict's commit, once
            if self.landed:
                real_commit()
            raise OperationalError("COMMIT", {}, ConnectionError("server closed the connection unexpectedly"))

        if self.armed:
            self.armed = False
            session.commit = commit  # type: ignore[method-assign]  # this session's alone
        return self.real_finish(session, submission_id, token, report, webhooks)


@pytest.fixture
def lose_commit_reply(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[bool], CommitReplyLost]]:
    def arm(landed: bool) -> CommitReplyLost:
        fault = CommitReplyLost(landed)
        monkeypatch.setattr(lifecycle, "finish", fault.finish)
        return fault

    yield arm


def _grown(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


def _verdict_lines(caplog: pytest.LogCaptureFixture, submission_id: int) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.name == "judge.verdicts"
            and record.getMessage().startswith(f"submission {submission_id} ")]


def test_a_commit_whose_reply_was_lost_is_followed_through_once(
        client: TestClient, eager_queue: EagerQueue, local_bus: LocalBus,
        lose_commit_reply: Callable[[bool], CommitReplyLost], caplog: pytest.LogCaptureFixture) -> None:
    submission_id = store_submission(user="test-learner", mode="submit", callback_url=HOOK)
    fault = lose_commit_reply(True)
    before = scrape(client)
    with caplog.at_level(logging.INFO, logger="judge.verdicts"), eager_queue.hold() as held:
        # Eagerly, the task's retry runs at once (its countdown skipped), as a worker would later;
        # throw=False lets apply() run it rather than raise its Retry.
        assert worker_tasks.grade_submission.apply(args=[submission_id], throw=False).get() == "done"
        hints = list(held)
        held.clear()  # never delivered: the receiver is nobody
    after = scrape(client)
    row = stored_row(submission_id)
    assert row.status == SubmissionStatus.DONE and row.verdict == "accepted"
    assert local_bus.changes_of(submission_id) == [("running", None), ("done", "accepted")]
    assert _grown(before, after, "judge_verdicts_total", verdict="accepted", mode="submit") == 1
    assert _grown(before, after, "judge_judge_seconds_count", mode="submit") == 1
    assert len(_verdict_lines(caplog, submission_id)) == 1
    assert [(hint.task, hint.queue) for hint in hints] == [("judge.deliver_webhook", "webhooks")]
    # A second retry carrying the same claim (a redelivered message) finds it confirmed already.
    [token] = fault.tokens
    again = jobs.StoredVerdict(token, "submit", "accepted", "a line", 1.0)
    with new_session() as session, eager_queue.hold() as held:
        assert jobs.judge_submission(session, submission_id, ExecSandbox, again) is jobs.JobResult.SKIPPED
        assert held == []
    assert local_bus.changes_of(submission_id) == [("running", None), ("done", "accepted")]
    assert _grown(before, scrape(client), "judge_verdicts_total", verdict="accepted", mode="submit") == 1


def test_a_verdict_stored_under_another_claim_is_not_followed_through(
        client: TestClient, eager_queue: EagerQueue, local_bus: LocalBus) -> None:
    submission_id = store_submission(user="test-learner", mode="submit", callback_url=HOOK)
    with eager_queue.hold() as held:
        assert worker_tasks.grade_submission.apply(args=[submission_id], throw=False).get() == "done"
        held.clear()
        before = scrape(client)
        stranger = jobs.StoredVerdict("0" * 32, "submit", "accepted", "a line", 1.0)
        with new_session() as session:
            assert jobs.judge_submission(session, submission_id, ExecSandbox, stranger) is jobs.JobResult.SKIPPED
        assert held == []
    assert local_bus.changes_of(submission_id) == [("running", None), ("done", "accepted")]
    assert _grown(before, scrape(client), "judge_verdicts_total", verdict="accepted", mode="submit") == 0


def test_a_commit_that_did_not_land_is_not_taken_for_one(
        client: TestClient, eager_queue: EagerQueue, local_bus: LocalBus,
        lose_commit_reply: Callable[[bool], CommitReplyLost]) -> None:
    submission_id = store_submission(user="test-learner", mode="submit")
    lose_commit_reply(False)
    before = scrape(client)
    # The retry finds the claim still running under its lease: recovery takes it once it lapses.
    assert worker_tasks.grade_submission.apply(args=[submission_id], throw=False).get() == "skipped"
    row = stored_row(submission_id)
    assert row.status == SubmissionStatus.RUNNING and row.verdict is None
    assert local_bus.changes_of(submission_id) == [("running", None)]
    assert _grown(before, scrape(client), "judge_verdicts_total", verdict="accepted", mode="submit") == 0
