"""Fixtures shared by the whole suite."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Bytecode caches, the project's and pytest's rewritten test modules, in the clone's own (ignored)
# __pycache__ folders, for this process and every server it starts: with PYTHONDONTWRITEBYTECODE
# set, as on some machines, each pytest process, xdist worker and server compiled every module
# again, and pytest rewrote every test module (collecting -m unit: 14.4 s of CPU, 5.8 s cached).
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

from tests.utils import service_env  # noqa: E402

# Before any judge module reads the settings: throw-away database, broker and data folder.
SERVICE_ENV = service_env.configure()

from judge.problems import Problem, load_problem  # noqa: E402
from sandbox.docker_runner import DockerSandbox  # noqa: E402
from sandbox.interface import SandboxUnavailable  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures"
# The service fixtures (app, worker, users) serve tests/stack and tests/faults alike: one instance
# of each per session.
pytest_plugins = ["tests.utils.service_fixtures", "tests.utils.timings"]


# What a test needs, read from the fixtures it requests, directly or through other fixtures
# (``item.fixturenames`` is that closure, overrides applied: tests/unit/service's in-process
# ``client`` adds nothing, tests/stack's, which starts the session worker, adds stack and docker).
# A fixture counts by where it is defined, not by its name alone, since a module may have a
# ``browser`` of its own. ``service`` reaches its services through ``request.getfixturevalue``,
# which the closure cannot see, so it is named with what it reaches. A module may also say what
# it needs with ``pytestmark``. A test that needs none of these is ``unit``.
SERVICE_FIXTURES = "tests.utils.service_fixtures"
NEEDS: dict[tuple[str, str], tuple[str, ...]] = {
    (__name__, "docker_sandbox"): ("docker",),
    (SERVICE_FIXTURES, "worker"): ("stack",),  # Celery workers on the session's database and broker
    (SERVICE_FIXTURES, "serve_process"): ("stack",),  # a `judge serve` of its own
    (SERVICE_FIXTURES, "embedded"): ("stack",),
    (SERVICE_FIXTURES, "service"): ("stack", "docker"),
    ("tests.browser.conftest", "live_server"): ("stack",),  # uvicorn on the session's database
    ("tests.browser.conftest", "browser"): ("browser",),  # Playwright's Chromium
    ("tests.deploy.conftest", "deploy_services"): ("stack",),
}
SERVICE_MARKERS = ("stack", "docker", "browser")


def defined_in(item: pytest.Item, fixture: str) -> str:
    """The module of the definition of ``fixture`` that ``item`` gets (the nearest override)."""
    info = getattr(item, "_fixtureinfo", None)
    definitions = info.name2fixturedefs.get(fixture, ()) if info is not None else ()
    return str(definitions[-1].func.__module__) if definitions else ""


def needs_of(item: pytest.Item) -> set[str]:
    """The service markers a collected test carries or earns by its fixtures."""
    found = {name for name in SERVICE_MARKERS if item.get_closest_marker(name) is not None}
    for fixture in getattr(item, "fixturenames", ()):
        found.update(NEEDS.get((defined_in(item, fixture), fixture), ()))
    return found


# The session's `judge serve` (directly, or as the embedded half of ``service``) takes a quarter
# of a minute to start. Under pytest-xdist each worker would start its own for the tests it gets,
# so those tests are kept on one worker (``--dist loadgroup``). A module whose own fixture is as
# costly says so with ``pytestmark = pytest.mark.xdist_group(...)``.
SERVE_FIXTURES = {(SERVICE_FIXTURES, "serve_process"), (SERVICE_FIXTURES, "embedded")}


def parallel_group(item: pytest.Item) -> str | None:
    """"judge-serve" for a test of the session's `judge serve`, else None."""
    callspec = getattr(item, "callspec", None)
    if callspec is not None and callspec.params.get("service") == "embedded":
        return "judge-serve"
    info = getattr(item, "_fixtureinfo", None)
    for name, definitions in (info.name2fixturedefs.items() if info is not None else ()):
        if (str(definitions[-1].func.__module__), name) in SERVE_FIXTURES:
            return "judge-serve"
    return None


# scripts/test runs the suite twice: the tests that may run beside others in parallel workers
# (JUDGE_TEST_PHASE=parallel), then those marked ``serial`` one at a time (=serial). Unset: all.
PHASE = os.environ.get("JUDGE_TEST_PHASE", "")


@pytest.hookimpl(tryfirst=True)  # before -m deselects: the marks must already be there
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        needs = needs_of(item)
        for name in sorted(needs):
            if item.get_closest_marker(name) is None:
                item.add_marker(name)
        if not needs and item.get_closest_marker("unit") is None:
            item.add_marker(pytest.mark.unit)
        group = parallel_group(item)
        if group and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(group))
    if PHASE in ("parallel", "serial"):
        keep = [item for item in items if (item.get_closest_marker("serial") is not None) == (PHASE == "serial")]
        dropped = [item for item in items if item not in keep]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = keep


def _encodable(value: Any) -> Any:
    """value with every lone surrogate in its strings written as its escape."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-8", "backslashreplace").decode("utf-8")
        return value
    if isinstance(value, dict):
        return {_encodable(k): _encodable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_encodable(v) for v in value)
    return value


@pytest.hookimpl(hookwrapper=True)
def pytest_report_to_serializable(config: pytest.Config, report: Any) -> Iterator[None]:
    """A parallel worker sends each report as UTF-8, and a test of learner text may capture a lone
    surrogate (in a log line or an assertion's message): its report would kill the worker."""
    outcome = yield
    data = outcome.get_result()  # type: ignore[attr-defined]
    if data is not None:
        outcome.force_result(_encodable(data))  # type: ignore[attr-defined]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    database = SERVICE_ENV.get("JUDGE_TEST_PG_DATABASE")
    if database:
        from service.db.session import get_engine

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
