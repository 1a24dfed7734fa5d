"""/me, and each caller's own progress (solved, attempted, best score) on the problem list and page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from service.db.models import Role
from tests.unit.service.helpers import WRONG, error, read
from tests.utils.service import REFERENCE, bearer, submit
from tests.utils.service_fixtures import Tokens

PARTLY = ("def lookup(key):\n    return {'a': 'zq-secret-101', 'b': 'zq-secret-102'}.get(key, '')\n")


@pytest.mark.parametrize("role", ["learner", "instructor", "admin"])
def test_me_names_the_caller(client: TestClient, tokens: Tokens, role: str) -> None:
    body = client.get("/api/v1/me", headers=bearer(getattr(tokens, role))).json()
    assert body["name"] == f"test-{role}" and body["role"] == role and isinstance(body["id"], int)
    assert set(body) == {"id", "name", "role", "email", "email_notifications", "unread_notifications"}


def test_me_without_a_valid_token_is_401(client: TestClient) -> None:
    error(client.get("/api/v1/me", headers=bearer("jt_not-a-token")), 401, "unauthorized")
    error(client.get("/api/v1/me"), 401, "unauthorized")


def mine(client: TestClient, token: str) -> tuple[Any, Any, Any, Any]:
    listed = {p["slug"]: p for p in client.get("/api/v1/problems", headers=bearer(token)).json()}["secret_lookup"]
    detail = client.get("/api/v1/problems/secret_lookup", headers=bearer(token)).json()
    return listed["progress"], listed["best_score"], detail["progress"], detail["best_score"]


def judged(client: TestClient, token: str, code: str, mode: str = "submit") -> dict[str, Any]:
    body: dict[str, Any] = read(client, token, submit(client, token, code, mode=mode)["id"]).json()
    return body


def test_progress_follows_ones_own_submissions(client: TestClient, tokens: Tokens,
                                               new_user: Callable[[Role], str]) -> None:
    learner, other = new_user(Role.LEARNER), new_user(Role.LEARNER)
    assert mine(client, learner) == (None, None, None, None)
    judged(client, learner, REFERENCE, mode="run")  # public tests only: not an attempt
    assert mine(client, learner) == (None, None, None, None)
    partly = judged(client, learner, PARTLY)
    assert partly["verdict"] == "wrong_answer" and 0 < partly["score"] < 1
    assert mine(client, learner) == ("attempted", partly["score"], "attempted", partly["score"])
    assert judged(client, learner, WRONG)["score"] == 0.0
    assert mine(client, learner)[1] == partly["score"]  # the best, not the latest
    assert judged(client, learner, REFERENCE)["verdict"] == "accepted"
    assert mine(client, learner) == ("solved", 1.0, "solved", 1.0)
    judged(client, learner, WRONG)  # solved stays solved
    assert mine(client, learner) == ("solved", 1.0, "solved", 1.0)
    assert mine(client, other) == (None, None, None, None)  # nobody else's progress shows


def test_a_queued_submission_is_an_attempt_without_a_score(client: TestClient, eager_queue: Any,
                                                          new_user: Callable[[Role], str]) -> None:
    learner = new_user(Role.LEARNER)
    with eager_queue.hold():
        submit(client, learner, REFERENCE)
        assert mine(client, learner) == ("attempted", None, "attempted", None)
    eager_queue.release()
    assert mine(client, learner) == ("solved", 1.0, "solved", 1.0)
