"""The Celery application. Redis in production; a file-system transport on the embedded default,
so that one machine needs no broker server.

Queues, consumed in this order: ``run`` (public tests, a learner waiting at the keyboard),
``submit``, ``background`` (rejudges and validations) and ``recovery`` (the beat's re-queueing,
which must never wait behind a judging backlog). The database is the source of truth; a message
is only a hint that a row wants work, so a lost message costs a delay, never a submission.
"""

from __future__ import annotations

from celery import Celery

from judge.settings import Settings, get_settings

GRADE_TASK = "judge.grade_submission"
VALIDATE_TASK = "judge.validate_version"
RECOVER_TASK = "judge.recover_stale"

RUN_QUEUE, SUBMIT_QUEUE, BACKGROUND_QUEUE, RECOVERY_QUEUE = "run", "submit", "background", "recovery"
QUEUES = (RUN_QUEUE, SUBMIT_QUEUE, BACKGROUND_QUEUE, RECOVERY_QUEUE)


def make_celery(settings: Settings) -> Celery:
    url = settings.resolved_broker_url()
    app = Celery("judge", broker=url, include=["judge.tasks"])
    options: dict[str, object] = {}
    if url.startswith("filesystem://"):
        folder = settings.broker_folder
        (folder / "processed").mkdir(parents=True, exist_ok=True)
        options = {
            "data_folder_in": str(folder),
            "data_folder_out": str(folder),
            "processed_folder": str(folder / "processed"),
            "polling_interval": 0.2,
        }
    else:
        options = {"queue_order_strategy": "priority"}  # Redis: always the first non-empty queue
    app.conf.update(
        broker_transport_options=options,
        task_acks_late=True,  # tasks are idempotent: a redelivered one finds the claim
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_ignore_result=True,
        task_default_queue=SUBMIT_QUEUE,
        task_routes={RECOVER_TASK: {"queue": RECOVERY_QUEUE},
                     VALIDATE_TASK: {"queue": BACKGROUND_QUEUE}},
        broker_connection_retry_on_startup=True,
        worker_hijack_root_logger=False,
        beat_schedule={
            "recover-stale-submissions": {
                "task": RECOVER_TASK,
                "schedule": settings.recovery_interval_seconds,
            }
        },
        beat_schedule_filename=str(settings.data_dir / "celerybeat-schedule"),
    )
    return app


celery = make_celery(get_settings())


def enqueue_submission(submission_id: int, countdown: float = 0, queue: str = SUBMIT_QUEUE) -> None:
    celery.send_task(GRADE_TASK, args=[submission_id], countdown=countdown or None, queue=queue)


def enqueue_validation(version_id: int, countdown: float = 0) -> None:
    celery.send_task(VALIDATE_TASK, args=[version_id], countdown=countdown or None)
