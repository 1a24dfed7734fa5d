"""A worker's heartbeat row: written while it consumes, gone as soon as it begins to stop."""

from __future__ import annotations

import time

import pytest
from celery import signals
from fastapi.testclient import TestClient
from sqlalchemy import select

from service import heartbeats
from service.db.models import WorkerHeartbeat
from service.db.session import session_scope


def _names() -> list[str]:
    with session_scope() as session:
        return list(session.scalars(select(WorkerHeartbeat.name)))


def test_a_worker_that_begins_to_stop_removes_its_row_at_once(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:  # the client: a migrated database
    beats = heartbeats.Heartbeats("judge@test:1")
    monkeypatch.setattr(heartbeats, "_current", beats)
    beats.start()
    deadline = time.monotonic() + 10
    while "judge@test:1" not in _names():
        assert time.monotonic() < deadline, "no heartbeat written"
        time.sleep(0.05)
    # Celery sends this from the signal handler, long before worker_shutdown, which a worker
    # killed at the end of its warm-shutdown grace never reaches.
    signals.worker_shutting_down.send(sender="judge@test", sig="SIGTERM", how="Warm", exitcode=0)
    beats.thread.join(timeout=10)
    assert not beats.thread.is_alive()
    assert "judge@test:1" not in _names()
    heartbeats._stop()  # worker_shutdown, later: nothing left to do, and no error
    assert heartbeats._current is None and "judge@test:1" not in _names()
