"""A submission whose message was lost is found by the periodic recovery and judged."""

from __future__ import annotations

from datetime import timedelta

from fastapi.testclient import TestClient
from sqlalchemy import select

from judge.db.models import ProblemRow, Submission, SubmissionStatus, User, utcnow
from judge.db.session import session_scope
from tests.api.conftest import Tokens
from tests.utils.service import REFERENCE, wait_done


def test_lost_message_is_requeued_and_judged(client: TestClient, tokens: Tokens) -> None:
    with session_scope() as session:
        user = session.scalar(select(User).where(User.name == "test-learner"))
        problem = session.scalar(select(ProblemRow).where(ProblemRow.slug == "secret_lookup"))
        assert user is not None and problem is not None and problem.published_version_id
        # Committed as queued an hour ago, but never sent to the broker: a lost message.
        lost = Submission(user_id=user.id, problem_id=problem.id, version_id=problem.published_version_id,
                          mode="submit", code=REFERENCE, status=SubmissionStatus.QUEUED,
                          enqueued_at=utcnow() - timedelta(hours=1))
        session.add(lost)
        session.flush()
        lost_id = lost.id
    done = wait_done(client, tokens.learner, lost_id, timeout=60)
    assert done["verdict"] == "accepted"


def test_a_dead_workers_running_submission_is_requeued(client: TestClient, tokens: Tokens) -> None:
    with session_scope() as session:
        user = session.scalar(select(User).where(User.name == "test-learner"))
        problem = session.scalar(select(ProblemRow).where(ProblemRow.slug == "secret_lookup"))
        assert user is not None and problem is not None and problem.published_version_id
        stuck = Submission(user_id=user.id, problem_id=problem.id, version_id=problem.published_version_id,
                           mode="run", code=REFERENCE, status=SubmissionStatus.RUNNING, attempts=1,
                           started_at=utcnow() - timedelta(hours=1))
        session.add(stuck)
        session.flush()
        stuck_id = stuck.id
    assert wait_done(client, tokens.learner, stuck_id, timeout=60)["verdict"] == "accepted"
