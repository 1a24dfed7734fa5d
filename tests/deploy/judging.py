"""Submissions with known verdicts, sent to a key prefix that only a test's own workers read, and
what the database says of them afterwards."""

from __future__ import annotations

import os
import re
import subprocess
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import select

from judge.problems import load_problem
from service.celery_app import GRADE_TASK, make_celery
from service.cli import worker_command
from service.db.models import ProblemRow, Submission, SubmissionStatus, TestResultRow, User
from service.db.session import new_session, session_scope
from service.settings import get_settings
from tests.utils.service_env import FIXTURE_PROBLEMS

PROBLEM = "secret_lookup"
FOLDER = FIXTURE_PROBLEMS / PROBLEM
CODES = {
    "accepted": (FOLDER / "reference.py").read_text(),
    "wrong_answer": (FOLDER / "wrong" / "guess.py").read_text(),
    "runtime_error": "def lookup(key):\n    raise LookupError(key)\n",
}
TASK_RECEIVED = re.compile(r"Task " + re.escape(GRADE_TASK) + r"\[([^\]]+)\] received")


def private_prefix(name: str) -> str:
    """A Redis key prefix no other worker reads (the session's worker, other test runs)."""
    return f"deploy-{name}-{uuid.uuid4().hex[:10]}:"


def stage(user: str, verdicts: list[str]) -> dict[int, str]:
    """Queued rows, one per wanted verdict, never sent anywhere yet: id -> the verdict it must get."""
    with session_scope() as session:
        owner = session.scalar(select(User).where(User.name == user))
        problem = session.scalar(select(ProblemRow).where(ProblemRow.slug == PROBLEM))
        assert owner is not None and problem is not None and problem.published_version_id is not None
        rows = [Submission(user_id=owner.id, problem_id=problem.id, version_id=problem.published_version_id,
                           mode="submit", code=CODES[verdict], status=SubmissionStatus.QUEUED)
                for verdict in verdicts]
        session.add_all(rows)
        session.flush()
        return {row.id: verdict for row, verdict in zip(rows, verdicts, strict=True)}


def send(ids: list[int], prefix: str) -> dict[str, int]:
    """One grade task per row on the submit queue under prefix; task id -> submission id."""
    app = make_celery(get_settings().model_copy(update={"broker_key_prefix": prefix}))
    sent = {}
    try:
        for submission_id in ids:
            task_id = f"deploy-{submission_id}-{uuid.uuid4().hex[:8]}"
            app.send_task(GRADE_TASK, args=[submission_id], queue="submit", task_id=task_id)
            sent[task_id] = submission_id
    finally:
        app.close()
    return sent


@dataclass(frozen=True)
class Outcome:
    status: str
    verdict: str | None
    attempts: int
    positions: list[int]  # of its stored test results


def wait_done(ids: list[int], timeout: float) -> dict[int, Outcome]:
    deadline = time.monotonic() + timeout
    while True:
        with new_session() as session:
            rows = session.scalars(select(Submission).where(Submission.id.in_(ids))).all()
            pending = [row.id for row in rows if row.status != SubmissionStatus.DONE]
            if not pending:
                positions: dict[int, list[int]] = {submission_id: [] for submission_id in ids}
                for submission_id, position in session.execute(
                        select(TestResultRow.submission_id, TestResultRow.position)
                        .where(TestResultRow.submission_id.in_(ids))):
                    positions[submission_id].append(position)
                return {row.id: Outcome(row.status, row.verdict, row.attempts, sorted(positions[row.id]))
                        for row in rows}
        assert time.monotonic() < deadline, f"{len(pending)} of {len(ids)} not judged: {pending}"
        time.sleep(0.3)


def cases_per_submission() -> int:
    problem = load_problem(FOLDER)
    return len(problem.public_tests) + len(problem.hidden_tests)


def start_worker(log: Path, concurrency: int, name: str, **env: str) -> subprocess.Popen[bytes]:
    """A Celery worker as `judge worker` runs it, but without the recovery beat (-B): in a database
    that other tests share, the beat could take over their stale rows and run sandboxes that
    would blur a count of containers per engine. Recovery has tests of its own (tests/stack,
    tests/faults)."""
    command = [part for part in worker_command(concurrency) if part != "-B"] + ["-n", f"{name}@%h"]
    with log.open("wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT,
                                   env={**os.environ, **env}, start_new_session=True)
    deadline = time.monotonic() + 90
    while b"ready." not in log.read_bytes():
        assert process.poll() is None, log.read_text()
        assert time.monotonic() < deadline, "the worker did not start:\n" + log.read_text()
        time.sleep(0.2)
    return process


def received(log: str) -> list[str]:
    """The ids of the grade tasks a worker received, in its log's order."""
    return TASK_RECEIVED.findall(log)
