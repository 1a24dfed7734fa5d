"""Celery tasks: thin. They take ids, open a session and call judge.jobs."""

from __future__ import annotations

from functools import lru_cache

from judge import jobs
from judge.celery_app import (
    GRADE_TASK,
    RECOVER_TASK,
    VALIDATE_TASK,
    celery,
    enqueue_submission,
    enqueue_validation,
)
from judge.db.session import new_session
from judge.sandboxes import docker_sandbox
from sandbox.interface import Sandbox


@lru_cache(maxsize=1)
def _sandbox() -> Sandbox:
    # One per worker process: connecting, sweeping and checking the image happen once.
    return docker_sandbox()


def worker_sandbox() -> Sandbox:
    try:
        return _sandbox()
    except Exception:
        _sandbox.cache_clear()  # the engine may come back: try again next time
        raise


@celery.task(name=GRADE_TASK, soft_time_limit=900, time_limit=960)
def grade_submission(submission_id: int) -> str:
    with new_session() as session:
        outcome = jobs.judge_submission(session, submission_id, worker_sandbox)
    if outcome is jobs.Outcome.RETRY:
        enqueue_submission(submission_id, countdown=2)
    return outcome.value


@celery.task(name=VALIDATE_TASK, soft_time_limit=1800, time_limit=1900)
def validate_version(version_id: int) -> str:
    with new_session() as session:
        outcome = jobs.validate_version(session, version_id, worker_sandbox)
    if outcome is jobs.Outcome.RETRY:
        enqueue_validation(version_id)
    return outcome.value


@celery.task(name=RECOVER_TASK)
def recover_stale() -> list[int]:
    with new_session() as session:
        ids = jobs.recover_stale(session)
    for submission_id in ids:
        enqueue_submission(submission_id)
    return ids
