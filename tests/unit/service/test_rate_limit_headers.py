"""Limits a client can see: the submission routes send RateLimit-Limit, -Remaining and -Reset for
the quota they count against (a learner's queue quota on posts, the wait quota on waiting reads
and streams), and a 429 names the quota that refused, with Retry-After and the same headers."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from api.waits import wait_quota
from service.db.models import Role
from service.settings import Settings, get_settings
from tests.unit.service.conftest import EagerQueue
from tests.unit.service.helpers import SUBMISSIONS, error
from tests.utils.service import REFERENCE, bearer, submit
from tests.utils.service_fixtures import Tokens

BODY = {"problem": "secret_lookup", "code": REFERENCE, "mode": "run"}


def limits(response: object) -> tuple[int, int, int]:
    headers = response.headers  # type: ignore[attr-defined]
    return (int(headers["RateLimit-Limit"]), int(headers["RateLimit-Remaining"]),
            int(headers["RateLimit-Reset"]))


def test_the_queue_quota_counts_down_and_its_429_names_it(client: TestClient, new_user: Callable[[Role], str],
                                                          eager_queue: EagerQueue) -> None:
    token = new_user(Role.LEARNER)
    quota = get_settings().learner_queue_quota
    with eager_queue.hold():  # nothing is judged: each submission keeps its place in the queue
        seen = [limits(client.post(SUBMISSIONS, headers=bearer(token), json=BODY)) for _ in range(quota)]
        assert [remaining for _, remaining, _ in seen] == list(range(quota - 1, -1, -1))
        assert {limit for limit, _, _ in seen} == {quota}
        assert [reset for _, _, reset in seen[:-1]] == [0] * (quota - 1) and seen[-1][2] > 0
        refused = client.post(SUBMISSIONS, headers=bearer(token), json=BODY)
        message = error(refused, 429, "quota_exceeded")
        assert "queue quota" in message and "JUDGE_LEARNER_QUEUE_QUOTA" in message
        assert limits(refused) == (quota, 0, int(refused.headers["Retry-After"]))
    eager_queue.release()
    # Judged, the quota is whole again: the answer counts only its own submission, as it was
    # stored (the eager queue has judged it since; a real one would still hold it).
    assert limits(client.post(SUBMISSIONS, headers=bearer(token), json=BODY))[:2] == (quota, quota - 1)


def test_waiting_reads_count_the_wait_quota(client: TestClient, tokens: Tokens) -> None:
    created = submit(client, tokens.learner, REFERENCE, mode="run")
    me = int(client.get("/api/v1/me", headers=bearer(tokens.learner)).json()["id"])
    cap = get_settings().max_waits_per_user
    path = f"{SUBMISSIONS}/{created['id']}"
    assert limits(client.get(path, headers=bearer(tokens.learner))) == (cap, cap, 0)
    # A waiting read holds one while it runs; two more held elsewhere count too.
    assert limits(client.get(path, headers=bearer(tokens.learner), params={"wait": 1})) == (cap, cap - 1, 0)
    held = [wait_quota.take(me, cap) for _ in range(2)]
    try:
        assert limits(client.get(path, headers=bearer(tokens.learner), params={"wait": 1}))[1] == cap - 3
        stream = client.get(f"{path}/events", headers=bearer(tokens.learner))
        assert stream.status_code == 200 and limits(stream)[1] == cap - 3
        held += [wait_quota.take(me, cap) for _ in range(cap - 2)]  # every one of them held now
        refused = client.get(path, headers=bearer(tokens.learner), params={"wait": 1})
        message = error(refused, 429, "quota_exceeded")
        assert "wait quota" in message and "JUDGE_MAX_WAITS_PER_USER" in message
        assert limits(refused) == (cap, 0, 1) and refused.headers["Retry-After"] == "1"
        # A read that does not wait is still answered, and says none is left.
        assert limits(client.get(path, headers=bearer(tokens.learner))) == (cap, 0, 1)
    finally:
        for release in held:
            release()


def test_a_post_with_wait_reports_the_tighter_quota(client: TestClient, new_user: Callable[[Role], str],
                                                    eager_queue: EagerQueue, fast_settings: Settings,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    token = new_user(Role.LEARNER)
    quota = fast_settings.learner_queue_quota
    with eager_queue.hold():  # the queue quota has quota - 1 left, the wait quota cap - 1
        assert limits(client.post(f"{SUBMISSIONS}?wait=0.05", headers=bearer(token), json=BODY)) == (
            quota, quota - 1, 0)
        monkeypatch.setattr(fast_settings, "max_waits_per_user", 2)  # now the wait quota is tighter
        assert limits(client.post(f"{SUBMISSIONS}?wait=0.05", headers=bearer(token), json=BODY)) == (2, 1, 0)
        assert limits(client.post(SUBMISSIONS, headers=bearer(token), json=BODY)) == (quota, quota - 3, 0)
    eager_queue.release()


def test_the_headers_are_in_the_openapi_description(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    post = paths["/api/v1/submissions"]["post"]["responses"]
    assert {"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} <= set(post["202"]["headers"])
    assert "200" in post and "429" in post
    for path, method in (("/api/v1/submissions/{submission_id}", "get"),
                         ("/api/v1/submissions/{submission_id}/events", "get"),
                         ("/api/v1/submissions/batch", "post")):
        responses = paths[path][method]["responses"]
        assert "RateLimit-Remaining" in responses["200"]["headers"], path
        assert "429" in responses, path
