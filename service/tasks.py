"""Celery tasks: thin. They take ids, open a session and call service.jobs.

Waiting out faults: when the sandbox is unavailable the task waits until the engine answers again
(at most a growing delay), then asks again; a database error is retried after such a delay;
neither spends one of the submission's attempts (``service.jobs``), so an outage delays
verdicts and never becomes one.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from functools import lru_cache
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from celery.signals import worker_init, worker_process_init, worker_process_shutdown, worker_shutdown
from sqlalchemy.exc import DBAPIError

from judge.sandboxes import docker_sandbox
from sandbox.docker_runner import DockerSandbox, engine_answers, wait_for_engine
from sandbox.interface import Sandbox
from service import broker_memory, heartbeats, jobs, metrics, notification_mail
from service.celery_app import (
    DELIVER_TASK,
    GRADE_TASK,
    LTI_SCORE_TASK,
    MAIL_TASK,
    QUEUES,
    RECOVER_TASK,
    VALIDATE_TASK,
    celery,
    enqueue_submission,
    enqueue_validation,
    prepare_folders,
)
from service.db.session import new_session
from service.heap import freeze_start_up_objects
from service.lti import grades as lti_grades
from service.settings import get_settings
from service.webhooks import delivery, sweeper

MAX_BACKOFF = 60.0
# Past the validation's own budget (judge.validation cuts each run to the time left): only a
# sandbox that hangs beyond its wall clock meets this, and the version then says so.
VALIDATION_OVERRUN = 60.0
_ = heartbeats, sweeper  # imported for their signal handlers: heartbeats, the webhook sweep


def _validates() -> bool:
    """This process belongs to the validation worker (its node name, on the command line its
    pool processes inherit)."""
    return any(arg.startswith(f"{heartbeats.VALIDATION_NODE}@") for arg in sys.argv)


def _delivers_webhooks() -> bool:
    """This process belongs to the webhook worker, which has no Docker engine to open."""
    return any(arg.startswith(f"{heartbeats.WEBHOOK_NODE}@") for arg in sys.argv)


@lru_cache(maxsize=1)
def _sandbox() -> DockerSandbox:
    # One per worker process: connecting, sweeping and checking the image happen once, and its
    # pool of warm containers is this process's own (made lazily, after the fork). The validation
    # worker keeps none: nobody waits on a validation's first container, and containers kept
    # warm for it would hold engine resources that learners' runs use.
    sandbox = docker_sandbox(pooled=not _validates())
    if sandbox.pool is not None:
        sandbox.pool.observer = metrics.warm_pool_size  # the judge_warm_pool_containers gauge
    return sandbox


_opening = threading.Lock()  # one sandbox per process: the warm-up and a task never both make one
log = logging.getLogger(__name__)
WARM_UP_ASKS_EVERY = 5.0  # seconds between a warm-up's asks while the engine is away


def worker_sandbox() -> Sandbox:
    with _opening:
        try:
            return _sandbox()
        except Exception:
            _sandbox.cache_clear()  # the engine may come back: try again next time
            raise


def _open_when_the_engine_answers() -> None:
    while True:
        try:
            worker_sandbox()
            return
        except Exception as exc:
            log.warning("the sandbox is not ready yet: %s", (str(exc).splitlines() or [""])[0][:200])
        wait_for_engine(None, every=WARM_UP_ASKS_EVERY)


@worker_process_init.connect  # in each pool process, after the fork
def _open_the_sandbox_ahead(**_: Any) -> None:
    """Open this process's sandbox now, not at its first task: its janitor then sweeps the
    leftovers of killed workers on a timer even while this worker never gets a task. In a
    thread, so that the pool process's start (which Celery times) does not wait for the engine;
    an engine that is away is waited for."""
    if _delivers_webhooks():
        return
    threading.Thread(target=_open_when_the_engine_answers, daemon=True, name="sandbox-warm-up").start()


@worker_process_shutdown.connect  # a prefork child leaving
@worker_shutdown.connect  # the main process (where tasks run under --pool solo or threads)
def _drain_warm_sandboxes(**_: Any) -> None:
    """Remove this process's idle warm containers (atexit does too, where it runs)."""
    if _sandbox.cache_info().currsize:
        _sandbox().close()


@worker_init.connect
def _yield_the_cpu_to_the_api(**_: Any) -> None:
    os.nice(get_settings().worker_niceness)  # the pool's processes inherit it


@worker_init.connect
def _prepare_folders(sender: Any = None, **_: Any) -> None:
    prepare_folders(sender.app if sender is not None else celery)


@worker_init.connect
def _log_every_verdict(**_: Any) -> None:
    # The verdict lines pass whatever level the worker's log has (`judge serve` hides Celery's INFO).
    jobs.VERDICTS.setLevel(logging.INFO)


@worker_init.connect
def _start_metrics(**_: Any) -> None:
    """In the worker's main process, before its pool forks: the pool's processes inherit the
    metrics and their folder, and the main process (which runs the tasks under --pool threads)
    records as well."""
    metrics.start()
    port = get_settings().metrics_port
    if port is not None:
        metrics.serve(port)


@worker_init.connect  # in the main process, before its pool forks (the last of its start)
@worker_process_init.connect  # in each pool process, after the fork
def _freeze_start_up_objects(**_: Any) -> None:
    freeze_start_up_objects()


def backoff(retries: int) -> float:
    return float(min(MAX_BACKOFF, 2 ** retries))


def wait_out_the_engine(retries: int) -> float:
    """The countdown of the retry after the sandbox was unavailable.

    While the engine is away the task sleeps out its back-off here, but only until the engine
    answers again (asked once a second), and then retries at once: an outage of T seconds costs
    about T, where a countdown slept up to a minute past the engine's return. The message stays
    unacknowledged meanwhile (acks late), so a worker killed while waiting loses nothing. An
    engine that answers already failed for another reason (no image, no runtime): that waits
    out the back-off as a countdown, never a loop."""
    if engine_answers():
        return backoff(retries)
    wait_for_engine(backoff(retries))
    return 0.0


@celery.task(name=GRADE_TASK, bind=True, soft_time_limit=900, time_limit=960, max_retries=None)
def grade_submission(task: Any, submission_id: int, unconfirmed: dict[str, Any] | None = None) -> str:
    """Judge one submission; ``unconfirmed`` (only on a retry): the verdict whose commit raised."""
    carried = None if unconfirmed is None else jobs.StoredVerdict.from_json(unconfirmed)
    try:
        with new_session() as session:
            outcome = jobs.judge_submission(session, submission_id, worker_sandbox, carried)
    except jobs.VerdictUnconfirmed as exc:
        # The commit may have landed with only its reply lost: the retry carries what follows a
        # stored verdict (its count, its line, its announcement, its webhooks' messages), to do
        # it once should the row be done under this claim.
        raise task.retry(exc=exc, countdown=backoff(task.request.retries),
                         kwargs={"unconfirmed": exc.verdict.as_json()}) from exc
    except DBAPIError as exc:  # the database went away: the row is still there, ask again later
        raise task.retry(exc=exc, countdown=backoff(task.request.retries)) from exc
    queue = task.request.delivery_info.get("routing_key") if task.request.delivery_info else None
    if outcome is jobs.JobResult.WAIT:
        raise task.retry(countdown=wait_out_the_engine(task.request.retries), queue=queue)
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
                outcome = jobs.validate_version(session, version_id, worker_sandbox,
                                                let_through=(SoftTimeLimitExceeded,))
            except SoftTimeLimitExceeded:
                outcome = jobs.validation_overran(session, version_id, _BUDGET)
    except DBAPIError as exc:
        raise task.retry(exc=exc, countdown=backoff(task.request.retries)) from exc
    if outcome is jobs.JobResult.WAIT:
        raise task.retry(countdown=wait_out_the_engine(task.request.retries))
    return outcome.value


@celery.task(name=RECOVER_TASK)
def recover_stale() -> list[int]:
    forgot = broker_memory.forgot()
    try:
        with new_session() as session:
            ids = jobs.recover_stale(session, every_queued=forgot)
        for submission_id in ids:
            enqueue_submission(submission_id)
    except BaseException:
        if forgot:
            broker_memory.forget()  # so that the next recovery sends them all again
        raise
    if forgot and ids:  # (on a broker's first use there was nothing to lose)
        log.warning("the broker had lost its messages (restarted or flushed): %d queued "
                    "submission(s) sent again", len(ids))
    return ids


@celery.task(name=MAIL_TASK, soft_time_limit=60, time_limit=90)
def mail_notification(notification_id: int) -> str:
    # As for a webhook: a failure here loses nothing, the sweep sends the e-mail again.
    with new_session() as session:
        return notification_mail.deliver(session, notification_id)


@celery.task(name=LTI_SCORE_TASK, soft_time_limit=60, time_limit=90)
def send_lti_score(sync_id: int) -> str:
    # As for an e-mail: a failure here loses nothing, the sweep sends the grade again.
    with new_session() as session:
        return lti_grades.deliver(session, sync_id)


@celery.task(name=DELIVER_TASK, soft_time_limit=60, time_limit=90)
def deliver_webhook(delivery_id: int) -> str:
    # A failure here (the database away) loses nothing: the sweep sends the delivery again.
    with new_session() as session:
        return delivery.deliver(session, delivery_id).value
