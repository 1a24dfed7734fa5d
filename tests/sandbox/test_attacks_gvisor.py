"""The attack suite again, under gVisor (runsc): the same files, checks and verdicts.

gVisor is a second wall around the learner (its own kernel in user space). Some of its behaviour
differs from runc (no pidfd, /proc and cgroups of its own), so the suite must hold there too. It is
slower, so each attack's max-seconds and its problem's time limits are multiplied by TIME_FACTOR.
"""

from __future__ import annotations

import pytest

from sandbox.docker_runner import DockerSandbox

# Collected again in this module, where the fixtures below replace test_attacks.py's.
from tests.sandbox.test_attacks import test_attack as test_attack_under_gvisor  # noqa: F401

RUNTIME = "runsc"
TIME_FACTOR = 3.0


@pytest.fixture(scope="module")
def attack_sandbox(docker_sandbox: DockerSandbox) -> DockerSandbox:
    runtimes = docker_sandbox.client.info().get("Runtimes", {})
    if RUNTIME not in runtimes:
        pytest.skip(f"the Docker engine has no {RUNTIME!r} runtime (gVisor is not installed); "
                    f"it has {sorted(runtimes)}")
    return DockerSandbox(docker_sandbox.image, docker_sandbox.client, runtime=RUNTIME)


@pytest.fixture(scope="module")
def time_factor() -> float:
    return TIME_FACTOR
