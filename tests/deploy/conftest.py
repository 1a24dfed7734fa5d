"""Fixtures for deployment tests: the session's database made ready for a test's own workers, a
second Docker engine, and the service image built offline.

These need root (a second dockerd; images built through the engine), the main engine, and
PostgreSQL and Redis; where one is missing they skip, except in CI, where they must run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.engine_settings import engine_settings
from sandbox.docker_runner import DockerSandbox
from service.bootstrap import prepare_database
from service.db.models import Role, User
from service.db.session import session_scope
from service.users import create_user
from tests.conftest import SERVICE_ENV
from tests.deploy.second_engine import SecondEngine

ROOT = Path(__file__).resolve().parents[2]
LEARNER = "deploy-learner"


def require(condition: bool, reason: str) -> None:
    if condition:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI needs this deployment test to run: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def deploy_services(docker_sandbox: DockerSandbox) -> str:
    """The database migrated, the fixture problems loaded and a learner of these tests' own (a
    name no other test uses, as the whole suite shares one database). Returns its name."""
    require(os.geteuid() == 0, "needs root (a second dockerd, image builds)")
    require("JUDGE_TEST_PG_DATABASE" in SERVICE_ENV, "needs PostgreSQL on 127.0.0.1:5432")
    require("JUDGE_BROKER_KEY_PREFIX" in SERVICE_ENV, "needs Redis on 127.0.0.1:6379")
    prepare_database()
    with session_scope() as session:
        if session.scalar(select(User).where(User.name == LEARNER)) is None:
            create_user(session, LEARNER, Role.LEARNER)
    return LEARNER


@pytest.fixture
def second_engine(docker_sandbox: DockerSandbox, deploy_services: str) -> Iterator[SecondEngine]:
    """A second dockerd holding the sandbox image, stopped and removed afterwards, even on failure."""
    require(shutil.which("dockerd") is not None, "needs dockerd to start a second engine")
    runtime = engine_settings().sandbox_runtime
    runtimes = {}
    if runtime != "runc":  # register it as the main engine has it, only when the sandbox uses it
        runtimes[runtime] = docker_sandbox.client.info()["Runtimes"][runtime]
    engine = SecondEngine(runtimes)
    try:
        engine.start()
        engine.load(docker_sandbox.image)
        yield engine
    finally:
        engine.stop()


@pytest.fixture(scope="session")
def service_image(deploy_services: str) -> str:
    """The service image, built offline as scripts/build-service-image does it (cached layers and
    wheelhouse make a rebuild of unchanged sources take seconds)."""
    started = time.monotonic()
    built = subprocess.run([str(ROOT / "scripts" / "build-service-image"), "--offline"],
                           capture_output=True, text=True, check=False)
    assert built.returncode == 0, f"the service image did not build:\n{built.stderr[-3000:]}"
    print(f"\nservice image built in {time.monotonic() - started:.1f} s")
    return built.stdout.strip().splitlines()[-1]
