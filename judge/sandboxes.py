"""The production sandbox: a Docker engine, a swept slate and a built image."""

from __future__ import annotations

from judge.engine_settings import engine_settings
from sandbox.docker_runner import DockerSandbox, connect, sweep_leftovers
from sandbox.image import Progress, ensure_image
from sandbox.interface import SandboxUnavailable


def docker_sandbox(progress: Progress = lambda _: None, pooled: bool = False) -> DockerSandbox:
    """Connect, remove expired leftovers and build the image on first use.

    ``pooled``: keep JUDGE_WARM_POOL_SIZE containers warm (sandbox.warm_pool), for a process that
    judges one submission after another (a worker). Off by default: a one-off command (`judge
    run`, `judge problems validate`) would make containers it never uses.
    Raises SandboxUnavailable with a one-line reason when there is no engine.
    """
    settings = engine_settings()
    client = connect()
    runtimes = client.info().get("Runtimes") or {}
    if settings.sandbox_runtime not in runtimes:
        raise SandboxUnavailable(
            f"the Docker engine has no runtime {settings.sandbox_runtime!r} "
            f"(it has {', '.join(sorted(runtimes)) or 'none'}); see JUDGE_SANDBOX_RUNTIME")
    sweep_leftovers(client, settings.sandbox_abandoned_seconds, settings.deployment)
    tag = ensure_image(client, settings.sandbox_offline, progress, settings.deployment)
    return DockerSandbox(tag, client, settings.sandbox_runtime,
                         warm_pool_size=settings.warm_pool_size if pooled else 0,
                         sweep_every=settings.sandbox_sweep_seconds,
                         abandoned_after=settings.sandbox_abandoned_seconds,
                         mode=settings.sandbox_mode, slot_runs=max(1, settings.slot_runs),
                         deployment=settings.deployment)
