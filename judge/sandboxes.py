"""The production sandbox: a Docker engine, a swept slate and a built image."""

from __future__ import annotations

from judge.settings import get_settings
from sandbox.docker_runner import DockerSandbox, connect, sweep_leftovers
from sandbox.image import Progress, ensure_image


def docker_sandbox(progress: Progress = lambda _: None) -> DockerSandbox:
    """Connect, remove expired leftovers and build the image on first use.

    Raises SandboxUnavailable with a one-line reason when there is no engine.
    """
    client = connect()
    sweep_leftovers(client)
    tag = ensure_image(client, get_settings().sandbox_offline, progress)
    return DockerSandbox(tag, client)
