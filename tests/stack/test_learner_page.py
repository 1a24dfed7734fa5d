"""The learner's page against the real stack (PostgreSQL, Redis, a worker, the Docker sandbox):
tries run the reference and then the learner's code in containers; hints; the editorial."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.utils.service import REFERENCE, bearer, submit, wait_done, wait_version
from tests.utils.service_fixtures import Tokens, problem_files

SLUG = "guided_lookup"
HINTS = "## First\n\nLook the key up in a `dict`.\n\n## Second\n\nUnknown keys are never asked for.\n"
EDITORIAL = "# Idea\n\nA dictionary lookup, $O(1)$ per call.\n"


@pytest.fixture(scope="module")
def guided(client: TestClient, tokens: Tokens) -> str:
    files = problem_files(SLUG, **{"hints.md": HINTS, "editorial.md": EDITORIAL})
    response = client.post("/api/v1/problems", headers=bearer(tokens.instructor), json={"slug": SLUG, "files": files})
    assert response.status_code == 201, response.text
    assert wait_version(client, tokens.instructor, SLUG)["status"] == "valid"
    assert client.post(f"/api/v1/problems/{SLUG}/publish", headers=bearer(tokens.instructor),
                       json={}).status_code == 200
    return SLUG


def tried(client: TestClient, token: str, code: str, arguments: list[Any]) -> dict[str, Any]:
    response = client.post("/api/v1/submissions", headers=bearer(token), json={
        "problem": "secret_lookup", "code": code, "mode": "try", "arguments": arguments})
    assert response.status_code == 202, response.text
    return wait_done(client, token, response.json()["id"])


def test_a_try_runs_in_the_sandbox(client: TestClient, tokens: Tokens) -> None:
    right = tried(client, tokens.learner, REFERENCE, ["hidden-key-c"])
    assert right["verdict"] == "accepted" and right["mode"] == "try"
    [test] = right["tests"]
    assert (test["name"], test["visibility"], test["status"]) == ("your input", "custom", "passed")
    assert test["args"] == ["hidden-key-c"] and test["expected"] == "zq-secret-203"
    assert test["actual_repr"] == test["expected_repr"] == "'zq-secret-203'"
    wrong = tried(client, tokens.learner, "def lookup(key):\n    print('looking')\n    return key\n", ["a"])
    assert wrong["verdict"] == "wrong_answer"
    assert wrong["tests"][0]["expected"] == "zq-secret-101" and wrong["tests"][0]["actual_repr"] == "'a'"
    assert wrong["tests"][0]["stdout"] == "looking\n"


def test_arguments_the_reference_rejects(client: TestClient, tokens: Tokens) -> None:
    body = tried(client, tokens.learner, REFERENCE, ["nobody"])
    assert body["verdict"] is None and body["status"] == "done"
    assert body["message"] == "the reference rejects these arguments: it raises KeyError: 'nobody'"
    assert body["tests"][0]["status"] == "not_run"
    assert "SECRETS" not in str({k: v for k, v in body.items() if k != "code"})


def test_a_type_error_in_the_arguments_is_422(client: TestClient, tokens: Tokens) -> None:
    response = client.post("/api/v1/submissions", headers=bearer(tokens.learner), json={
        "problem": "secret_lookup", "code": REFERENCE, "mode": "try", "arguments": [7]})
    assert response.status_code == 422
    assert response.json()["error"]["message"] == "arguments[0]: parameter 'key': 7 is not a str (expected str)"


def test_hints_and_the_editorial(client: TestClient, tokens: Tokens, guided: str) -> None:
    me = bearer(tokens.learner)
    url = f"/api/v1/problems/{guided}"
    assert client.post(f"{url}/hints", headers=me).json()["revealed"][0]["markdown"] == "Look the key up in a `dict`.\n"
    assert client.get(url, headers=me).json()["hints_revealed"] == 1
    reveals = client.get(f"{url}/hint-reveals", headers=bearer(tokens.instructor)).json()
    assert [(r["user"], r["index"]) for r in reveals] == [("test-learner", 1)]
    assert client.get(f"{url}/editorial", headers=me).json()["error"]["code"] == "not_solved"
    done = wait_done(client, tokens.learner, submit(client, tokens.learner, REFERENCE, problem=guided)["id"])
    assert done["verdict"] == "accepted"
    editorial = client.get(f"{url}/editorial", headers=me).json()
    assert editorial["markdown"] == EDITORIAL and "<math" in editorial["html"]
    listed = {p["slug"]: p for p in client.get("/api/v1/problems", headers=me).json()}
    assert listed[guided]["progress"] == "solved" and listed[guided]["best_score"] == 1.0
    assert client.get("/api/v1/me", headers=me).json()["name"] == "test-learner"
