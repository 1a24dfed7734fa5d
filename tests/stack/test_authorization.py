"""Each role against each endpoint. Learners never see another learner's work or a hidden test."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.utils.service import REFERENCE, bearer, submit, wait_done, wait_version
from tests.utils.service_fixtures import Tokens, problem_files

SLUG = "owned_lookup"
HIDDEN_MARK = "zq-secret-2"  # every hidden expected value starts with this


@pytest.fixture(scope="module")
def world(client: TestClient, tokens: Tokens) -> dict[str, Any]:
    """A problem owned by `instructor`, and one judged submission from each learner."""
    response = client.post("/api/v1/problems", headers=bearer(tokens.instructor),
                           json={"slug": SLUG, "files": problem_files(SLUG)})
    assert response.status_code == 201, response.text
    wait_version(client, tokens.instructor, SLUG)
    client.post(f"/api/v1/problems/{SLUG}/publish", headers=bearer(tokens.instructor), json={})
    mine = submit(client, tokens.learner, "def lookup(key):\n    return key\n", problem=SLUG)
    theirs = submit(client, tokens.other_learner, REFERENCE, problem=SLUG)
    return {"mine": wait_done(client, tokens.learner, mine["id"]),
            "theirs": wait_done(client, tokens.other_learner, theirs["id"])}


def role_token(tokens: Tokens, role: str) -> str:
    return str(getattr(tokens, role))


ALL = ["learner", "other_learner", "instructor", "other_instructor", "admin"]


@pytest.mark.parametrize(("role", "status", "reveals"), [
    ("learner", 200, False), ("other_learner", 404, False), ("instructor", 200, True),
    ("other_instructor", 404, False), ("admin", 200, True),
])
def test_reading_a_submission(client: TestClient, tokens: Tokens, world: dict[str, Any], role: str,
                              status: int, reveals: bool) -> None:
    response = client.get(f"/api/v1/submissions/{world['mine']['id']}", headers=bearer(role_token(tokens, role)))
    assert response.status_code == status
    if status == 200:
        body = response.json()
        hidden = [t for t in body["tests"] if t["visibility"] == "hidden"]
        assert (len(hidden) == 3 and all("expected" in t for t in hidden)) is reveals
        assert (body["hidden"] is None) is reveals  # learners get the aggregate instead
        assert (HIDDEN_MARK in response.text) is reveals


@pytest.mark.parametrize(("role", "sees_mine", "sees_theirs"), [
    ("learner", True, False), ("other_learner", False, True), ("instructor", True, True),
    ("other_instructor", False, False), ("admin", True, True),
])
def test_listing_submissions(client: TestClient, tokens: Tokens, world: dict[str, Any], role: str,
                             sees_mine: bool, sees_theirs: bool) -> None:
    page = client.get(f"/api/v1/submissions?problem={SLUG}&limit=100", headers=bearer(role_token(tokens, role)))
    ids = {item["id"] for item in page.json()["items"]}
    assert (world["mine"]["id"] in ids) is sees_mine
    assert (world["theirs"]["id"] in ids) is sees_theirs


@pytest.mark.parametrize(("role", "owner"), [
    ("learner", False), ("other_learner", False), ("instructor", True), ("other_instructor", False), ("admin", True),
])
def test_reading_a_problem(client: TestClient, tokens: Tokens, world: dict[str, Any], role: str, owner: bool) -> None:
    response = client.get(f"/api/v1/problems/{SLUG}", headers=bearer(role_token(tokens, role)))
    assert response.status_code == 200
    body = response.json()
    assert ("hidden_tests" in body) is owner and ("versions" in body) is owner
    assert body["hidden_test_count"] == 3
    assert (HIDDEN_MARK in response.text) is owner
    listing = client.get("/api/v1/problems", headers=bearer(role_token(tokens, role)))
    assert listing.status_code == 200 and HIDDEN_MARK not in listing.text


def test_shipped_problems_reveal_hidden_tests_to_admins_only(client: TestClient, tokens: Tokens) -> None:
    for role, reveals in [("instructor", False), ("learner", False), ("admin", True)]:
        body = client.get("/api/v1/problems/secret_lookup", headers=bearer(role_token(tokens, role))).json()
        assert ("hidden_tests" in body) is reveals


@pytest.mark.parametrize("role", ALL)
def test_owner_only_actions(client: TestClient, tokens: Tokens, world: dict[str, Any], role: str) -> None:
    headers = bearer(role_token(tokens, role))
    allowed = role in ("instructor", "admin")
    learner = role in ("learner", "other_learner")
    expected = 200 if allowed else 403
    assert client.get(f"/api/v1/problems/{SLUG}/versions", headers=headers).status_code == expected
    same = client.put(f"/api/v1/problems/{SLUG}", headers=headers, json={"files": problem_files(SLUG)})
    assert same.status_code == expected  # identical content: the existing version, nothing new
    assert client.post(f"/api/v1/problems/{SLUG}/publish", headers=headers, json={}).status_code == expected
    create = client.post("/api/v1/problems", headers=headers, json={"slug": f"new_{role}", "files": {}})
    assert create.status_code == (403 if learner else 422)  # instructors get past auth to validation
    assert client.get(f"/api/v1/problems/{SLUG}/stats", headers=headers).status_code == 200


def test_rejudge_is_for_the_owner(client: TestClient, tokens: Tokens, world: dict[str, Any]) -> None:
    for role in ("learner", "other_learner", "other_instructor"):
        response = client.post(f"/api/v1/problems/{SLUG}/rejudge", headers=bearer(role_token(tokens, role)))
        assert response.status_code == 403
    assert client.post(f"/api/v1/problems/{SLUG}/rejudge", headers=bearer(tokens.instructor)).status_code == 200
    wait_done(client, tokens.learner, world["mine"]["id"])
    wait_done(client, tokens.other_learner, world["theirs"]["id"])
