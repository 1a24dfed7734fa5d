"""Scale-out: workers on two Docker engines drain one Redis queue and one PostgreSQL database, and
every submission is judged exactly once with its right verdict.

The second engine is a second dockerd on this machine (its own socket, data root and containerd),
standing in for a second worker host. One worker judges on the main engine with two processes
(--concurrency 2), one on the second engine with one.
"""

from __future__ import annotations

import collections
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import docker
import pytest
from docker.errors import NotFound

from sandbox.docker_runner import LABEL, DockerSandbox
from tests.deploy.engine_tap import EngineTap
from tests.deploy.judging import (
    cases_per_submission,
    private_prefix,
    received,
    send,
    stage,
    start_worker,
    wait_done,
)
from tests.deploy.second_engine import SecondEngine

# One worker runs every deploy test: the service image is built once per worker (a session
# fixture), and two builds at once would take both cores for minutes.
pytestmark = [pytest.mark.docker, pytest.mark.xdist_group("deploy"), pytest.mark.serial(
    "its containers' bridge networks add host interfaces, which Chromium takes for a network "
    "change: browser tests beside it saw page loads aborted with ERR_NETWORK_CHANGED")]

SUBMISSIONS = 30
ORPHAN_GRACE = 30.0


def stop(process: subprocess.Popen[bytes]) -> None:
    """Celery's warm shutdown: the worker finishes what it holds and removes its containers."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        stop(process)


def created_on(client: docker.DockerClient, since: float) -> list[str]:
    """Ids of the sandbox containers created on an engine since a moment, from its events."""
    events = client.events(since=int(since), until=int(time.time()) + 1, decode=True,
                           filters={"type": "container", "event": "create", "label": LABEL})
    return [event["id"] for event in events]


def test_two_engines_drain_one_queue_and_judge_each_submission_once(
        deploy_services: str, second_engine: SecondEngine, docker_sandbox: DockerSandbox,
        processes: list[subprocess.Popen[bytes]], tmp_path: Path) -> None:
    started_at = time.time() - 1
    prefix = private_prefix("scale")
    tap = EngineTap(tmp_path / "main-engine.sock")
    # A container per submission and no warm pool: each container is then one submission's run,
    # so the containers an engine made are a ledger of what its worker judged (a submission
    # judged twice would show). A slot would judge many in one.
    common = {"JUDGE_BROKER_KEY_PREFIX": prefix, "JUDGE_WARM_POOL_SIZE": "0",
              "JUDGE_SANDBOX_MODE": "container"}
    main_log, second_log = tmp_path / "main-worker.log", tmp_path / "second-worker.log"
    try:
        processes.append(start_worker(main_log, 2, "deploy-main", DOCKER_HOST=tap.url, **common))
        processes.append(start_worker(second_log, 1, "deploy-second", DOCKER_HOST=second_engine.url,
                                      **common))
        kinds = ["accepted", "wrong_answer", "runtime_error"]
        expected = stage(deploy_services, [kinds[n % len(kinds)] for n in range(SUBMISSIONS)])
        began = time.monotonic()
        tasks = send(list(expected), prefix)
        outcomes = wait_done(list(expected), timeout=240)
        judged_in = time.monotonic() - began
        for process in processes:
            stop(process)
    finally:
        tap.close()

    # Every submission done, with its verdict, judged once: one attempt, one set of results.
    per_submission = cases_per_submission()
    wrong = {sid: (o.verdict, expected[sid]) for sid, o in outcomes.items() if o.verdict != expected[sid]}
    assert not wrong, f"verdicts (got, expected): {wrong}"
    assert all(o.attempts == 1 for o in outcomes.values()), {s: o.attempts for s, o in outcomes.items()}
    assert all(o.positions == list(range(per_submission)) for o in outcomes.values()), \
        {s: o.positions for s, o in outcomes.items()}

    # Each task reached exactly one worker, and both workers took a share.
    by_main = received(main_log.read_text(errors="replace"))
    by_second = received(second_log.read_text(errors="replace"))
    deliveries = collections.Counter(by_main + by_second)
    assert set(deliveries) == set(tasks) and set(deliveries.values()) == {1}, deliveries
    assert by_main and by_second, f"main {len(by_main)}, second {len(by_second)}"

    # Each engine ran exactly the sandboxes of the submissions its worker judged.
    main_containers = list(tap.created)
    second_containers = created_on(second_engine.client, started_at)
    assert len(main_containers) == len(by_main), (len(main_containers), len(by_main))
    assert len(second_containers) == len(by_second), (len(second_containers), len(by_second))
    # The main engine's own events agree (they also hold other runs' sandboxes on this machine).
    assert set(main_containers) <= set(created_on(docker_sandbox.client, started_at))

    # Nothing left on either engine.
    deadline = time.monotonic() + ORPHAN_GRACE
    while True:
        left = [cid for cid in main_containers if _exists(docker_sandbox.client, cid)]
        left += [c.id for c in second_engine.client.containers.list(all=True, filters={"label": LABEL})]
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert not left, f"{len(left)} sandbox containers left"
    print(f"\n{SUBMISSIONS} judged in {judged_in:.1f} s: main engine {len(main_containers)} sandboxes "
          f"(2 processes), second engine {len(second_containers)} (1 process)")


def _exists(client: docker.DockerClient, container_id: str) -> bool:
    try:
        client.api.inspect_container(container_id)
    except NotFound:
        return False
    return True
