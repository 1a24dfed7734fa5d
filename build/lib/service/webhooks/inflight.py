"""Attempts in flight, per user and per destination host, and the bounds on them: one user's
receiver that accepts and never answers (or one host that stalls everyone pointed at it) holds
at most a few of the webhook worker's threads, and every other delivery finds a free one.

The source of truth is the database's leases: an attempt in flight is a pending delivery whose
``lease_until`` has not passed (``claims.claim`` sets it, the attempt's end clears it, a
worker that died leaves it to expire). A Redis counter would be a second truth that drifts
when a worker dies between its increment and its decrement; the leases expire by themselves,
are shared by every worker process on every host, and are the same on SQLite and PostgreSQL.
Counting them and taking a lease must happen as one step, or two workers each see a slot free
and both take it: ``claims`` makes it so.

The host is the URL's name, lower-cased, without its port: the thing that stalls is a server,
whatever port it listens on.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import urlsplit

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.db.models import WebhookDelivery
from service.settings import Settings, get_settings
from service.webhooks.outbox import DeliveryState


def host_of(url: str) -> str:
    """The destination host of a callback URL, as the bounds count it."""
    try:
        return (urlsplit(url).hostname or "").rstrip(".")
    except ValueError:
        return ""


@dataclass(frozen=True)
class Bounds:
    per_user: int
    per_host: int

    @classmethod
    def from_settings(cls, settings: Settings | None = None) -> Bounds:
        settings = settings or get_settings()
        return cls(settings.webhook_max_in_flight_per_user, settings.webhook_max_in_flight_per_host)


@dataclass
class InFlight:
    """Attempts in flight now, by user and by host."""

    users: Counter[int] = field(default_factory=Counter)
    hosts: Counter[str] = field(default_factory=Counter)

    def add(self, user_id: int, host: str) -> None:
        self.users[user_id] += 1
        self.hosts[host] += 1

    def full(self, user_id: int, host: str, bounds: Bounds) -> bool:
        """Whether one more attempt for user_id to host would pass a bound."""
        return self.users[user_id] >= bounds.per_user or self.hosts[host] >= bounds.per_host


def in_flight(session: Session, now: datetime, leaving_out: int | None = None) -> InFlight:
    """The unexpired leases (but leaving_out's), counted. They are few (at most the threads of
    every webhook worker, and those of workers that died within a lease), so their URLs are
    parsed here rather than a host stored in each row."""
    # A leased row was due when it was claimed: the bound on next_attempt_at lets the
    # (state, next_attempt_at) index find them among the pending.
    query = select(WebhookDelivery.user_id, WebhookDelivery.url).where(
        WebhookDelivery.state == DeliveryState.PENDING, WebhookDelivery.next_attempt_at <= now,
        WebhookDelivery.lease_until >= now)
    if leaving_out is not None:
        query = query.where(WebhookDelivery.id != leaving_out)
    counted = InFlight()
    for user_id, url in session.execute(query):
        counted.add(user_id, host_of(url))
    return counted


def too_few_threads(threads: int, bounds: Bounds) -> str | None:
    """Why a webhook worker of this many threads could have every thread held by one user or
    one host, or None when it cannot."""
    widest = max(bounds.per_user, bounds.per_host)
    if threads > widest:
        return None
    return (f"the webhook worker needs more threads ({threads}) than attempts one user or one "
            f"host may have in flight ({widest}, JUDGE_WEBHOOK_MAX_IN_FLIGHT_PER_USER and "
            "JUDGE_WEBHOOK_MAX_IN_FLIGHT_PER_HOST), or one stalled receiver holds them all")
