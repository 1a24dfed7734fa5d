"""After every fault: no sandbox container may still be running but those a live process of this
host holds (the session's workers keep warm ones waiting). Orphans of a killed worker must end by
themselves (their stdin closes with the worker's connection); stopped leftovers are then removed,
as a worker's periodic sweep would after a while. And a redis-server of a test's own, for a
broker that restarts empty."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sandbox.docker_runner import LABEL, DockerSandbox, remove_container
from tests.utils.containers import held_by_a_live_process, this_sessions
from tests.utils.service_fixtures import free_port

ORPHAN_GRACE = 30.0


@pytest.fixture(autouse=True)
def no_container_left(docker_sandbox: DockerSandbox) -> Iterator[None]:
    yield
    api = docker_sandbox.client.api
    deadline = time.monotonic() + ORPHAN_GRACE
    while running := [c for c in api.containers(filters={"label": LABEL}) if not held_by_a_live_process(c)]:
        assert time.monotonic() < deadline, f"{len(running)} sandbox containers still run"
        time.sleep(0.5)
    # Stopped leftovers of a dead process, or of this session: never a live process's of another
    # test session (a parallel worker's warm containers wait in the created state).
    for leftover in api.containers(all=True, filters={"label": LABEL, "status": ["created", "exited", "dead"]}):
        if not held_by_a_live_process(leftover) or this_sessions([leftover]):
            remove_container(docker_sandbox.client, leftover["Id"])


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[Callable[[], str]]:
    """A redis-server of this test's own that keeps nothing on disk; calling restarts it."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    process: list[subprocess.Popen[bytes]] = []

    def restart() -> str:
        for old in process:
            old.kill()
            old.wait()
        process[:] = [subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, cwd=tmp_path)]
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.1)
        return f"redis://127.0.0.1:{port}/0"

    yield restart
    for old in process:
        old.kill()
