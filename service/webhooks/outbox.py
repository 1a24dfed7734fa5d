"""The outbox: the webhook deliveries a verdict (or a finished batch) calls for, written in the
transaction that commits the verdict, so a verdict is never committed without its delivery, nor
a delivery without its verdict. Also each user's signing secret, the cap on deliveries waiting
per user, the check of a callback URL when it is given, and the retry schedule.

A delivery's body is fixed when its row is written: a summary of the submission (the fields of
its listing and its message) and a link to ``GET /api/v1/submissions/{id}``, which a receiver
calls with its token for the tests. Every attempt sends those same bytes.
"""

from __future__ import annotations

import json
import logging
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from judge.stored_values import cut
from service.db.models import (
    Submission,
    SubmissionStatus,
    User,
    WebhookAttempt,
    WebhookBatch,
    WebhookDelivery,
    utcnow,
)
from service.errors import QuotaExceeded
from service.grade_release import held_from
from service.settings import get_settings
from service.webhooks import addresses, signing

log = logging.getLogger(__name__)
MESSAGE_CHARS = 1000  # of a submission's message in a body: the full one is a GET away


class WebhookEvent(StrEnum):
    SUBMISSION_DONE = "submission.done"
    BATCH_DONE = "batch.done"


class DeliveryState(StrEnum):
    PENDING = "pending"  # waiting for its next attempt
    DELIVERED = "delivered"  # the receiver answered 2xx
    FAILED = "failed"  # given up (a day of attempts), or never sent (too many waiting)


def webhook_secret(session: Session, user: User) -> str:
    """The user's signing secret, made (and flushed) at first use."""
    if user.webhook_secret is None:
        user.webhook_secret = signing.new_secret()
        session.flush()
    return user.webhook_secret


def rotate_secret(session: Session, user: User) -> str:
    """A new secret for the user: attempts from now on are signed with it. The caller commits."""
    user.webhook_secret = signing.new_secret()
    session.flush()
    return user.webhook_secret


def pending_deliveries(session: Session, user_id: int) -> int:
    return session.scalar(select(func.count()).select_from(WebhookDelivery).where(
        WebhookDelivery.user_id == user_id, WebhookDelivery.state == DeliveryState.PENDING)) or 0


def _waiting_callbacks(session: Session, user_id: int) -> int:
    """Submissions of the user with a callback that are not judged yet: each will add one."""
    return session.scalar(select(func.count()).select_from(Submission).where(
        Submission.user_id == user_id, Submission.callback_url.is_not(None),
        Submission.status != SubmissionStatus.DONE)) or 0


@dataclass(frozen=True)
class Callback:
    """Where a submission's verdict is posted, and the batch it belongs to (if any)."""

    url: str
    batch_id: int | None = None


def check_url(url: str) -> str:
    """url, when webhooks may go there (``addresses``: http(s), a public address); it resolves
    the host, so call it outside any lock or transaction."""
    settings = get_settings()
    addresses.check(url, settings.webhook_allow_private, settings.webhook_max_url_length)
    return url


def check_cap(session: Session, user: User) -> None:
    """Refuse another callback while the user's deliveries waiting (and to come) are at the cap."""
    cap = get_settings().webhook_max_pending_per_user
    waiting = pending_deliveries(session, user.id) + _waiting_callbacks(session, user.id)
    if waiting >= cap:
        raise QuotaExceeded(f"callback_url: you have {waiting} webhook deliveries waiting; the "
                            f"limit is {cap}", retry_after=60, param=addresses.PARAM,
                            quota="webhooks", limit=cap)


def link(path: str) -> str:
    """A link to path on this judge (JUDGE_PUBLIC_URL), or the path alone where none is set."""
    return get_settings().public_url.rstrip("/") + path


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat() + "Z"


def submission_summary(submission: Submission) -> dict[str, Any]:
    """What a body says of one submission (a GET of ``url`` gives the tests too). It goes to the
    sender's own receiver: a result whose grades are held is left out, as on every route."""
    path = f"/api/v1/submissions/{submission.id}"
    held = held_from(submission.user, submission)
    return {
        "id": submission.id, "problem": submission.problem.slug,
        "problem_version": submission.version.version, "user": submission.user.name,
        "mode": submission.mode, "status": submission.status,
        "verdict": None if held else submission.verdict, "score": None if held else submission.score,
        "message": None if held else cut(submission.message, MESSAGE_CHARS), "held": held,
        "assignment": submission.assignment_id, "late": submission.late,
        "created_at": _iso(submission.created_at), "started_at": _iso(submission.started_at),
        "finished_at": _iso(submission.finished_at), "url": link(path),
    }


def _write(session: Session, user_id: int, event: WebhookEvent, url: str, data: dict[str, Any],
           submission_id: int | None = None, batch_id: int | None = None) -> WebhookDelivery | None:
    """Add a delivery; None when it was written as not sent, the user's cap being reached (a
    rejudge may finish many at once): the row says so, and the cap holds."""
    now = utcnow()
    delivery_id = uuid.uuid4().hex
    body = json.dumps({"id": delivery_id, "event": event.value, "created_at": _iso(now),
                       event.value.split(".")[0]: data}, ensure_ascii=False, separators=(",", ":"))
    delivery = WebhookDelivery(delivery_id=delivery_id, user_id=user_id, submission_id=submission_id,
                               batch_id=batch_id, event=event.value, url=url, body=body,
                               state=DeliveryState.PENDING, created_at=now, next_attempt_at=now,
                               sent_at=now)
    cap = get_settings().webhook_max_pending_per_user
    over = pending_deliveries(session, user_id) >= cap
    if over:
        delivery.state, delivery.finished_at, delivery.sent_at = DeliveryState.FAILED, now, None
        delivery.attempt_log.append(WebhookAttempt(
            attempted_at=now, duration_ms=0,
            error=f"not sent: {cap} deliveries of this user were already waiting"))
    session.add(delivery)
    session.flush()
    return None if over else delivery


def _batch_done(session: Session, batch_id: int) -> WebhookDelivery | None:
    """batch.done, when the batch is sealed and each of its submissions is done.

    The batch's row is locked first (PostgreSQL; SQLite writes one transaction at a time), so of
    two last submissions finishing at once, the one that counts second sees the other's commit:
    exactly one of them writes the event."""
    batch = session.scalar(select(WebhookBatch).where(WebhookBatch.id == batch_id)
                           .with_for_update().execution_options(populate_existing=True))
    if batch is None or not batch.sealed or batch.done_at is not None:
        return None
    members = list(session.scalars(select(Submission).where(Submission.webhook_batch_id == batch_id)
                                   .order_by(Submission.id)
                                   .execution_options(populate_existing=True)))
    if not members or any(member.status != SubmissionStatus.DONE for member in members):
        return None  # none stored (every item refused): nothing to report
    batch.done_at = utcnow()
    data = {"id": batch.id, "submissions": [submission_summary(member) for member in members]}
    return _write(session, batch.user_id, WebhookEvent.BATCH_DONE, batch.callback_url, data,
                  batch_id=batch.id)


def on_verdict(session: Session, submission_id: int) -> list[int]:
    """Write what the verdict just stored (not yet committed) calls for: the submission's own
    delivery and, when it completes a batch, the batch's. The ids to enqueue after the commit."""
    submission = session.get(Submission, submission_id, populate_existing=True)
    if submission is None or (submission.callback_url is None and submission.webhook_batch_id is None):
        return []
    written: list[WebhookDelivery | None] = []
    if submission.callback_url is not None:
        written.append(_write(session, submission.user_id, WebhookEvent.SUBMISSION_DONE,
                              submission.callback_url, submission_summary(submission),
                              submission_id=submission.id))
    if submission.webhook_batch_id is not None:
        written.append(_batch_done(session, submission.webhook_batch_id))
    return [delivery.id for delivery in written if delivery is not None]


def new_batch(session: Session, user: User, callback_url: str) -> WebhookBatch:
    """A batch for submissions that user sends together (not yet sealed); the caller gives each
    submission ``callback_url`` and this batch (``submissions.create_submission``), then calls
    ``seal_batch``."""
    check_cap(session, user)
    batch = WebhookBatch(user_id=user.id, callback_url=check_url(callback_url))
    session.add(batch)
    session.flush()
    return batch


def seal_batch(session: Session, batch_id: int) -> list[int]:
    """Say that every submission of the batch is stored: batch.done may be written from now on
    (at once, when all are judged already). Commits; the ids to enqueue (``enqueue``)."""
    batch = session.scalar(select(WebhookBatch).where(WebhookBatch.id == batch_id).with_for_update())
    if batch is None:
        session.commit()
        return []
    batch.sealed = True
    session.flush()
    done = _batch_done(session, batch_id)
    session.commit()
    return [done.id] if done is not None else []


def enqueue(delivery_ids: list[int]) -> None:
    """Send each delivery's message, after its commit. A broker that is down loses nothing: the
    webhook worker's sweep sends what is due (``sweeper``)."""
    from service.celery_app import enqueue_webhook

    for delivery_id in delivery_ids:
        try:
            enqueue_webhook(delivery_id)
        except Exception as exc:
            log.warning("webhook delivery %s written but not queued: %s", delivery_id, exc)


def next_attempt(created_at: datetime, now: datetime, attempts: int) -> datetime | None:
    """When to try again after ``attempts`` attempts failed, the last at now; None to give up.

    The waits come from JUDGE_WEBHOOK_BACKOFF_SECONDS in turn, its last repeated; the last
    attempt is made when JUDGE_WEBHOOK_GIVE_UP_HOURS have passed since the row was written."""
    settings = get_settings()
    deadline = created_at + timedelta(hours=settings.webhook_give_up_hours)
    if now >= deadline:
        return None
    schedule = settings.webhook_backoff_seconds or (60.0,)
    wait = schedule[min(max(attempts, 1), len(schedule)) - 1]
    return min(now + timedelta(seconds=wait), deadline)
