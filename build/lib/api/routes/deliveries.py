"""A submission's webhook deliveries: ``GET /submissions/{id}/deliveries``, for its sender and
admins (``service.access``)."""

from __future__ import annotations

from fastapi import APIRouter

from api.deps import CurrentUser, SessionDep
from api.schemas.bounds import Id
from api.schemas.webhooks import AttemptOut, DeliveryOut
from service.db.models import WebhookDelivery
from service.webhooks.history import deliveries_of
from service.webhooks.outbox import DeliveryState, WebhookEvent

router = APIRouter(prefix="/submissions", tags=["submissions"])


def delivery_out(row: WebhookDelivery) -> DeliveryOut:
    pending = row.state == DeliveryState.PENDING
    return DeliveryOut(
        id=row.delivery_id, event=WebhookEvent(row.event), url=row.url, state=DeliveryState(row.state),
        attempts=[AttemptOut(attempted_at=a.attempted_at, duration_ms=a.duration_ms,
                             status_code=a.status_code, error=a.error,
                             response_snippet=a.response_snippet) for a in row.attempt_log],
        created_at=row.created_at, next_attempt_at=row.next_attempt_at if pending else None,
        finished_at=row.finished_at)


@router.get("/{submission_id}/deliveries", response_model=list[DeliveryOut], responses={
    403: {"description": "you may read the submission but did not send it (and are no admin)"},
    404: {"description": "no such submission that you may read"}})
def deliveries(submission_id: Id, session: SessionDep, user: CurrentUser) -> list[DeliveryOut]:
    """The webhook deliveries of a submission you sent (and of its batch), each
    with every attempt: status or error, duration, time."""
    return [delivery_out(row) for row in deliveries_of(session, user, submission_id)]
