"""Hints: revealed one at a time, in order (or the one about a failing public test first), recorded
per user; the owner sees who revealed what."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from fastapi.testclient import TestClient

from tests.unit.service.helpers import error, publish, ratio_files
from tests.utils.service import bearer
from tests.utils.service_fixtures import Tokens

SLUG = "fast_hint_ratio"
HINTS = f"/api/v1/problems/{SLUG}/hints"


@pytest.fixture(scope="module")
def problem(client: TestClient, tokens: Tokens) -> str:
    return publish(client, tokens.instructor, SLUG, ratio_files(SLUG))


def test_hints_are_revealed_in_order_and_recorded_per_user(client: TestClient, tokens: Tokens,
                                                           problem: str) -> None:
    me, other = bearer(tokens.learner), bearer(tokens.other_learner)
    assert client.get(HINTS, headers=me).json() == {"total": 3, "revealed": []}
    first = client.post(HINTS, headers=me)
    assert first.status_code == 200, first.text
    body = first.json()
    assert body["total"] == 3 and [h["index"] for h in body["revealed"]] == [1]
    hint = body["revealed"][0]
    assert hint["markdown"] == "Divide $h$ by $t$.\n"
    assert "<math" in hint["html"] and "$h$" not in hint["html"]  # the math is rendered (MathML)
    datetime.fromisoformat(hint["revealed_at"])
    second = client.post(HINTS, headers=me).json()
    assert [h["index"] for h in second["revealed"]] == [1, 2]
    assert second["revealed"][1]["markdown"] == "Return a `float`.\n"
    assert "<code>float</code>" in second["revealed"][1]["html"]
    assert client.get(HINTS, headers=me).json() == second  # recorded, not recomputed
    # Another learner's hints are their own: none revealed yet.
    assert client.get(HINTS, headers=other).json() == {"total": 3, "revealed": []}
    detail = client.get(f"/api/v1/problems/{SLUG}", headers=me).json()
    assert detail["hints_total"] == 3 and detail["hints_revealed"] == 2
    assert client.get(f"/api/v1/problems/{SLUG}", headers=other).json()["hints_revealed"] == 0
    third = client.post(HINTS, headers=me).json()
    assert [h["index"] for h in third["revealed"]] == [1, 2, 3]
    message = error(client.post(HINTS, headers=me), 409, "no_more_hints")
    assert message == f"problem '{SLUG}' has 3 hints and all are revealed"
    assert client.get(HINTS, headers=me).json() == third


def test_the_owner_and_admins_see_who_revealed_what(client: TestClient, tokens: Tokens, problem: str) -> None:
    client.post(HINTS, headers=bearer(tokens.other_learner))
    reveals = client.get(f"{HINTS[:-6]}/hint-reveals", headers=bearer(tokens.instructor))
    assert reveals.status_code == 200, reveals.text
    seen = [(r["user"], r["index"]) for r in reveals.json()]
    assert ("test-other_learner", 1) in seen
    assert all(datetime.fromisoformat(r["revealed_at"]) for r in reveals.json())
    assert client.get(f"{HINTS[:-6]}/hint-reveals", headers=bearer(tokens.admin)).json() == reveals.json()
    for token in (tokens.learner, tokens.other_learner, tokens.other_instructor):
        error(client.get(f"{HINTS[:-6]}/hint-reveals", headers=bearer(token)), 403, "forbidden")


def test_a_problem_without_hints(client: TestClient, tokens: Tokens) -> None:
    me = bearer(tokens.learner)
    assert client.get("/api/v1/problems/secret_lookup/hints", headers=me).json() == {"total": 0, "revealed": []}
    message = error(client.post("/api/v1/problems/secret_lookup/hints", headers=me), 409, "no_more_hints")
    assert message == "problem 'secret_lookup' has no hints"
    detail = client.get("/api/v1/problems/secret_lookup", headers=me).json()
    assert detail["hints_total"] == 0 and detail["hints_revealed"] == 0


def test_hints_of_a_problem_one_may_not_see_are_404(client: TestClient, tokens: Tokens) -> None:
    for method in ("GET", "POST"):
        error(client.request(method, "/api/v1/problems/no_such_problem/hints", headers=bearer(tokens.learner)),
              404, "not_found")
    draft = "fast_hint_draft"
    created = client.post("/api/v1/problems", headers=bearer(tokens.instructor),
                          json={"slug": draft, "files": ratio_files(draft)})
    assert created.status_code == 201, created.text
    error(client.post(f"/api/v1/problems/{draft}/hints", headers=bearer(tokens.learner)), 404, "not_found")
    assert client.post(f"/api/v1/problems/{draft}/hints", headers=bearer(tokens.instructor)).status_code == 200


def test_the_hint_about_a_failing_test_is_revealed_out_of_order(client: TestClient, tokens: Tokens) -> None:
    slug = "fast_hint_about"
    files = ratio_files(slug)
    # ratio_files' public tests: the hint about one of them comes last in the file.
    public = json.loads(files["tests/public.json"])[0]["name"]
    files["hints.md"] = files["hints.md"].replace("## Zero", f"## Zero {{tests: {public}}}")
    publish(client, tokens.instructor, slug, files)
    me, path = bearer(tokens.other_learner), f"/api/v1/problems/{slug}/hints"
    assert client.get(f"/api/v1/problems/{slug}", headers=me).json()["hint_tests"] == [[], [], [public]]
    third = client.post(f"{path}?hint=3", headers=me).json()
    assert [(h["index"], h["tests"]) for h in third["revealed"]] == [(3, [public])]
    assert client.post(f"{path}?hint=3", headers=me).json() == third  # asked again: nothing changes
    assert [h["index"] for h in client.post(path, headers=me).json()["revealed"]] == [1, 3]  # next in order
    assert "has 3 hints, not a hint 4" in error(client.post(f"{path}?hint=4", headers=me), 422, "invalid_input")
    error(client.post(f"{path}?hint=0", headers=me), 422, "invalid_input")
