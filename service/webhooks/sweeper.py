"""The webhook worker's sweep: every JUDGE_WEBHOOK_SWEEP_SECONDS it sends a message for each
delivery that is due and has none on its way (a retry whose wait is over, a first attempt whose
message was lost, or one deferred at its user's or host's bound), so the database alone decides
what is posted and when.

The sweep shares out the slots the bounds leave free (``inflight``): a user's deliveries oldest
first, the users taken in turn, and no more messages for a user or a host than it has slots
free, so one user's hundreds of waiting deliveries neither crowd another's out of a sweep nor
come back as messages that are only deferred again. Between sweeps, an attempt that ends hands
its slot to its user's next waiting delivery (``hand_off``), so a user's backlog to a receiver
that answers moves at that receiver's pace, not the sweep's.

A thread of the webhook worker's main process, started when the worker is ready (node
``webhooks@...``) and stopped with it; other workers never sweep.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta
from typing import Any

from celery import signals
from sqlalchemy import ColumnElement, Select, and_, func, or_, select, update
from sqlalchemy.orm import Session

from service import notification_mail
from service.db.models import WebhookDelivery, utcnow
from service.db.session import new_session
from service.heartbeats import WEBHOOK_NODE
from service.lti import grades as lti_grades
from service.settings import get_settings
from service.webhooks.inflight import Bounds, host_of, in_flight
from service.webhooks.outbox import DeliveryState, enqueue

log = logging.getLogger(__name__)

RESEND_AFTER = timedelta(seconds=60)  # a message not taken by then is taken as lost
BATCH = 200  # deliveries sent per sweep, at most
LOOKED_AT = 4 * BATCH  # waiting deliveries read per sweep: room for those whose host is full
HAND_OFF_LOOK = 20  # of the user's, read at a hand-off


def _waiting(now: datetime) -> ColumnElement[bool]:
    """Due, held by no worker, and no message on its way (none, or one taken as lost)."""
    return and_(
        WebhookDelivery.state == DeliveryState.PENDING, WebhookDelivery.next_attempt_at <= now,
        or_(WebhookDelivery.sent_at.is_(None), WebhookDelivery.sent_at < now - RESEND_AFTER),
        or_(WebhookDelivery.lease_until.is_(None), WebhookDelivery.lease_until < now))


def _share(session: Session, now: datetime, candidates: Select[int, int, str],
           most: int) -> list[int]:
    """Of the candidates (id, user, URL, in the order to serve them), up to ``most`` whose user
    and host have a slot free, counting each chosen one's; each is marked sent, and committed."""
    bounds = Bounds.from_settings()
    busy = in_flight(session, now)
    chosen: list[int] = []
    for pk, user_id, url in session.execute(candidates):
        if len(chosen) == most:
            break
        host = host_of(url)
        if not busy.full(user_id, host, bounds):
            busy.add(user_id, host)  # the slot this message will take
            chosen.append(pk)
    if chosen:
        session.execute(update(WebhookDelivery).where(WebhookDelivery.id.in_(chosen))
                        .values(sent_at=now).execution_options(synchronize_session=False))
    session.commit()
    return chosen


def due(session: Session) -> list[int]:
    """The deliveries to send a message for now; each is marked sent, and committed."""
    now = utcnow()
    # Each user's waiting deliveries numbered oldest first; ordered by that number, the users
    # take turns (everyone's oldest, then everyone's second, ...).
    turn = func.row_number().over(partition_by=WebhookDelivery.user_id,
                                  order_by=(WebhookDelivery.next_attempt_at, WebhookDelivery.id))
    waiting = select(WebhookDelivery.id, WebhookDelivery.user_id, WebhookDelivery.url,
                     WebhookDelivery.next_attempt_at, turn.label("turn")).where(_waiting(now)).subquery()
    candidates = (select(waiting.c.id, waiting.c.user_id, waiting.c.url)
                  .order_by(waiting.c.turn, waiting.c.next_attempt_at, waiting.c.id).limit(LOOKED_AT))
    return _share(session, now, candidates, BATCH)


def hand_off(session: Session, user_id: int) -> None:
    """An attempt of user_id's has ended: send a message for that user's oldest waiting
    delivery whose host has a slot free, which then takes the freed slot at once rather than at
    the next sweep."""
    now = utcnow()
    candidates = (select(WebhookDelivery.id, WebhookDelivery.user_id, WebhookDelivery.url)
                  .where(WebhookDelivery.user_id == user_id, _waiting(now))
                  .order_by(WebhookDelivery.next_attempt_at, WebhookDelivery.id).limit(HAND_OFF_LOOK))
    enqueue(_share(session, now, candidates, 1))


class Sweeper:
    def __init__(self) -> None:
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True, name="webhook-sweep")

    def _run(self) -> None:
        while not self.stopped.wait(get_settings().webhook_sweep_seconds):
            try:
                with new_session() as session:
                    enqueue(due(session))
                    notification_mail.sweep(session)  # the same worker sends notification e-mails
                    lti_grades.sweep(session)  # and LTI grades
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
