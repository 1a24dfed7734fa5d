"""A try (mode "try"): the learner's own arguments through the reference and then their code,
one result named "your input"; bad arguments are a 422 naming the parameter; tries never count."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from service.db.models import Role, Submission
from service.db.session import session_scope
from tests.unit.service.conftest import EagerQueue
from tests.unit.service.helpers import RATIO, error, post_json, publish, ratio_files, read
from tests.utils.service import bearer, submit
from tests.utils.service_fixtures import Tokens

SLUG = "fast_try_ratio"
HALF = "def ratio(hits, total):\n    return 0.5\n"


@pytest.fixture(scope="module")
def problem(client: TestClient, tokens: Tokens) -> str:
    return publish(client, tokens.instructor, SLUG, ratio_files(SLUG))


def tried(client: TestClient, token: str, code: str, arguments: object, problem: str = SLUG,
          **headers: str) -> dict[str, object]:
    response = post_json(client, token, {"problem": problem, "code": code, "mode": "try",
                                         "arguments": arguments}, **headers)
    assert response.status_code == 202, response.text
    body = read(client, token, response.json()["id"]).json()
    assert body["status"] == "done", body
    return body  # type: ignore[no-any-return]


def test_a_try_compares_with_the_reference_on_the_fast_queue(
        client: TestClient, tokens: Tokens, problem: str, eager_queue: EagerQueue) -> None:
    body = tried(client, tokens.learner, RATIO, [3, 4])
    assert eager_queue.sent[-1].queue == "run" and eager_queue.sent[-1].args == (body["id"],)
    assert body["mode"] == "try" and body["verdict"] == "accepted" and body["score"] == 1.0
    assert body["arguments"] == [3, 4]
    [test] = body["tests"]  # type: ignore[misc]
    assert test["name"] == "your input" and test["visibility"] == "custom"
    assert test["args"] == [3, 4] and test["expected"] == 0.75 and test["actual_repr"] == "0.75"
    assert test["status"] == "passed"
    assert body["hidden"] == {"total": 0, "passed": 0, "not_run": 0, "first_failure": None}


def test_a_wrong_try_says_what_differs(client: TestClient, tokens: Tokens, problem: str) -> None:
    body = tried(client, tokens.learner, HALF, [1, 4])
    assert body["verdict"] == "wrong_answer" and body["score"] == 0.0
    [test] = body["tests"]  # type: ignore[misc]
    assert test["expected"] == 0.25 and test["actual_repr"] == "0.5"
    assert test["explanation"].startswith("expected 0.25, got 0.5")


def test_arguments_the_reference_rejects_have_no_verdict_and_no_retry(
        client: TestClient, tokens: Tokens, problem: str, eager_queue: EagerQueue) -> None:
    sent = len(eager_queue.sent)
    body = tried(client, tokens.learner, RATIO, [1, 0])
    assert body["verdict"] is None and body["score"] is None
    assert body["message"] == ("the reference rejects these arguments: it raises ZeroDivisionError: "
                               "division by zero")
    [test] = body["tests"]  # type: ignore[misc]
    assert test["status"] == "not_run" and test["visibility"] == "custom"
    assert "your function was not run" in test["explanation"]
    assert len(eager_queue.sent) == sent + 1  # judged once: no internal_error, no retry
    shown = {key: value for key, value in body.items() if key != "code"}  # the code is the learner's
    assert "hits / total" not in str(shown)  # the reference's source never leaves


def test_the_learners_own_error_is_the_learners(client: TestClient, tokens: Tokens, problem: str) -> None:
    body = tried(client, tokens.learner, "def ratio(hits, total):\n    return [][hits]\n", [1, 2])
    assert body["verdict"] == "runtime_error"
    assert "IndexError" in body["tests"][0]["explanation"]  # type: ignore[index]


def test_a_try_is_shown_to_its_author_and_the_owner_only(client: TestClient, tokens: Tokens,
                                                         problem: str) -> None:
    body = tried(client, tokens.learner, RATIO, [2, 4])
    assert read(client, tokens.other_learner, body["id"]).status_code == 404  # type: ignore[arg-type]
    owner = read(client, tokens.instructor, body["id"]).json()  # type: ignore[arg-type]
    assert owner["tests"][0]["visibility"] == "custom"


def count_rows() -> int:
    with session_scope() as session:
        return session.scalar(select(func.count()).select_from(Submission)) or 0


@pytest.fixture
def nothing_new(eager_queue: EagerQueue) -> Iterator[None]:
    rows, sent = count_rows(), len(eager_queue.sent)
    yield
    assert count_rows() == rows and len(eager_queue.sent) == sent


@pytest.mark.usefixtures("nothing_new")
@pytest.mark.parametrize(("body", "message"), [
    ({"mode": "try"}, "arguments: a try (mode \"try\") needs arguments, one value per parameter"),
    ({"mode": "run", "arguments": [1, 2]}, "arguments: only a try (mode \"try\") takes arguments, not 'run'"),
    ({"mode": "try", "arguments": [1]}, "arguments: 1 given, but ratio takes 2 (hits, total)"),
    ({"mode": "try", "arguments": ["3", 4]},
     "arguments[0]: parameter 'hits': '3' is not a int (expected int)"),
    ({"mode": "try", "arguments": [1, 2.5]},
     "arguments[1]: parameter 'total': 2.5 is not a int (expected int)"),
    ({"mode": "try", "arguments": [True, 2]}, "arguments[0]: parameter 'hits': True is not a int"),
    ({"mode": "try", "arguments": {"hits": 1}}, "arguments: Input should be a valid list"),
])
def test_bad_arguments_are_422_naming_the_parameter(client: TestClient, tokens: Tokens, problem: str,
                                                   body: dict[str, object], message: str) -> None:
    response = post_json(client, tokens.learner, {"problem": SLUG, "code": RATIO, **body})
    assert error(response, 422, "invalid_input").startswith(message)


@pytest.mark.usefixtures("nothing_new")
def test_nan_and_oversized_arguments_are_422(client: TestClient, tokens: Tokens, problem: str) -> None:
    raw = ('{"problem": "' + SLUG + '", "code": "def ratio(h, t): pass", "mode": "try", '
           '"arguments": [NaN, 1]}')
    message = error(post_json(client, tokens.learner, raw, raw=True), 422, "invalid_input")
    assert message.startswith("arguments: NaN and infinity are not allowed")
    big = "k" * (70 * 1024)  # under the request cap, over the arguments' 64 KiB
    response = post_json(client, tokens.learner, {"problem": "secret_lookup", "code": "def lookup(key): pass",
                                                  "mode": "try", "arguments": [big]})
    assert error(response, 422, "invalid_input").startswith("arguments: 71684 bytes of JSON; at most 65536")


def test_an_idempotency_key_covers_the_arguments(client: TestClient, tokens: Tokens, problem: str) -> None:
    first = tried(client, tokens.learner, RATIO, [1, 5], **{"Idempotency-Key": "try-args"})
    again = tried(client, tokens.learner, RATIO, [1, 5], **{"Idempotency-Key": "try-args"})
    assert again["id"] == first["id"]
    other = post_json(client, tokens.learner, {"problem": SLUG, "code": RATIO, "mode": "try",
                                               "arguments": [2, 5]}, **{"Idempotency-Key": "try-args"})
    error(other, 409, "conflict")


def test_tries_never_count(client: TestClient, tokens: Tokens, problem: str,
                           new_user: Callable[[Role], str]) -> None:
    stats_before = client.get(f"/api/v1/problems/{SLUG}/stats", headers=bearer(tokens.learner)).json()
    learner = new_user(Role.LEARNER)
    tried(client, learner, RATIO, [1, 2])
    tried(client, learner, HALF, [1, 3])
    assert client.get(f"/api/v1/problems/{SLUG}/stats", headers=bearer(learner)).json() == stats_before
    listed = {p["slug"]: p for p in client.get("/api/v1/problems", headers=bearer(learner)).json()}
    assert listed[SLUG]["progress"] is None and listed[SLUG]["best_score"] is None
    detail = client.get(f"/api/v1/problems/{SLUG}", headers=bearer(learner)).json()
    assert detail["progress"] is None and detail["editorial_available"] is False
    error(client.get(f"/api/v1/problems/{SLUG}/editorial", headers=bearer(learner)), 403, "not_solved")


def test_a_rejudge_leaves_tries_alone(client: TestClient, tokens: Tokens, problem: str) -> None:
    try_id = tried(client, tokens.learner, RATIO, [1, 8])["id"]
    submit(client, tokens.learner, RATIO, problem=SLUG)
    with session_scope() as session:
        judged = session.scalar(select(func.count()).select_from(Submission).join(Submission.problem).where(
            Submission.mode != "try", Submission.problem.has(slug=SLUG))) or 0
    response = client.post(f"/api/v1/problems/{SLUG}/rejudge", headers=bearer(tokens.instructor))
    assert response.status_code == 200 and response.json()["requeued"] == judged
    assert read(client, tokens.learner, try_id).json()["verdict"] == "accepted"  # type: ignore[arg-type]
