"""Authoring never delays judging: drafts are validated by a worker of their own, each version
within a cap on its whole validation's wall clock, and an upload has at most so many wrong
solutions.

The session's workers (tests/utils/service_fixtures.py) are the judging worker (two slots) and
the validation worker (one), as `judge serve` and compose run them. Two drafts whose reference
sleeps would hold both judging slots for a quarter of a minute if validations shared them; a
learner's run must be judged while they are still being validated. The caps are tested on a
lane of their own: two workers on a broker key prefix no other worker reads, the validation one
with a budget of a few seconds.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import docker.errors
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from judge.validation import VALIDATION_CPU_WEIGHT
from sandbox.docker_runner import LABEL, DockerSandbox
from service.catalog import add_version
from service.celery_app import (
    BACKGROUND_QUEUE,
    QUEUES,
    VALIDATE_TASK,
    VALIDATION_QUEUE,
    celery,
    make_celery,
)
from service.cli import validation_worker_command, worker_command
from service.db.models import ProblemRow, ProblemVersion, User, VersionStatus
from service.db.session import new_session, session_scope
from service.settings import Settings, get_settings
from tests.utils import service_env
from tests.utils.containers import this_sessions
from tests.utils.service import REFERENCE, bearer, submit, wait_done, wait_version
from tests.utils.service_fixtures import VALIDATION_WORKER_LOG, WORKER_LOG, Tokens, problem_files

pytestmark = pytest.mark.docker

SLEEP = 1.5  # a second and a half for each of 5 tests: a reference run takes 7.5 s or more
SLEEPY_REFERENCE = (
    "import time\n"
    "SECRETS = {'a': 'zq-secret-101', 'b': 'zq-secret-102', 'hidden-key-c': 'zq-secret-203',\n"
    "           'hidden-key-d': 'zq-secret-204', 'hidden-key-e': 'zq-secret-205'}\n"
    f"def lookup(key):\n    time.sleep({SLEEP})\n    return SECRETS[key]\n"
)
VALIDATE_RECEIVED = re.compile(r"Task judge\.validate_version\[[0-9a-f-]+\] received")


def sleepy_files(slug: str) -> dict[str, str]:
    """secret_lookup under another slug, its reference asleep in every test (within its limit)."""
    files = problem_files(slug, **{"reference.py": SLEEPY_REFERENCE})
    files["problem.toml"] = files["problem.toml"].replace("time_per_test = 1.0", "time_per_test = 2.0")
    assert "time_per_test = 2.0" in files["problem.toml"]
    return files


def _log(name: str) -> str:
    return (Path(get_settings().data_dir) / name).read_text(errors="replace")


def _validations_received() -> int:
    return sum(len(VALIDATE_RECEIVED.findall(_log(name))) for name in (WORKER_LOG, VALIDATION_WORKER_LOG))


def _statuses(client: TestClient, token: str, slugs: list[str]) -> dict[str, str]:
    found = {}
    for slug in slugs:
        response = client.get(f"/api/v1/problems/{slug}/versions", headers=bearer(token))
        assert response.status_code == 200, response.text
        found[slug] = response.json()[-1]["status"]
    return found


def test_validations_are_routed_to_a_queue_no_judging_worker_consumes() -> None:
    assert celery.amqp.router.route({}, VALIDATE_TASK)["queue"].name == VALIDATION_QUEUE
    judging = worker_command(2)
    assert VALIDATION_QUEUE not in judging[judging.index("-Q") + 1].split(",")
    validating = validation_worker_command(1)
    assert validating[validating.index("-Q") + 1] == VALIDATION_QUEUE and "-B" not in validating
    assert VALIDATION_QUEUE not in QUEUES


def _validation_containers(sandbox: DockerSandbox) -> int:
    """Running sandbox containers of this session's workers with the validations' CPU weight
    (a learner's have Docker's)."""
    ours = {c["Id"] for c in this_sessions(sandbox.client.api.containers(filters={"label": LABEL}))}
    shares = []
    for container_id in ours:
        with contextlib.suppress(docker.errors.NotFound):  # it ended since it was listed
            shares.append(sandbox.client.api.inspect_container(container_id)["HostConfig"]["CpuShares"])
    return shares.count(VALIDATION_CPU_WEIGHT)


def test_a_learners_run_is_judged_while_two_slow_validations_go_on(
        client: TestClient, tokens: Tokens, docker_sandbox: DockerSandbox) -> None:
    idle_started = time.monotonic()
    assert wait_done(client, tokens.learner, submit(client, tokens.learner, REFERENCE, mode="run")["id"],
                     timeout=120)["verdict"] == "accepted"
    idle = time.monotonic() - idle_started

    tag = uuid.uuid4().hex[:6]
    slugs = [f"sleepy_{tag}_{n}" for n in range(2)]
    before = _validations_received()
    for slug in slugs:
        response = client.post("/api/v1/problems", headers=bearer(tokens.instructor),
                               json={"slug": slug, "files": sleepy_files(slug)})
        assert response.status_code == 201, response.text
    deadline = time.monotonic() + 60
    while _validations_received() == before:  # a worker is at it: the reference sleeps now
        assert time.monotonic() < deadline, "no worker took the validations"
        time.sleep(0.1)
    time.sleep(0.5)

    busy_started = time.monotonic()
    run = submit(client, tokens.learner, REFERENCE, mode="run")
    assert wait_done(client, tokens.learner, run["id"], timeout=120)["verdict"] == "accepted"
    busy = time.monotonic() - busy_started
    # The validation's container yields the CPU to learners' (it sleeps here; a spinning one
    # would take only what judging leaves: benchmarks/validation_isolation.py --kind spin).
    assert _validation_containers(docker_sandbox) >= 1
    # Judged before either validation could end (each sleeps 15 s or more in its reference).
    during = _statuses(client, tokens.instructor, slugs)
    print(f"\na learner's run: {idle:.2f} s idle, {busy:.2f} s with two slow validations going")
    assert during == dict.fromkeys(slugs, "draft"), during

    for slug in slugs:
        assert wait_version(client, tokens.instructor, slug, timeout=180)["status"] == "valid"
    assert not VALIDATE_RECEIVED.search(_log(WORKER_LOG))
    assert len(VALIDATE_RECEIVED.findall(_log(VALIDATION_WORKER_LOG))) >= 2


def test_an_upload_with_more_wrong_solutions_than_the_cap_is_refused(
        client: TestClient, tokens: Tokens) -> None:
    cap = get_settings().max_wrong_solutions
    slug = f"many_wrong_{uuid.uuid4().hex[:6]}"
    wrong = {f"wrong/spin_{n:02d}.py": "# verdict: time_limit_exceeded\ndef lookup(key):\n"
             "    while True:\n        pass\n" for n in range(cap + 1 - 2)}  # the fixture has 2
    files = problem_files(slug, **wrong)
    response = client.post("/api/v1/problems", headers=bearer(tokens.instructor),
                           json={"slug": slug, "files": files})
    assert response.status_code == 422, response.text
    message = response.json()["error"]["message"]
    assert f"{cap + 1} wrong solutions" in message and f"at most {cap}" in message, message
    assert client.get(f"/api/v1/problems/{slug}", headers=bearer(tokens.instructor)).status_code == 404
    # One fewer is an ordinary upload.
    files.pop(f"wrong/spin_{cap - 2:02d}.py")
    response = client.post("/api/v1/problems", headers=bearer(tokens.instructor),
                           json={"slug": slug, "files": files})
    assert response.status_code == 201, response.text


BUDGET = 4.0


@dataclass(frozen=True)
class Lane:
    """A judging worker and a validation worker (budget BUDGET s) on a key prefix of their own."""

    prefix: str
    judging_log: Path
    validation_log: Path

    def send(self, version_id: int, queue: str) -> None:
        sender = make_celery(Settings(broker_key_prefix=self.prefix))
        try:
            sender.send_task(VALIDATE_TASK, args=[version_id], queue=queue)
        finally:
            sender.close()
            celery.set_current()  # a new app makes itself the current one: give the place back


def _start(command: list[str], log: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    with log.open("wb") as sink:
        process = subprocess.Popen(command, env=env, stdout=sink, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 90
    while b"ready." not in log.read_bytes():
        assert process.poll() is None, log.read_text(errors="replace")
        assert time.monotonic() < deadline, "a worker did not start:\n" + log.read_text(errors="replace")
        time.sleep(0.2)
    return process


@pytest.fixture(scope="module")
def lane(docker_sandbox: DockerSandbox, client: TestClient,
         tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lane]:
    folder = tmp_path_factory.mktemp("validation-lane")
    prefix = f"judge-validation-{uuid.uuid4().hex[:10]}:"
    env = {**os.environ, "JUDGE_BROKER_KEY_PREFIX": prefix, "JUDGE_DATA_DIR": str(folder),
           # This lane's beat must not take over the session's rows.
           "JUDGE_RECOVERY_INTERVAL_SECONDS": "3600", "JUDGE_REQUEUE_AFTER_SECONDS": "3600"}
    started: list[subprocess.Popen[bytes]] = []
    try:
        started.append(_start(worker_command(1), folder / "judging.log", env))
        started.append(_start(validation_worker_command(1), folder / "validation.log",
                              {**env, "JUDGE_MAX_VALIDATION_SECONDS": str(BUDGET)}))
        yield Lane(prefix, folder / "judging.log", folder / "validation.log")
    finally:
        for process in reversed(started):
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        service_env.drop_broker_keys(prefix)


def _stored_draft(owner: str, files: dict[str, str], slug: str) -> int:
    """A draft version written straight to the database, never sent to the session's broker."""
    with session_scope() as session:
        user = session.scalar(select(User).where(User.name == owner))
        assert user is not None
        row = ProblemRow(slug=slug, owner_id=user.id)
        session.add(row)
        session.flush()
        version, created = add_version(session, row, files)
        assert created
        return version.id


def _validated(version_id: int, timeout: float = 120) -> ProblemVersion:
    deadline = time.monotonic() + timeout
    while True:
        with new_session() as session:
            version = session.get(ProblemVersion, version_id)
            assert version is not None
            if version.status != VersionStatus.DRAFT:
                session.expunge(version)
                return version
        assert time.monotonic() < deadline, f"version {version_id} was not validated"
        time.sleep(0.2)


@pytest.mark.parametrize("queue", [VALIDATION_QUEUE, BACKGROUND_QUEUE],
                         ids=["sent-to-validation", "left-on-a-judging-queue"])
def test_a_validation_over_its_time_cap_ends_invalid_saying_so(lane: Lane, tokens: Tokens, queue: str) -> None:
    # A message on a judging queue (as an older release sent them) is moved, not validated there:
    # only the validation worker (with its cap of BUDGET s) can have ended this one.
    slug = f"overrun_{uuid.uuid4().hex[:6]}"
    version_id = _stored_draft("test-instructor", sleepy_files(slug), slug)
    started = time.monotonic()
    lane.send(version_id, queue)
    version = _validated(version_id)
    took = time.monotonic() - started
    print(f"\nthe validation was ended {took:.1f} s after it was sent (budget {BUDGET:g} s)")
    assert version.status == VersionStatus.INVALID
    assert version.validation is not None
    [failure] = version.validation["failures"]
    assert f"validation took over {BUDGET:g} s" in failure, failure
    assert "stopped at the reference's first run; 2 of 2 wrong solutions not checked" in failure, failure
    # Ended at the cap, not after the 15 s the reference's two runs would sleep.
    assert took < 2 * SLEEP * 5, took
    judging = lane.judging_log.read_text(errors="replace")
    if queue == BACKGROUND_QUEUE:
        assert "moved to the validation queue" in judging, judging
    else:
        assert not VALIDATE_RECEIVED.search(judging), judging
