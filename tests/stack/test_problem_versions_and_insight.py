"""Authoring and insight over HTTP on the real stack (PostgreSQL, a Celery worker, the Docker
sandbox): copy a problem, read its validation report, publish, roll back, follow a rejudge,
study its submissions; and who may call each of these routes."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.utils.service import REFERENCE, bearer, submit, wait_done, wait_version
from tests.utils.service_fixtures import Tokens, problem_files

SOURCE = "insight_source"
HIDDEN_MARK = "zq-secret-2"  # every hidden expected value of the fixture starts with this
# REFERENCE with other names, another layout and a comment: the same solution to winnowing.
RENAMED = """SECRET_TABLE = {'a': 'zq-secret-101', 'b': 'zq-secret-102',
    'hidden-key-c': 'zq-secret-203', 'hidden-key-d': 'zq-secret-204', 'hidden-key-e': 'zq-secret-205'}


def lookup(key):
    # look it up
    return SECRET_TABLE[key]
"""


def get(client: TestClient, token: str, path: str, **params: Any) -> Any:
    response = client.get(f"/api/v1{path}", headers=bearer(token), params=params)
    assert response.status_code == 200, response.text
    return response.json()


def versions(client: TestClient, token: str, slug: str) -> list[dict[str, Any]]:
    return get(client, token, f"/problems/{slug}/versions")  # type: ignore[no-any-return]


def validated(client: TestClient, token: str, slug: str, version: str, timeout: float = 180) -> dict[str, Any]:
    """The version's detail once its validation in the sandbox has finished."""
    deadline = time.monotonic() + timeout
    while True:
        detail: dict[str, Any] = get(client, token, f"/problems/{slug}/versions/{version}")
        if detail["status"] != "draft":
            return detail
        assert time.monotonic() < deadline, f"validation of {slug} {version} did not finish"
        time.sleep(0.5)


@pytest.fixture(scope="module")
def source(client: TestClient, tokens: Tokens) -> str:
    """A problem of `instructor`, published, with one accepted submission from each learner."""
    made = client.post("/api/v1/problems", headers=bearer(tokens.instructor),
                       json={"slug": SOURCE, "files": problem_files(SOURCE)})
    assert made.status_code == 201, made.text
    assert wait_version(client, tokens.instructor, SOURCE, timeout=180)["status"] == "valid"
    assert client.post(f"/api/v1/problems/{SOURCE}/publish", headers=bearer(tokens.instructor),
                       json={}).status_code == 200
    for token, code in ((tokens.learner, REFERENCE), (tokens.other_learner, RENAMED)):
        assert wait_done(client, token, submit(client, token, code, problem=SOURCE)["id"])["verdict"] == "accepted"
    wrong = submit(client, tokens.learner, "def lookup(key):\n    return key\n", problem=SOURCE)
    assert wait_done(client, tokens.learner, wrong["id"])["verdict"] == "wrong_answer"
    return SOURCE


def test_copy_report_publish_roll_back_and_rejudge(client: TestClient, tokens: Tokens, source: str) -> None:
    owner = tokens.instructor
    copy = f"insight_copy_{uuid.uuid4().hex[:6]}"
    made = client.post(f"/api/v1/problems/{source}/copy", headers=bearer(owner), json={"new_slug": copy})
    assert made.status_code == 201, made.text
    assert made.json()["status"] == "draft"
    first = made.json()["version"]
    # Validated in the background, in the sandbox: the report an author reads.
    report = validated(client, owner, copy, first)
    assert report["status"] == "valid", report
    validation = report["validation"]
    assert validation["reference"] == {"verdict": "accepted", "score": 1.0, "passed": 5, "total": 5}
    assert validation["deterministic"] is True
    assert [{k: v for k, v in w.items() if k != "decided_by"} for w in validation["wrong"]] == [
        {"file": "wrong/guess.py", "declared": "wrong_answer", "got": "wrong_answer", "ok": True,
         "could_get": []},
        {"file": "wrong/spin.py", "declared": "time_limit_exceeded", "got": "time_limit_exceeded", "ok": True,
         "could_get": []}]
    assert (validation["public_tests"], validation["hidden_tests"]) == (2, 3)
    assert validation["failures"] == []
    files = get(client, owner, f"/problems/{copy}/versions/{first}/files")["files"]
    assert f'slug = "{copy}"' in files["problem.toml"] and HIDDEN_MARK in files["tests/hidden.json"]
    # Each wrong solution names the test that decided its verdict (a hidden one, in its random order,
    # may be the first to fail) and what the judge said of it.
    names = {t["name"] for name in ("tests/public.json", "tests/hidden.json") for t in json.loads(files[name])}
    for wrong in validation["wrong"]:
        assert wrong["decided_by"]["test"] in names and wrong["decided_by"]["detail"], wrong
    # Not published yet: learners do not see it; its owner previews it.
    assert client.get(f"/api/v1/problems/{copy}", headers=bearer(tokens.learner)).status_code == 404
    assert get(client, owner, f"/problems/{copy}/preview")["hidden_test_count"] == 3
    assert client.post(f"/api/v1/problems/{copy}/publish", headers=bearer(owner),
                       json={"version": first}).status_code == 200
    # An edited statement is a second version; publish it, then roll back to the first.
    files["statement.md"] = "Return the secret stored under **key**, edited.\n"
    second = client.put(f"/api/v1/problems/{copy}", headers=bearer(owner), json={"files": files})
    assert second.status_code == 200, second.text
    newer = second.json()["version"]
    assert validated(client, owner, copy, newer)["status"] == "valid"
    preview = get(client, owner, f"/problems/{copy}/preview", version=newer)
    assert "edited" in preview["statement_markdown"]
    assert "edited" not in get(client, tokens.learner, f"/problems/{copy}")["statement_markdown"]
    assert client.post(f"/api/v1/problems/{copy}/publish", headers=bearer(owner),
                       json={"version": newer}).status_code == 200
    assert "edited" in get(client, tokens.learner, f"/problems/{copy}")["statement_markdown"]
    done = wait_done(client, tokens.learner, submit(client, tokens.learner, REFERENCE, problem=copy)["id"])
    assert done["problem_version"] == newer
    back = client.post(f"/api/v1/problems/{copy}/publish", headers=bearer(owner), json={"version": first})
    assert back.status_code == 200 and back.json()["published"] is True
    assert "edited" not in get(client, tokens.learner, f"/problems/{copy}")["statement_markdown"]
    # A rejudge puts the submission on the rolled-back version; its progress reaches the total.
    rejudged = client.post(f"/api/v1/problems/{copy}/rejudge", headers=bearer(owner))
    assert rejudged.status_code == 200 and rejudged.json()["version"] == first
    deadline = time.monotonic() + 120
    while True:
        progress = get(client, owner, f"/problems/{copy}/rejudges/latest")
        assert progress["total"] == 1 and progress["version"] == first
        assert progress["done"] + progress["queued"] + progress["running"] == 1
        if progress["done"] == 1:
            break
        assert time.monotonic() < deadline, progress
        time.sleep(0.3)
    assert wait_done(client, tokens.learner, done["id"])["problem_version"] == first


def test_insight_and_similarity(client: TestClient, tokens: Tokens, source: str) -> None:
    body = get(client, tokens.instructor, f"/problems/{source}/insight")
    assert body["acceptance"]["submissions"] == 3 and body["acceptance"]["accepted"] == 2
    assert body["scores"]["counts"][-1] == 2 and sum(body["scores"]["counts"]) == 3
    assert body["scores"]["counts"][0] == 1  # the wrong answer fails every test: score 0
    # The owner sees hidden tests by name; the wrong answer failed each test once.
    assert body["failing_tests"] == [
        {"name": name, "visibility": visibility, "failures": 1} for name, visibility in
        (("first", "public"), ("h1", "hidden"), ("h2", "hidden"), ("h3", "hidden"), ("second", "public"))]
    assert body["categories"] == [{"category": "the returned value is not the expected one", "count": 5}]
    assert body["verdicts"] == [{"verdict": "accepted", "count": 2}, {"verdict": "wrong_answer", "count": 1}]
    svg = client.get(f"/api/v1/problems/{source}/insight/failing.svg", headers=bearer(tokens.instructor))
    assert svg.headers["content-type"].startswith("image/svg+xml") and 'role="img"' in svg.text
    pairs = get(client, tokens.instructor, f"/problems/{source}/similarity")
    assert pairs["compared"] == 2 and len(pairs["pairs"]) == 1
    pair = pairs["pairs"][0]
    assert {pair["a"]["user"], pair["b"]["user"]} == {"test-learner", "test-other_learner"}
    assert pair["similarity"] >= 0.6
    side = get(client, tokens.instructor, f"/similarity/{pair['a']['submission']}/{pair['b']['submission']}")
    assert {side["a"]["code"], side["b"]["code"]} == {REFERENCE, RENAMED}


ROLES = ["instructor", "admin", "other_instructor", "learner", "none"]


@pytest.mark.parametrize("role", ROLES)
def test_authorization_matrix(client: TestClient, tokens: Tokens, source: str, role: str) -> None:
    """Every new route: the owner and admins may; another instructor (teaching no course that
    assigns it) and learners may not, and see nothing hidden; no credentials is 401."""
    client.post(f"/api/v1/problems/{source}/rejudge", headers=bearer(tokens.instructor))
    version = versions(client, tokens.instructor, source)[-1]["version"]
    mine = get(client, tokens.learner, "/submissions", problem=source)["items"]
    theirs = get(client, tokens.other_learner, "/submissions", problem=source)["items"]
    a, b = mine[0]["id"], theirs[0]["id"]
    routes: list[tuple[str, str, dict[str, Any] | None]] = [
        ("POST", f"/problems/{source}/copy", {"new_slug": f"matrix_{role}_{uuid.uuid4().hex[:6]}"}),
        ("GET", f"/problems/{source}/versions/{version}", None),
        ("GET", f"/problems/{source}/versions/{version}/files", None),
        ("GET", f"/problems/{source}/rejudges/latest", None),
        ("GET", f"/problems/{source}/preview", None),
        ("GET", f"/problems/{source}/insight", None),
        ("GET", f"/problems/{source}/insight/scores.svg", None),
        ("GET", f"/problems/{source}/insight/failing.svg", None),
        ("GET", f"/problems/{source}/similarity", None),
        ("GET", f"/similarity/{a}/{b}", None),
    ]
    headers = bearer(getattr(tokens, role)) if role != "none" else {}
    for method, path, body in routes:
        response = client.request(method, f"/api/v1{path}", headers=headers, json=body)
        if role in ("instructor", "admin"):
            assert response.status_code in (200, 201), (path, response.text)
        elif role == "none":
            assert response.status_code == 401, (path, response.status_code)
        else:
            assert response.status_code in (403, 404), (path, response.status_code, response.text)
            assert HIDDEN_MARK not in response.text and "hidden-key" not in response.text
