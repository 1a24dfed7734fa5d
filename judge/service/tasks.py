"""Celery tasks: thin. They take ids, open a session and call judge.service.jobs.

Waiting out faults: when the sandbox is unavailable the task asks again later with a growing
delay, and a database error is retried the same way; neither spends one of the submission's
attempts (``judge.service.jobs``), so an outage delays verdicts and never becomes one.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from celery.signals import worker_init, worker_process_shutdown, worker_shutdown
from sqlalchemy.exc import DBAPIError

from judge.sandboxes import docker_sandbox
from judge.service import heartbeats, jobs, metrics
from judge.service.celery_app import (
    GRADE_TASK,
    QUEUES,
    RECOVER_TASK,
    VALIDATE_TASK,
    celery,
    enqueue_submission,
    enqueue_validation,
)
from judge.service.db.session import new_session
from judge.settings import get_settings
from sandbox.docker_runner import DockerSandbox
from sandbox.interface import Sandbox

MAX_BACKOFF = 60.0
# Past the validation's own budget (judge.validation cuts each run to the time left): only a
# sandbox that hangs beyond its wall clock meets this, and the version then says so.
VALIDATION_OVERRUN = 60.0
_ = heartbeats  # imported for its signal handlers: every worker writes its heartbeat


@lru_cache(maxsize=1)
def _sandbox() -> DockerSandbox:
    # One per worker process: connecting, sweeping and checking the image happen once, and its
    # pool of warm containers is this process's own (made lazily, after the fork).
    sandbox = docker_sandbox(pooled=True)
    if sandbox.pool is not None:
        sandbox.pool.observer = metrics.warm_pool_size  # the judge_warm_pool_containers gauge
    return sandbox


def worker_sandbox() -> Sandbox:
    try:
        return _sandbox()
    except Exception:
        _sandbox.cache_clear()  # the engine may come back: try again next time
        raise


@worker_process_shutdown.connect  # a prefork child leaving
@worker_shutdown.connect  # the main process (where tasks run under --pool solo or threads)
def _drain_warm_sandboxes(**_: Any) -> None:
    """Remove this process's idle warm containers (atexit does too, where it runs)."""
    if _sandbox.cache_info().currsize:
        _sandbox().close()


@worker_init.connect
def _yield_the_cpu_to_the_api(**_: Any) -> None:
    os.nice(get_settings().worker_niceness)  # the pool's processes inherit it


def backoff(retries: int) -> float:
    return float(min(MAX_BACKOFF, 2 ** retries))


@celery.task(name=GRADE_TASK, bind=True, soft_time_limit=900, time_limit=960, max_retries=None)
def grade_submission(task: Any, submission_id: int) -> str:
    try:
        with new_session() as session:
            outcome = jobs.judge_submission(session, submission_id, worker_sandbox)
    except DBAPIError as exc:  # the database went away: the row is still there, ask again later
        raise task.retry(exc=exc, countdown=backoff(task.request.retries)) from exc
    queue = task.request.delivery_info.get("routing_key") if task.request.delivery_info else None
    if outcome is jobs.JobResult.WAIT:
        raise task.retry(countdown=backoff(task.request.retries), queue=queue)
    if outcome is jobs.JobResult.RETRY:
        enqueue_submission(submission_id, countdown=2, queue=queue or "submit")
    return outcome.value


_BUDGET = get_settings().max_validation_seconds


@celery.task(name=VALIDATE_TASK, bind=True, soft_time_limit=_BUDGET + VALIDATION_OVERRUN,
             time_limit=_BUDGET + 2 * VALIDATION_OVERRUN, max_retries=None)
def validate_version(task: Any, version_id: int) -> str:
    queue = task.request.delivery_info.get("routing_key") if task.request.delivery_info else None
    if queue in QUEUES:  # a message left on a judging queue (sent by an older version): never here
        enqueue_validation(version_id)
        return "moved to the validation queue"
    try:
        with new_session() as session:
            try:
                outcome = jobs.validate_version(session, version_id, worker_sandbox)
            except SoftTimeLimitExceeded:
                outcome = jobs.validation_overran(session, version_id, _BUDGET)
    except DBAPIError as exc:
        raise task.retry(exc=exc, countdown=backoff(task.request.retries)) from exc
    if outcome is jobs.JobResult.WAIT:
        raise task.retry(countdown=backoff(task.request.retries))
    return outcome.value


@celery.task(name=RECOVER_TASK)
def recover_stale() -> list[int]:
    with new_session() as session:
        ids = jobs.recover_stale(session)
    for submission_id in ids:
        enqueue_submission(submission_id)
    return ids
