"""Every 5xx body names the request id that the X-Request-ID header carries, whatever made the
answer: a route's own 503, a plain-text 500, a failure in a route, or one raised by a middleware
outside the one that gives ids."""

from __future__ import annotations

from collections.abc import Callable

import httpx
from fastapi.responses import PlainTextResponse
from fastapi.testclient import TestClient
from starlette.types import ASGIApp, Receive, Scope, Send

from api.main import create_app
from service.db.models import Role
from tests.unit.service.conftest import EagerQueue
from tests.unit.service.helpers import SUBMISSIONS, error
from tests.utils.service import REFERENCE, bearer


def _names_its_request(response: httpx.Response, status: int) -> dict[str, object]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json"), response.headers
    rid = response.headers["x-request-id"]
    body = response.json()
    shown = body.get("error", body)
    assert shown["request_id"] == rid, body
    return body  # type: ignore[no-any-return]


def test_a_503_of_a_route_names_its_request(client: TestClient, new_user: Callable[[Role], str],
                                            eager_queue: EagerQueue) -> None:
    eager_queue.down = True
    try:
        response = client.post(SUBMISSIONS, json={"problem": "secret_lookup", "code": REFERENCE},
                               headers={**bearer(new_user(Role.LEARNER)), "X-Request-ID": "queue-down-1"})
    finally:
        eager_queue.down = False
    error(response, 503, "unavailable")
    assert _names_its_request(response, 503)["error"]["request_id"] == "queue-down-1"  # type: ignore[index]
    assert int(response.headers["Retry-After"]) > 0


class _Failing:
    """A middleware outside every one of the app's own, failing before it answers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == "/healthz":
            raise RuntimeError("a middleware's bug")
        await self.app(scope, receive, send)


def test_a_failure_in_an_outer_middleware_is_a_json_500_with_an_id() -> None:
    app = create_app()
    app.add_middleware(_Failing)  # outermost of the app's middleware, outside RequestIds
    with TestClient(app, raise_server_exceptions=False) as outside:
        response = outside.get("/healthz")
    error(response, 500, "internal")
    assert "a middleware's bug" not in response.text  # the cause stays in the server's log


def test_a_plain_text_500_becomes_the_json_shape_with_an_id() -> None:
    app = create_app()

    @app.get("/plain-failure")
    def plain() -> PlainTextResponse:
        return PlainTextResponse("upstream broke", 500)

    @app.get("/route-failure")
    def failing() -> None:
        raise RuntimeError("a route's bug")

    with TestClient(app, raise_server_exceptions=False) as local:
        for path in ("/plain-failure", "/route-failure"):
            response = local.get(path, headers={"X-Request-ID": "rid-7"})
            error(response, 500, "internal")
            assert response.json()["error"]["request_id"] == "rid-7"

