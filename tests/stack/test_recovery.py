"""A submission whose message was lost, or whose worker died, is re-queued by the periodic
recovery and judged."""

from __future__ import annotations

from datetime import timedelta

from fastapi.testclient import TestClient

from service.db.models import SubmissionStatus, utcnow
from tests.utils.service import store_submission, wait_done
from tests.utils.service_fixtures import Tokens


def test_lost_message_is_requeued_and_judged(client: TestClient, tokens: Tokens) -> None:
    # Committed as queued an hour ago but never sent to the broker: a lost message.
    lost = store_submission(mode="submit", status=SubmissionStatus.QUEUED,
                            enqueued_at=utcnow() - timedelta(hours=1))
    assert wait_done(client, tokens.learner, lost, timeout=60)["verdict"] == "accepted"


def test_a_dead_workers_running_submission_is_requeued(client: TestClient, tokens: Tokens) -> None:
    stuck = store_submission(status=SubmissionStatus.RUNNING, attempts=1,
                             started_at=utcnow() - timedelta(hours=1))
    assert wait_done(client, tokens.learner, stuck, timeout=60)["verdict"] == "accepted"
