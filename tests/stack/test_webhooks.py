"""Webhooks end to end: a real judged submission's verdict reaches a real HTTP receiver on
127.0.0.1 (let through by JUDGE_WEBHOOK_ALLOW_PRIVATE, as an operator would for a receiver on
the judge's own host), signed with the user's secret, and every attempt is recorded; a receiver
that answers 500 first gets the same delivery again after the back-off.

The session's workers judge; the webhook worker is this module's own process (`judge
webhook-worker`'s command, the one `judge serve` supervises), started with a short back-off and
sweep so that a retry comes within a second. No other worker consumes the webhooks queue.
"""

from __future__ import annotations

import json
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from service.cli import webhook_worker_command
from service.settings import get_settings
from service.webhooks.signing import verify
from tests.utils.service import REFERENCE, bearer, wait_done
from tests.utils.service_fixtures import Tokens, _started, _stopped

BACKOFF_SECONDS = 0.5
TIMEOUT_SECONDS = 1.5  # each attempt's time in all (the setting's default is 5)


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    at: float


@dataclass
class Receiver:
    """An HTTP server on 127.0.0.1 that records each POST and answers the next status of
    ``answers`` (200 once they run out)."""

    server: ThreadingHTTPServer
    answers: list[int] = field(default_factory=list)
    dribbles: int = 0  # this many first requests get their answer's headers a line at a time
    received: list[Received] = field(default_factory=list)
    arrived: threading.Condition = field(default_factory=threading.Condition)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/judge/hook?from=test"

    def wait_for(self, count: int, timeout: float = 120) -> list[Received]:
        with self.arrived:
            assert self.arrived.wait_for(lambda: len(self.received) >= count, timeout), \
                f"{len(self.received)} of {count} webhook requests arrived"
            return list(self.received)


def _handler(receiver: list[Receiver]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # the name http.server calls
            body = self.rfile.read(int(self.headers["Content-Length"]))
            mine = receiver[0]
            with mine.arrived:
                mine.received.append(Received(dict(self.headers.items()), body, time.time()))
                mine.arrived.notify_all()
            if mine.dribbles:
                mine.dribbles -= 1
                self._dribble()
                return
            status = mine.answers.pop(0) if mine.answers else 200
            self.send_response(status)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def _dribble(self) -> None:
            """A header line every quarter second: each read is quick, the answer never ends."""
            try:
                self.wfile.write(b"HTTP/1.1 200 OK\r\n")
                for _ in range(40):
                    self.wfile.write(b"X-Slow: yes\r\n")
                    self.wfile.flush()
                    time.sleep(0.25)
            except OSError:  # the judge gave up and shut the connection
                pass
            self.close_connection = True

        def log_message(self, *_: object) -> None:
            return

    return Handler


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    holder: list[Receiver] = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(holder))
    holder.append(Receiver(server))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield holder[0]
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def webhook_worker(client: TestClient) -> Iterator[subprocess.Popen[bytes]]:
    """The webhook worker, allowed to post to loopback, with a short back-off and sweep."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JUDGE_WEBHOOK_ALLOW_PRIVATE", "true")
        patch.setenv("JUDGE_WEBHOOK_BACKOFF_SECONDS", json.dumps([BACKOFF_SECONDS]))
        patch.setenv("JUDGE_WEBHOOK_SWEEP_SECONDS", "0.2")
        patch.setenv("JUDGE_WEBHOOK_TIMEOUT_SECONDS", str(TIMEOUT_SECONDS))
        get_settings.cache_clear()  # this process's API checks callback URLs with the same rule
        process = _started(webhook_worker_command(4), Path(get_settings().data_dir) / "webhook-worker.log")
        try:
            yield process
        finally:
            _stopped(process)
    get_settings.cache_clear()


def _submit(client: TestClient, token: str, code: str, callback_url: str) -> int:
    response = client.post("/api/v1/submissions", headers=bearer(token), json={
        "problem": "secret_lookup", "code": code, "callback_url": callback_url})
    assert response.status_code == 202, response.text
    return int(response.json()["id"])


def _secret(client: TestClient, token: str) -> str:
    response = client.get("/api/v1/me/webhook-secret", headers=bearer(token))
    assert response.status_code == 200, response.text
    return str(response.json()["secret"])


def _deliveries(client: TestClient, token: str, submission_id: int,
                attempts: int, timeout: float = 30) -> list[dict[str, Any]]:
    """The submission's deliveries once the first has ``attempts`` attempts and is finished."""
    deadline = time.monotonic() + timeout
    while True:
        response = client.get(f"/api/v1/submissions/{submission_id}/deliveries", headers=bearer(token))
        assert response.status_code == 200, response.text
        rows: list[dict[str, Any]] = response.json()
        if rows and len(rows[0]["attempts"]) >= attempts and rows[0]["state"] != "pending":
            return rows
        assert time.monotonic() < deadline, rows
        time.sleep(0.2)


def test_a_judged_verdict_reaches_the_receiver_signed_and_recorded(
        client: TestClient, tokens: Tokens, webhook_worker: subprocess.Popen[bytes],
        receiver: Receiver) -> None:
    secret = _secret(client, tokens.learner)
    submission_id = _submit(client, tokens.learner, REFERENCE, receiver.url)
    done = wait_done(client, tokens.learner, submission_id)
    assert done["verdict"] == "accepted"
    [request] = receiver.wait_for(1)
    assert request.headers["Judge-Event"] == "submission.done"
    assert request.headers["Content-Type"] == "application/json"
    assert verify(secret, request.headers["Judge-Signature"], request.body, time.time())
    assert not verify("whsec_" + "0" * 48, request.headers["Judge-Signature"], request.body, time.time())
    body = json.loads(request.body)
    assert body["id"] == request.headers["Judge-Delivery"] and body["event"] == "submission.done"
    summary = body["submission"]
    assert summary["id"] == submission_id and summary["verdict"] == "accepted"
    assert summary["score"] == 1.0 and summary["finished_at"] is not None

    [delivery] = _deliveries(client, tokens.learner, submission_id, attempts=1)
    assert delivery["id"] == request.headers["Judge-Delivery"] and delivery["state"] == "delivered"
    [attempt] = delivery["attempts"]
    assert attempt["status_code"] == 200 and attempt["error"] is None
    assert attempt["response_snippet"] == "ok" and 0 <= attempt["duration_ms"] < 5000
    # Someone else's submission's deliveries do not exist for another learner.
    other = client.get(f"/api/v1/submissions/{submission_id}/deliveries", headers=bearer(tokens.other_learner))
    assert other.status_code == 404


def test_a_receiver_that_fails_first_gets_the_same_delivery_again(
        client: TestClient, tokens: Tokens, webhook_worker: subprocess.Popen[bytes],
        receiver: Receiver) -> None:
    receiver.answers = [500]
    secret = _secret(client, tokens.other_learner)
    submission_id = _submit(client, tokens.other_learner, "def lookup(key):\n    return 'nope'\n",
                            receiver.url)
    first, second = receiver.wait_for(2)
    assert first.body == second.body  # the same bytes on every attempt
    assert first.headers["Judge-Delivery"] == second.headers["Judge-Delivery"]
    assert second.at - first.at >= BACKOFF_SECONDS
    assert verify(secret, second.headers["Judge-Signature"], second.body, time.time())
    assert json.loads(second.body)["submission"]["verdict"] == "wrong_answer"

    [delivery] = _deliveries(client, tokens.other_learner, submission_id, attempts=2)
    assert delivery["state"] == "delivered"
    statuses = [(a["status_code"], a["error"]) for a in delivery["attempts"]]
    assert statuses == [(500, "answered 500"), (200, None)]


def test_a_receiver_that_dribbles_its_answer_is_cut_off_at_the_timeout(
        client: TestClient, tokens: Tokens, webhook_worker: subprocess.Popen[bytes],
        receiver: Receiver) -> None:
    receiver.dribbles = 1
    submission_id = _submit(client, tokens.learner, REFERENCE, receiver.url)
    receiver.wait_for(2)
    [delivery] = _deliveries(client, tokens.learner, submission_id, attempts=2)
    slow, fine = delivery["attempts"]
    assert slow["status_code"] is None and slow["error"].startswith("timed out"), slow
    # Every header line came within the socket's own timeout: only the attempt's deadline ended it.
    assert TIMEOUT_SECONDS * 1000 - 100 <= slow["duration_ms"] < TIMEOUT_SECONDS * 1000 + 1500, slow
    assert fine["status_code"] == 200 and delivery["state"] == "delivered"
