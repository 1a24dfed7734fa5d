"""The webhook worker's sweep: every JUDGE_WEBHOOK_SWEEP_SECONDS it sends a message for each
delivery that is due and has none on its way (a retry whose wait is over, or a first attempt
whose message was lost), so the database alone decides what is posted and when.

A thread of the webhook worker's main process, started when the worker is ready (node
``webhooks@...``) and stopped with it; other workers never sweep.
"""

from __future__ import annotations

import logging
import threading
from datetime import timedelta
from typing import Any

from celery import signals
from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from judge.service.db.models import WebhookDelivery, utcnow
from judge.service.db.session import new_session
from judge.service.heartbeats import WEBHOOK_NODE
from judge.service.settings import get_settings
from judge.service.webhooks.outbox import DeliveryState, enqueue

log = logging.getLogger(__name__)

RESEND_AFTER = timedelta(seconds=60)  # a message not taken by then is taken as lost
BATCH = 200  # deliveries sent per sweep, at most


def due(session: Session) -> list[int]:
    """The deliveries to send a message for now; each is marked sent, and committed."""
    now = utcnow()
    ids = list(session.scalars(select(WebhookDelivery.id).where(
        WebhookDelivery.state == DeliveryState.PENDING, WebhookDelivery.next_attempt_at <= now,
        or_(WebhookDelivery.sent_at.is_(None), WebhookDelivery.sent_at < now - RESEND_AFTER),
        or_(WebhookDelivery.lease_until.is_(None), WebhookDelivery.lease_until < now),
    ).order_by(WebhookDelivery.next_attempt_at).limit(BATCH)))
    if ids:
        session.execute(update(WebhookDelivery).where(WebhookDelivery.id.in_(ids))
                        .values(sent_at=now).execution_options(synchronize_session=False))
    session.commit()
    return ids


class Sweeper:
    def __init__(self) -> None:
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True, name="webhook-sweep")

    def _run(self) -> None:
        while not self.stopped.wait(get_settings().webhook_sweep_seconds):
            try:
                with new_session() as session:
                    enqueue(due(session))
            except Exception as exc:  # the database or the broker hiccuped: the next sweep retries
                log.warning("webhook sweep failed: %s", exc)


_current: list[Sweeper] = []


def _start(sender: Any = None, **_: Any) -> None:
    if str(getattr(sender, "hostname", "")).startswith(f"{WEBHOOK_NODE}@") and not _current:
        _current.append(Sweeper())
        _current[0].thread.start()


def _stop(**_: Any) -> None:
    while _current:
        sweeper = _current.pop()
        sweeper.stopped.set()
        sweeper.thread.join(timeout=10)


signals.worker_ready.connect(_start)
signals.worker_shutdown.connect(_stop)
