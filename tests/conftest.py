"""Fixtures shared by the whole suite."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.utils import service_env

# Before any judge module reads the settings: throw-away database, broker and data folder.
SERVICE_ENV = service_env.configure()

from judge.problems import Problem, load_problem  # noqa: E402
from sandbox.docker_runner import DockerSandbox  # noqa: E402
from sandbox.interface import SandboxUnavailable  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures"
# The service fixtures (app, worker, users) serve tests/api and tests/faults alike: one instance
# of each per session.
pytest_plugins = ["tests.utils.service_fixtures"]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    database = SERVICE_ENV.get("JUDGE_TEST_PG_DATABASE")
    if database:
        from judge.service.db.session import get_engine

        get_engine().dispose()
        service_env.drop_postgres_database(database)
    prefix = SERVICE_ENV.get("JUDGE_BROKER_KEY_PREFIX")
    if prefix:
        service_env.drop_broker_keys(prefix)


@pytest.fixture(scope="session")
def docker_sandbox() -> DockerSandbox:
    """The real sandbox. In CI a missing engine fails the run; elsewhere it skips."""
    from judge.sandboxes import docker_sandbox as make

    try:
        return make()
    except SandboxUnavailable as exc:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI needs the Docker sandbox: {exc}")
        pytest.skip(f"no Docker sandbox: {exc}")


@pytest.fixture(scope="session")
def secret_problem() -> Problem:
    return load_problem(FIXTURES / "problems" / "secret_lookup")
