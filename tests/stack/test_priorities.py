"""Queues are consumed in priority order: run > submit > background (> recovery).

One real worker of concurrency 1 on Redis (``queue_order_strategy: priority``, the worker's
``-Q run,submit,background,recovery``), and an API server beside it, both on a broker key prefix
of their own, so that no other worker of the session takes these messages. A backlog of 30
background rejudges is queued (the first one slow, so the worker is busy with it); then a learner
submits twice, then runs twice. Both runs must be judged next, then both submissions, and only
then the rest of the backlog: after at most two background ones, none in between.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import httpx
import pytest

from sandbox.docker_runner import DockerSandbox
from service.celery_app import BACKGROUND_QUEUE, GRADE_TASK, RECOVER_TASK, celery, make_celery
from service.cli import worker_command
from service.db.models import Role, Submission, SubmissionStatus
from service.db.session import new_session, session_scope
from service.settings import Settings, get_settings
from service.users import create_user
from tests.utils import service_env
from tests.utils.service import REFERENCE, SLOW_REFERENCE, bearer, store_submission, wait_done
from tests.utils.service_fixtures import free_port

pytestmark = pytest.mark.docker

BACKLOG = 30
AHEAD_AT_MOST = 2  # background rejudges that may finish before the learner's submissions


@dataclass(frozen=True)
class Lane:
    """An API server and a worker of concurrency 1 on a broker key prefix of their own."""

    base: str
    prefix: str
    worker_log: Path


def _wait_for(what: str, ready: Callable[[], bool], process: subprocess.Popen[bytes], log: Path,
              timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        assert process.poll() is None, log.read_text(errors="replace")
        assert time.monotonic() < deadline, f"{what} did not start:\n" + log.read_text(errors="replace")
        time.sleep(0.2)


def _recovered(log: Path) -> bool:
    return any(RECOVER_TASK.encode() + b"[" in line and b"succeeded" in line
               for line in log.read_bytes().splitlines())


def _healthy(base: str) -> bool:
    try:
        return httpx.get(f"{base}/healthz", timeout=5).status_code == 200
    except httpx.TransportError:
        return False


@pytest.fixture
def lane(docker_sandbox: DockerSandbox, tmp_path: Path) -> Iterator[Lane]:
    settings = get_settings()
    if not settings.resolved_broker_url().startswith("redis"):
        pytest.skip("priority order is the Redis transport's (the file-system broker has none)")
    prefix = f"judge-priorities-{uuid.uuid4().hex[:10]}:"
    env = {**os.environ, "JUDGE_BROKER_KEY_PREFIX": prefix, "JUDGE_DATA_DIR": str(tmp_path),
           "JUDGE_DATABASE_URL": settings.resolved_database_url(),
           # This worker's beat must not re-queue the backlog into the session's queues meanwhile.
           "JUDGE_RECOVERY_INTERVAL_SECONDS": "3600", "JUDGE_REQUEUE_AFTER_SECONDS": "3600"}
    port = free_port()
    api_log, worker_log = tmp_path / "api.log", tmp_path / "worker.log"
    started: list[subprocess.Popen[bytes]] = []
    try:
        with api_log.open("wb") as sink:  # start-up runs the migrations and syncs the problems
            api = subprocess.Popen([sys.executable, "-m", "uvicorn", "api.main:app", "--port", str(port),
                                    "--log-level", "warning"], env=env, stdout=sink, stderr=subprocess.STDOUT)
        started.append(api)
        base = f"http://127.0.0.1:{port}"
        _wait_for("the API", lambda: _healthy(base), api, api_log)
        with worker_log.open("wb") as sink:
            worker = subprocess.Popen(worker_command(1), env=env, stdout=sink, stderr=subprocess.STDOUT)
        started.append(worker)
        _wait_for("the worker", lambda: b"ready." in worker_log.read_bytes(), worker, worker_log)
        # A worker sends a recovery when it connects, and on a broker prefix it has never seen
        # that recovery sends every queued row again, on the submit queue. Were it to run while
        # the test stores the backlog (rows queued before their messages are sent, as a rejudge
        # leaves them), the rows stored so far would be queued twice, once ahead of the
        # learner's submissions: the order seen under load (a background one between the
        # learner's runs and its submissions). The test starts once it has run.
        _wait_for("the worker's first recovery", lambda: _recovered(worker_log), worker, worker_log)
        yield Lane(base, prefix, worker_log)
    finally:
        for process in reversed(started):
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        service_env.drop_broker_keys(prefix)


def _finished(ids: list[int], timeout: float = 150) -> dict[int, datetime]:
    deadline = time.monotonic() + timeout
    while True:
        with new_session() as session:
            rows = session.query(Submission.id, Submission.status, Submission.finished_at).filter(
                Submission.id.in_(ids)).all()
        done = {row.id: row.finished_at for row in rows if row.status == SubmissionStatus.DONE}
        if len(done) == len(ids):
            return done
        assert time.monotonic() < deadline, f"{len(ids) - len(done)} of {len(ids)} not judged"
        time.sleep(0.5)


def test_a_learners_run_and_submission_overtake_a_rejudge_backlog(lane: Lane) -> None:
    tag = uuid.uuid4().hex[:8]
    with session_scope() as session:
        learner = create_user(session, f"priority-learner-{tag}", Role.LEARNER)[1]
        create_user(session, f"priority-backlog-{tag}", Role.LEARNER)
    # The backlog, as a rejudge leaves it: rows queued again, one message each on `background`.
    # The first is slow (about 3 s), so the worker is still on it when the learner arrives.
    backlog = [store_submission(user=f"priority-backlog-{tag}", mode="submit", status=SubmissionStatus.QUEUED,
                                code=SLOW_REFERENCE if n == 0 else REFERENCE) for n in range(BACKLOG)]
    sender = make_celery(Settings(broker_key_prefix=lane.prefix))
    try:
        for submission_id in backlog:
            sender.send_task(GRADE_TASK, args=[submission_id], queue=BACKGROUND_QUEUE)
    finally:
        sender.close()
        celery.set_current()  # a new app makes itself the current one: give the place back
    time.sleep(0.5)  # the worker has taken the slow one

    with httpx.Client(base_url=lane.base, headers=bearer(learner), timeout=60) as http:
        mine: dict[int, str] = {}
        for mode in ("submit", "submit", "run", "run"):  # the runs are queued last, yet come first
            response = http.post("/api/v1/submissions",
                                 json={"problem": "secret_lookup", "code": REFERENCE, "mode": mode})
            assert response.status_code == 202, response.text
            mine[response.json()["id"]] = mode.upper()
        for submission_id, mode in mine.items():
            assert wait_done(http, learner, submission_id, timeout=120)["verdict"] == "accepted", mode

    finished = _finished([*backlog, *mine])
    order = sorted(finished, key=lambda submission_id: finished[submission_id])
    sequence = [mine.get(submission_id, "bg") for submission_id in order]
    print(f"\norder of verdicts (one worker, concurrency 1): {' '.join(sequence)}")
    assert order[0] == backlog[0], sequence  # the one in progress when the learner came
    learners = [position for position, label in enumerate(sequence) if label != "bg"]
    # Priority, not FIFO (the backlog first) nor round robin (a background one between each):
    # both runs, then both submissions, together, after at most two background ones.
    assert [sequence[p] for p in learners] == ["RUN", "RUN", "SUBMIT", "SUBMIT"], sequence
    assert learners == list(range(learners[0], learners[0] + 4)), sequence
    assert learners[0] <= AHEAD_AT_MOST, sequence
