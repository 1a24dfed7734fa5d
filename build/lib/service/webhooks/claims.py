"""Taking a delivery for one attempt: due, held by no other worker, and its user and its host
below their bounds of attempts in flight (``inflight``), or else deferred, not attempted.

A deferred delivery stays due, with no message on its way (``sent_at`` cleared), its attempts
and schedule untouched: it is not a failed attempt. The attempt that frees its user's slot
hands the slot on (``sweeper.hand_off``), or the sweep sends it once a slot is free.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import StrEnum

from sqlalchemy import ColumnElement, and_, func, or_, select, text, update
from sqlalchemy.orm import Session

from service.db.models import WebhookDelivery, utcnow
from service.webhooks.inflight import Bounds, host_of, in_flight
from service.webhooks.outbox import DeliveryState

LEASE = timedelta(seconds=60)  # far past one attempt's timeout: a claim outlives its attempt
# Any constant of our own: the one PostgreSQL advisory lock that claims take in turn.
CLAIM_LOCK = 0x6A75646765_01  # "judge", then 1


class Claim(StrEnum):
    TAKEN = "taken"
    DEFERRED = "deferred"  # its user or its host has all the attempts in flight it may have
    GONE = "gone"  # not due, finished, or another worker holds it


def _claimable(pk: int, now: datetime) -> ColumnElement[bool]:
    return and_(WebhookDelivery.id == pk, WebhookDelivery.state == DeliveryState.PENDING,
                WebhookDelivery.next_attempt_at <= now,
                or_(WebhookDelivery.lease_until.is_(None), WebhookDelivery.lease_until < now))


def _serialize(session: Session) -> None:
    """Make this transaction's count of leases and its own lease one step against every other
    claim: called before the lease is written, and the transaction commits soon after.

    PostgreSQL: a transaction-level advisory lock, one for all claims. Under READ COMMITTED two
    claims of different rows would otherwise each count the other's lease as not yet there. It
    is held for a few statements, so one lock for all costs nothing at the rates webhooks come
    at, and it cannot deadlock: it is taken before any row, and whoever holds it waits for no
    other claim. Nor does the commit wait for the disk (the lock is held until it returns): a
    lease lost in a crash costs at most one more attempt of a delivery, which its receiver
    drops by its Judge-Delivery id. SQLite: nothing to do; the lease is written before the
    leases are counted, and that write takes the database's one write lock to the commit."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SET LOCAL synchronous_commit = off"))
        session.execute(select(func.pg_advisory_xact_lock(CLAIM_LOCK)))


def _defer(session: Session, pk: int, now: datetime, leased: bool) -> Claim:
    values = {"sent_at": None, "lease_until": None} if leased else {"sent_at": None}
    where = WebhookDelivery.id == pk if leased else _claimable(pk, now)
    session.execute(update(WebhookDelivery).where(where).values(**values)
                    .execution_options(synchronize_session=False))
    session.commit()
    return Claim.DEFERRED


def claim(session: Session, pk: int) -> Claim:
    """Take delivery pk for one attempt (TAKEN: leased to this worker, committed), or not."""
    now = utcnow()
    bounds = Bounds.from_settings()
    found = session.execute(select(WebhookDelivery.user_id, WebhookDelivery.url)
                            .where(_claimable(pk, now))).one_or_none()
    if found is None:
        session.commit()
        return Claim.GONE
    user_id, host = found.user_id, host_of(found.url)
    # Seen full without the lock, it defers at once: many deliveries of a stalled user or host
    # then go by in parallel, never one by one through the lock. A view that is out of date
    # can only defer one that might have gone (a slot freed meanwhile, which hands itself on);
    # only the count under the lock lets one through.
    if in_flight(session, now).full(user_id, host, bounds):
        return _defer(session, pk, now, leased=False)
    _serialize(session)
    taken = session.execute(update(WebhookDelivery).where(_claimable(pk, now))
                            .values(lease_until=now + LEASE)
                            .execution_options(synchronize_session=False))
    if taken.rowcount != 1:  # type: ignore[attr-defined]
        session.commit()
        return Claim.GONE
    if in_flight(session, now, leaving_out=pk).full(user_id, host, bounds):
        return _defer(session, pk, now, leased=True)
    session.commit()
    return Claim.TAKEN
