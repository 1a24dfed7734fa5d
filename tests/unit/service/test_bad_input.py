"""Every bad request gets a JSON error with the right 4xx status, and nothing is stored or queued."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from service.db.models import Role, Submission
from service.db.session import session_scope
from service.settings import get_settings
from tests.unit.service.conftest import REQUEST_CAP, EagerQueue
from tests.unit.service.helpers import SUBMISSIONS, error, post_json, read
from tests.utils.service import REFERENCE, bearer, submit
from tests.utils.service_fixtures import Tokens


def stored() -> int:
    with session_scope() as session:
        return session.scalar(select(func.count()).select_from(Submission)) or 0


@pytest.fixture
def nothing_new(eager_queue: EagerQueue):  # type: ignore[no-untyped-def]
    """The test's bad requests leave no row and no message behind."""
    rows, sent = stored(), len(eager_queue.sent)
    yield
    assert stored() == rows and len(eager_queue.sent) == sent


# --- 404 ---------------------------------------------------------------------------------------


@pytest.mark.usefixtures("nothing_new")
@pytest.mark.parametrize(("slug", "meant"), [
    ("secret-lookup", "secret_lookup"),  # a hyphen for an underscore
    ("Secret_Lookup", "secret_lookup"),
    ("secret_lookp", "secret_lookup"),  # a letter off
    ("bleu_1gram", None),  # nothing near
    ("s" * 70, None),  # no slug is that long: no guess
])
def test_a_mistyped_problem_name_gets_a_did_you_mean(client: TestClient, tokens: Tokens, slug: str,
                                                      meant: str | None) -> None:
    said = [error(post_json(client, tokens.learner, {"problem": slug, "code": REFERENCE}), 404, "not_found"),
            error(client.get(f"/api/v1/problems/{slug}", headers=bearer(tokens.learner)), 404, "not_found")]
    for message in said:
        assert message.endswith(f"; did you mean {meant!r}?") if meant else "did you mean" not in message
        assert len(message) < 200


@pytest.mark.usefixtures("nothing_new")
def test_unknown_problem_is_404(client: TestClient, tokens: Tokens) -> None:
    response = post_json(client, tokens.learner, {"problem": "no_such_problem", "code": REFERENCE})
    assert error(response, 404, "not_found") == "no published problem 'no_such_problem'"
    error(client.get("/api/v1/problems/no_such_problem", headers=bearer(tokens.learner)), 404, "not_found")
    error(client.get("/api/v1/problems/no_such_problem/stats", headers=bearer(tokens.learner)), 404, "not_found")
    error(client.get("/api/v1/problems/no_such_problem/versions", headers=bearer(tokens.instructor)),
          404, "not_found")


@pytest.mark.parametrize("submission_id", [999_999, 2**31 - 1])
def test_unknown_submission_ids_are_404(client: TestClient, tokens: Tokens, submission_id: int) -> None:
    response = read(client, tokens.learner, submission_id)
    assert error(response, 404, "not_found") == f"no submission {submission_id}"


@pytest.mark.parametrize("submission_id", [2**31, 2**63, 2**64, 10**20, 0, -1, -(2**63) - 1])
def test_ids_outside_the_database_integer_are_422(client: TestClient, tokens: Tokens, submission_id: int) -> None:
    """An id no row can have is refused by the schema (1 to 2**31 - 1), naming the parameter."""
    message = error(read(client, tokens.learner, submission_id), 422, "invalid_input")
    assert message.startswith("path.submission_id: Input should be"), message


def test_a_non_numeric_submission_id_is_422(client: TestClient, tokens: Tokens) -> None:
    assert error(read(client, tokens.learner, "abc"), 422, "invalid_input").startswith("path.submission_id:")  # type: ignore[arg-type]
    error(read(client, tokens.learner, "1.5"), 422, "invalid_input")  # type: ignore[arg-type]


def test_unknown_routes_and_methods(client: TestClient, tokens: Tokens) -> None:
    error(client.get("/api/v1/nothing-here", headers=bearer(tokens.learner)), 404, "not_found")
    error(client.delete(SUBMISSIONS, headers=bearer(tokens.learner)), 405, "method_not_allowed")


# --- 413 ---------------------------------------------------------------------------------------


@pytest.mark.usefixtures("nothing_new")
def test_code_over_the_size_limit_is_413(client: TestClient, tokens: Tokens) -> None:
    limit = get_settings().max_code_bytes
    assert limit < REQUEST_CAP  # the code limit, not the body limit, answers here
    code = "x = 1\n" * (limit // 6 + 10)
    message = error(post_json(client, tokens.learner, {"problem": "secret_lookup", "code": code}), 413, "too_large")
    assert f"bytes; the limit is {limit}" in message
    # Counted in UTF-8 bytes, not characters.
    code = "# " + "é" * (limit // 2)
    error(post_json(client, tokens.learner, {"problem": "secret_lookup", "code": code}), 413, "too_large")


@pytest.mark.usefixtures("nothing_new")
def test_a_body_over_the_request_cap_is_413_before_parsing(client: TestClient, tokens: Tokens) -> None:
    body = b'{"problem": "secret_lookup", "code": "' + b"x" * REQUEST_CAP + b'"}'
    message = error(post_json(client, tokens.learner, body, raw=True), 413, "too_large")
    assert message == f"the request body is over {REQUEST_CAP} bytes"

    def chunks():  # type: ignore[no-untyped-def]  # no Content-Length: counted while streaming
        yield b'{"problem": "secret_lookup", "code": "'
        for _ in range(REQUEST_CAP // 65536 + 2):
            yield b"x" * 65536
        yield b'"}'

    response = client.post(SUBMISSIONS, headers={**bearer(tokens.learner), "Content-Type": "application/json"},
                           content=chunks())
    error(response, 413, "too_large")
    # Also for a problem upload, and whoever sends it.
    upload = client.post("/api/v1/problems", headers={**bearer(tokens.instructor), "Content-Type": "application/json"},
                         content=b"x" * (REQUEST_CAP + 1))
    error(upload, 413, "too_large")
    anonymous = client.post(SUBMISSIONS, content=b"x" * (REQUEST_CAP + 1))
    error(anonymous, 413, "too_large")


# --- 422 ---------------------------------------------------------------------------------------

NOT_JSON = "(send a JSON object with Content-Type: application/json)"


@pytest.mark.usefixtures("nothing_new")
@pytest.mark.parametrize(("body", "starts"), [
    (b"{not json", None),
    (b"", None),
    (b"null", "body:"),
    (b"[1, 2]", "body:"),
    (b'"a string"', "body:"),
    (b'{"problem": "secret_lookup", "code": "x"', None),  # truncated
    (b'{"problem": "secret_lookup", "code": "\xff"}', "body: not decodable JSON (not UTF-8"),
], ids=["garbage", "empty", "null", "array", "string", "truncated", "latin-1"])
def test_a_body_that_is_not_a_json_object_is_422(client: TestClient, tokens: Tokens, body: bytes,
                                                  starts: str | None) -> None:
    message = error(post_json(client, tokens.learner, body, raw=True), 422, "invalid_input")
    if starts:
        assert message.startswith(starts), message


@pytest.mark.usefixtures("nothing_new")
def test_a_form_body_is_told_to_send_json(client: TestClient, tokens: Tokens) -> None:
    response = client.post(SUBMISSIONS, headers=bearer(tokens.learner), data={"problem": "secret_lookup"})
    assert error(response, 422, "invalid_input").endswith(NOT_JSON)
    response = client.post(SUBMISSIONS, headers={**bearer(tokens.learner), "Content-Type": "text/plain"},
                           content=b'{"problem": "secret_lookup", "code": "x"}')
    assert error(response, 422, "invalid_input").endswith(NOT_JSON)


@pytest.mark.usefixtures("nothing_new")
@pytest.mark.parametrize(("body", "field"), [
    ({"problem": "secret_lookup"}, "code:"),
    ({"code": REFERENCE}, "problem:"),
    ({"problem": "secret_lookup", "code": 123}, "code:"),
    ({"problem": "secret_lookup", "code": None}, "code:"),
    ({"problem": ["secret_lookup"], "code": REFERENCE}, "problem:"),
    ({"problem": "secret_lookup", "code": REFERENCE, "mode": "fast"}, "mode:"),
    ({"problem": "secret_lookup", "code": REFERENCE, "mode": "SUBMIT"}, "mode:"),
    ({"problem": "secret_lookup", "code": REFERENCE, "mode": None}, "mode:"),
    ({"problem": "secret_lookup", "code": REFERENCE, "mode": 1}, "mode:"),
], ids=["no-code", "no-problem", "int-code", "null-code", "list-problem", "unknown-mode", "upper-mode",
        "null-mode", "int-mode"])
def test_bad_fields_are_422_naming_the_field(client: TestClient, tokens: Tokens, body: dict[str, object],
                                             field: str) -> None:
    message = error(post_json(client, tokens.learner, body), 422, "invalid_input")
    assert message.startswith(field), message


@pytest.mark.usefixtures("nothing_new")
def test_bad_text_in_the_code_is_422(client: TestClient, tokens: Tokens) -> None:
    response = post_json(client, tokens.learner, {"problem": "secret_lookup", "code": "def lookup(k):\x00\n"})
    assert error(response, 422, "invalid_input") == "the code contains a NUL character (U+0000) at line 1, column 15"
    response = post_json(client, tokens.learner, b'{"problem": "secret_lookup", "code": "x = \\ud800"}', raw=True)
    assert "lone surrogate" in error(response, 422, "invalid_input")
    response = post_json(client, tokens.learner, {"problem": "secret_lookup", "code": "a = 1\nb = 2\n  c\x00\n"})
    assert error(response, 422, "invalid_input") == "the code contains a NUL character (U+0000) at line 3, column 4"


@pytest.mark.usefixtures("nothing_new")
def test_a_lone_surrogate_in_the_slug_is_a_4xx(client: TestClient, tokens: Tokens) -> None:
    response = post_json(client, tokens.learner, b'{"problem": "\\ud800", "code": "x"}', raw=True)
    assert response.status_code == 404, response.text
    assert "'\\ud800'" in error(response, 404)


@pytest.mark.usefixtures("nothing_new")
@pytest.mark.parametrize("key", ["", "k" * 201])
def test_a_bad_idempotency_key_is_422(client: TestClient, tokens: Tokens, key: str) -> None:
    response = post_json(client, tokens.learner, {"problem": "secret_lookup", "code": REFERENCE},
                         **{"Idempotency-Key": key})
    assert "Idempotency-Key" in error(response, 422, "invalid_input")


@pytest.mark.parametrize("wait", ["nan", "-1", "-0.5", "-inf", "soon", ""])
def test_a_bad_wait_is_422(client: TestClient, tokens: Tokens, wait: str) -> None:
    created = submit(client, tokens.learner, REFERENCE, mode="run")
    response = client.get(f"{SUBMISSIONS}/{created['id']}?wait={wait}", headers=bearer(tokens.learner))
    assert error(response, 422, "invalid_input").startswith("query.wait:")


@pytest.mark.parametrize("query", ["limit=0", "limit=101", "limit=x", "offset=-1", "offset=1.5"])
def test_bad_paging_is_422(client: TestClient, tokens: Tokens, query: str) -> None:
    response = client.get(f"{SUBMISSIONS}?{query}", headers=bearer(tokens.learner))
    assert error(response, 422, "invalid_input").startswith(f"query.{query.split('=')[0]}:")


def test_bad_problem_uploads_are_422(client: TestClient, tokens: Tokens) -> None:
    headers = bearer(tokens.instructor)
    error(client.post("/api/v1/problems", headers=headers, json={"slug": "x"}), 422, "invalid_input")
    error(client.post("/api/v1/problems", headers=headers, json={"slug": "Bad Slug!", "files": {}}),
          422, "invalid_input")
    error(client.post("/api/v1/problems", headers=headers, json={"slug": "fine_slug", "files": {"../x": "y"}}),
          422, "invalid_input")
    error(client.post("/api/v1/problems", headers=headers, files={"archive": ("p.zip", b"not a zip")}),
          422, "invalid_input")
    error(client.post("/api/v1/problems/secret_lookup/publish", headers=bearer(tokens.admin),
                      json={"version": 7}), 422, "invalid_input")


# --- 429 ---------------------------------------------------------------------------------------


def test_the_queue_quota_is_429_with_retry_after(client: TestClient, new_user, eager_queue: EagerQueue) -> None:  # type: ignore[no-untyped-def]
    """Messages are held (no worker drains the queue), so the learner's waiting count grows."""
    token = new_user(Role.LEARNER)
    quota = get_settings().learner_queue_quota
    with eager_queue.hold():
        ids = [submit(client, token, REFERENCE, mode="run")["id"] for _ in range(quota)]
        rows = stored()
        response = post_json(client, token, {"problem": "secret_lookup", "code": REFERENCE})
        message = error(response, 429, "quota_exceeded")
        assert message.startswith(f"queue quota: you have {quota} submissions queued or running")
        assert "JUDGE_LEARNER_QUEUE_QUOTA" in message
        assert int(response.headers["Retry-After"]) > 0
        assert stored() == rows  # the refused one was not stored
    # Once the queue drains, the learner may submit again.
    eager_queue.release()
    assert all(read(client, token, i).json()["status"] == "done" for i in ids)
    assert submit(client, token, REFERENCE, mode="run")["id"] > max(ids)
