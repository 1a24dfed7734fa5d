"""Webhook fairness, for real: two users' receivers on one host accept every connection and
never answer, with two dozen deliveries queued ahead of a third user's, whose receiver answers
at once. Two webhook worker processes (`judge webhook-worker`'s command) of four threads each
share the queue, as two hosts' workers would, on the session's PostgreSQL and Redis.

The third user's webhook arrives within a fraction of the attempt's timeout (it used to wait
for every thread to give up on the stalled receiver, round after round); the stalled host never
has more attempts in flight than its bound, across both processes; a delivery held back at a
bound is not an attempt (the attempts recorded are the connections the receiver saw), and
each attempt that is made is cut off at the timeout.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select, update

from service.cli import webhook_worker_command
from service.db.migrate import upgrade
from service.db.models import WebhookDelivery
from service.db.session import new_session, session_scope
from service.heartbeats import WEBHOOK_NODE
from service.settings import get_settings
from service.webhooks.claims import Claim, claim
from service.webhooks.outbox import enqueue
from tests.utils.service_fixtures import _started, _stopped
from tests.utils.webhook_fairness import Prompt, Stalled, new_user, write_deliveries

pytestmark = [pytest.mark.stack,  # the session's database and broker, no Docker
              pytest.mark.serial("bounds another user's delivery delay by half the attempt timeout: "
                                 "other tests' load on the two cores would stretch it")]

TIMEOUT_SECONDS = 3.0
THREADS = 4  # in each of the two workers: twice the bound, so others always find one free
BOUND = 2  # the default of both bounds
PROMPT_WITHIN = 1.5  # seconds: half the timeout, which any wait behind the stall would exceed


@pytest.fixture(scope="module")
def receivers() -> Iterator[tuple[Stalled, Prompt]]:
    stalled, prompt = Stalled("127.0.0.1"), Prompt("127.0.0.2")
    yield stalled, prompt
    stalled.close()
    prompt.close()


@pytest.fixture(scope="module")
def webhook_workers() -> Iterator[None]:
    upgrade()
    written_before = _last_delivery()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JUDGE_WEBHOOK_ALLOW_PRIVATE", "true")
        patch.setenv("JUDGE_WEBHOOK_TIMEOUT_SECONDS", str(TIMEOUT_SECONDS))
        patch.setenv("JUDGE_WEBHOOK_BACKOFF_SECONDS", json.dumps([1]))
        patch.setenv("JUDGE_WEBHOOK_SWEEP_SECONDS", "0.2")
        get_settings.cache_clear()
        data = Path(get_settings().data_dir)
        first = webhook_worker_command(THREADS)
        second = list(first)
        second[second.index("-n") + 1] = f"{WEBHOOK_NODE}@second-%h"
        processes = [_started(first, data / "webhook-fairness-1.log")]
        try:
            processes.append(_started(second, data / "webhook-fairness-2.log"))
            yield
        finally:
            for process in processes:
                _stopped(process)
            with session_scope() as session:  # nothing of this module's left to retry
                session.execute(update(WebhookDelivery).where(WebhookDelivery.id > written_before)
                                .values(state="failed"))
    get_settings.cache_clear()


def _last_delivery() -> int:
    with session_scope() as session:
        return session.scalar(select(WebhookDelivery.id).order_by(WebhookDelivery.id.desc())
                              .limit(1)) or 0


def _attempts(ids: list[int]) -> list[tuple[int | None, str | None, int]]:
    with session_scope() as session:
        rows = session.scalars(select(WebhookDelivery).where(WebhookDelivery.id.in_(ids))).all()
        return [(a.status_code, a.error, a.duration_ms) for row in rows for a in row.attempt_log]


def test_claims_at_the_same_moment_on_postgresql_never_pass_the_bound() -> None:
    """Read committed lets two claims of different rows each miss the other's lease; the claim
    lock makes the count and the lease one step."""
    upgrade()
    with new_session() as session:
        if session.get_bind().dialect.name != "postgresql":
            pytest.skip("the session's database is SQLite (tests/unit covers it)")
    rows = [pk for pk, _ in write_deliveries(new_user("racing"), "http://127.0.0.9:1/", 12)]
    start = threading.Barrier(len(rows))
    results: list[Claim] = []

    def take(pk: int) -> None:
        with new_session() as session:
            start.wait()
            results.append(claim(session, pk))

    threads = [threading.Thread(target=take, args=(pk,)) for pk in rows]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert results.count(Claim.TAKEN) == BOUND and results.count(Claim.DEFERRED) == len(rows) - BOUND
    with session_scope() as session:  # released, never to be posted
        session.execute(update(WebhookDelivery).where(WebhookDelivery.id.in_(rows))
                        .values(state="failed", lease_until=None))


def test_a_stalled_receiver_never_delays_another_users_webhook(
        webhook_workers: None, receivers: tuple[Stalled, Prompt]) -> None:
    stalled, prompt = receivers
    waiting = [*write_deliveries(new_user("stalled"), stalled.url, 12),
               *write_deliveries(new_user("stalled"), stalled.url, 12)]
    [(theirs, delivery_id)] = write_deliveries(new_user("prompt"), prompt.url, 1)
    stalled.reset()
    enqueue([pk for pk, _ in waiting])  # all queued ahead of the prompt receiver's
    sent = time.monotonic()
    enqueue([theirs])
    arrived = prompt.wait_for(delivery_id, timeout=60)
    assert arrived is not None, "the prompt receiver's webhook never arrived"
    assert arrived - sent < PROMPT_WITHIN, f"it waited {arrived - sent:.2f} s behind the stall"

    # The stalled host's slots stay taken (each ended attempt hands its slot on) and no more.
    deadline = time.monotonic() + 3 * TIMEOUT_SECONDS + 5
    while stalled.accepted < 3 * BOUND and time.monotonic() < deadline:
        time.sleep(0.1)
    assert stalled.accepted >= 3 * BOUND, stalled.accepted
    assert stalled.most_open == BOUND  # two users, two processes, eight threads: the host's bound

    recorded = _attempts([pk for pk, _ in waiting])
    # Every attempt is a connection the receiver saw (those in flight are not recorded yet):
    # the deliveries held back, many times over, left no attempt behind.
    assert stalled.accepted - BOUND <= len(recorded) <= stalled.accepted
    for status, error, duration_ms in recorded:  # each cut off at the timeout, none longer
        assert status is None and error is not None and error.startswith("timed out"), error
        assert TIMEOUT_SECONDS * 1000 - 100 <= duration_ms < TIMEOUT_SECONDS * 1000 + 1500
