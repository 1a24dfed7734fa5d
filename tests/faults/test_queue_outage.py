"""The queue cut off under a real API server (uvicorn, the session's database, its Redis behind
a proxy the test cuts): a submission is saved and answered 503, and that 5xx, like /readyz's,
names the request id in its body as in its header, so that what a client shows a user is enough
to find the failure in the log. Once the queue is back, the saved row is judged within seconds:
the worker, back on the broker, runs recovery at once, which sends it.

And the broker restarted empty under a running worker (a private redis-server that keeps
nothing): every queued submission's message is gone, and each is judged within seconds of the
restart, not after the requeue delay (a minute), which held its learner's queue-quota slots.

The workers run with the production defaults of recovery (``JUDGE_RECOVERY_INTERVAL_SECONDS``
30, ``JUDGE_REQUEUE_AFTER_SECONDS`` 60), so neither the beat's next tick nor the requeue delay
can be what judged them in time."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
import redis
from fastapi.testclient import TestClient

from service.broker_memory import SENTINEL
from service.db.models import SubmissionStatus
from service.settings import get_settings
from tests.faults.test_database import _api
from tests.utils.fault_workers import Workers
from tests.utils.service import REFERENCE, store_submission, wait_done
from tests.utils.service_fixtures import Tokens, free_port
from tests.utils.socket_proxy import SocketProxy

pytestmark = pytest.mark.docker
RECOVERY_INTERVAL, REQUEUE_AFTER = "30", "60"  # seconds: the production defaults
# From the broker's return to the last verdict: a worker reconnects within Celery's first pauses
# (2 s, then 4), recovery takes milliseconds, and the judging a second or two; the requeue delay
# alone was 60 s.
JUDGED_AFTER_RETURN_WITHIN = 15.0


def _names_its_request(response: httpx.Response, sent: str) -> dict[str, object]:
    assert response.status_code == 503, response.text
    assert response.headers["x-request-id"] == sent
    body: dict[str, object] = response.json()
    shown = body.get("error", body)
    assert isinstance(shown, dict) and shown["request_id"] == sent, body
    return body


def test_a_queue_outage_answers_503s_that_name_their_request(
        client: TestClient, tokens: Tokens, tmp_path: Path) -> None:
    broker = httpx.URL(get_settings().broker_url)
    if broker.scheme != "redis":
        pytest.skip("needs the session's Redis")
    proxy = SocketProxy(upstream=(broker.host, broker.port or 6379))
    port = free_port()
    # A worker of the test's own judges what this API queues (on a key prefix of their own), and
    # takes its warm containers with it when it stops.
    workers = Workers(tmp_path)
    proxied = f"redis://127.0.0.1:{proxy.port}{broker.path}"
    # The API marks a row it could not send as due for recovery (queued a requeue delay ago):
    # due for this test's worker, not yet for the session's (300 s), which would judge it too.
    env = {**os.environ, "JUDGE_BROKER_URL": proxied, "JUDGE_BROKER_KEY_PREFIX": workers.prefix,
           "JUDGE_REQUEUE_AFTER_SECONDS": REQUEUE_AFTER}
    api = _api(env, port, tmp_path / "api.log")
    workers.start(JUDGE_BROKER_URL=proxied, JUDGE_RECOVERY_INTERVAL_SECONDS=RECOVERY_INTERVAL,
                  JUDGE_REQUEUE_AFTER_SECONDS=REQUEUE_AFTER)  # it loses the broker too
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
            returned = time.monotonic()
            again = http.post("/api/v1/submissions", json=body, headers=headers)
            assert again.status_code == 202, again.text  # the saved row, not sent again
            done = wait_done(http, tokens.learner, again.json()["id"], timeout=60)
            assert done["verdict"] == "accepted", done
            cost = time.monotonic() - returned
            print(f"\nsaved during a queue outage: judged {cost:.1f} s after the broker's return")
            assert cost < JUDGED_AFTER_RETURN_WITHIN
    finally:
        proxy.cut()  # closes its listener and every connection through it
        api.terminate()
        api.wait(timeout=30)
        workers.stop_all()


def _sentinel_set(url: str, prefix: str, timeout: float = 30) -> None:
    """Wait until the worker's first recovery has found the broker and set its sentinel."""
    client = redis.Redis.from_url(url)
    deadline = time.monotonic() + timeout
    try:
        while not client.exists(f"{prefix}{SENTINEL}"):
            assert time.monotonic() < deadline, "the worker's recovery never set the sentinel"
            time.sleep(0.2)
    finally:
        client.close()


def test_a_broker_restarted_empty_under_a_worker_has_its_queue_sent_again_at_once(
        client: TestClient, tokens: Tokens, tmp_path: Path, private_redis: Callable[[], str]) -> None:
    url = private_redis()
    workers = Workers(tmp_path)
    workers.start(JUDGE_BROKER_URL=url, JUDGE_RECOVERY_INTERVAL_SECONDS=RECOVERY_INTERVAL,
                  JUDGE_REQUEUE_AFTER_SECONDS=REQUEUE_AFTER)
    try:
        _sentinel_set(url, workers.prefix)
        # Queued just now, their messages (as far as the judge knows) in the broker.
        ids = [store_submission(mode="submit", status=SubmissionStatus.QUEUED) for _ in range(3)]
        assert private_redis() == url  # restarted: every message is gone, the rows are not
        restarted = time.monotonic()
        for submission_id in ids:
            assert wait_done(client, tokens.learner, submission_id, timeout=90)["verdict"] == "accepted"
        cost = time.monotonic() - restarted
        print(f"\na broker restarted empty: 3 queued submissions judged {cost:.1f} s after")
        assert cost < JUDGED_AFTER_RETURN_WITHIN, "they waited for the requeue delay"
    finally:
        workers.stop_all()
