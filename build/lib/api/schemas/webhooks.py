"""Bodies of the webhook routes: a submission's deliveries and their attempts, the signing secret."""

from __future__ import annotations

from pydantic import BaseModel, Field

from api.schemas.common import UtcTime
from service.webhooks.outbox import DeliveryState, WebhookEvent


class AttemptOut(BaseModel):
    attempted_at: UtcTime
    duration_ms: int
    status_code: int | None = Field(description="the receiver's HTTP status; null when none came")
    error: str | None = Field(description="why the attempt failed (a non-2xx status, a refused "
                                          "address, a timeout, a connection error); null on success")
    response_snippet: str | None = Field(description="the first characters of the receiver's answer")


class DeliveryOut(BaseModel):
    id: str = Field(description="the Judge-Delivery header of every attempt")
    event: WebhookEvent
    url: str
    state: DeliveryState = Field(description="pending (another attempt will come), delivered "
                                             "(answered 2xx) or failed (given up)")
    attempts: list[AttemptOut]
    created_at: UtcTime
    next_attempt_at: UtcTime | None = Field(description="while pending: when it is tried next")
    finished_at: UtcTime | None


class WebhookSecretOut(BaseModel):
    secret: str = Field(description="the key of the HMAC-SHA256 in each webhook's Judge-Signature")
