"""The Celery application. Redis in production, and on the embedded default too: `judge serve`
starts a private redis-server on a Unix socket (``service.private_redis``) and points this app at it
with ``use_broker``. The file-system transport remains only as the fallback where no redis-server
is installed; it does not survive many concurrent writers.

Queues, consumed in this order: ``recovery`` (the beat's re-queueing: milliseconds, and it must
never wait behind a judging backlog), ``run`` (public tests, a learner waiting at the keyboard),
``submit``, and ``background`` (rejudges). Validations of authors' drafts go to ``validation``,
which only the validation worker consumes (``judge validation-worker``): an upload whose
solutions sleep for minutes then holds one of its slots, never one that judges learners.
Webhook deliveries (and notification e-mails, and LTI grades) go to ``webhooks``, which only the
webhook worker consumes (``judge
webhook-worker``): it posts to URLs that users chose, so it holds no Docker socket, and a slow
receiver holds one of its threads, never a judging or validating slot. The
database is the source of truth; a message is only a hint that a row wants work, so a lost message
costs a delay, never a submission.
"""

from __future__ import annotations

import logging
import os
import ssl
import warnings
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from celery import Celery, bootsteps
from celery.exceptions import SecurityWarning
from celery.signals import after_setup_logger, after_setup_task_logger, celeryd_init

from service.log_format import reformat
from service.settings import Settings, get_settings

GRADE_TASK = "judge.grade_submission"
VALIDATE_TASK = "judge.validate_version"
RECOVER_TASK = "judge.recover_stale"
DELIVER_TASK = "judge.deliver_webhook"
MAIL_TASK = "judge.mail_notification"
LTI_SCORE_TASK = "judge.send_lti_score"

RUN_QUEUE, SUBMIT_QUEUE, BACKGROUND_QUEUE, RECOVERY_QUEUE = "run", "submit", "background", "recovery"
VALIDATION_QUEUE = "validation"
WEBHOOK_QUEUE = "webhooks"
# The sandbox worker's, consumed first to last. Recovery's task takes milliseconds and must never
# wait behind a judging backlog, so it comes first; then a learner waiting at the keyboard, then
# submissions, then rejudges. Never the validation queue: that is the validation worker's alone.
QUEUES = (RECOVERY_QUEUE, RUN_QUEUE, SUBMIT_QUEUE, BACKGROUND_QUEUE)
ALL_QUEUES = (*QUEUES, VALIDATION_QUEUE, WEBHOOK_QUEUE)
# Messages are JSON, and only JSON is accepted: a message never runs code as it is decoded.
SERIALIZER = "json"


def transport_options(settings: Settings) -> dict[str, object]:
    url = settings.resolved_broker_url()
    if url.startswith("filesystem://"):
        folder = settings.broker_folder
        return {
            "data_folder_in": str(folder),
            "data_folder_out": str(folder),
            "processed_folder": str(folder / "processed"),
            "control_folder": str(folder / "control"),  # kombu's default is ./control
            "polling_interval": 0.2,
        }
    options: dict[str, object] = {"queue_order_strategy": "priority"}  # the first non-empty queue
    if settings.broker_key_prefix:
        options["global_keyprefix"] = settings.broker_key_prefix
    return options


log = logging.getLogger(__name__)


def _json_lines(logger: logging.Logger, **_: Any) -> None:
    """JSON lines in every worker when the settings ask for them (service.log_format)."""
    reformat(logger)


after_setup_logger.connect(_json_lines)
after_setup_task_logger.connect(_json_lines)


class RecoverOnConnect(bootsteps.StartStopStep):  # type: ignore[misc]  # Celery is untyped
    """A recovery sent each time a judging worker connects to its broker: when it starts, and
    when it is back after losing the broker (Celery tries at once, then after 2 s, 4, 6, ... up
    to 30 s). A broker that came back empty lost every queued submission's message, and a
    submission whose send failed while it was away waits for recovery; either is sent then,
    not at the beat's next tick, up to JUDGE_RECOVERY_INTERVAL_SECONDS later
    (``service.broker_memory``)."""

    requires = ("celery.worker.consumer.tasks:Tasks",)  # connected, consuming its queues

    def start(self, parent: Any) -> None:
        if RECOVERY_QUEUE not in parent.app.amqp.queues.consume_from:
            return  # the validation and webhook workers leave recovery to the judging one
        try:
            parent.app.send_task(RECOVER_TASK, queue=RECOVERY_QUEUE)
        except Exception as exc:  # the beat sends the next one
            log.warning("no recovery sent on connecting to the broker: %s", exc)


CERT_REQS = {"required": ssl.CERT_REQUIRED, "optional": ssl.CERT_OPTIONAL, "none": ssl.CERT_NONE}


def broker_tls(url: str) -> dict[str, Any] | None:
    """For a ``rediss://`` broker, the TLS options its URL names (``ssl_ca_certs``, ``ssl_certfile``,
    ``ssl_keyfile``, ``ssl_cert_reqs``), which kombu reads only from Celery's broker_use_ssl, never
    from the URL; the server's certificate is checked unless the URL says ``ssl_cert_reqs=none``.
    None for any other broker. (redis-py, the announcements' client, reads the URL itself.)"""
    parts = urlsplit(url.split(";", 1)[0].strip())
    if parts.scheme != "rediss":
        return None
    query = dict(parse_qsl(parts.query))
    wanted = query.get("ssl_cert_reqs", "required").lower()
    options: dict[str, Any] = {"ssl_cert_reqs": CERT_REQS.get(wanted, ssl.CERT_REQUIRED)}
    files = ("ssl_ca_certs", "ssl_certfile", "ssl_keyfile")
    options.update({key: query[key] for key in files if key in query})
    return options


def make_celery(settings: Settings) -> Celery:
    app = Celery("judge", include=["service.tasks"])
    app.conf.update(
        broker_url=settings.resolved_broker_url(),
        broker_transport_options=transport_options(settings),
        broker_use_ssl=broker_tls(settings.resolved_broker_url()),
        task_serializer=SERIALIZER,
        accept_content=[SERIALIZER],
        task_acks_late=True,  # tasks are idempotent: a redelivered one finds the claim
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_ignore_result=True,
        task_default_queue=SUBMIT_QUEUE,
        task_routes={RECOVER_TASK: {"queue": RECOVERY_QUEUE},
                     VALIDATE_TASK: {"queue": VALIDATION_QUEUE},
                     DELIVER_TASK: {"queue": WEBHOOK_QUEUE},
                     MAIL_TASK: {"queue": WEBHOOK_QUEUE},
                     LTI_SCORE_TASK: {"queue": WEBHOOK_QUEUE}},
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
    app.steps["consumer"].add(RecoverOnConnect)
    return app


celery = make_celery(get_settings())


def prepare_folders(app: Celery) -> None:
    """Make the folders ``app`` writes to: the beat's schedule's (without it the beat dies and
    nothing recovers) and, with the file-system broker, its queues'. Done by whoever sends or
    takes tasks (``send``, the worker's ``worker_init``), never at import; cheap when they exist."""
    Path(app.conf.beat_schedule_filename).parent.mkdir(parents=True, exist_ok=True)
    options = app.conf.broker_transport_options or {}
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        if key in options:
            Path(options[key]).mkdir(parents=True, exist_ok=True)


def accepts_pickle(accept_content: object) -> bool:
    """Whether a worker would decode pickled messages: the case Celery's check of privileges
    refuses under root (``celery.platforms.check_privileges``, by the same names)."""
    names = {str(name) for name in accept_content or ()}  # type: ignore[attr-defined]
    return "pickle" in names or any(name.endswith("python-serialize") for name in names)


def _root_without_pickle(conf: Any, **_: Any) -> None:
    """Sent just before Celery checks the worker's privileges. As root, Celery refuses to start
    a worker that accepts pickle (a message would run code as root when decoded) and otherwise
    warns, at every start, that root is not recommended. This worker accepts JSON alone, so the
    refusal's reason does not apply; and it drives the Docker engine, whose socket is root's
    equivalent whatever the worker's uid, so another uid (Celery's --uid) would take nothing
    from it. The one warning is left out where both hold; any other warning still shows."""
    if os.geteuid() == 0 and not accepts_pickle(conf.accept_content):
        warnings.filterwarnings("ignore", message="You're running the worker with superuser privileges",
                                category=SecurityWarning)


celeryd_init.connect(_root_without_pickle)  # a call, not a decorator: Celery's signals are untyped


def use_broker(url: str) -> None:
    """Point this process, and the processes it starts, at another broker. For `judge serve`,
    which learns its private broker's address only after this module was imported; call it
    before anything is sent (the app connects lazily)."""
    os.environ["JUDGE_BROKER_URL"] = url  # inherited by the worker it starts
    get_settings.cache_clear()
    settings = get_settings()
    celery.conf.update(broker_url=settings.resolved_broker_url(),
                       broker_transport_options=transport_options(settings))


def send(task: str, argument: int, queue: str, countdown: float = 0) -> None:
    prepare_folders(celery)
    celery.send_task(task, args=[argument], countdown=countdown or None, queue=queue)


def enqueue_submission(submission_id: int, countdown: float = 0, queue: str = SUBMIT_QUEUE) -> None:
    send(GRADE_TASK, submission_id, queue, countdown)


def enqueue_validation(version_id: int, countdown: float = 0) -> None:
    send(VALIDATE_TASK, version_id, VALIDATION_QUEUE, countdown)


def enqueue_webhook(delivery_id: int) -> None:
    send(DELIVER_TASK, delivery_id, WEBHOOK_QUEUE)
