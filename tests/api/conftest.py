"""Service fixtures: the app in-process, a real Celery worker process, users of every role."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from judge.db.models import Role
from judge.db.session import session_scope
from judge.settings import get_settings
from judge.users import create_user
from sandbox.docker_runner import DockerSandbox
from tests.conftest import FIXTURES


@pytest.fixture(scope="session")
def worker(docker_sandbox: DockerSandbox) -> Iterator[subprocess.Popen[bytes]]:
    """A real Celery worker (with its recovery beat) on the test database and broker."""
    log = Path(get_settings().data_dir) / "worker.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "judge.celery_app", "worker", "-B",
             "--concurrency", "2", "--loglevel", "INFO"],
            stdout=sink, stderr=subprocess.STDOUT, env=os.environ.copy(),
        )
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
