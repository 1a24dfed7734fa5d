"""Submit through HTTP, judged at once by the eager task and the exec double; read the verdict."""

from __future__ import annotations

from fastapi.testclient import TestClient

import service.tasks as worker_tasks
from service.db.models import Role
from tests.unit.service.conftest import EagerQueue
from tests.unit.service.exec_sandbox import ExecSandbox
from tests.unit.service.helpers import SUBMISSIONS, WRONG, error, post_json, read
from tests.utils.service import REFERENCE, bearer, submit
from tests.utils.service_fixtures import Tokens

SUMMARY_KEYS = {"id", "problem", "problem_version", "user", "mode", "status", "verdict", "score",
                "created_at", "started_at", "finished_at"}
HIDDEN_MARK = "zq-secret-2"  # every hidden expected value starts with this


def test_a_correct_solution_is_accepted(client: TestClient, tokens: Tokens, eager_queue: EagerQueue,
                                        exec_sandbox: ExecSandbox) -> None:
    created = submit(client, tokens.learner, REFERENCE)
    assert set(created) >= SUMMARY_KEYS | {"code", "tests", "hidden", "message"}
    assert created["problem"] == "secret_lookup" and created["user"] == "test-learner"
    assert created["mode"] == "submit" and created["code"] == REFERENCE
    assert eager_queue.sent[-1].task == "judge.grade_submission"
    assert eager_queue.sent[-1].args == (created["id"],) and eager_queue.sent[-1].queue == "submit"
    assert exec_sandbox.payloads[-1].code == REFERENCE
    assert len(exec_sandbox.payloads[-1].tests) == 5  # submit mode: public and hidden

    response = read(client, tokens.learner, created["id"])
    assert response.status_code == 200
    done = response.json()
    assert done["status"] == "done" and done["verdict"] == "accepted" and done["score"] == 1.0
    assert len(done["problem_version"]) == 16
    assert [t["status"] for t in done["tests"]] == ["passed"] * 2
    assert {t["visibility"] for t in done["tests"]} == {"public"}
    assert done["tests"][0]["actual_repr"] == "'zq-secret-101'"
    assert done["hidden"] == {"total": 3, "passed": 3, "not_run": 0, "first_failure": None}
    assert done["started_at"] >= done["created_at"] and done["finished_at"] >= done["started_at"]


def test_post_answers_202_with_location_while_queued(client: TestClient, tokens: Tokens,
                                                     eager_queue: EagerQueue) -> None:
    with eager_queue.hold():
        response = post_json(client, tokens.learner, {"problem": "secret_lookup", "code": REFERENCE})
    assert response.status_code == 202
    body = response.json()
    assert response.headers["Location"] == f"{SUBMISSIONS}/{body['id']}"
    assert body["status"] == "queued" and body["verdict"] is None and body["tests"] == []
    assert read(client, tokens.learner, body["id"]).json()["status"] == "queued"
    # ?wait holds up to the limit and answers what there is, still queued.
    waited = read(client, tokens.learner, body["id"], wait=0.2)
    assert waited.status_code == 200 and waited.json()["status"] == "queued"
    eager_queue.release()
    assert read(client, tokens.learner, body["id"], wait=5).json()["verdict"] == "accepted"


def test_a_wrong_solution_explains_public_tests_and_hides_hidden_ones(client: TestClient, tokens: Tokens) -> None:
    created = submit(client, tokens.learner, WRONG)
    response = read(client, tokens.learner, created["id"])
    done = response.json()
    assert done["status"] == "done" and done["verdict"] == "wrong_answer" and done["score"] == 0.0
    public = done["tests"][0]
    assert public["status"] == "wrong_answer"
    assert public["expected"] == "zq-secret-101" and public["actual_repr"] == "'zq-secret-1O1'"
    assert "U+0030 DIGIT ZERO, got U+004F LATIN CAPITAL LETTER O" in public["explanation"]
    assert {t["visibility"] for t in done["tests"]} == {"public"}
    assert done["hidden"] == {"total": 3, "passed": 0, "not_run": 0,
                              "first_failure": "the returned value is not the expected one"}
    assert HIDDEN_MARK not in response.text


def test_the_problem_owner_sees_every_hidden_test(client: TestClient, tokens: Tokens) -> None:
    """Shipped problems have no owner: an admin owns them all."""
    created = submit(client, tokens.learner, WRONG)
    for token, sees in ((tokens.admin, True), (tokens.learner, False)):
        body = read(client, token, created["id"]).json()
        hidden = [t for t in body["tests"] if t["visibility"] == "hidden"]
        assert (len(hidden) == 3 and body["hidden"] is None) is sees
        assert (HIDDEN_MARK in str(body)) is sees


def test_run_mode_runs_public_tests_only(client: TestClient, tokens: Tokens, eager_queue: EagerQueue,
                                         exec_sandbox: ExecSandbox) -> None:
    created = submit(client, tokens.learner, REFERENCE, mode="run")
    assert eager_queue.sent[-1].queue == "run"
    assert len(exec_sandbox.payloads[-1].tests) == 2
    done = read(client, tokens.learner, created["id"]).json()
    assert done["mode"] == "run" and done["verdict"] == "accepted" and len(done["tests"]) == 2
    assert done["hidden"]["total"] == 0


def test_an_exception_is_a_runtime_error_with_its_line(client: TestClient, tokens: Tokens) -> None:
    code = "def lookup(key):\n    table = {}\n    return table[key]\n"
    done = read(client, tokens.learner, submit(client, tokens.learner, code, mode="run")["id"]).json()
    assert done["verdict"] == "runtime_error"
    assert done["tests"][0]["explanation"] == "KeyError at line 3: 'a'"


def test_an_endless_loop_is_a_time_limit_and_stops_the_run(client: TestClient, tokens: Tokens) -> None:
    code = "def lookup(key):\n    while True:\n        pass\n"
    done = read(client, tokens.learner, submit(client, tokens.learner, code, mode="run")["id"]).json()
    assert done["verdict"] == "time_limit_exceeded"
    assert [t["status"] for t in done["tests"]] == ["time_limit_exceeded", "not_run"]
    assert "each test may take 1 s" in done["tests"][0]["explanation"]


def test_printed_output_comes_back_with_each_test(client: TestClient, tokens: Tokens) -> None:
    """(A changed argument, which needs a problem taking a list: tests/unit/service/test_authoring.py.)"""
    code = ("SECRETS = {'a': 'zq-secret-101', 'b': 'zq-secret-102'}\n"
            "def lookup(key):\n    print('looking up', key)\n    return SECRETS[key]\n")
    done = read(client, tokens.learner, submit(client, tokens.learner, code, mode="run")["id"]).json()
    assert done["verdict"] == "accepted"
    assert done["tests"][0]["stdout"] == "looking up a\n"


def test_compile_error_and_forbidden_import_never_reach_the_sandbox(
        client: TestClient, tokens: Tokens, exec_sandbox: ExecSandbox) -> None:
    before = len(exec_sandbox.payloads)
    done = read(client, tokens.learner, submit(client, tokens.learner, "def lookup(key)\n  return 1\n")["id"]).json()
    assert done["verdict"] == "compile_error" and done["message"].startswith("line 1, column")
    assert done["tests"] == []
    code = "import openai\ndef lookup(key):\n    return key\n"
    done = read(client, tokens.learner, submit(client, tokens.learner, code)["id"]).json()
    assert done["verdict"] == "forbidden" and "line 1: importing 'openai'" in done["message"]
    assert len(exec_sandbox.payloads) == before


def test_idempotency_key_returns_the_same_submission(client: TestClient, new_user, eager_queue: EagerQueue) -> None:  # type: ignore[no-untyped-def]
    token = new_user(Role.LEARNER)
    first = submit(client, token, REFERENCE, mode="run", **{"Idempotency-Key": "k-1"})
    sent = len(eager_queue.sent)
    again = submit(client, token, REFERENCE, mode="run", **{"Idempotency-Key": "k-1"})
    assert again["id"] == first["id"] and len(eager_queue.sent) == sent  # not queued twice
    listed = client.get(f"{SUBMISSIONS}?limit=100", headers=bearer(token)).json()
    assert [s["id"] for s in listed["items"]] == [first["id"]] and listed["total"] == 1
    # The same key with another body is a conflict; the key is the user's own.
    other = post_json(client, token, {"problem": "secret_lookup", "code": REFERENCE, "mode": "submit"},
                      **{"Idempotency-Key": "k-1"})
    error(other, 409, "conflict")
    someone_else = submit(client, new_user(Role.LEARNER), REFERENCE, mode="run", **{"Idempotency-Key": "k-1"})
    assert someone_else["id"] != first["id"]


def test_an_unreachable_queue_is_503_and_the_submission_is_kept(client: TestClient, new_user,  # type: ignore[no-untyped-def]
                                                                eager_queue: EagerQueue) -> None:
    token = new_user(Role.LEARNER)
    eager_queue.down = True
    response = post_json(client, token, {"problem": "secret_lookup", "code": REFERENCE},
                         **{"Idempotency-Key": "outage"})
    message = error(response, 503, "unavailable")
    assert "is saved but the queue is unreachable" in message
    assert int(response.headers["Retry-After"]) > 0
    eager_queue.down = False
    listed = client.get(SUBMISSIONS, headers=bearer(token)).json()
    assert listed["total"] == 1 and listed["items"][0]["status"] == "queued"
    # Retrying with the same key finds the saved row and sends nothing: recovery's next pass
    # sends it, at once rather than after the requeue delay, since its message never existed.
    sent = len(eager_queue.sent)
    again = post_json(client, token, {"problem": "secret_lookup", "code": REFERENCE},
                      **{"Idempotency-Key": "outage"})
    assert again.status_code == 202 and again.json()["id"] == listed["items"][0]["id"]
    assert len(eager_queue.sent) == sent and again.json()["status"] == "queued"
    # (Rows other tests of this process left queued may be recovered beside it.)
    assert again.json()["id"] in worker_tasks.recover_stale()
    judged = client.get(f"{SUBMISSIONS}/{again.json()['id']}", headers=bearer(token)).json()
    assert judged["status"] == "done" and judged["verdict"] == "accepted"


def test_wait_returns_at_once_when_done(client: TestClient, tokens: Tokens) -> None:
    created = submit(client, tokens.learner, REFERENCE, mode="run")
    response = read(client, tokens.learner, created["id"], wait=30)  # the maximum, and done already
    assert response.status_code == 200 and response.json()["status"] == "done"
