"""Instructors author a problem over HTTP; validation runs eagerly in the exec double; learners
submit to it. The problem takes a list, so ``args_after`` matters."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from service.db.models import Role
from tests.unit.service.conftest import EagerQueue
from tests.unit.service.helpers import error, read
from tests.utils.service import bearer, submit
from tests.utils.service_fixtures import Tokens, problem_files

SLUG = "fast_count"
REFERENCE = "def count(tokens):\n    return len(tokens)\n"
MUTATES = "def count(tokens):\n    n = len(tokens)\n    tokens.append('x')\n    return n\n"
TOML = f"""slug = "{SLUG}"
title = "Fast: count the tokens"
difficulty = "easy"
tags = ["fixture"]

[function]
name = "count"
returns = "int"

[[function.parameters]]
name = "tokens"
type = "list[str]"

[limits]
time_per_test = 1.0
time_per_submission = 30.0
memory_mb = 128

[checker]
name = "exact"
"""


def files(**replace: str) -> dict[str, str]:
    made = {
        "problem.toml": TOML,
        "statement.md": "Count the **tokens**.\n",
        "starter.py": "def count(tokens):\n    ...\n",
        "reference.py": REFERENCE,
        "tests/public.json": json.dumps([{"name": "two", "args": [["a", "b"]], "expected": 2},
                                         {"name": "one", "args": [["a"]], "expected": 1}]),
        "tests/hidden.json": json.dumps([{"name": "none", "args": [[]], "expected": 0},
                                         {"name": "three", "args": [["x", "y", "z"]], "expected": 3}]),
        "wrong/mutates.py": "# verdict: wrong_answer\n" + MUTATES,
    }
    made.update(replace)
    return made


def versions(client: TestClient, token: str, slug: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/v1/problems/{slug}/versions", headers=bearer(token))
    assert response.status_code == 200, response.text
    result: list[dict[str, Any]] = response.json()
    return result


@pytest.fixture(scope="module")
def published(client: TestClient, tokens: Tokens, eager_queue: EagerQueue) -> str:
    response = client.post("/api/v1/problems", headers=bearer(tokens.instructor),
                           json={"slug": SLUG, "files": files()})
    assert response.status_code == 201, response.text
    assert response.json()["status"] == "draft" and response.json()["published"] is False
    assert eager_queue.sent[-1].task == "judge.validate_version"
    # Validation ran during the request (eagerly): the reference and the known-wrong solution.
    newest = versions(client, tokens.instructor, SLUG)[-1]
    assert newest["status"] == "valid", newest
    assert newest["validation"]["failures"] == []
    published = client.post(f"/api/v1/problems/{SLUG}/publish", headers=bearer(tokens.instructor), json={})
    assert published.status_code == 200 and published.json()["published"] is True
    return SLUG


def test_a_learner_sees_the_published_problem_without_hidden_tests(
        client: TestClient, tokens: Tokens, published: str) -> None:
    body = client.get(f"/api/v1/problems/{published}", headers=bearer(tokens.learner)).json()
    assert body["signature"] == "def count(tokens: list[str]) -> int"
    assert "<strong>tokens</strong>" in body["statement_html"]
    assert len(body["public_tests"]) == 2 and body["hidden_test_count"] == 2
    assert "hidden_tests" not in body and "versions" not in body
    owner = client.get(f"/api/v1/problems/{published}", headers=bearer(tokens.instructor)).json()
    assert len(owner["hidden_tests"]) == 2 and len(owner["versions"]) == 1


def test_a_changed_argument_is_a_wrong_answer(client: TestClient, tokens: Tokens, published: str) -> None:
    """The value is right; the list came back longer (args_after), which the judge refuses."""
    done = read(client, tokens.learner, submit(client, tokens.learner, MUTATES, problem=published)["id"]).json()
    assert done["verdict"] == "wrong_answer"
    first = done["tests"][0]
    assert first["status"] == "wrong_answer" and first["actual_repr"] == "2"
    assert first["category"] == "the function changed one of its arguments"
    assert "tokens" in first["explanation"]
    assert done["hidden"]["first_failure"] == "the function changed one of its arguments"
    accepted = read(client, tokens.learner, submit(client, tokens.learner, REFERENCE, problem=published)["id"]).json()
    assert accepted["verdict"] == "accepted" and accepted["hidden"]["passed"] == 2


def test_the_owner_lists_submissions_to_the_problem(client: TestClient, tokens: Tokens, published: str,
                                                    new_user) -> None:  # type: ignore[no-untyped-def]
    learner = new_user(Role.LEARNER)
    mine = submit(client, learner, REFERENCE, problem=published)["id"]
    for token, sees in ((tokens.instructor, True), (tokens.other_instructor, False), (tokens.admin, True),
                        (tokens.learner, False)):
        page = client.get(f"/api/v1/submissions?problem={published}&limit=100", headers=bearer(token)).json()
        assert (mine in {item["id"] for item in page["items"]}) is sees
        status = read(client, token, mine).status_code
        assert status == (200 if sees else 404)


def test_failing_validation_blocks_publishing(client: TestClient, tokens: Tokens) -> None:
    slug = "fast_broken"
    broken = files(**{"problem.toml": TOML.replace(SLUG, slug),
                      "wrong/mutates.py": "# verdict: time_limit_exceeded\n" + MUTATES})
    response = client.post("/api/v1/problems", headers=bearer(tokens.instructor), json={"slug": slug, "files": broken})
    assert response.status_code == 201, response.text
    newest = versions(client, tokens.instructor, slug)[-1]
    assert newest["status"] == "invalid"
    assert "wrong/mutates.py got wrong_answer, declared time_limit_exceeded" in newest["validation"]["failures"][0]
    refused = client.post(f"/api/v1/problems/{slug}/publish", headers=bearer(tokens.instructor), json={})
    assert "cannot be published: it is invalid" in error(refused, 409, "conflict")
    # A draft is invisible to learners and takes no submissions.
    error(client.get(f"/api/v1/problems/{slug}", headers=bearer(tokens.learner)), 404, "not_found")
    error(client.post("/api/v1/submissions", headers=bearer(tokens.learner),
                      json={"problem": slug, "code": REFERENCE}), 404, "not_found")


def test_learners_and_other_instructors_may_not_manage(client: TestClient, tokens: Tokens, published: str) -> None:
    for token in (tokens.learner, tokens.other_learner, tokens.other_instructor):
        headers = bearer(token)
        error(client.get(f"/api/v1/problems/{published}/versions", headers=headers), 403, "forbidden")
        error(client.put(f"/api/v1/problems/{published}", headers=headers, json={"files": files()}),
              403, "forbidden")
        error(client.post(f"/api/v1/problems/{published}/publish", headers=headers, json={}), 403, "forbidden")
        error(client.post(f"/api/v1/problems/{published}/rejudge", headers=headers), 403, "forbidden")
        assert client.get(f"/api/v1/problems/{published}/stats", headers=headers).status_code == 200
    for token in (tokens.learner, tokens.other_learner):
        error(client.post("/api/v1/problems", headers=bearer(token), json={"slug": "nope", "files": {}}),
              403, "forbidden")
    # An instructor gets past authorization to validation.
    error(client.post("/api/v1/problems", headers=bearer(tokens.other_instructor),
                      json={"slug": "nope", "files": {}}), 422, "invalid_input")


def test_rejudge_runs_every_submission_again(client: TestClient, tokens: Tokens, published: str,
                                             eager_queue: EagerQueue) -> None:
    submit(client, tokens.learner, REFERENCE, problem=published)
    response = client.post(f"/api/v1/problems/{published}/rejudge", headers=bearer(tokens.instructor))
    assert response.status_code == 200
    body = response.json()
    assert body["problem"] == published and body["requeued"] >= 1
    assert [m.queue for m in eager_queue.sent[-body["requeued"]:]] == ["background"] * body["requeued"]
    page = client.get(f"/api/v1/submissions?problem={published}&limit=100", headers=bearer(tokens.instructor)).json()
    assert {item["status"] for item in page["items"]} == {"done"}


def test_shipped_slugs_and_taken_slugs_are_conflicts(client: TestClient, tokens: Tokens, published: str) -> None:
    shipped = problem_files("secret_lookup")
    response = client.post("/api/v1/problems", headers=bearer(tokens.instructor),
                           json={"slug": "secret_lookup", "files": shipped})
    assert "ships with the judge" in error(response, 409, "conflict")
    response = client.post("/api/v1/problems", headers=bearer(tokens.other_instructor),
                           json={"slug": published, "files": files()})
    assert "already exists" in error(response, 409, "conflict")
