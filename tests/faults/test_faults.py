"""Faults staged against real services: the engine cut off, a sandbox killed from outside, a
worker killed mid-run, a broker restarted empty. Each must end with every submission done, with
its right verdict, judged once, and no fault turned into a verdict.

The faults never touch the machine's shared services: the engine is cut behind a Unix-socket
proxy, and the broker that restarts is a private redis-server on a free port.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import docker
import pytest
from fastapi.testclient import TestClient

from sandbox.docker_runner import LABEL, DockerSandbox
from service.db.models import Submission, SubmissionStatus
from tests.utils.containers import this_sessions
from tests.utils.fault_workers import Workers
from tests.utils.service import SLOW_REFERENCE, store_submission, stored_row, submit, wait_done
from tests.utils.service_fixtures import Tokens
from tests.utils.socket_proxy import SocketProxy

pytestmark = pytest.mark.docker



@pytest.fixture
def workers(client: TestClient, tmp_path: Path) -> Iterator[Workers]:
    pool = Workers(tmp_path)
    yield pool
    pool.stop_all()


def _wait(submission_id: int, until: Callable[[Submission], bool], timeout: float) -> Submission:
    deadline = time.monotonic() + timeout
    while True:
        row = stored_row(submission_id)
        if until(row):
            return row
        assert time.monotonic() < deadline, f"submission {submission_id}: {row.status}"
        time.sleep(0.2)


def _queued(count: int = 1, code: str | None = None) -> list[int]:
    """Queued rows, never sent to any broker: the test decides where they go."""
    extra = {"code": code} if code else {}
    return [store_submission(status=SubmissionStatus.QUEUED, mode="submit", **extra)
            for _ in range(count)]


# Past the first 63 s of back-off (1 + 2 + ... + 32), so that a task that slept its back-off out
# would sleep on up to a minute after the engine's return.
ENGINE_OUTAGE_SECONDS = 70
# An outage of T seconds costs about T: the three verdicts come within this long of the return.
JUDGED_AFTER_RETURN_WITHIN = 25.0


def test_an_engine_outage_is_waited_out(workers: Workers, tokens: Tokens, client: TestClient,
                                        tmp_path: Path) -> None:
    proxy = SocketProxy(tmp_path / "engine.sock")
    proxy.cut()
    workers.start(DOCKER_HOST=proxy.url)  # a fresh worker that has never seen the engine
    ids = _queued(3)
    for submission_id in ids:
        workers.send(submission_id)
    for _ in range(ENGINE_OUTAGE_SECONDS // 14):  # looked at all through the outage, not only at its end
        time.sleep(14)
        for submission_id in ids:
            row = stored_row(submission_id)
            assert row.status == SubmissionStatus.QUEUED and row.attempts == 0 and row.verdict is None
        assert client.get("/healthz").status_code == 200
    proxy.restore()
    returned = time.monotonic()
    for submission_id in ids:
        done = _wait(submission_id, lambda r: r.status == SubmissionStatus.DONE, timeout=120)
        assert done.verdict == "accepted" and done.attempts == 1
    cost = time.monotonic() - returned
    print(f"\nan engine outage of {ENGINE_OUTAGE_SECONDS} s: the last of 3 verdicts {cost:.1f} s after its return")
    assert cost < JUDGED_AFTER_RETURN_WITHIN, "the waiting tasks slept on after the engine was back"


def test_a_worker_started_while_the_engine_is_down_waits_for_it(
        workers: Workers, tokens: Tokens, client: TestClient, tmp_path: Path) -> None:
    proxy = SocketProxy(tmp_path / "engine.sock")
    proxy.cut()
    judge_worker = [sys.executable, "-m", "service.cli", "worker", "--concurrency", "1"]
    process = workers.start(judge_worker, ready=False, DOCKER_HOST=proxy.url)
    log = workers.log(process)
    deadline = time.monotonic() + 60
    while b"waiting for the Docker engine" not in log.read_bytes():
        assert process.poll() is None, log.read_text()  # it used to exit with status 2 here
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.2)
    time.sleep(3)
    assert process.poll() is None and b"ready." not in log.read_bytes(), log.read_text()
    proxy.restore()
    workers.wait_ready(process)  # it answers: the worker builds nothing new and consumes
    [submission_id] = _queued()
    workers.send(submission_id)
    done = _wait(submission_id, lambda r: r.status == SubmissionStatus.DONE, timeout=60)
    assert done.verdict == "accepted" and done.attempts == 1


def test_a_sandbox_killed_from_outside_is_the_judges_failure(
        client: TestClient, tokens: Tokens, docker_sandbox: DockerSandbox) -> None:
    created = submit(client, tokens.learner, SLOW_REFERENCE)
    _wait(created["id"], lambda r: r.status == SubmissionStatus.RUNNING, timeout=60)
    time.sleep(1.0)  # in the middle of its run (5 tests of 0.6 s)
    killed = 0
    for container in this_sessions(docker_sandbox.client.api.containers(filters={"label": LABEL})):
        with contextlib.suppress(docker.errors.NotFound, docker.errors.APIError):
            docker_sandbox.client.api.kill(container["Id"])
            killed += 1
    assert killed, "no running sandbox container was seen"
    done = wait_done(client, tokens.learner, created["id"], timeout=120)
    # Retried in a fresh container, never the learner's runtime_error.
    assert done["verdict"] == "accepted"
    assert stored_row(created["id"]).attempts == 2


def test_a_worker_killed_mid_run_is_taken_over_once_its_lease_expires(
        workers: Workers, client: TestClient, tokens: Tokens) -> None:
    doomed = workers.start(JUDGE_LEASE_SECONDS="3")
    [submission_id] = _queued(code=SLOW_REFERENCE)
    workers.send(submission_id)
    _wait(submission_id, lambda r: r.status == SubmissionStatus.RUNNING, timeout=60)
    workers.kill(doomed)
    # The session's worker runs the recovery beat: it takes over the expired lease.
    done = _wait(submission_id, lambda r: r.status == SubmissionStatus.DONE, timeout=120)
    assert done.verdict == "accepted" and done.attempts == 2


def test_a_run_longer_than_its_lease_is_judged_once(workers: Workers, client: TestClient,
                                                   tokens: Tokens) -> None:
    """The heartbeat keeps the claim alive: the recovery beat (every second, in the session's
    worker) never takes over a run that is still going, however long it takes."""
    workers.start(JUDGE_LEASE_SECONDS="1")
    [submission_id] = _queued(code=SLOW_REFERENCE)  # about 3 s: three leases
    workers.send(submission_id)
    done = _wait(submission_id, lambda r: r.status == SubmissionStatus.DONE, timeout=60)
    assert done.verdict == "accepted" and done.attempts == 1


def test_a_broker_restarted_empty_loses_no_submission(
        workers: Workers, client: TestClient, tokens: Tokens,
        private_redis: Callable[[], str]) -> None:
    url = private_redis()
    ids = _queued(3)
    for submission_id in ids:
        workers.send(submission_id, broker_url=url)
    url = private_redis()  # every message is gone; the rows are not
    workers.start(JUDGE_BROKER_URL=url, JUDGE_REQUEUE_AFTER_SECONDS="3")
    for submission_id in ids:
        done = _wait(submission_id, lambda r: r.status == SubmissionStatus.DONE, timeout=120)
        assert done.verdict == "accepted" and done.attempts == 1

