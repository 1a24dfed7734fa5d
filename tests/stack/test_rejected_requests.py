"""Every bad request gets a JSON error with the right 4xx status, and nothing is lost."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient
from sqlalchemy import select

from service.db.models import Submission, SubmissionStatus, User
from service.db.session import session_scope
from service.settings import get_settings
from tests.utils.service import REFERENCE, bearer, store_submission
from tests.utils.service_fixtures import Tokens


def post(client: TestClient, token: str, body: object, raw: bool = False):  # type: ignore[no-untyped-def]
    headers = {**bearer(token), "Content-Type": "application/json"}
    content = body if raw else json.dumps(body)
    return client.post("/api/v1/submissions", headers=headers, content=content)


def error(response) -> dict[str, str]:  # type: ignore[no-untyped-def]
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "param", "request_id"}
    return body["error"]  # type: ignore[no-any-return]


def test_missing_or_bad_token_is_401(client: TestClient) -> None:
    response = client.get("/api/v1/submissions")
    assert response.status_code == 401 and error(response)["code"] == "unauthorized"
    assert response.headers["WWW-Authenticate"] == "Bearer"
    response = client.get("/api/v1/submissions", headers=bearer("jt_not-a-token"))
    assert response.status_code == 401


def test_code_over_the_size_limit_is_413(client: TestClient, tokens: Tokens) -> None:
    code = "x = 1\n" * (get_settings().max_code_bytes // 6 + 10)
    response = post(client, tokens.learner, {"problem": "secret_lookup", "code": code})
    assert response.status_code == 413
    assert "bytes; the limit is" in error(response)["message"]


def test_nul_byte_is_422(client: TestClient, tokens: Tokens) -> None:
    response = post(client, tokens.learner, {"problem": "secret_lookup", "code": "def lookup(k):\x00\n"})
    assert response.status_code == 422
    assert error(response)["message"] == "the code contains a NUL character (U+0000) at line 1, column 15"


def test_invalid_text_is_422(client: TestClient, tokens: Tokens) -> None:
    response = post(client, tokens.learner, b'{"problem": "secret_lookup", "code": "x = \\ud800"}', raw=True)
    assert response.status_code == 422 and "lone surrogate" in error(response)["message"]
    response = post(client, tokens.learner, b'{"problem": "secret_lookup", "code": "\xff"}', raw=True)
    assert response.status_code == 422


def test_malformed_bodies_are_422_naming_the_field(client: TestClient, tokens: Tokens) -> None:
    response = post(client, tokens.learner, {"problem": "secret_lookup"})
    assert response.status_code == 422 and error(response)["message"].startswith("code:")
    response = post(client, tokens.learner, {"problem": "secret_lookup", "code": "x", "mode": "fast"})
    assert response.status_code == 422 and error(response)["message"].startswith("mode:")
    response = post(client, tokens.learner, b"{not json", raw=True)
    assert response.status_code == 422


def test_unknown_problem_is_404(client: TestClient, tokens: Tokens) -> None:
    response = post(client, tokens.learner, {"problem": "no_such_problem", "code": REFERENCE})
    assert response.status_code == 404 and error(response)["code"] == "not_found"


def test_unknown_submission_is_404(client: TestClient, tokens: Tokens) -> None:
    response = client.get("/api/v1/submissions/999999", headers=bearer(tokens.learner))
    assert response.status_code == 404


def test_quota_of_waiting_submissions_is_429_with_retry_after(client: TestClient, tokens: Tokens) -> None:
    """Fill a fresh learner's queue directly in the database, so no worker can drain it first."""
    from service.db.models import Role
    from service.users import create_user

    with session_scope() as session:
        token = create_user(session, "test-quota", Role.LEARNER)[1]
    for _ in range(get_settings().learner_queue_quota):
        store_submission(user="test-quota", status=SubmissionStatus.RUNNING)
    response = post(client, token, {"problem": "secret_lookup", "code": REFERENCE})
    assert response.status_code == 429 and error(response)["code"] == "quota_exceeded"
    assert int(response.headers["Retry-After"]) > 0
    with session_scope() as session:
        quota_user = session.scalar(select(User).where(User.name == "test-quota"))
        assert quota_user is not None
        waiting = session.scalars(select(Submission).where(Submission.user_id == quota_user.id)).all()
        assert len(waiting) == get_settings().learner_queue_quota  # the refused one was not stored
        for submission in waiting:  # leave nothing for the recovery beat to pick up
            submission.status = SubmissionStatus.DONE


def test_huge_bodies_are_refused_before_parsing(client: TestClient, tokens: Tokens) -> None:
    cap = get_settings().max_request_bytes
    response = post(client, tokens.learner, b'{"problem": "secret_lookup", "code": "' + b"x" * cap + b'"}', raw=True)
    assert response.status_code == 413 and error(response)["code"] == "too_large"

    def chunks():  # type: ignore[no-untyped-def]  # no Content-Length: counted while streaming
        yield b'{"problem": "secret_lookup", "code": "'
        for _ in range(cap // 65536 + 2):
            yield b"x" * 65536
        yield b'"}'

    response = client.post("/api/v1/submissions", headers={**bearer(tokens.learner),
                                                            "Content-Type": "application/json"},
                           content=chunks())
    assert response.status_code == 413


def test_a_form_body_is_told_to_send_json(client: TestClient, tokens: Tokens) -> None:
    response = client.post("/api/v1/submissions", headers=bearer(tokens.learner), data={"problem": "x"})
    assert response.status_code == 422
    assert error(response)["message"].endswith("(send a JSON object with Content-Type: application/json)")


def test_an_id_past_the_database_integer_is_refused_by_the_schema(client: TestClient, tokens: Tokens) -> None:
    for submission_id in (2**31, 10**20, 2**63, -1, 0):  # 2**31: past PostgreSQL's INTEGER
        response = client.get(f"/api/v1/submissions/{submission_id}", headers=bearer(tokens.learner))
        assert response.status_code == 422, response.text
        assert response.json()["error"]["message"].startswith("path.submission_id:")
    missing = client.get(f"/api/v1/submissions/{2**31 - 1}", headers=bearer(tokens.learner))
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
