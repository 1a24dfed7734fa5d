"""/readyz: ready only while a worker writes its heartbeat; it shows the database pool."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from service.settings import get_settings


def _wait_for(client: TestClient, status: int, timeout: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        response = client.get("/readyz")
        if response.status_code == status:
            body: dict[str, Any] = response.json()
            return body
        assert time.monotonic() < deadline, f"/readyz still answers {response.status_code}: {response.text}"
        time.sleep(0.3)


def test_ready_shows_the_database_pool(client: TestClient) -> None:
    body = _wait_for(client, 200)
    assert body["status"] == "ready"
    assert {"status", "checked_out"} <= set(body["database_pool"])


def test_not_ready_without_a_recent_worker_heartbeat(
        client: TestClient, worker: subprocess.Popen[bytes], monkeypatch: pytest.MonkeyPatch) -> None:
    # The test run's workers beat every second (tests/utils/service_env.py); 3 s without one is
    # a worker that stopped.
    monkeypatch.setattr(get_settings(), "ready_heartbeat_seconds", 3.0)
    _wait_for(client, 200)
    os.kill(worker.pid, signal.SIGSTOP)  # alive but silent: as good as dead to the queue
    try:
        body = _wait_for(client, 503, timeout=15)
        assert body["status"] == "not ready"
        assert body["problems"] == ["worker: no heartbeat in the last 3 s"]
        assert "database_pool" in body
    finally:
        os.kill(worker.pid, signal.SIGCONT)
    assert _wait_for(client, 200, timeout=15)["status"] == "ready"
