"""What became of a submission's webhooks: its deliveries with every attempt, for its sender and
admins (``access.Action.FOLLOW``)."""

from __future__ import annotations

from sqlalchemy import or_, select
from sqlalchemy.orm import Session, selectinload

from service.access import Action, authorize
from service.db.models import Submission, User, WebhookDelivery
from service.submissions import find_submission


def deliveries_of(session: Session, user: User, submission_id: int) -> list[WebhookDelivery]:
    """The submission's own deliveries and those of its batch (batch.done), oldest first."""
    submission: Submission = find_submission(session, user, submission_id)  # 404 for a stranger
    authorize(user, Action.FOLLOW, submission)
    mine = WebhookDelivery.submission_id == submission.id
    batch = (WebhookDelivery.batch_id == submission.webhook_batch_id
             if submission.webhook_batch_id is not None else None)
    return list(session.scalars(
        select(WebhookDelivery).where(or_(mine, batch) if batch is not None else mine)
        .options(selectinload(WebhookDelivery.attempt_log)).order_by(WebhookDelivery.id)))
