"""The service image, built offline from the sandbox's debootstrap base, run as docker-compose.yml
deploys it: its worker judges through the engine's socket (the sandboxes are its siblings on the
main engine), and its API starts, migrates a database and serves the shipped problems.

Both containers use the host's network, to reach the machine's PostgreSQL and Redis.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from docker.errors import APIError, NotFound

from judge.engine_settings import engine_settings
from sandbox.docker_runner import DockerSandbox
from service.settings import get_settings
from tests.deploy.judging import private_prefix, received, send, stage, wait_done
from tests.utils.service_env import FIXTURE_PROBLEMS, PG_ADMIN_URL, drop_postgres_database
from tests.utils.service_fixtures import free_port

# One worker runs every deploy test: the service image is built once per worker (a session
# fixture), and two builds at once would take both cores for minutes.
pytestmark = [pytest.mark.docker, pytest.mark.xdist_group("deploy"), pytest.mark.serial(
    "its containers' bridge networks add host interfaces, which Chromium takes for a network "
    "change: browser tests beside it saw page loads aborted with ERR_NETWORK_CHANGED")]

SHIPPED = Path(__file__).resolve().parents[2] / "problems"
TEST_LABEL = "metrics-judge.deploy-test"  # on the service containers these tests start


@contextlib.contextmanager
def service_container(sandbox: DockerSandbox, image: str, command: list[str],
                      environment: dict[str, str], **options: Any) -> Iterator[Any]:
    container = sandbox.client.containers.run(
        image, command, detach=True, network_mode="host", environment=environment,
        labels={TEST_LABEL: "1"}, name=f"judge-deploy-{uuid.uuid4().hex[:10]}", **options)
    try:
        yield container
    finally:
        # A warm shutdown first, so the worker removes the sandboxes it keeps warm.
        with contextlib.suppress(APIError, NotFound):
            container.stop(timeout=30)
        with contextlib.suppress(APIError, NotFound):
            container.remove(force=True)


def logs(container: Any) -> str:
    return str(container.logs().decode("utf-8", "replace"))


def wait_for(container: Any, text: str, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while text not in logs(container):
        container.reload()
        assert container.status in ("created", "running"), logs(container)[-3000:]
        assert time.monotonic() < deadline, f"no {text!r} in the container's log:\n{logs(container)[-3000:]}"
        time.sleep(0.3)


def test_the_images_worker_judges_through_the_engines_socket(
        service_image: str, deploy_services: str, docker_sandbox: DockerSandbox) -> None:
    settings = get_settings()
    prefix = private_prefix("image")
    environment = {
        "JUDGE_DATABASE_URL": settings.database_url,
        "JUDGE_BROKER_URL": settings.broker_url,
        "JUDGE_BROKER_KEY_PREFIX": prefix,
        "JUDGE_SANDBOX_RUNTIME": engine_settings().sandbox_runtime,
        # The session's recovery timing: its beat must not take over rows other tests hold back.
        "JUDGE_REQUEUE_AFTER_SECONDS": str(settings.requeue_after_seconds),
        # The session's problems (the same content, so no new version), not the shipped ones.
        "JUDGE_PROBLEMS_DIR": "/problems",
    }
    volumes = {"/var/run/docker.sock": {"bind": "/var/run/docker.sock", "mode": "rw"},
               str(FIXTURE_PROBLEMS): {"bind": "/problems", "mode": "ro"}}
    with service_container(docker_sandbox, service_image, ["judge", "worker", "--concurrency", "1"],
                           environment, volumes=volumes) as worker:
        wait_for(worker, "ready.")
        expected = stage(deploy_services, ["accepted", "wrong_answer", "runtime_error", "accepted"])
        tasks = send(list(expected), prefix)
        outcomes = wait_done(list(expected), timeout=120)
        assert {sid: o.verdict for sid, o in outcomes.items()} == expected
        assert all(o.attempts == 1 for o in outcomes.values())
        # Judged by the worker in the container, the only one reading this prefix.
        assert set(tasks) <= set(received(logs(worker)))


@pytest.fixture
def fresh_database() -> Iterator[str]:
    """A database of its own, for an API that loads the shipped problems (the session's holds
    the fixture problems, and other tests count on that)."""
    name = f"judge_deploy_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield get_settings().database_url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        drop_postgres_database(name)


def test_the_images_api_starts_and_serves_the_shipped_problems(
        service_image: str, deploy_services: str, docker_sandbox: DockerSandbox, fresh_database: str) -> None:
    settings = get_settings()
    port = free_port()
    environment = {
        "JUDGE_DATABASE_URL": fresh_database,
        "JUDGE_BROKER_URL": settings.broker_url,
        "JUDGE_BROKER_KEY_PREFIX": private_prefix("api"),
        "JUDGE_READY_NEEDS_DOCKER": "false",  # as in docker-compose.yml: no socket for the API
    }
    command = ["judge", "api", "--host", "127.0.0.1", "--port", str(port)]  # as the image's CMD
    with service_container(docker_sandbox, service_image, command, environment) as api:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        while True:
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"{base}/healthz", timeout=5).status_code == 200:
                    break
            api.reload()
            assert api.status == "running", logs(api)[-3000:]
            assert time.monotonic() < deadline, "the API did not answer /healthz:\n" + logs(api)[-3000:]
            time.sleep(0.3)

        made = api.exec_run(["judge", "users", "create", "deploy-admin", "--role", "admin"])
        assert made.exit_code == 0, made.output
        token = made.output.decode().strip().splitlines()[-1]
        listed = httpx.get(f"{base}/api/v1/problems", headers={"Authorization": f"Bearer {token}"}, timeout=30)
        assert listed.status_code == 200, listed.text
        shipped = {folder.name for folder in SHIPPED.iterdir() if (folder / "problem.toml").is_file()}
        assert {problem["slug"] for problem in listed.json()} == shipped
        # The pages' files are in the installed package, the editor's bundle included.
        for path in ("/static/app.js", "/static/vendor/codemirror.js"):
            assert httpx.get(f"{base}{path}", timeout=30).status_code == 200, path
