"""The bounds on webhook attempts in flight: past its user's or its host's bound a delivery is
deferred, not attempted (no attempt recorded, its schedule untouched, no thread held), and
claims made at once never pass a bound; the sweep shares the free slots out among users in
turn; an attempt that ends hands its slot to its user's next waiting delivery; a webhook
worker with no more threads than a bound refuses to start."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
import typer
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from service.cli import webhook_worker_command
from service.db.models import Role, WebhookDelivery, utcnow
from service.db.session import new_session, session_scope
from service.settings import get_settings
from service.users import create_user
from service.webhooks import addresses, inflight, sweeper
from service.webhooks.claims import LEASE, Claim, claim
from service.webhooks.delivery import Outcome, deliver
from tests.unit.service.conftest import EagerQueue


def a_host() -> str:
    """A URL on a host of the test's own (rows of earlier tests hold leases on theirs). Never
    connected to: these tests post with a double."""
    return "http://127.{}.{}.{}:1/hook".format(*uuid.uuid4().bytes[:3])


@pytest.fixture
def new_user_id(client: TestClient) -> Callable[[], int]:
    def make() -> int:
        with session_scope() as session:
            return create_user(session, f"hooks-{uuid.uuid4().hex[:8]}", Role.LEARNER)[0].id
    return make


@pytest.fixture
def allow_private(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(get_settings(), "webhook_allow_private", True)


def pending(user_id: int, url: str, count: int = 1, leased: bool = False,
            due: datetime | None = None) -> list[int]:
    """count due deliveries of user_id to url, each with a message on its way (or, leased, an
    attempt in flight)."""
    now = utcnow()
    rows = [WebhookDelivery(delivery_id=uuid.uuid4().hex, user_id=user_id, event="submission.done",
                            url=url, body="{}", state="pending", created_at=now,
                            next_attempt_at=due or now - timedelta(seconds=1), sent_at=now,
                            lease_until=now + LEASE if leased else None)
            for _ in range(count)]
    with session_scope() as session:
        session.add_all(rows)
        session.flush()
        return [row.id for row in rows]


def row(pk: int) -> WebhookDelivery:
    with session_scope() as session:
        found = session.get(WebhookDelivery, pk)
        assert found is not None
        found.attempt_log  # noqa: B018 (loaded before the session closes)
        session.expunge_all()
        return found


def test_the_host_is_the_urls_name_whatever_its_case_port_or_final_dot() -> None:
    assert inflight.host_of("https://Hooks.Example.org.:8443/x?y") == "hooks.example.org"
    assert inflight.host_of("http://[2001:db8::1]:80/") == "2001:db8::1"
    assert inflight.host_of("http://[::1") == ""  # not a URL: its own key, never an error


def test_past_its_users_bound_a_delivery_is_deferred_untouched(new_user_id: Callable[[], int]) -> None:
    user, other = new_user_id(), new_user_id()
    stalled, prompt = a_host(), a_host()
    pending(user, stalled, 2, leased=True)  # two attempts in flight: the default bound
    [waiting] = pending(user, prompt)  # another host: only the user's bound stops it
    before = row(waiting)
    with new_session() as session:
        assert claim(session, waiting) is Claim.DEFERRED
    after = row(waiting)
    assert after.lease_until is None and after.sent_at is None  # waits for a slot, no message out
    assert after.attempts == 0 and after.attempt_log == [] and after.state == "pending"
    assert after.next_attempt_at == before.next_attempt_at  # its schedule is untouched
    [theirs] = pending(other, prompt)
    with new_session() as session:
        assert claim(session, theirs) is Claim.TAKEN  # another user is not held back
    assert row(theirs).lease_until is not None


def test_past_its_hosts_bound_a_delivery_is_deferred(new_user_id: Callable[[], int]) -> None:
    stalled, prompt = a_host(), a_host()
    for _ in range(2):  # two users, one attempt each to the stalled host
        pending(new_user_id(), stalled, leased=True)
    mine = new_user_id()
    [to_it] = pending(mine, stalled)
    [elsewhere] = pending(mine, prompt)
    with new_session() as session:
        assert claim(session, to_it) is Claim.DEFERRED
        assert claim(session, elsewhere) is Claim.TAKEN


def test_an_expired_lease_is_not_an_attempt_in_flight(new_user_id: Callable[[], int]) -> None:
    user = new_user_id()
    stalled = a_host()
    dead = pending(user, stalled, 2, leased=True)  # a worker died mid-attempt: its leases lapse
    with session_scope() as session:
        session.execute(update(WebhookDelivery).where(WebhookDelivery.id.in_(dead))
                        .values(lease_until=utcnow() - timedelta(seconds=1)))
    [waiting] = pending(user, stalled)
    with new_session() as session:
        assert claim(session, waiting) is Claim.TAKEN


def test_a_deferred_delivery_is_never_posted_and_frees_its_thread_at_once(
        new_user_id: Callable[[], int]) -> None:
    user = new_user_id()
    stalled = a_host()
    pending(user, stalled, 2, leased=True)
    [waiting] = pending(user, stalled)
    posted: list[str] = []

    def send(target: addresses.Target, body: bytes, headers: dict[str, str],
             timeout: float) -> tuple[int, str]:
        posted.append(target.address)
        return 200, "ok"

    with new_session() as session:
        assert deliver(session, waiting, send) is Outcome.DEFERRED
    assert posted == [] and row(waiting).attempts == 0


def test_claims_at_the_same_moment_never_pass_the_bound(new_user_id: Callable[[], int]) -> None:
    user = new_user_id()
    rows = pending(user, a_host(), 8)
    start = threading.Barrier(len(rows))
    results: dict[int, Claim] = {}

    def take(pk: int) -> None:
        with new_session() as session:
            start.wait()
            results[pk] = claim(session, pk)

    threads = [threading.Thread(target=take, args=(pk,)) for pk in rows]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(results.values()) == [Claim.DEFERRED] * 6 + [Claim.TAKEN] * 2
    with session_scope() as session:
        leased = session.scalars(select(WebhookDelivery.id).where(
            WebhookDelivery.id.in_(rows), WebhookDelivery.lease_until.is_not(None))).all()
    assert len(leased) == 2


def test_the_sweep_takes_users_in_turn_and_sends_no_more_than_their_free_slots(
        new_user_id: Callable[[], int]) -> None:
    crowd, late, full = new_user_id(), new_user_id(), new_user_id()
    stalled, prompt, busy = a_host(), a_host(), a_host()
    long_ago = utcnow() - timedelta(hours=1)
    crowding = pending(crowd, stalled, 250, due=long_ago)  # more than a sweep sends, and older
    [latecomer] = pending(late, prompt)
    pending(full, busy, 2, leased=True)
    [at_bound] = pending(full, busy, due=long_ago)
    with session_scope() as session:  # no message on its way for any of them
        session.execute(update(WebhookDelivery).where(
            WebhookDelivery.id.in_([*crowding, latecomer, at_bound])).values(sent_at=None))
    with new_session() as session:
        sent = sweeper.due(session)
    assert latecomer in sent  # not crowded out by 250 older ones
    assert len(set(sent) & set(crowding)) == 2  # the crowd's free slots, no more
    assert at_bound not in sent  # its user is at the bound: a message would only be deferred
    assert row(latecomer).sent_at is not None and row(at_bound).sent_at is None


def test_an_ended_attempt_hands_its_slot_to_the_users_next_waiting_delivery(
        new_user_id: Callable[[], int], eager_queue: EagerQueue, allow_private: None) -> None:
    user = new_user_id()
    first, second = pending(user, a_host(), 2, leased=True)
    [waiting] = pending(user, a_host())
    with new_session() as session:
        assert claim(session, waiting) is Claim.DEFERRED
    with session_scope() as session:  # the first attempt's lease lapses as it ends
        session.execute(update(WebhookDelivery).where(WebhookDelivery.id == first)
                        .values(lease_until=None, next_attempt_at=utcnow()))

    def answered(target: addresses.Target, body: bytes, headers: dict[str, str],
                 timeout: float) -> tuple[int, str]:
        return 200, "ok"

    with eager_queue.hold() as held, new_session() as session:
        assert deliver(session, first, answered) is Outcome.DELIVERED
        assert [message.args for message in held] == [(waiting,)]  # at once, not at the sweep
    assert row(waiting).sent_at is not None and row(second).lease_until is not None


@pytest.mark.parametrize("threads", [1, 2])
def test_a_webhook_worker_with_no_more_threads_than_a_bound_does_not_start(threads: int) -> None:
    assert inflight.too_few_threads(3, inflight.Bounds(2, 2)) is None
    with pytest.raises(typer.Exit):
        webhook_worker_command(threads)
