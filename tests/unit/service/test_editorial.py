"""The editorial opens with an accepted submission (mode submit); its owner may always read it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from service.db.models import Role
from tests.unit.service.helpers import EDITORIAL, RATIO, error, publish, ratio_files, read
from tests.utils.service import bearer, submit
from tests.utils.service_fixtures import Tokens

SLUG = "fast_editorial_ratio"
EDITORIAL_URL = f"/api/v1/problems/{SLUG}/editorial"


@pytest.fixture(scope="module")
def problem(client: TestClient, tokens: Tokens) -> str:
    return publish(client, tokens.instructor, SLUG, ratio_files(SLUG))


def flags(client: TestClient, token: str, slug: str = SLUG) -> tuple[bool, bool]:
    body = client.get(f"/api/v1/problems/{slug}", headers=bearer(token)).json()
    return body["has_editorial"], body["editorial_available"]


def test_the_editorial_opens_with_an_accepted_submission(
        client: TestClient, problem: str, new_user: Callable[[Role], str]) -> None:
    learner = new_user(Role.LEARNER)
    message = error(client.get(EDITORIAL_URL, headers=bearer(learner)), 403, "not_solved")
    assert message == f"the editorial of '{SLUG}' opens once you have an accepted submission"
    assert flags(client, learner) == (True, False)
    # A run that passes the public tests, and a wrong submission, do not open it.
    assert read(client, learner, submit(client, learner, RATIO, problem=SLUG, mode="run")["id"]
                ).json()["verdict"] == "accepted"
    wrong = "def ratio(hits, total):\n    return 0.5\n"
    assert read(client, learner, submit(client, learner, wrong, problem=SLUG)["id"]).json()["verdict"] == "wrong_answer"
    error(client.get(EDITORIAL_URL, headers=bearer(learner)), 403, "not_solved")
    assert read(client, learner, submit(client, learner, RATIO, problem=SLUG)["id"]).json()["verdict"] == "accepted"
    opened = client.get(EDITORIAL_URL, headers=bearer(learner))
    assert opened.status_code == 200, opened.text
    assert opened.json()["markdown"] == EDITORIAL
    assert "<h1>Idea</h1>" in opened.json()["html"] and "<math" in opened.json()["html"]
    assert flags(client, learner) == (True, True)


@pytest.mark.parametrize("role", ["instructor", "admin"])
def test_the_owner_and_admins_always_may(client: TestClient, tokens: Tokens, problem: str, role: str) -> None:
    token = getattr(tokens, role)
    assert client.get(EDITORIAL_URL, headers=bearer(token)).json()["markdown"] == EDITORIAL
    assert flags(client, token) == (True, True)


def test_another_instructor_is_a_learner_here(client: TestClient, tokens: Tokens, problem: str) -> None:
    error(client.get(EDITORIAL_URL, headers=bearer(tokens.other_instructor)), 403, "not_solved")


def test_no_editorial_is_404(client: TestClient, tokens: Tokens) -> None:
    message = error(client.get("/api/v1/problems/secret_lookup/editorial", headers=bearer(tokens.admin)),
                    404, "not_found")
    assert message == "problem 'secret_lookup' has no editorial"
    assert flags(client, tokens.learner, "secret_lookup") == (False, False)
    error(client.get("/api/v1/problems/no_such_problem/editorial", headers=bearer(tokens.learner)), 404, "not_found")
