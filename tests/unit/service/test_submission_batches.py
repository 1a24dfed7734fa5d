"""POST /submissions/batch: up to 100 submissions in one request, each with its own idempotency
key and its own result (the submission, or the error a single POST would have had); the
learner's queue quota counts every item, so a batch cannot get past it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from service.db.models import Role, Submission
from service.db.session import session_scope
from service.settings import get_settings
from tests.unit.service.conftest import EagerQueue
from tests.unit.service.helpers import SUBMISSIONS, WRONG, error
from tests.utils.service import REFERENCE, bearer
from tests.utils.service_fixtures import Tokens

BATCH = f"{SUBMISSIONS}/batch"


def item(code: str = REFERENCE, **fields: Any) -> dict[str, Any]:
    return {"problem": "secret_lookup", "code": code, "mode": "run", **fields}


def stored_count() -> int:
    with session_scope() as session:
        return session.query(Submission).count()


def test_a_batch_reports_each_item_and_one_failure_stops_none(client: TestClient, tokens: Tokens) -> None:
    items = [item(), item(problem="no_such_problem"), item(WRONG), item("x" * (get_settings().max_code_bytes + 1)),
             item(mode="try")]
    response = client.post(BATCH, headers=bearer(tokens.learner), json={"items": items})
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert [r["index"] for r in results] == [0, 1, 2, 3, 4]
    assert [r["status"] for r in results] == [202, 404, 202, 413, 422]
    assert results[0]["submission"]["problem"] == "secret_lookup" and results[0]["error"] is None
    for failed, code in ((results[1], "not_found"), (results[3], "too_large"), (results[4], "invalid_input")):
        assert failed["submission"] is None
        assert set(failed["error"]) == {"code", "message", "param", "request_id"}
        assert failed["error"]["code"] == code
        assert failed["error"]["request_id"] == response.headers["x-request-id"]
    assert results[4]["error"]["message"].startswith("arguments:")
    # Each taken item was judged as a single POST would have been.
    verdicts = [client.get(f"{SUBMISSIONS}/{results[i]['submission']['id']}",
                           headers=bearer(tokens.learner)).json()["verdict"] for i in (0, 2)]
    assert verdicts == ["accepted", "wrong_answer"]


def test_each_item_has_its_own_idempotency_key(client: TestClient, tokens: Tokens) -> None:
    items = [item(idempotency_key="batch-a"), item(WRONG, idempotency_key="batch-b"), item()]
    first = client.post(BATCH, headers=bearer(tokens.learner), json={"items": items}).json()["results"]
    before = stored_count()
    again = client.post(BATCH, headers=bearer(tokens.learner), json={"items": items}).json()["results"]
    # The keyed items answer with the rows they made; the unkeyed one is a new submission.
    assert [r["submission"]["id"] for r in again[:2]] == [r["submission"]["id"] for r in first[:2]]
    assert again[2]["submission"]["id"] != first[2]["submission"]["id"]
    assert stored_count() == before + 1
    # The same key with other code is that item's conflict, not the batch's.
    changed = client.post(BATCH, headers=bearer(tokens.learner),
                          json={"items": [item(idempotency_key="batch-a", code=WRONG), item()]}).json()
    assert [r["status"] for r in changed["results"]] == [409, 202]
    assert changed["results"][0]["error"]["code"] == "conflict"
    bad_key = client.post(BATCH, headers=bearer(tokens.learner),
                          json={"items": [item(idempotency_key="")]}).json()["results"][0]
    assert bad_key["status"] == 422


def test_the_queue_quota_counts_every_item(client: TestClient, new_user: Callable[[Role], str],
                                           eager_queue: EagerQueue) -> None:
    token = new_user(Role.LEARNER)
    quota = get_settings().learner_queue_quota
    with eager_queue.hold():  # no worker drains the queue: each taken item stays queued
        before = stored_count()
        response = client.post(BATCH, headers=bearer(token), json={"items": [item()] * (quota + 3)})
        assert response.status_code == 200, response.text
        results = response.json()["results"]
        assert [r["status"] for r in results] == [202] * quota + [429] * 3
        refused = results[quota]["error"]
        assert refused["code"] == "quota_exceeded" and "queue quota" in refused["message"]
        assert stored_count() == before + quota
        assert response.headers["RateLimit-Remaining"] == "0"
        # A second batch, and a single POST, are refused as well while the queue is full.
        again = client.post(BATCH, headers=bearer(token), json={"items": [item()]}).json()["results"]
        assert again[0]["status"] == 429
        error(client.post(SUBMISSIONS, headers=bearer(token), json=item()), 429, "quota_exceeded")
    eager_queue.release()
    # Judged: the quota is free again.
    assert client.post(BATCH, headers=bearer(token), json={"items": [item()]}).json()["results"][0]["status"] == 202


def test_an_instructor_has_no_queue_quota(client: TestClient, tokens: Tokens, eager_queue: EagerQueue) -> None:
    quota = get_settings().learner_queue_quota
    with eager_queue.hold():
        response = client.post(BATCH, headers=bearer(tokens.instructor), json={"items": [item()] * (quota + 1)})
        assert [r["status"] for r in response.json()["results"]] == [202] * (quota + 1)
        assert "RateLimit-Limit" not in response.headers
    eager_queue.release()


def test_the_batch_itself_must_be_valid(client: TestClient, tokens: Tokens) -> None:
    before = stored_count()
    assert "items" in error(client.post(BATCH, headers=bearer(tokens.learner), json={"items": []}), 422)
    error(client.post(BATCH, headers=bearer(tokens.learner), json={"items": [item()] * 101}), 422, "invalid_input")
    error(client.post(BATCH, headers=bearer(tokens.learner), json={"items": [item(), {"code": 1}]}), 422)
    error(client.post(BATCH, json={"items": [item()]}), 401, "unauthorized")
    assert stored_count() == before  # none of these stored anything


def test_replaying_keyed_items_never_sends_another_message(client: TestClient, new_user: Callable[[Role], str],
                                                           eager_queue: EagerQueue) -> None:
    """The attack: one Idempotency-Key replayed while its row waits re-sent its job each time
    (ten 100-item batches grew the run queue from 1 to 1,001 messages). Replays, single or in a
    batch, answer with the row and send nothing; the broker holds one message per row."""
    token = new_user(Role.LEARNER)
    with eager_queue.hold() as held:
        single = client.post(SUBMISSIONS, headers={**bearer(token), "Idempotency-Key": "flood"},
                             json=item())
        assert single.status_code == 202
        keyed = [item(idempotency_key=f"flood-{n}") for n in range(4)]
        first = client.post(BATCH, headers=bearer(token), json={"items": keyed}).json()["results"]
        assert len(held) == 5
        for _ in range(10):
            again = client.post(SUBMISSIONS, headers={**bearer(token), "Idempotency-Key": "flood"},
                                json=item())
            assert again.status_code == 202 and again.json()["id"] == single.json()["id"]
            replayed = client.post(BATCH, headers=bearer(token), json={"items": keyed}).json()["results"]
            assert [r["submission"]["id"] for r in replayed] == [r["submission"]["id"] for r in first]
        assert len(held) == 5 and stored_count() >= 5
    eager_queue.release()
    assert client.get(f"{SUBMISSIONS}/{single.json()['id']}", headers=bearer(token)).json()["status"] == "done"


def test_an_items_own_callback_url_is_refused_not_dropped(client: TestClient, tokens: Tokens) -> None:
    """It was in every item's schema, accepted and never posted to: now the whole request is
    refused, naming the item, and nothing is stored."""
    before = stored_count()
    response = client.post(BATCH, headers=bearer(tokens.learner), json={"items": [
        item(), item(callback_url="https://hooks.example.com/in")]})
    message = error(response, 422, "invalid_input")
    assert "items.1" in message and "top level" in message, message
    assert stored_count() == before
    schema = client.get("/openapi.json").json()["components"]["schemas"]["BatchItem"]
    assert "callback_url" not in schema["properties"]
