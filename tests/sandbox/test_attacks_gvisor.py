"""The attack suite again, under gVisor (runsc): the same files, checks and verdicts.

gVisor is a second wall around the learner (its own kernel in user space). Some of its behaviour
differs from runc (no pidfd, /proc and cgroups of its own), so every attack must hold there too.
It is the slowest part of the suite, so each attack runs here in the isolations its header names
(``gvisor-isolations``; ``shared`` alone by default, both for an attack whose verdict differs
between them: tests/utils/attacks.py says why), where runc runs every attack in both; each
attack's max-seconds and its problem's time limits are multiplied by TIME_FACTOR.
"""

from __future__ import annotations

import pytest

from sandbox.docker_runner import DockerSandbox
from sandbox.interface import Isolation
from tests.utils.attacks import Attack, check_attack, load_attacks

RUNTIME = "runsc"
TIME_FACTOR = 3.0
RUNS = [(attack, isolation) for attack in load_attacks() for isolation in attack.gvisor_isolations]


@pytest.fixture(scope="module")
def attack_sandbox(docker_sandbox: DockerSandbox) -> DockerSandbox:
    runtimes = docker_sandbox.client.info().get("Runtimes", {})
    if RUNTIME not in runtimes:
        pytest.skip(f"the Docker engine has no {RUNTIME!r} runtime (gVisor is not installed); "
                    f"it has {sorted(runtimes)}")
    return DockerSandbox(docker_sandbox.image, docker_sandbox.client, runtime=RUNTIME)


# One parallel worker runs them all, one at a time, as a serial run would: several gVisor
# sandboxes at once on two cores let a memory bomb's sandbox be killed whole (exit 137, not
# reported as out of memory) before gVisor's own limit takes the learner's process.
@pytest.mark.docker
@pytest.mark.xdist_group("gvisor")
@pytest.mark.parametrize(("attack", "isolation"),
                         [attack.param(isolation, id=f"{isolation.value}-{attack.name}") for attack, isolation in RUNS])
def test_attack_under_gvisor(attack: Attack, isolation: Isolation, attack_sandbox: DockerSandbox) -> None:
    check_attack(attack, attack_sandbox, TIME_FACTOR, isolation)


def test_every_attack_runs_under_gvisor_and_the_pairs_run_whole() -> None:
    attacks = load_attacks()
    assert {attack.name for attack, _ in RUNS} == {attack.name for attack in attacks}
    for attack in attacks:
        if attack.under_shared is not None:
            assert set(attack.gvisor_isolations) == set(Isolation), attack.name
