"""Service fixtures: the app in-process, a real Celery worker process, users of every role."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from judge.db.models import Role
from judge.db.session import session_scope
from judge.service_cli import worker_command
from judge.settings import get_settings
from judge.users import create_user
from sandbox.docker_runner import DockerSandbox
from tests.conftest import FIXTURES


@pytest.fixture(scope="session")
def worker(docker_sandbox: DockerSandbox) -> Iterator[subprocess.Popen[bytes]]:
    """A real Celery worker (with its recovery beat) on the test database and broker."""
    log = Path(get_settings().data_dir) / "worker.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(worker_command(2), stdout=sink, stderr=subprocess.STDOUT,
                                   env=os.environ.copy())
    deadline = time.monotonic() + 60
    while b"ready." not in log.read_bytes():
        assert process.poll() is None, log.read_text()
        assert time.monotonic() < deadline, "the worker did not start:\n" + log.read_text()
        time.sleep(0.2)
    yield process
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope="session")
def client(worker: subprocess.Popen[bytes]) -> Iterator[TestClient]:
    from api.main import app

    with TestClient(app) as test_client:  # runs start-up: migrations and problem sync
        yield test_client


@dataclass(frozen=True)
class Tokens:
    learner: str
    other_learner: str
    instructor: str
    other_instructor: str
    admin: str


@pytest.fixture(scope="session")
def tokens(client: TestClient) -> Tokens:
    made = {}
    with session_scope() as session:
        for name, role in [("learner", Role.LEARNER), ("other_learner", Role.LEARNER),
                           ("instructor", Role.INSTRUCTOR), ("other_instructor", Role.INSTRUCTOR),
                           ("admin", Role.ADMIN)]:
            made[name] = create_user(session, f"test-{name}", role)[1]
    return Tokens(**made)


def problem_files(slug: str, **replace: str) -> dict[str, str]:
    """The secret_lookup fixture folder as an upload under another slug, with files replaced."""
    folder = FIXTURES / "problems" / "secret_lookup"
    files = {p.relative_to(folder).as_posix(): p.read_text() for p in folder.rglob("*") if p.is_file()}
    files["problem.toml"] = files["problem.toml"].replace('"secret_lookup"', f'"{slug}"')
    files.update(replace)
    return files


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class Service:
    """A client and two learners' tokens for one way of running the service."""

    client: Any
    learner: str
    other_learner: str


@pytest.fixture(scope="session")
def embedded(docker_sandbox: DockerSandbox, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """`judge serve` as a newcomer runs it: SQLite and the file-system broker, nothing else."""
    import httpx

    data = tmp_path_factory.mktemp("embedded")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("JUDGE_DATABASE_URL", "JUDGE_BROKER_URL")}
    env.update(JUDGE_DATA_DIR=str(data), JUDGE_PORT=str(port))
    judge = [sys.executable, "-m", "judge.cli"]
    learners = [subprocess.run([*judge, "users", "create", name], env=env, check=True, capture_output=True,
                               text=True).stdout.strip() for name in ("learner", "other")]
    log = data / "serve.log"
    with log.open("wb") as sink:
        process = subprocess.Popen([*judge, "serve"], env=env, stdout=sink, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        assert process.poll() is None, log.read_text()
        try:
            if httpx.get(f"{base}/healthz").status_code == 200 and b"ready." in (data / "serve.log").read_bytes():
                break
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, "judge serve did not start:\n" + log.read_text()
        time.sleep(0.3)
    assert "sqlite" in log.read_text() and "filesystem://" in log.read_text()
    with httpx.Client(base_url=base, timeout=60) as http:
        yield Service(http, *learners)
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(params=["postgres_redis", "embedded"])
def service(request: pytest.FixtureRequest) -> Service:
    """The same lifecycle runs against production services and the embedded default."""
    if request.param == "embedded":
        return request.getfixturevalue("embedded")  # type: ignore[no-any-return]
    tokens: Tokens = request.getfixturevalue("tokens")
    return Service(request.getfixturevalue("client"), tokens.learner, tokens.other_learner)
