"""What the authoring page reads, through HTTP on the real stack (PostgreSQL, a worker judging in
Docker): the slug in every version answer, ``owned`` on the problem list, ``GET
/problems?mine=true`` with each problem's newest version and acceptance, and a rejudge's progress
as null before the first rejudge."""

from __future__ import annotations

import io
import uuid
import zipfile
from typing import Any

import pytest
from fastapi.testclient import TestClient

from service.db.models import Role
from tests.utils.accounts import make_account
from tests.utils.service import REFERENCE, bearer, submit, wait_done, wait_version
from tests.utils.service_fixtures import Tokens, problem_files

API = "/api/v1"
WRONG = "def lookup(key):\n    return 'zq-secret-1O1'\n"


def archive(files: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as packed:
        for path, text in files.items():
            packed.writestr(path, text)
    return out.getvalue()


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


@pytest.fixture(scope="module")
def authored(client: TestClient) -> dict[str, Any]:
    """A new instructor's problem, uploaded as an archive without a slug, published, then given a
    newer draft; and a second problem that stays a draft."""
    author = make_account(Role.INSTRUCTOR, prefix="lister")
    slug, drafted = f"listed_{uuid.uuid4().hex[:6]}", f"listed_draft_{uuid.uuid4().hex[:6]}"
    made = ok(client.post(f"{API}/problems", headers=bearer(author.token),
                          files={"archive": ("p.zip", archive(problem_files(slug)))}), 201)
    first = wait_version(client, author.token, slug)
    published = ok(client.post(f"{API}/problems/{slug}/publish", headers=bearer(author.token), json={}))
    newer = ok(client.put(f"{API}/problems/{slug}", headers=bearer(author.token),
                          json={"files": problem_files(slug, **{"statement.md": "New words.\n"})}))
    ok(client.post(f"{API}/problems", headers=bearer(author.token),
                   json={"slug": drafted, "files": problem_files(drafted)}), 201)
    wait_version(client, author.token, drafted)
    newest = wait_version(client, author.token, slug)
    return {"author": author, "slug": slug, "drafted": drafted, "made": made, "first": first,
            "published": published, "newer": newer, "newest": newest}


def test_every_version_answer_names_its_problem(client: TestClient, authored: dict[str, Any]) -> None:
    slug = authored["slug"]
    assert authored["made"]["problem"] == authored["published"]["problem"] == authored["newer"]["problem"] == slug
    copy = f"listed_copy_{uuid.uuid4().hex[:6]}"
    copied = ok(client.post(f"{API}/problems/{slug}/copy", headers=bearer(authored["author"].token),
                            json={"new_slug": copy}), 201)
    assert copied["problem"] == copy
    versions = ok(client.get(f"{API}/problems/{slug}/versions", headers=bearer(authored["author"].token)))
    assert [v["problem"] for v in versions] == [slug, slug]


def test_owned_and_mine(client: TestClient, tokens: Tokens, authored: dict[str, Any]) -> None:
    author, slug, drafted = authored["author"], authored["slug"], authored["drafted"]
    learner = make_account(Role.LEARNER, prefix="lister-learner")
    for code in (WRONG, REFERENCE):
        assert wait_done(client, learner.token, submit(client, learner.token, code, problem=slug)["id"])["status"] == "done"
    submit(client, learner.token, REFERENCE, problem=slug, mode="run")  # never counted

    def owned(token: str) -> dict[str, bool]:
        return {p["slug"]: p["owned"] for p in ok(client.get(f"{API}/problems", headers=bearer(token)))}

    assert owned(author.token)[slug] is True and owned(author.token)["secret_lookup"] is False
    assert not any(owned(tokens.learner).values()) and owned(tokens.other_instructor)[slug] is False
    assert all(owned(tokens.admin).values())

    mine = ok(client.get(f"{API}/problems", headers=bearer(author.token), params={"mine": "true"}))
    # Theirs only (the two, and a copy when that test ran first), and nobody else's.
    assert {slug, drafted} <= {p["slug"] for p in mine} and all(p["slug"].startswith("listed_") for p in mine)
    shown = next(p for p in mine if p["slug"] == slug)
    assert shown["version"] == authored["first"]["version"] and shown["published"] is True
    assert shown["newest_version"]["version"] == authored["newer"]["version"] != shown["version"]
    assert shown["newest_version"]["status"] == authored["newest"]["status"] == "valid"
    assert shown["acceptance"] == {"submissions": 2, "accepted": 1, "rate": 0.5}
    draft = next(p for p in mine if p["slug"] == drafted)
    assert draft["published"] is False and draft["acceptance"] == {"submissions": 0, "accepted": 0, "rate": None}
    for token in (tokens.other_instructor, tokens.learner):
        theirs = ok(client.get(f"{API}/problems", headers=bearer(token), params={"mine": "true"}))
        assert not {p["slug"] for p in theirs} & {slug, drafted}
    everything = ok(client.get(f"{API}/problems", headers=bearer(tokens.admin), params={"mine": "true"}))
    assert {slug, drafted} <= {p["slug"] for p in everything}
    plain = next(p for p in ok(client.get(f"{API}/problems", headers=bearer(author.token))) if p["slug"] == slug)
    assert plain["newest_version"] is None and plain["acceptance"] is None


def test_rejudge_progress_is_null_before_the_first(client: TestClient, tokens: Tokens,
                                                   authored: dict[str, Any]) -> None:
    author, drafted = authored["author"], authored["drafted"]
    url = f"{API}/problems/{drafted}/rejudges/latest"
    never = client.get(url, headers=bearer(author.token))
    assert never.status_code == 200 and never.json() is None, never.text
    assert client.get(url, headers=bearer(tokens.other_instructor)).status_code == 403
    assert client.get(url, headers=bearer(tokens.learner)).status_code == 403
    assert client.get(f"{API}/problems/no_such_problem/rejudges/latest",
                      headers=bearer(author.token)).status_code == 404
    ok(client.post(f"{API}/problems/{drafted}/publish", headers=bearer(author.token), json={}))
    ok(client.post(f"{API}/problems/{drafted}/rejudge", headers=bearer(author.token)))
    progress = ok(client.get(url, headers=bearer(author.token)))
    assert progress["total"] == progress["done"] == 0 and progress["requested_by"] == author.name
