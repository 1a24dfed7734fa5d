"""Hostile values judged for real (API, queue, worker, Docker sandbox, database): what a
submission stores and what its GET returns stay within judge.stored_values' budget, and the
verdict is still the right one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from judge.engine_settings import ROOT
from judge.stored_values import BUDGET_NOTE, RESULTS_BUDGET_BYTES, SHOWN_CHARS
from service.db.session import session_scope
from tests.utils.service import bearer, submit, wait_done, wait_version
from tests.utils.service_fixtures import Tokens

# A test past the budget still stores its name, status, category, time, the problem's inputs
# and the note: at most this many bytes on top of what an honest test stores.
PER_TEST_SLACK = len(json.dumps(BUDGET_NOTE)) + 400


def uploaded(slug: str) -> str:
    """The slug a shipped problem is uploaded under here: its own stays free for the tests that
    hold shipped slugs reserved (this session's database never synced problems/)."""
    return f"budget_{slug}"


def publish(client: TestClient, tokens: Tokens, slug: str) -> None:
    folder = ROOT / "problems" / slug
    files = {p.relative_to(folder).as_posix(): p.read_text() for p in sorted(folder.rglob("*"))
             if p.is_file() and "__pycache__" not in p.parts}
    files["problem.toml"] = files["problem.toml"].replace(f'slug = "{slug}"', f'slug = "{uploaded(slug)}"')
    response = client.post("/api/v1/problems", headers=bearer(tokens.instructor),
                           json={"slug": uploaded(slug), "files": files})
    assert response.status_code == 201, response.text
    version = wait_version(client, tokens.instructor, uploaded(slug), timeout=300)
    assert version["status"] == "valid", version["validation"]
    published = client.post(f"/api/v1/problems/{uploaded(slug)}/publish", headers=bearer(tokens.instructor),
                            json={})
    assert published.status_code == 200, published.text


@pytest.fixture(scope="module")
def problems(client: TestClient, tokens: Tokens) -> Iterator[dict[str, dict[str, int]]]:
    """bleu_1gram (68 tests) and code_shape_check (101), published, with what an honest
    submission of each stores and returns."""
    honest: dict[str, dict[str, int]] = {}
    for slug in ("bleu_1gram", "code_shape_check"):
        publish(client, tokens, slug)
        reference = (ROOT / "problems" / slug / "reference.py").read_text()
        done, stored, got = judged(client, tokens, slug, reference)
        assert done["verdict"] == "accepted"
        honest[slug] = {"stored": stored, "get": got, "tests": len(done["tests"]) + done["hidden"]["total"]}
    yield honest


def stored_bytes(submission_id: int) -> int:
    """What the database holds of the submission's tests, as text (before any compression)."""
    with session_scope() as session:
        size = ("octet_length(data::text)" if session.get_bind().dialect.name == "postgresql"
                else "length(CAST(data AS BLOB))")
        total = session.execute(text(f"SELECT coalesce(sum({size}), 0) FROM test_results "
                                     "WHERE submission_id = :id"), {"id": submission_id}).scalar()
    return int(total or 0)


def judged(client: TestClient, tokens: Tokens, slug: str, code: str) -> tuple[dict[str, Any], int, int]:
    """(the learner's finished view, the bytes stored, the bytes of the learner's GET)."""
    created = submit(client, tokens.learner, code, problem=uploaded(slug))
    done = wait_done(client, tokens.learner, created["id"], timeout=300)
    response = client.get(f"/api/v1/submissions/{created['id']}", headers=bearer(tokens.learner))
    return done, stored_bytes(created["id"]), len(response.content)


def within_budget(honest: dict[str, int], stored: int, got: int) -> None:
    assert stored <= honest["stored"] + RESULTS_BUDGET_BYTES + honest["tests"] * PER_TEST_SLACK, stored
    assert got <= honest["get"] + RESULTS_BUDGET_BYTES, got


def test_a_huge_string_per_test_stores_its_text_once_cut_within_the_budget(
        client: TestClient, tokens: Tokens, problems: dict[str, dict[str, int]]) -> None:
    code = "def code_shape_check(source, fn, arity, require=None, forbid=None):\n    return 'x' * 600_000\n"
    done, stored, got = judged(client, tokens, "code_shape_check", code)
    assert done["verdict"] == "wrong_answer"
    first = done["tests"][0]
    assert first["explanation"].startswith("wrong type: expected dict, got str")
    assert "actual" not in first and len(first["actual_repr"]) == SHOWN_CHARS
    assert first["actual_note"] == "value of 600,002 characters, first 2,000 shown"
    within_budget(problems["code_shape_check"], stored, got)


def test_megabyte_strings_on_bleu_1gram_keep_the_verdict_and_the_budget(
        client: TestClient, tokens: Tokens, problems: dict[str, dict[str, int]]) -> None:
    # Random text, which a database cannot compress away; printed output on top of it.
    code = ("import os\n"
            "def bleu_1gram(reference, candidate):\n"
            "    print(os.urandom(4000).hex())\n"
            "    return os.urandom(500_000).hex()\n")
    done, stored, got = judged(client, tokens, "bleu_1gram", code)
    assert done["verdict"] == "wrong_answer" and done["score"] == 0.0
    assert done["hidden"]["first_failure"] == "wrong type: expected float, got str"
    assert all(t["actual_note"] == "value of 1,000,002 characters, first 2,000 shown"
               for t in done["tests"] if t["budget_note"] is None)
    within_budget(problems["bleu_1gram"], stored, got)
    assert stored > problems["bleu_1gram"]["stored"] + RESULTS_BUDGET_BYTES // 2  # it was spent


def test_a_60000_entry_dict_is_judged_within_the_wall_clock(
        client: TestClient, tokens: Tokens, problems: dict[str, dict[str, int]]) -> None:
    code = ("def code_shape_check(source, fn, arity, require=None, forbid=None):\n"
            "    return {str(i): i for i in range(60_000)}\n")
    created = submit(client, tokens.learner, code, problem=uploaded("code_shape_check"))
    done = wait_done(client, tokens.learner, created["id"], timeout=300)
    assert done["verdict"] == "wrong_answer"
    first = done["tests"][0]
    assert first["explanation"] == "missing key ['parses']" and first["actual_note"]
    # Every test ended in a verdict: wrong, or stopped by a clock that says which one.
    assert {t["status"] for t in done["tests"]} <= {"wrong_answer", "time_limit_exceeded", "not_run"}
    judging = (datetime.fromisoformat(done["finished_at"]) - datetime.fromisoformat(done["started_at"]))
    assert judging.total_seconds() < 60 + 15  # the problem's wall, and the storing after it
    response = client.get(f"/api/v1/submissions/{created['id']}", headers=bearer(tokens.learner))
    within_budget(problems["code_shape_check"], stored_bytes(created["id"]), len(response.content))


def test_deeply_nested_values_with_long_keys_are_bounded(
        client: TestClient, tokens: Tokens, problems: dict[str, dict[str, int]]) -> None:
    code = ("def code_shape_check(source, fn, arity, require=None, forbid=None):\n"
            "    value = {'parses': True}\n"
            "    for depth in range(500):\n"
            "        value = {'parses': [value], 'k' * 40_000 + str(depth): (depth,)}\n"
            "    return value\n")
    done, stored, got = judged(client, tokens, "code_shape_check", code)
    assert done["verdict"] == "wrong_answer"
    first = done["tests"][0]
    assert first["status"] == "wrong_answer" and first["explanation"] == "missing key ['signature']"
    within_budget(problems["code_shape_check"], stored, got)


def test_the_owner_sees_every_test_within_the_same_bound(
        client: TestClient, tokens: Tokens, problems: dict[str, dict[str, int]]) -> None:
    code = "def bleu_1gram(reference, candidate):\n    return 'y' * 3_000_000\n"
    created = submit(client, tokens.learner, code, problem=uploaded("bleu_1gram"))
    wait_done(client, tokens.learner, created["id"], timeout=300)
    owner = client.get(f"/api/v1/submissions/{created['id']}", headers=bearer(tokens.instructor))
    assert owner.status_code == 200
    tests = owner.json()["tests"]
    assert len(tests) == problems["bleu_1gram"]["tests"]
    assert all(len(t["actual_repr"]) == SHOWN_CHARS for t in tests)
    assert len(owner.content) <= stored_bytes(created["id"]) + 64 * 1024
    assert stored_bytes(created["id"]) <= (problems["bleu_1gram"]["stored"] + RESULTS_BUDGET_BYTES
                                           + problems["bleu_1gram"]["tests"] * PER_TEST_SLACK)
