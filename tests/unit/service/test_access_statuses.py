"""Authentication (401) and authorization (403, and 404 for what one may not see)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from service.db.models import Role
from tests.unit.service.helpers import SUBMISSIONS, error, read
from tests.utils.service import REFERENCE, bearer, submit
from tests.utils.service_fixtures import Tokens

# Every authenticated route, with a body that would otherwise be acceptable.
ROUTES = [
    ("GET", SUBMISSIONS, None),
    ("POST", SUBMISSIONS, {"problem": "secret_lookup", "code": REFERENCE}),
    ("GET", f"{SUBMISSIONS}/1", None),
    ("GET", "/api/v1/problems", None),
    ("GET", "/api/v1/problems/secret_lookup", None),
    ("POST", "/api/v1/problems", {"slug": "x", "files": {}}),
    ("PUT", "/api/v1/problems/secret_lookup", {"files": {}}),
    ("GET", "/api/v1/problems/secret_lookup/versions", None),
    ("POST", "/api/v1/problems/secret_lookup/publish", {}),
    ("POST", "/api/v1/problems/secret_lookup/rejudge", None),
    ("GET", "/api/v1/problems/secret_lookup/stats", None),
    ("GET", "/api/v1/me", None),
    ("GET", "/api/v1/problems/secret_lookup/hints", None),
    ("POST", "/api/v1/problems/secret_lookup/hints", None),
    ("GET", "/api/v1/problems/secret_lookup/hint-reveals", None),
    ("GET", "/api/v1/problems/secret_lookup/editorial", None),
]


@pytest.mark.parametrize(("method", "path", "body"), ROUTES, ids=[f"{m} {p}" for m, p, _ in ROUTES])
@pytest.mark.parametrize("authorization", [None, "Bearer jt_not-a-token", "Bearer ", "Basic dXNlcjpwYXNz",
                                           "jt_no-scheme"], ids=["none", "unknown", "empty", "basic", "no-scheme"])
def test_no_valid_token_is_401(client: TestClient, method: str, path: str, body: object,
                               authorization: str | None) -> None:
    headers = {"Authorization": authorization} if authorization is not None else {}
    response = client.request(method, path, headers=headers, json=body)
    error(response, 401, "unauthorized")
    assert response.headers["WWW-Authenticate"] == "Bearer"


def test_401_messages_say_what_to_send(client: TestClient) -> None:
    assert "Authorization: Bearer" in error(client.get(SUBMISSIONS), 401)
    assert "not valid" in error(client.get(SUBMISSIONS, headers=bearer("jt_not-a-token")), 401)


def test_a_learner_may_not_author(client: TestClient, tokens: Tokens) -> None:
    response = client.post("/api/v1/problems", headers=bearer(tokens.learner),
                           json={"slug": "learner_made", "files": {"problem.toml": ""}})
    assert "instructors" in error(response, 403, "forbidden")
    # Nor upload an archive: refused before the body is read.
    response = client.post("/api/v1/problems", headers=bearer(tokens.learner),
                           files={"archive": ("p.zip", b"PK\x05\x06" + b"\0" * 18)})
    error(response, 403, "forbidden")


@pytest.mark.parametrize("role", ["learner", "instructor"])
def test_shipped_problems_are_managed_by_admins_only(client: TestClient, tokens: Tokens, role: str) -> None:
    headers = bearer(getattr(tokens, role))
    error(client.get("/api/v1/problems/secret_lookup/versions", headers=headers), 403, "forbidden")
    error(client.post("/api/v1/problems/secret_lookup/publish", headers=headers, json={}), 403, "forbidden")
    error(client.post("/api/v1/problems/secret_lookup/rejudge", headers=headers), 403, "forbidden")
    body = client.get("/api/v1/problems/secret_lookup", headers=headers).json()
    assert "hidden_tests" not in body and body["hidden_test_count"] == 3
    admin = client.get("/api/v1/problems/secret_lookup", headers=bearer(tokens.admin)).json()
    assert len(admin["hidden_tests"]) == 3
    assert client.get("/api/v1/problems/secret_lookup/versions", headers=bearer(tokens.admin)).status_code == 200


def test_another_learners_submission_is_not_found(client: TestClient, tokens: Tokens) -> None:
    """Not 403: someone else's submission answers exactly like a missing one, so ids reveal nothing."""
    theirs = submit(client, tokens.other_learner, REFERENCE, mode="run")["id"]
    response = read(client, tokens.learner, theirs)
    missing = read(client, tokens.learner, 10**9)
    assert error(response, 404, "not_found") == f"no submission {theirs}"
    assert error(missing, 404, "not_found") == f"no submission {10**9}"
    assert REFERENCE not in response.text
    error(read(client, tokens.learner, theirs, wait=1), 404, "not_found")  # before any wait
    error(read(client, tokens.other_instructor, theirs), 404, "not_found")
    assert read(client, tokens.other_learner, theirs).status_code == 200
    assert read(client, tokens.admin, theirs).status_code == 200


def test_a_learner_lists_only_their_own_submissions(client: TestClient, tokens: Tokens, new_user) -> None:  # type: ignore[no-untyped-def]
    one, two = new_user(Role.LEARNER), new_user(Role.LEARNER)
    mine = {submit(client, one, REFERENCE, mode="run")["id"] for _ in range(3)}
    theirs = submit(client, two, REFERENCE, mode="run")["id"]
    page = client.get(f"{SUBMISSIONS}?limit=2", headers=bearer(one)).json()
    assert page["total"] == 3 and page["limit"] == 2 and page["offset"] == 0 and len(page["items"]) == 2
    rest = client.get(f"{SUBMISSIONS}?limit=2&offset=2", headers=bearer(one)).json()
    ids = [item["id"] for item in page["items"] + rest["items"]]
    assert ids == sorted(mine, reverse=True) and theirs not in ids
    assert {item["user"] for item in page["items"] + rest["items"]} == {page["items"][0]["user"]}
    assert "code" not in page["items"][0] and "tests" not in page["items"][0]  # summaries only
    filtered = client.get(f"{SUBMISSIONS}?problem=no_such_problem", headers=bearer(one)).json()
    assert filtered == {"items": [], "total": 0, "limit": 20, "offset": 0}
    everyone = client.get(f"{SUBMISSIONS}?limit=100", headers=bearer(tokens.admin)).json()
    assert mine | {theirs} <= {item["id"] for item in everyone["items"]}
