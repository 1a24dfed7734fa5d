"""The queue cut off under a real API server (uvicorn, the session's database, its Redis behind
a proxy the test cuts): a submission is saved and answered 503, and that 5xx, like /readyz's,
names the request id in its body as in its header, so that what a client shows a user is enough
to find the failure in the log. Once the queue is back, the same Idempotency-Key sends it."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from judge.service.settings import get_settings
from tests.faults.test_database import _api
from tests.utils.fault_workers import Workers
from tests.utils.service import REFERENCE
from tests.utils.service_fixtures import Tokens, free_port
from tests.utils.socket_proxy import SocketProxy

pytestmark = pytest.mark.docker


def _names_its_request(response: httpx.Response, sent: str) -> dict[str, object]:
    assert response.status_code == 503, response.text
    assert response.headers["x-request-id"] == sent
    body: dict[str, object] = response.json()
    shown = body.get("error", body)
    assert isinstance(shown, dict) and shown["request_id"] == sent, body
    return body


def test_a_queue_outage_answers_503s_that_name_their_request(
        client: TestClient, tokens: Tokens, tmp_path: Path) -> None:
    redis = httpx.URL(get_settings().broker_url)
    if redis.scheme != "redis":
        pytest.skip("needs the session's Redis")
    proxy = SocketProxy(upstream=(redis.host, redis.port or 6379))
    port = free_port()
    # A worker of the test's own judges what this API queues (on a key prefix of their own), and
    # takes its warm containers with it when it stops.
    workers = Workers(tmp_path)
    env = {**os.environ, "JUDGE_BROKER_URL": f"redis://127.0.0.1:{proxy.port}{redis.path}",
           "JUDGE_BROKER_KEY_PREFIX": workers.prefix}
    api = _api(env, port, tmp_path / "api.log")
    workers.start()
    headers = {"Authorization": f"Bearer {tokens.learner}", "Idempotency-Key": "queue-outage"}
    body = {"problem": "secret_lookup", "code": REFERENCE, "mode": "run"}
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
            proxy.cut()
            saved = http.post("/api/v1/submissions", json=body,
                              headers={**headers, "X-Request-ID": "queue-cut-1"})
            error = _names_its_request(saved, "queue-cut-1")["error"]
            assert isinstance(error, dict) and error["code"] == "unavailable", error
            assert int(saved.headers["retry-after"]) > 0
            ready = _names_its_request(http.get("/readyz", headers={"X-Request-ID": "queue-cut-2"}),
                                       "queue-cut-2")
            assert ready["status"] == "not ready", ready
            proxy.restore()
            again = http.post("/api/v1/submissions", json=body, headers=headers)
            assert again.status_code == 202, again.text
            done = http.get(f"/api/v1/submissions/{again.json()['id']}?wait=30", headers=headers)
            assert done.json()["verdict"] == "accepted", done.text
    finally:
        proxy.cut()  # closes its listener and every connection through it
        api.terminate()
        api.wait(timeout=30)
        workers.stop_all()
