"""No sandbox container is left behind by a fault: an engine restarted under a judging worker, a
worker killed mid-run. And every worker sweeps leftovers on a timer, judging or idle.

These run on a second Docker engine of their own (tests/deploy/second_engine.py: its own socket,
data root and containerd), so that restarting it disturbs nobody, and so that every container on
it is one these tests' workers made: none of them can be mistaken for, or swept by, another.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sandbox.docker_runner import LABEL, WARM_LABEL, DockerSandbox, container_options
from sandbox.interface import Limits
from service.db.models import SubmissionStatus
from tests.deploy.second_engine import SecondEngine
from tests.faults.conftest import ORPHAN_GRACE
from tests.faults.test_faults import _queued, _wait
from tests.utils.fault_workers import Workers
from tests.utils.service import SLOW_REFERENCE, stored_row
from tests.utils.service_fixtures import Tokens

pytestmark = [pytest.mark.docker, pytest.mark.serial(
    "a second Docker engine, and bounds on how soon leftovers are swept: other tests' load on "
    "the two cores stretches both past them")]
GONE_WITHIN = 30.0  # seconds: well inside a minute, the old sweep's period and abandonment age


@pytest.fixture(scope="module")
def engine(docker_sandbox: DockerSandbox) -> Iterator[SecondEngine]:
    if os.geteuid() != 0 or shutil.which("dockerd") is None:
        pytest.skip("needs root and dockerd (a second Docker engine)")
    made = SecondEngine()
    try:
        made.start()
        made.load(docker_sandbox.image)
        yield made
    finally:
        made.stop()


@pytest.fixture(autouse=True)
def no_container_left(engine: SecondEngine) -> Iterator[None]:
    """The fault suite's check, on the engine these tests use (the main one's containers are
    other tests' and the session worker's): no orphan runs on, and the next test starts clean."""
    yield
    api = engine.client.api
    deadline = time.monotonic() + ORPHAN_GRACE
    while running := api.containers(filters={"label": LABEL}):
        assert time.monotonic() < deadline, f"{len(running)} sandbox containers still run"
        time.sleep(0.5)
    for leftover in api.containers(all=True, filters={"label": LABEL}):
        api.remove_container(leftover["Id"], force=True)


@pytest.fixture
def workers(client: TestClient, tokens: Tokens, engine: SecondEngine,
            tmp_path: Path) -> Iterator[Workers]:
    pool = Workers(tmp_path)
    yield pool
    pool.stop_all()


def _stopped(engine: SecondEngine) -> list[dict[str, Any]]:
    """Sandbox containers that are not running: created and never started, or ended."""
    return [c for c in engine.client.api.containers(all=True, filters={"label": LABEL})
            if c["State"] in ("created", "exited", "dead")]


def _wait_none_stopped(engine: SecondEngine, timeout: float = GONE_WITHIN) -> float:
    """Seconds until no stopped sandbox container is left on the engine."""
    started = time.monotonic()
    while left := _stopped(engine):
        states = sorted(f"{c['State']} {'warm' if WARM_LABEL in c['Labels'] else 'cold'} {c['Id'][:12]}"
                        for c in left)
        assert time.monotonic() - started < timeout, f"{len(left)} containers left behind: {states}"
        time.sleep(0.5)
    return time.monotonic() - started


def _leftover(engine: SecondEngine, image: str) -> str:
    """A sandbox container whose deadline has passed, as a crashed worker leaves one."""
    labels = container_options(Limits(), expires=time.time() - 1)["labels"]
    return str(engine.client.api.create_container(image, labels=labels)["Id"])


def _exists(engine: SecondEngine, container_id: str) -> bool:
    return any(c["Id"] == container_id
               for c in engine.client.api.containers(all=True, filters={"label": LABEL}))


def test_an_engine_restart_under_a_judging_worker_leaves_nothing_behind(
        workers: Workers, engine: SecondEngine) -> None:
    workers.start(DOCKER_HOST=engine.url)  # with its warm pool, which keeps making containers
    ids = _queued(8, code=SLOW_REFERENCE)  # about 3 s each: judging goes on through the restart
    for submission_id in ids:
        workers.send(submission_id)
    _wait(ids[0], lambda r: r.status == SubmissionStatus.RUNNING, timeout=60)
    time.sleep(1.0)
    restarted = time.monotonic()
    engine.restart()
    away = time.monotonic() - restarted
    for submission_id in ids:
        done = _wait(submission_id, lambda r: r.status == SubmissionStatus.DONE, timeout=240)
        assert done.verdict == "accepted", (submission_id, done.verdict, done.message)
    # What failed to start or to be removed while the engine stopped is removed once it is back.
    cleared = _wait_none_stopped(engine)
    print(f"\nengine away {away:.1f} s; no stopped container {cleared:.1f} s after the last verdict")


def test_a_killed_workers_containers_are_swept_by_an_idle_worker(
        workers: Workers, engine: SecondEngine, tmp_path: Path) -> None:
    doomed = workers.start(DOCKER_HOST=engine.url, JUDGE_LEASE_SECONDS="3")
    [submission_id] = _queued(code=SLOW_REFERENCE)
    workers.send(submission_id)
    _wait(submission_id, lambda r: r.status == SubmissionStatus.RUNNING, timeout=60)
    workers.kill(doomed)  # its run's container and its warm ones end by themselves, stopped
    # Another worker, on a queue of its own: it never gets a task, and still sweeps.
    idle = Workers(tmp_path / "idle")
    idle.folder.mkdir()
    try:
        idle.start(DOCKER_HOST=engine.url, JUDGE_SANDBOX_SWEEP_SECONDS="1",
                   JUDGE_SANDBOX_ABANDONED_SECONDS="3", JUDGE_WARM_POOL_SIZE="0")
        cleared = _wait_none_stopped(engine)
    finally:
        idle.stop_all()
    print(f"\nthe killed worker's containers were gone {cleared:.1f} s after the idle worker started")
    try:
        done = _wait(submission_id, lambda r: r.status == SubmissionStatus.DONE, timeout=60)
    except AssertionError:
        # Stopping the idle worker signals its whole process group: a pool process that was
        # between its recovery's commit and the message it sends ends there, or its message
        # waits on the idle worker's own queue, which nobody reads now. The row waits queued for
        # the requeue sweep, which this session runs only after 300 s (tests/utils/service_env.py).
        # Send it as that sweep would, to a worker that reads this test's queue (the doomed one
        # read it; nobody does since).
        if stored_row(submission_id).status != SubmissionStatus.QUEUED:
            raise
        workers.start(DOCKER_HOST=engine.url)
        workers.send(submission_id)
        done = _wait(submission_id, lambda r: r.status == SubmissionStatus.DONE, timeout=120)
    # Taken over once its lease expired: by the session's worker, or first by the idle one's
    # recovery beat, whose run then ends with it (a third claim). What counts is one verdict.
    assert done.verdict == "accepted" and done.attempts >= 2


def test_a_worker_sweeps_while_idle_and_while_judging(workers: Workers, engine: SecondEngine,
                                                      docker_sandbox: DockerSandbox) -> None:
    workers.start(DOCKER_HOST=engine.url, JUDGE_SANDBOX_SWEEP_SECONDS="1", JUDGE_WARM_POOL_SIZE="0")
    idle_one = _leftover(engine, docker_sandbox.image)
    deadline = time.monotonic() + GONE_WITHIN
    while _exists(engine, idle_one):
        assert time.monotonic() < deadline, "an idle worker did not sweep"
        time.sleep(0.2)
    [submission_id] = _queued(code=SLOW_REFERENCE)
    workers.send(submission_id)
    _wait(submission_id, lambda r: r.status == SubmissionStatus.RUNNING, timeout=60)
    busy_one = _leftover(engine, docker_sandbox.image)
    while _exists(engine, busy_one):
        assert stored_row(submission_id).status == SubmissionStatus.RUNNING, "not swept while judging"
        time.sleep(0.2)
    done = _wait(submission_id, lambda r: r.status == SubmissionStatus.DONE, timeout=60)
    assert done.verdict == "accepted"
