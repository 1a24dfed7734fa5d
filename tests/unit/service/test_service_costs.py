"""What a verdict costs the service: the worker's claim returns the row it claimed, which
nothing reads again (on PostgreSQL the claim and the verdict are a statement each); a posted
submission's answer reads nothing the checks had read; a pooled connection
is checked at check-out without a query, while one the server closed is still replaced; and the
API's start-up objects are kept out of the collector's scans."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, event, text
from sqlalchemy.pool import NullPool

from service import jobs
from service.db.session import get_engine, new_session
from service.settings import get_settings
from tests.unit.service.exec_sandbox import ExecSandbox
from tests.utils.service import REFERENCE, bearer, store_submission, stored_row

pytestmark = pytest.mark.usefixtures("tokens")


@pytest.fixture
def statements() -> Iterator[list[str]]:
    """Every statement this process sends to the database meanwhile, as sent."""
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(" ".join(statement.split()))

    engine = get_engine()
    event.listen(engine, "before_cursor_execute", record)
    yield seen
    event.remove(engine, "before_cursor_execute", record)


def test_a_judged_submission_is_read_by_its_claim_alone(
        client: TestClient, statements: list[str]) -> None:
    with new_session() as session:  # the first of a version's loads its files, once
        jobs.judge_submission(session, store_submission(user="test-learner", mode="submit"),
                              ExecSandbox)
    submission_id = store_submission(user="test-learner", mode="submit")
    statements.clear()
    with new_session() as session:
        assert jobs.judge_submission(session, submission_id, ExecSandbox) is jobs.JobResult.DONE
    judging = list(statements)
    assert stored_row(submission_id).verdict == "accepted"
    assert judging[0].startswith("UPDATE submissions SET status") and "RETURNING" in judging[0]
    # The version's problem is cached: neither its row nor the submission's is read again, and
    # the claim's lazy commit needs no SET LOCAL.
    assert [s for s in judging if s.startswith(("SELECT", "SET"))] == [], judging
    if get_engine().dialect.name == "postgresql":  # the verdict, its tests and grades at once
        assert len(judging) == 2 and judging[1].startswith("WITH done AS (UPDATE submissions")
        assert "set_config" in judging[0]


def test_a_connection_the_server_closed_is_replaced_and_a_live_one_kept() -> None:
    if get_engine().dialect.name != "postgresql":
        pytest.skip("SQLite has no server to close a connection")
    # An engine of the service's making with a pool of its own, which only this test uses: the
    # settings' pool may hold several idle connections, and hands out any of them.
    url = get_engine().url.update_query_dict({"application_name": "idle-connection-test"})
    engine = get_engine(url.render_as_string(hide_password=False))
    try:
        with engine.connect() as connection:
            first = connection.execute(text("SELECT pg_backend_pid()")).scalar_one()
        with engine.connect() as connection:  # idle and healthy: the same connection again
            assert connection.execute(text("SELECT pg_backend_pid()")).scalar_one() == first
        with create_engine(engine.url, poolclass=NullPool).connect() as other:  # not pooled
            assert other.execute(text("SELECT pg_terminate_backend(:pid)"),
                                 {"pid": first}).scalar_one()
            # The server's goodbye to the idle pooled connection takes a moment to arrive.
            other.execute(text("SELECT pg_sleep(0.2)"))
        with engine.connect() as connection:  # no error: the pool saw it closed, connected anew
            assert connection.execute(text("SELECT pg_backend_pid()")).scalar_one() != first
    finally:
        engine.dispose()


def test_the_apis_start_up_objects_are_frozen_out_of_the_collector(
        fast_settings: Any, eager_queue: Any) -> None:
    """A full collection then walks only what the process made since, not the ~210,000 objects
    of its start (58 to 103 ms measured, the event loop stopped meanwhile)."""
    from api.main import create_app

    gc.unfreeze()
    try:
        with TestClient(create_app()):
            assert gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()


def test_a_posted_submissions_answer_reads_nothing_it_had(
        client: TestClient, tokens: Any, eager_queue: Any, statements: list[str]) -> None:
    """After the row is stored, the 202 is made of what the checks read: nothing is read again,
    neither the problem, the version's files, the sender nor the queue quota left (the count
    taken for the quota, plus this submission, is what is left)."""
    body = {"problem": "secret_lookup", "code": REFERENCE, "mode": "submit"}
    with eager_queue.hold():
        first = client.post("/api/v1/submissions", headers=bearer(tokens.learner), json=body)
        assert first.status_code == 202, first.text  # the version's problem is loaded now
        statements.clear()
        response = client.post("/api/v1/submissions", headers=bearer(tokens.learner), json=body)
        posting = list(statements)
    eager_queue.release()  # judged: they hold none of the learner's queue quota after this test
    assert response.status_code == 202, response.text
    assert response.json()["problem"] == "secret_lookup" and response.json()["user"] == "test-learner"
    stored = next(n for n, s in enumerate(posting) if s.startswith("INSERT INTO submissions"))
    assert not [s for s in posting[stored + 1:] if s.startswith("SELECT")]
    assert response.headers["RateLimit-Remaining"] == str(get_settings().learner_queue_quota - 2)
    assert not [s for s in posting if "problem_versions.files" in s]
