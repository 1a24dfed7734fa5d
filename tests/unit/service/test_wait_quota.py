"""One account holds at most JUDGE_MAX_WAITS_PER_USER waiting requests (?wait= and /events) at
once in an API process; the next is a 429 with Retry-After, and every hold is given back."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient

from api.waits import WaitQuota, wait_quota
from service.db.models import Submission, SubmissionStatus
from service.db.session import session_scope
from service.errors import QuotaExceeded
from service.settings import get_settings
from tests.unit.service.helpers import SUBMISSIONS
from tests.utils.service import bearer, store_submission
from tests.utils.service_fixtures import Tokens


def test_the_quota_counts_each_user_apart_and_a_release_once() -> None:
    quota = WaitQuota()
    first, second = quota.take(1, 2), quota.take(1, 2)
    with pytest.raises(QuotaExceeded) as refused:
        quota.take(1, 2)
    assert refused.value.retry_after == 1 and "at most 2" in refused.value.message
    other = quota.take(2, 2)  # another user is not affected
    first()
    first()  # a second release of the same hold changes nothing
    assert quota.held == {1: 1, 2: 1}
    quota.take(1, 2)
    second(), other()
    assert quota.held == {1: 1}


@pytest.fixture
def user_id(client: TestClient, tokens: Tokens) -> int:
    return int(client.get("/api/v1/me", headers=bearer(tokens.learner)).json()["id"])


@pytest.fixture
def full(user_id: int) -> Iterator[Callable[[], None]]:
    """The learner holds as many waits as allowed (as if that many requests were waiting)."""
    cap = get_settings().max_waits_per_user
    releases = [wait_quota.take(user_id, cap) for _ in range(cap)]
    yield lambda: releases.pop()()
    for release in releases:
        release()


def test_past_the_cap_a_wait_and_a_stream_are_refused(client: TestClient, tokens: Tokens,
                                                      full: Callable[[], None]) -> None:
    submission_id = store_submission()
    for path in (f"{SUBMISSIONS}/{submission_id}?wait=5", f"{SUBMISSIONS}/{submission_id}/events"):
        response = client.get(path, headers=bearer(tokens.learner))
        assert response.status_code == 429, path
        assert response.headers["Retry-After"] == "1"
        assert response.json()["error"]["code"] == "quota_exceeded"
        assert "JUDGE_MAX_WAITS_PER_USER" in response.json()["error"]["message"]
    # Reading without waiting is always allowed, and another learner is not affected.
    assert client.get(f"{SUBMISSIONS}/{submission_id}", headers=bearer(tokens.learner)).status_code == 200
    full()  # one of the waiting requests ended
    assert client.get(f"{SUBMISSIONS}/{submission_id}?wait=0.05",
                      headers=bearer(tokens.learner)).status_code == 200


def test_every_hold_is_given_back(client: TestClient, tokens: Tokens, user_id: int) -> None:
    submission_id = store_submission()
    assert client.get(f"{SUBMISSIONS}/{submission_id}?wait=0.05",
                      headers=bearer(tokens.learner)).status_code == 200
    assert client.get(f"{SUBMISSIONS}/999999999?wait=1",
                      headers=bearer(tokens.learner)).status_code == 404
    assert user_id not in wait_quota.held
    with session_scope() as session:  # done: its stream sends the whole submission and ends
        row = session.get(Submission, submission_id)
        assert row is not None
        row.status = SubmissionStatus.DONE
    response = client.get(f"{SUBMISSIONS}/{submission_id}/events", headers=bearer(tokens.learner))
    assert response.status_code == 200 and "event: done" in response.text
    assert user_id not in wait_quota.held
