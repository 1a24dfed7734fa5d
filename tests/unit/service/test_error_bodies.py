"""Every error body is ``{"error": {"code", "message", "param", "request_id"}}``, whoever made it:
a validation error names the field at fault in ``param``, every answer names its request, and a
domain code without a status is a logged 500, never a silent 4xx."""

from __future__ import annotations

import logging

import pytest
from fastapi.testclient import TestClient

from api.main import create_app
from service.errors import NotFound
from tests.unit.service.conftest import REQUEST_CAP
from tests.unit.service.helpers import SUBMISSIONS, error, post_json
from tests.utils.service import REFERENCE, bearer
from tests.utils.service_fixtures import Tokens


def test_a_422_names_the_field_at_fault(client: TestClient, tokens: Tokens) -> None:
    response = post_json(client, tokens.learner, {"problem": "secret_lookup", "code": 5})
    assert error(response, 422, "invalid_input").startswith("code: ")
    assert response.json()["error"]["param"] == "code"
    response = client.get(SUBMISSIONS, params={"limit": 0}, headers=bearer(tokens.learner))
    error(response, 422, "invalid_input")
    assert response.json()["error"]["param"] == "query.limit"
    # A body that is not JSON at all is no one field's fault.
    response = post_json(client, tokens.learner, b"not json", raw=True)
    error(response, 422, "invalid_input")
    assert response.json()["error"]["param"] is None


def test_every_kind_of_error_names_its_request(client: TestClient, tokens: Tokens) -> None:
    learner = bearer(tokens.learner)
    answers = [
        (client.get(SUBMISSIONS), 401, "unauthorized"),  # a DomainError raised by a dependency
        (post_json(client, tokens.learner, {"problem": "no_such_problem", "code": REFERENCE}),
         404, "not_found"),  # one raised by a route
        (client.get("/api/v1/no-such-route", headers=learner), 404, "not_found"),  # the framework's
        (client.delete(SUBMISSIONS, headers=learner), 405, "method_not_allowed"),
        (post_json(client, tokens.learner, {"problem": "secret_lookup"}), 422, "invalid_input"),
        (post_json(client, tokens.learner, b'{"code": "\xff"}', raw=True), 422, "invalid_input"),
        (post_json(client, tokens.learner, {"code": "x" * REQUEST_CAP}), 413, "too_large"),  # BodyLimit
    ]
    for response, status, code in answers:
        error(response, status, code)  # request_id == the X-Request-ID header
        assert response.json()["error"]["request_id"], response.text
    given = client.get(SUBMISSIONS, headers={"X-Request-ID": "client-chose-1"})
    assert error(given, 401) and given.json()["error"]["request_id"] == "client-chose-1"


def test_a_code_without_a_status_is_a_logged_500(caplog: pytest.LogCaptureFixture) -> None:
    app = create_app()

    @app.get("/unmapped-code")
    def unmapped() -> None:
        refusal = NotFound("a refusal of a kind the table lacks")
        vars(refusal)["code"] = "no_such_code"  # what a class outside judge.errors could carry
        raise refusal

    with caplog.at_level(logging.ERROR, logger="api"):
        response = TestClient(app).get("/unmapped-code", headers={"X-Request-ID": "rid-unmapped"})
    assert "a refusal" not in error(response, 500, "internal")
    assert response.json()["error"]["request_id"] == "rid-unmapped"
    assert any("no_such_code" in record.getMessage() and "rid-unmapped" in record.getMessage()
               for record in caplog.records), caplog.text
