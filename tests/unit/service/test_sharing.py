"""Copying someone else's problem needs its owner's consent (``service.sharing``): a copy
holds every file, hidden tests, reference and wrong solutions included. The owner (or an admin)
shares a problem with PATCH /problems/{slug} and takes it back; shipped problems are always
shareable; the owner and admins always copy."""

from __future__ import annotations

import json
import uuid

import httpx
from fastapi.testclient import TestClient

from service.db.models import Role
from tests.unit.service.helpers import error, ratio_files
from tests.utils.courses import new_user
from tests.utils.service import bearer
from tests.utils.service_fixtures import Tokens

API = "/api/v1"
WRONG = "# verdict: wrong_answer\ndef ratio(hits, total):\n    return 0.0\n"


def unique(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:6]}"


def published_problem(client: TestClient, token: str) -> str:
    """A new problem of the caller's with a wrong solution, validated and published."""
    slug = unique("fast_sharing")
    files = ratio_files(slug, **{"wrong/zero.py": WRONG})
    made = client.post(f"{API}/problems", headers=bearer(token), json={"slug": slug, "files": files})
    assert made.status_code == 201, made.text
    published = client.post(f"{API}/problems/{slug}/publish", headers=bearer(token), json={})
    assert published.status_code == 200, published.text
    return slug


def copy(client: TestClient, token: str, slug: str, version: str | None = None) -> tuple[str, httpx.Response]:
    new_slug = unique("fast_copied")
    answer = client.post(f"{API}/problems/{slug}/copy", headers=bearer(token),
                         json={"new_slug": new_slug, "version": version})
    return new_slug, answer


def share(client: TestClient, token: str, slug: str, shareable: object) -> httpx.Response:
    return client.patch(f"{API}/problems/{slug}", headers=bearer(token), json={"shareable": shareable})


def test_another_instructor_copies_only_what_its_owner_shares(client: TestClient, tokens: Tokens) -> None:
    owner, other = new_user(unique("fast-owner"), Role.INSTRUCTOR), new_user(unique("fast-other"), Role.INSTRUCTOR)
    slug = published_problem(client, owner)
    seen = client.get(f"{API}/problems/{slug}", headers=bearer(other)).json()
    assert (seen["shareable"], seen["shipped"], seen["owned"]) == (False, False, False)

    # Not shared (the default): refused, saying why, and no problem is made.
    new_slug, refused = copy(client, other, slug)
    message = error(refused, 403, "forbidden")
    assert f"problem {slug!r} is not shareable" in message and "hidden tests" in message
    assert client.get(f"{API}/problems/{new_slug}", headers=bearer(tokens.admin)).status_code == 404

    # Only the owner (or an admin) shares it; a learner or another instructor cannot.
    for token in (other, tokens.learner):
        error(share(client, token, slug, True), 403, "forbidden")
    shared = share(client, owner, slug, True)
    assert shared.status_code == 200, shared.text
    body = shared.json()
    assert body["shareable"] is True and body["hidden_tests"]  # the owner's view, as GET answers it
    assert client.get(f"{API}/problems/{slug}", headers=bearer(other)).json()["shareable"] is True

    # Shared: the other instructor copies the published version, every file of it.
    new_slug, made = copy(client, other, slug)
    assert made.status_code == 201, made.text
    files = client.get(f"{API}/problems/{new_slug}/versions/{made.json()['version']}/files",
                       headers=bearer(other)).json()["files"]
    assert "wrong/zero.py" in files and json.loads(files["tests/hidden.json"])[0]["name"] == "third"
    # ... but no draft the owner has not published.
    draft = client.put(f"{API}/problems/{slug}", headers=bearer(owner),
                       json={"files": {**ratio_files(slug), "statement.md": "Unpublished.\n"}})
    assert draft.status_code == 200, draft.text
    _, older = copy(client, other, slug, draft.json()["version"])
    assert "only the published version" in error(older, 403, "forbidden")

    # Taken back: refused again; the copy made stays its maker's.
    assert share(client, owner, slug, False).json()["shareable"] is False
    error(copy(client, other, slug)[1], 403, "forbidden")
    assert client.get(f"{API}/problems/{new_slug}", headers=bearer(other)).json()["owned"] is True
    # The owner and admins copy it whether shared or not, any version.
    for token in (owner, tokens.admin):
        assert copy(client, token, slug, draft.json()["version"])[1].status_code == 201


def test_sharing_takes_a_boolean_and_a_shipped_problem_stays_shareable(client: TestClient, tokens: Tokens) -> None:
    owner = new_user(unique("fast-owner"), Role.INSTRUCTOR)
    slug = published_problem(client, owner)
    for wrong in ("yes", 1, "true"):
        assert error(share(client, owner, slug, wrong), 422, "invalid_input").startswith("shareable")
    unchanged = client.patch(f"{API}/problems/{slug}", headers=bearer(owner), json={})
    assert unchanged.status_code == 200 and unchanged.json()["shareable"] is False, unchanged.text
    error(share(client, owner, "no_such_problem", True), 404, "not_found")

    shipped = client.get(f"{API}/problems/secret_lookup", headers=bearer(tokens.learner)).json()
    assert (shipped["shipped"], shipped["shareable"]) == (True, True)
    error(share(client, owner, "secret_lookup", True), 403, "forbidden")
    kept = share(client, tokens.admin, "secret_lookup", False)
    assert "always shareable" in error(kept, 409, "conflict")
    assert share(client, tokens.admin, "secret_lookup", True).status_code == 200
