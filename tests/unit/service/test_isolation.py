"""The unit layer reaches nothing outside the process: no PostgreSQL, no broker, no Docker."""

from __future__ import annotations

import os

import pytest
from fastapi.testclient import TestClient

import service.tasks as worker_tasks
from service.celery_app import celery
from service.db.session import get_engine
from service.settings import Settings, get_settings
from tests.unit.service.conftest import DEAD_BROKER, NO_DOCKER, EagerQueue
from tests.unit.service.exec_sandbox import ExecSandbox


def test_settings_point_at_sqlite_in_a_temporary_folder(fast_settings: Settings, client: TestClient) -> None:
    settings = get_settings()
    assert settings is fast_settings
    assert settings.resolved_database_url() == f"sqlite:///{settings.data_dir / 'judge.db'}"
    assert get_engine().dialect.name == "sqlite"
    assert (settings.data_dir / "judge.db").is_file()
    assert settings.resolved_broker_url() == DEAD_BROKER == celery.conf.broker_url
    assert os.environ["DOCKER_HOST"] == NO_DOCKER


def test_tasks_run_eagerly_on_the_exec_double(eager_queue: EagerQueue, exec_sandbox: ExecSandbox) -> None:
    assert celery.conf.task_always_eager and celery.conf.task_eager_propagates
    assert celery.send_task == eager_queue.send_task
    assert worker_tasks.worker_sandbox() is exec_sandbox


def test_the_guard_refuses_every_connection(refused_connections: list[str]) -> None:
    import socket

    with socket.socket() as sock, pytest.raises(ConnectionRefusedError):
        sock.connect(("127.0.0.1", 5432))
    assert refused_connections == ["AF_INET ('127.0.0.1', 5432)"]


def test_healthz_and_readyz(client: TestClient, refused_connections: list[str]) -> None:
    """Alive; not ready, because the broker and Docker are out of reach (as they should be here).
    Nothing else than these probes tried to connect: every other test asserts it of itself."""
    assert client.get("/healthz").json() == {"status": "ok"}
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "not ready"
    problems = " | ".join(body["problems"])
    assert "broker:" in problems and "docker:" in problems and "database:" not in problems
    assert "worker:" in problems  # no worker process writes heartbeats here
    # The probes did try, and were refused by the guard, only for the broker and the engine.
    assert set(refused_connections) == {"AF_INET ('127.0.0.1', 9)", "AF_UNIX '/nonexistent/docker.sock'"}
