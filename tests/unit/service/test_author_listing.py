"""What the authoring page reads in one request each: the slug in every version answer (upload,
new draft, copy), ``owned`` on the problem list, ``GET /problems?mine=true`` with each problem's
newest version and acceptance, and a rejudge's progress as null before the first. The fast
layer; tests/stack/test_author_listing_with_rejudges.py runs the same on PostgreSQL."""

from __future__ import annotations

import io
import uuid
import zipfile
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from service.db.models import Role
from tests.unit.service.helpers import ratio_files
from tests.utils.service import bearer, submit
from tests.utils.service_fixtures import Tokens

API = "/api/v1"
WRONG_RATIO = "def ratio(hits, total):\n    return 0.0\n"
RIGHT_RATIO = "def ratio(hits, total):\n    return hits / total\n"


def archive(files: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as packed:
        for path, text in files.items():
            packed.writestr(path, text)
    return out.getvalue()


def test_every_version_answer_names_its_problem(client: TestClient, new_user: Callable[[Role], str]) -> None:
    author = new_user(Role.INSTRUCTOR)
    slug = f"fast_named_{uuid.uuid4().hex[:6]}"
    # An archive without a slug field: the answer is the only place the page learns the slug.
    made = client.post(f"{API}/problems", headers=bearer(author),
                       files={"archive": ("p.zip", archive(ratio_files(slug)))})
    assert made.status_code == 201, made.text
    assert made.json()["problem"] == slug
    files = ratio_files(slug, **{"statement.md": "Return the share of hits.\n"})
    draft = client.put(f"{API}/problems/{slug}", headers=bearer(author), json={"files": files})
    assert draft.status_code == 200 and draft.json()["problem"] == slug, draft.text
    copy = f"fast_named_copy_{uuid.uuid4().hex[:6]}"
    copied = client.post(f"{API}/problems/{slug}/copy", headers=bearer(author), json={"new_slug": copy})
    assert copied.status_code == 201 and copied.json()["problem"] == copy, copied.text
    published = client.post(f"{API}/problems/{slug}/publish", headers=bearer(author), json={})
    assert published.json()["problem"] == slug
    versions = client.get(f"{API}/problems/{slug}/versions", headers=bearer(author)).json()
    assert {v["problem"] for v in versions} == {slug} and len(versions) == 2


def test_the_list_says_what_the_caller_owns(client: TestClient, tokens: Tokens,
                                            new_user: Callable[[Role], str]) -> None:
    author = new_user(Role.INSTRUCTOR)
    slug = f"fast_owned_{uuid.uuid4().hex[:6]}"
    assert client.post(f"{API}/problems", headers=bearer(author),
                       json={"slug": slug, "files": ratio_files(slug)}).status_code == 201
    client.post(f"{API}/problems/{slug}/publish", headers=bearer(author), json={})

    def owned(token: str) -> dict[str, bool]:
        return {p["slug"]: p["owned"] for p in client.get(f"{API}/problems", headers=bearer(token)).json()}

    assert owned(author)[slug] is True and owned(author)["secret_lookup"] is False
    assert owned(tokens.learner)[slug] is False and not any(owned(tokens.learner).values())
    assert owned(tokens.other_instructor)[slug] is False
    assert all(owned(tokens.admin).values())  # an admin may author every problem
    # The plain list carries no authoring fields, and the detail says owned too.
    plain = next(p for p in client.get(f"{API}/problems", headers=bearer(author)).json() if p["slug"] == slug)
    assert plain["newest_version"] is None and plain["acceptance"] is None
    assert client.get(f"{API}/problems/{slug}", headers=bearer(author)).json()["owned"] is True
    assert client.get(f"{API}/problems/{slug}", headers=bearer(tokens.learner)).json()["owned"] is False


def test_mine_lists_my_problems_with_the_newest_version_and_acceptance(
        client: TestClient, tokens: Tokens, new_user: Callable[[Role], str]) -> None:
    author = new_user(Role.INSTRUCTOR)
    mine = client.get(f"{API}/problems", headers=bearer(author), params={"mine": "true"})
    assert mine.status_code == 200 and mine.json() == [], mine.text

    published, drafted = (f"fast_mine_{name}_{uuid.uuid4().hex[:6]}" for name in ("pub", "draft"))
    for slug in (published, drafted):
        assert client.post(f"{API}/problems", headers=bearer(author),
                           json={"slug": slug, "files": ratio_files(slug)}).status_code == 201
    first = client.post(f"{API}/problems/{published}/publish", headers=bearer(author), json={}).json()["version"]
    newer = client.put(f"{API}/problems/{published}", headers=bearer(author),
                       json={"files": ratio_files(published, **{"statement.md": "New words.\n"})}).json()
    learner = new_user(Role.LEARNER)
    for code, mode in [(WRONG_RATIO, "submit"), (RIGHT_RATIO, "submit"), (RIGHT_RATIO, "run"),
                       (RIGHT_RATIO, "submit")]:
        submit(client, learner, code, problem=published, mode=mode)

    listed = client.get(f"{API}/problems", headers=bearer(author), params={"mine": "true"}).json()
    by_slug = {p["slug"]: p for p in listed}
    assert sorted(by_slug) == sorted([published, drafted])
    shown = by_slug[published]
    assert shown["owned"] is True and shown["published"] is True and shown["version"] == first
    assert shown["newest_version"]["version"] == newer["version"] != first
    assert shown["newest_version"]["status"] == "valid"
    # Submit mode only: the run is not counted.
    assert shown["acceptance"] == {"submissions": 3, "accepted": 2, "rate": pytest.approx(2 / 3)}
    draft = by_slug[drafted]
    assert draft["published"] is False and draft["version"] is None
    assert draft["newest_version"]["status"] == "valid"
    assert draft["acceptance"] == {"submissions": 0, "accepted": 0, "rate": None}

    # Nobody else's problems: another instructor and a learner own none of these; an admin all.
    for token in (tokens.other_instructor, tokens.learner):
        theirs = {p["slug"] for p in client.get(f"{API}/problems", headers=bearer(token),
                                                 params={"mine": "true"}).json()}
        assert not theirs & {published, drafted}
    everything = client.get(f"{API}/problems", headers=bearer(tokens.admin), params={"mine": "true"}).json()
    assert {published, drafted, "secret_lookup"} <= {p["slug"] for p in everything}
    assert client.get(f"{API}/problems", headers=bearer(tokens.learner), params={"mine": "true"}).json() == []
    bad = client.get(f"{API}/problems", headers=bearer(author), params={"mine": "perhaps"})
    assert bad.status_code == 422 and bad.json()["error"]["message"].startswith("query.mine"), bad.text
