"""Webhooks in the service: a callback URL is checked when it is given (422 / 429 naming
callback_url); the delivery is written with the verdict and queued on its own queue after the
commit; an attempt is recorded and scheduled again on the back-off; its history is the sender's
and admins' to read; a batch gets one batch.done; the signing secret is read and rotated."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from judge.results import Report, Verdict
from service import lifecycle
from service.db.models import Submission, User, WebhookDelivery
from service.db.session import session_scope
from service.settings import get_settings
from service.submissions import Mode, submit
from service.webhooks import outbox
from service.webhooks.outbox import Callback, next_attempt
from tests.unit.service.conftest import EagerQueue
from tests.unit.service.helpers import error, post_json, publish, ratio_files
from tests.utils.service import REFERENCE, bearer
from tests.utils.service_fixtures import Tokens

HOOK = "http://127.0.0.1:9/hook"  # the discard port: the network guard refuses it first
SLUG = "fast_webhook_ratio"


@pytest.fixture
def allow_private(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(get_settings(), "webhook_allow_private", True)


@pytest.fixture(scope="module")
def owned_problem(client: TestClient, tokens: Tokens) -> str:
    return publish(client, tokens.instructor, SLUG, ratio_files(SLUG))


def deliveries_for(submission_id: int) -> list[WebhookDelivery]:
    with session_scope() as session:
        rows = list(session.scalars(select(WebhookDelivery).where(
            WebhookDelivery.submission_id == submission_id)))
        session.expunge_all()
        return rows


def test_the_schedule_backs_off_to_hourly_and_gives_up_after_a_day() -> None:
    created = datetime(2026, 1, 1)
    waits = []
    for attempts in range(1, 9):
        at = created + timedelta(minutes=attempts)
        later = next_attempt(created, at, attempts)
        assert later is not None
        waits.append((later - at).total_seconds())
    assert waits == [10, 30, 120, 600, 1800, 3600, 3600, 3600]
    day = created + timedelta(hours=24)
    assert next_attempt(created, day - timedelta(minutes=10), 20) == day  # one last try at 24 h
    assert next_attempt(created, day, 21) is None
    assert next_attempt(created, day + timedelta(seconds=1), 21) is None


def test_a_short_schedule_from_the_settings_repeats_its_last_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(get_settings(), "webhook_backoff_seconds", (0.5, 2.0))
    created = datetime(2026, 1, 1)
    assert [(next_attempt(created, created, n) - created).total_seconds()  # type: ignore[operator]
            for n in (1, 2, 3)] == [0.5, 2, 2]


@pytest.mark.parametrize("url", ["http://127.0.0.1/", "http://169.254.169.254/", "http://2130706433/",
                                 "ftp://example.org/", "http://[::ffff:10.0.0.1]/"])
def test_a_refused_callback_url_is_a_422_and_no_submission(client: TestClient, tokens: Tokens,
                                                           url: str) -> None:
    with session_scope() as session:
        before = session.query(Submission).count()
    response = post_json(client, tokens.learner, {"problem": "secret_lookup", "code": REFERENCE,
                                                  "callback_url": url})
    error(response, 422, "invalid_input")
    assert response.json()["error"]["param"] == "callback_url"
    with session_scope() as session:
        assert session.query(Submission).count() == before


def test_a_too_long_callback_url_is_a_422_naming_it(client: TestClient, tokens: Tokens) -> None:
    response = post_json(client, tokens.learner, {"problem": "secret_lookup", "code": REFERENCE,
                                                  "callback_url": "https://example.org/" + "a" * 2100})
    error(response, 422, "invalid_input")
    assert response.json()["error"]["param"] == "callback_url"


def test_the_delivery_is_written_with_the_verdict_and_queued_after_it(
        client: TestClient, tokens: Tokens, eager_queue: EagerQueue, allow_private: None,
        refused_connections: list[str]) -> None:
    with eager_queue.hold() as held:
        created = post_json(client, tokens.learner, {"problem": "secret_lookup", "code": REFERENCE,
                                                     "callback_url": HOOK})
        assert created.status_code == 202, created.text
        submission_id = created.json()["id"]
        assert deliveries_for(submission_id) == []  # nothing before the verdict
        grading = held.pop()
        eager_queue.run(grading)  # the worker judges; its delivery's message is held
        [hint] = held
    [row] = deliveries_for(submission_id)
    assert (hint.task, hint.args, hint.queue) == ("judge.deliver_webhook", (row.id,), "webhooks")
    assert row.state == "pending" and row.attempts == 0 and row.url == HOOK
    body = json.loads(row.body)
    assert body["event"] == "submission.done" and body["id"] == row.delivery_id
    summary = body["submission"]
    assert summary["id"] == submission_id and summary["status"] == "done"
    assert summary["verdict"] == "accepted" and summary["score"] == 1.0
    assert summary["url"] == f"/api/v1/submissions/{submission_id}"
    assert "tests" not in summary and "code" not in summary  # the GET has those, for the token's holder

    eager_queue.run(hint)  # one attempt: the guard refuses the connection
    assert refused_connections and "9" in refused_connections[-1]
    [row] = deliveries_for(submission_id)
    assert row.state == "pending" and row.attempts == 1
    history = client.get(f"/api/v1/submissions/{submission_id}/deliveries", headers=bearer(tokens.learner))
    assert history.status_code == 200, history.text
    [delivery] = history.json()
    assert delivery["id"] == row.delivery_id and delivery["state"] == "pending"
    assert delivery["event"] == "submission.done" and delivery["url"] == HOOK
    [attempt] = delivery["attempts"]
    assert attempt["status_code"] is None and "Connection" in attempt["error"]
    assert attempt["duration_ms"] >= 0 and attempt["response_snippet"] is None
    first = datetime.fromisoformat(attempt["attempted_at"])
    again = datetime.fromisoformat(delivery["next_attempt_at"])
    assert timedelta(seconds=9) <= again - first <= timedelta(seconds=12)  # the first wait: 10 s
    eager_queue.run(hint)  # a message again before it is due changes nothing
    assert deliveries_for(submission_id)[0].attempts == 1


def test_a_lost_claim_writes_no_delivery(tokens: Tokens, eager_queue: EagerQueue,
                                         allow_private: None) -> None:
    with session_scope() as session:
        user = session.scalar(select(User).where(User.name == "test-learner"))
        assert user is not None
        row = Submission(user_id=user.id, problem_id=1, version_id=1, mode="run", code=REFERENCE,
                         status="running", lease_token="a" * 32, callback_url=HOOK)
        session.add(row)
        session.flush()
        submission_id = row.id
    report = Report(Verdict.ACCEPTED, 1.0, "secret_lookup", "v")
    with session_scope() as session:
        assert not lifecycle.finish(session, submission_id, "b" * 32, report)  # not our claim
    assert deliveries_for(submission_id) == []
    with eager_queue.hold() as held, session_scope() as session:
        assert lifecycle.finish(session, submission_id, "a" * 32, report)
        [delivery] = deliveries_for(submission_id)
        assert [message.args for message in held] == [(delivery.id,)]


def test_deliveries_are_the_senders_and_admins_only(
        client: TestClient, tokens: Tokens, owned_problem: str, eager_queue: EagerQueue,
        allow_private: None) -> None:
    with eager_queue.hold():  # no attempt: only who may read the history matters here
        created = post_json(client, tokens.learner, {"problem": owned_problem, "code": "def ratio(h, t):\n"
                                                     "    return h / t\n", "callback_url": HOOK})
        assert created.status_code == 202, created.text
    path = f"/api/v1/submissions/{created.json()['id']}/deliveries"
    assert client.get(path, headers=bearer(tokens.learner)).status_code == 200
    assert client.get(path, headers=bearer(tokens.admin)).status_code == 200
    # The problem's owner reads the submission, not where its sender's webhooks go.
    assert client.get(f"/api/v1/submissions/{created.json()['id']}",
                      headers=bearer(tokens.instructor)).status_code == 200
    error(client.get(path, headers=bearer(tokens.instructor)), 403, "forbidden")
    error(client.get(path, headers=bearer(tokens.other_learner)), 404, "not_found")
    error(client.get("/api/v1/submissions/999999/deliveries", headers=bearer(tokens.learner)), 404)
    error(client.get(path), 401, "unauthorized")


def test_pending_deliveries_are_capped_per_user(
        client: TestClient, new_user: Callable[[], str], eager_queue: EagerQueue,
        allow_private: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(get_settings(), "webhook_max_pending_per_user", 1)
    token = new_user()
    body = {"problem": "secret_lookup", "code": REFERENCE, "callback_url": HOOK}
    with eager_queue.hold():
        assert post_json(client, token, body).status_code == 202  # one callback waiting
        refused = post_json(client, token, body)
        error(refused, 429, "quota_exceeded")
        assert refused.json()["error"]["param"] == "callback_url"
        assert post_json(client, token, {**body, "callback_url": None}).status_code == 202


def test_a_batch_gets_one_batch_done_once_every_submission_is(
        tokens: Tokens, eager_queue: EagerQueue, allow_private: None) -> None:
    with session_scope() as session:
        user = session.scalar(select(User).where(User.name == "test-admin"))
        assert user is not None
        batch = outbox.new_batch(session, user, HOOK)
        session.commit()
        batch_id = batch.id
        with eager_queue.hold() as held:
            ids = [submit(session, user, "secret_lookup", REFERENCE, Mode.RUN, None,
                          callback=Callback(HOOK, batch_id)).id for _ in range(3)]
            grading = list(held)
            held.clear()
            eager_queue.run(grading[0])
            eager_queue.run(grading[1])
            assert outbox.seal_batch(session, batch_id) == []  # one is still queued
            eager_queue.run(grading[2])  # the last one completes the sealed batch
            hints = list(held)
            held.clear()
    with session_scope() as session:
        rows = list(session.scalars(select(WebhookDelivery).where(
            (WebhookDelivery.batch_id == batch_id) | WebhookDelivery.submission_id.in_(ids))))
        events = sorted(row.event for row in rows)
        assert events == ["batch.done", "submission.done", "submission.done", "submission.done"]
        [done] = [row for row in rows if row.event == "batch.done"]
        body = json.loads(done.body)
        assert [s["id"] for s in body["batch"]["submissions"]] == ids
        assert {hint.args[0] for hint in hints} >= {done.id}
        assert outbox.seal_batch(session, batch_id) == []  # sealing again writes nothing more


def test_the_secret_is_read_then_rotated(client: TestClient, tokens: Tokens) -> None:
    first = client.get("/api/v1/me/webhook-secret", headers=bearer(tokens.other_learner))
    assert first.status_code == 200, first.text
    secret = first.json()["secret"]
    assert secret.startswith("whsec_") and len(secret) == 54
    assert client.get("/api/v1/me/webhook-secret", headers=bearer(tokens.other_learner)).json() == {
        "secret": secret}
    rotated = client.post("/api/v1/me/webhook-secret", headers=bearer(tokens.other_learner))
    assert rotated.status_code == 200 and rotated.json()["secret"] != secret
    assert client.get("/api/v1/me/webhook-secret", headers=bearer(tokens.other_learner)).json() == \
        rotated.json()
    other = client.get("/api/v1/me/webhook-secret", headers=bearer(tokens.learner)).json()["secret"]
    assert other != rotated.json()["secret"]  # each user has their own


def test_a_batch_with_a_refused_item_reports_the_others(
        tokens: Tokens, allow_private: None, refused_connections: list[str]) -> None:
    from judge.errors import InvalidInput
    from service.errors import NotFound
    from service.submissions import BatchItem
    from service.webhooks.batches import submit_batch

    with session_scope() as session:
        user = session.scalar(select(User).where(User.name == "test-admin"))
        assert user is not None
        items = [BatchItem("secret_lookup", REFERENCE, Mode.RUN), BatchItem("no_such_problem", "x", Mode.RUN)]
        batch_id, results = submit_batch(session, user, items, HOOK)  # judged eagerly, one by one
        assert batch_id is not None and isinstance(results[1], NotFound)
        stored = results[0]
        assert isinstance(stored, Submission)
        rows = list(session.scalars(select(WebhookDelivery).where(
            (WebhookDelivery.batch_id == batch_id) | (WebhookDelivery.submission_id == stored.id))))
        assert sorted(row.event for row in rows) == ["batch.done", "submission.done"]
        assert all(row.attempts == 1 for row in rows)  # each posted once (and refused by the guard)
        before = session.query(Submission).count()
        with pytest.raises(InvalidInput, match="callback_url"):
            submit_batch(session, user, items, "http://2130706433/")  # refused before any item
        assert session.query(Submission).count() == before
        assert submit_batch(session, user, [], None) == (None, [])


def test_the_batch_route_takes_a_callback_for_every_item_and_the_batch(
        client: TestClient, tokens: Tokens, allow_private: None, refused_connections: list[str]) -> None:
    items = [{"problem": "secret_lookup", "code": REFERENCE, "mode": "run"} for _ in range(2)]
    response = client.post("/api/v1/submissions/batch", headers=bearer(tokens.instructor),
                           json={"items": items, "callback_url": HOOK})
    assert response.status_code == 200, response.text
    body = response.json()
    batch_id = body["webhook_batch"]
    ids = [result["submission"]["id"] for result in body["results"]]
    assert isinstance(batch_id, int) and len(ids) == 2
    with session_scope() as session:
        rows = list(session.scalars(select(WebhookDelivery).where(
            (WebhookDelivery.batch_id == batch_id) | WebhookDelivery.submission_id.in_(ids))))
        assert sorted(row.event for row in rows) == ["batch.done", "submission.done", "submission.done"]
    # The history of the submission that completed the batch shows the batch's delivery too.
    shown = client.get(f"/api/v1/submissions/{ids[-1]}/deliveries", headers=bearer(tokens.instructor))
    assert sorted(d["event"] for d in shown.json()) == ["batch.done", "submission.done"]
    refused = client.post("/api/v1/submissions/batch", headers=bearer(tokens.instructor),
                          json={"items": items, "callback_url": "http://0x7f000001/"})
    error(refused, 422, "invalid_input")
    assert refused.json()["error"]["param"] == "callback_url"
    plain = client.post("/api/v1/submissions/batch", headers=bearer(tokens.instructor), json={"items": items})
    assert plain.status_code == 200 and plain.json()["webhook_batch"] is None


def test_an_address_that_turned_private_is_refused_at_delivery_without_connecting(tokens: Tokens) -> None:
    """The URL passed its check when the submission was made; by the attempt its host is
    loopback (DNS changed): the attempt is recorded as refused and nothing connects (the
    network guard would fail this test)."""
    from service.webhooks.delivery import Outcome, deliver

    with session_scope() as session:
        user = session.scalar(select(User).where(User.name == "test-learner"))
        assert user is not None
        row = WebhookDelivery(delivery_id="d" * 32, user_id=user.id, event="submission.done",
                              url="http://localhost:9/hook", body="{}", state="pending")
        session.add(row)
        session.flush()
        pk = row.id
    with session_scope() as session:
        assert deliver(session, pk) is Outcome.RETRY
    with session_scope() as session:
        stored = session.get(WebhookDelivery, pk)
        assert stored is not None and stored.attempts == 1
        [attempt] = stored.attempt_log
        assert attempt.status_code is None and attempt.error is not None
        assert attempt.error.startswith("refused: callback_url:") and "not a public host" in attempt.error
