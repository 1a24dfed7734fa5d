"""Helpers for tests that drive the service over HTTP."""

from __future__ import annotations

import time
from typing import Any

import httpx
from fastapi.testclient import TestClient

from tests.utils.service_env import FIXTURE_PROBLEMS

REFERENCE = (FIXTURE_PROBLEMS / "secret_lookup" / "reference.py").read_text()
# Correct, but slow enough (5 tests x 0.6 s) for a fault to land in the middle of the run.
SLOW_REFERENCE = (
    "import time\n"
    "SECRETS = {'a': 'zq-secret-101', 'b': 'zq-secret-102', 'hidden-key-c': 'zq-secret-203',\n"
    "           'hidden-key-d': 'zq-secret-204', 'hidden-key-e': 'zq-secret-205'}\n"
    "def lookup(key):\n    time.sleep(0.6)\n    return SECRETS[key]\n"
)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def submit(client: TestClient, token: str, code: str, problem: str = "secret_lookup",
           mode: str = "submit", **headers: str) -> dict[str, Any]:
    response = client.post("/api/v1/submissions", headers={**bearer(token), **headers},
                           json={"problem": problem, "code": code, "mode": mode})
    assert response.status_code == 202, response.text
    body: dict[str, Any] = response.json()
    return body


def wait_done(client: TestClient | httpx.Client, token: str, submission_id: int,
              timeout: float = 90) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        response = client.get(f"/api/v1/submissions/{submission_id}?wait=10", headers=bearer(token))
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        if body["status"] == "done":
            return body
        assert time.monotonic() < deadline, f"submission {submission_id} not judged: {body}"


def wait_version(client: TestClient | httpx.Client, token: str, slug: str,
                 timeout: float = 120) -> dict[str, Any]:
    """The newest version of slug once its validation has finished."""
    deadline = time.monotonic() + timeout
    while True:
        response = client.get(f"/api/v1/problems/{slug}/versions", headers=bearer(token))
        assert response.status_code == 200, response.text
        newest: dict[str, Any] = response.json()[-1]
        if newest["status"] != "draft":
            return newest
        assert time.monotonic() < deadline, f"validation of {slug} did not finish"
        time.sleep(0.5)


def store_submission(user: str = "test-learner", problem: str = "secret_lookup", **fields: Any) -> int:
    """A submission row written straight to the database, never sent to the broker."""
    from sqlalchemy import select

    from service.db.models import ProblemRow, Submission, User
    from service.db.session import session_scope

    with session_scope() as session:
        owner = session.scalar(select(User).where(User.name == user))
        row = session.scalar(select(ProblemRow).where(ProblemRow.slug == problem))
        assert owner is not None and row is not None and row.published_version_id is not None
        submission = Submission(user_id=owner.id, problem_id=row.id, version_id=row.published_version_id,
                                **{"mode": "run", "code": REFERENCE, **fields})
        session.add(submission)
        session.flush()
        return submission.id


def stored_row(submission_id: int) -> Any:
    """The submission's row as the database holds it now, detached from its session."""
    from service.db.models import Submission
    from service.db.session import new_session

    with new_session() as session:
        row = session.get(Submission, submission_id)
        assert row is not None
        session.expunge(row)
        return row
