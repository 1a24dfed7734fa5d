"""Submit, poll, verdict, per-test results: the whole path through HTTP, queue, worker, Docker."""

from __future__ import annotations

from tests.utils.service import REFERENCE, bearer, submit, wait_done
from tests.utils.service_fixtures import Service

SUMMARY_KEYS = {"id", "problem", "problem_version", "mode", "status", "verdict", "score", "tests",
                "created_at", "started_at", "finished_at"}


def test_accepted(service: Service) -> None:
    created = submit(service.client, service.learner, REFERENCE)
    assert created["status"] == "queued" and created["verdict"] is None
    done = wait_done(service.client, service.learner, created["id"])
    assert set(done) >= SUMMARY_KEYS
    assert done["verdict"] == "accepted" and done["score"] == 1.0
    assert done["problem"] == "secret_lookup" and len(done["problem_version"]) == 16
    assert [t["status"] for t in done["tests"]] == ["passed"] * 2  # the public tests
    assert done["hidden"] == {"total": 3, "passed": 3, "not_run": 0, "first_failure": None}
    # The learner's process at its peak, over the public tests (the hidden ones run after them).
    assert done["peak_memory_bytes"] == max(t["memory_bytes"] for t in done["tests"]) > 2**20
    assert done["started_at"] >= done["created_at"] and done["finished_at"] >= done["started_at"]


def test_wrong_answer_explains_public_tests_and_hides_hidden_ones(service: Service) -> None:
    code = "def lookup(key):\n    return 'zq-secret-1O1'\n"
    done = wait_done(service.client, service.learner, submit(service.client, service.learner, code)["id"])
    assert done["verdict"] == "wrong_answer" and done["score"] == 0.0
    public = done["tests"][0]
    assert public["expected"] == "zq-secret-101" and public["actual_repr"] == "'zq-secret-1O1'"
    assert "U+0030 DIGIT ZERO, got U+004F LATIN CAPITAL LETTER O" in public["explanation"]
    assert {t["visibility"] for t in done["tests"]} == {"public"}
    assert done["hidden"] == {"total": 3, "passed": 0, "not_run": 0,
                              "first_failure": "the returned value is not the expected one"}
    assert "zq-secret-2" not in str(done)  # no hidden expected value anywhere in the response


def test_time_limit(service: Service) -> None:
    code = "def lookup(key):\n    while True:\n        pass\n"
    done = wait_done(service.client, service.learner, submit(service.client, service.learner, code, mode="run")["id"])
    assert done["verdict"] == "time_limit_exceeded"
    assert done["mode"] == "run" and len(done["tests"]) == 2  # run mode: public tests only


def test_compile_error(service: Service) -> None:
    done = wait_done(service.client, service.learner, submit(service.client, service.learner, "def lookup(key)\n  return 1\n")["id"])
    assert done["verdict"] == "compile_error"
    assert done["message"].startswith("line 1, column")
    assert done["tests"] == []


def test_forbidden_import(service: Service) -> None:
    code = "import openai\ndef lookup(key):\n    return key\n"
    done = wait_done(service.client, service.learner, submit(service.client, service.learner, code)["id"])
    assert done["verdict"] == "forbidden" and "line 1: importing 'openai'" in done["message"]


def test_listing_is_paginated_and_own(service: Service) -> None:
    for _ in range(3):
        submit(service.client, service.other_learner, REFERENCE, mode="run")
    page = service.client.get("/api/v1/submissions?limit=2", headers=bearer(service.other_learner)).json()
    assert page["total"] >= 3 and len(page["items"]) == 2 and page["limit"] == 2
    second = service.client.get("/api/v1/submissions?limit=2&offset=2", headers=bearer(service.other_learner)).json()
    ids = [s["id"] for s in page["items"] + second["items"]]
    assert ids == sorted(ids, reverse=True) and len(set(ids)) == len(ids)
    assert len({s["user"] for s in page["items"]}) == 1


def test_wait_is_capped_and_returns_early(service: Service) -> None:
    created = submit(service.client, service.learner, REFERENCE, mode="run")
    # The schema's maximum (JUDGE_MAX_WAIT_SECONDS) is the cap: more is refused, not cut down.
    beyond = service.client.get(f"/api/v1/submissions/{created['id']}?wait=1000", headers=bearer(service.learner))
    assert beyond.status_code == 422 and beyond.json()["error"]["param"] == "query.wait"
    response = service.client.get(f"/api/v1/submissions/{created['id']}?wait=30", headers=bearer(service.learner))
    assert response.status_code == 200 and response.json()["status"] == "done"
