"""After every fault: no sandbox container may still be running. Orphans of a killed worker must
end by themselves (their stdin closes with the worker's connection); stopped leftovers are then
removed, as a worker's periodic sweep would after a while."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from sandbox.docker_runner import LABEL, DockerSandbox, remove_container

ORPHAN_GRACE = 30.0


@pytest.fixture(autouse=True)
def no_container_left(docker_sandbox: DockerSandbox) -> Iterator[None]:
    yield
    api = docker_sandbox.client.api
    deadline = time.monotonic() + ORPHAN_GRACE
    while running := api.containers(filters={"label": LABEL}):
        assert time.monotonic() < deadline, f"{len(running)} sandbox containers still run"
        time.sleep(0.5)
    for leftover in api.containers(all=True, filters={"label": LABEL}):
        remove_container(docker_sandbox.client, leftover["Id"])
