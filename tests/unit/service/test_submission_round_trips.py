"""Fewer round trips: POST ?wait= answers with the verdict when it is in time (200) and as
before otherwise (202), counting against the wait quota; GET ?ids= reads many at once, only those
the caller may read; ?view=summary leaves out the code and the test rows."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient

from api.waits import wait_quota, watcher
from service.db.models import Role, Submission, SubmissionStatus
from service.db.session import session_scope
from service.settings import get_settings
from tests.unit.service.conftest import EagerQueue
from tests.unit.service.helpers import SUBMISSIONS, WRONG, error, read
from tests.utils.service import REFERENCE, bearer, store_submission, submit
from tests.utils.service_fixtures import Tokens

BODY = {"problem": "secret_lookup", "code": REFERENCE, "mode": "run"}


def stored_count() -> int:
    with session_scope() as session:
        return session.query(Submission).count()


@pytest.fixture
def stored() -> Iterator[Callable[[], int]]:
    """Queued rows of test-learner written straight to the database, marked done afterwards so
    that they hold none of its queue quota in later tests."""
    made: list[int] = []

    def store() -> int:
        made.append(store_submission())
        return made[-1]

    yield store
    with session_scope() as session:
        for row in session.query(Submission).filter(Submission.id.in_(made)):
            row.status = SubmissionStatus.DONE


def user_id(client: TestClient, token: str) -> int:
    return int(client.get("/api/v1/me", headers=bearer(token)).json()["id"])


# ---------------------------------------------------------------------------------------------
# POST ?wait=


def test_post_with_wait_answers_200_with_the_verdict_when_done(client: TestClient, tokens: Tokens) -> None:
    response = client.post(f"{SUBMISSIONS}?wait=5", headers=bearer(tokens.learner), json=BODY)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == "done" and body["verdict"] == "accepted" and body["tests"]
    assert response.headers["Location"] == f"/api/v1/submissions/{body['id']}"
    assert body == read(client, tokens.learner, body["id"]).json()


def test_post_without_wait_stays_202(client: TestClient, tokens: Tokens) -> None:
    response = client.post(SUBMISSIONS, headers=bearer(tokens.learner), json=BODY)
    assert response.status_code == 202, response.text


def test_post_with_wait_is_202_when_not_done_in_time(client: TestClient, new_user: Callable[[Role], str],
                                                     eager_queue: EagerQueue) -> None:
    token = new_user(Role.LEARNER)
    with eager_queue.hold():
        started = time.monotonic()
        response = client.post(f"{SUBMISSIONS}?wait=0.3", headers=bearer(token), json=BODY)
        waited = time.monotonic() - started
        assert response.status_code == 202, response.text
        assert response.json()["status"] == "queued"
        assert 0.25 < waited < 5
    eager_queue.release()
    assert user_id(client, token) not in wait_quota.held  # the hold was given back


def test_post_with_wait_wakes_when_the_verdict_lands(client: TestClient, new_user: Callable[[Role], str],
                                                     eager_queue: EagerQueue) -> None:
    token = new_user(Role.LEARNER)

    def judge_once_waiting() -> None:
        deadline = time.monotonic() + 10
        while not watcher.watches and time.monotonic() < deadline:
            time.sleep(0.01)
        eager_queue.release()  # the worker takes the message now: it judges and announces

    with eager_queue.hold():
        worker = threading.Thread(target=judge_once_waiting)
        worker.start()
        started = time.monotonic()
        response = client.post(f"{SUBMISSIONS}?wait=20", headers=bearer(token), json=BODY)
        worker.join()
    assert response.status_code == 200, response.text
    assert response.json()["verdict"] == "accepted"
    assert time.monotonic() - started < 10  # woken by the announcement, not by the time


@pytest.fixture
def waits_full(client: TestClient, tokens: Tokens) -> Iterator[None]:
    ident = user_id(client, tokens.other_learner)
    cap = get_settings().max_waits_per_user
    releases = [wait_quota.take(ident, cap) for _ in range(cap)]
    yield
    for release in releases:
        release()


@pytest.mark.usefixtures("waits_full")
def test_post_with_wait_counts_against_the_wait_quota(client: TestClient, tokens: Tokens) -> None:
    before = stored_count()
    response = client.post(f"{SUBMISSIONS}?wait=5", headers=bearer(tokens.other_learner), json=BODY)
    assert "wait quota" in error(response, 429, "quota_exceeded")
    assert stored_count() == before  # refused before anything was stored
    # Without ?wait= it does not wait, so the wait quota does not apply.
    assert client.post(SUBMISSIONS, headers=bearer(tokens.other_learner), json=BODY).status_code == 202


def test_post_wait_is_checked_like_get_wait(client: TestClient, tokens: Tokens) -> None:
    error(client.post(f"{SUBMISSIONS}?wait=-1", headers=bearer(tokens.learner), json=BODY), 422)


# ---------------------------------------------------------------------------------------------
# GET ?ids=


def test_ids_reads_those_the_caller_may_read_in_the_order_asked(client: TestClient, tokens: Tokens) -> None:
    mine = [submit(client, tokens.learner, REFERENCE, mode="run")["id"] for _ in range(2)]
    theirs = submit(client, tokens.other_learner, REFERENCE, mode="run")["id"]
    asked = [mine[1], theirs, 10**9, mine[0], mine[1]]
    response = client.get(SUBMISSIONS, headers=bearer(tokens.learner),
                          params={"ids": ",".join(map(str, asked))})
    assert response.status_code == 200, response.text
    page = response.json()
    # Foreign and unknown ids are left out alike; a repeated id comes once.
    assert [item["id"] for item in page["items"]] == [mine[1], mine[0]]
    assert page["total"] == 2 and "code" not in page["items"][0]
    # The admin may read every one of them.
    everyone = client.get(SUBMISSIONS, headers=bearer(tokens.admin),
                          params={"ids": f"{theirs},{mine[0]}"}).json()
    assert [item["id"] for item in everyone["items"]] == [theirs, mine[0]]


def test_ids_are_bounded_and_checked(client: TestClient, tokens: Tokens,
                                     stored: Callable[[], int]) -> None:
    ident = stored()
    hundred = ",".join(str(ident) for _ in range(100))
    assert client.get(SUBMISSIONS, headers=bearer(tokens.learner),
                      params={"ids": hundred}).json()["total"] == 1
    too_many = ",".join(str(ident) for _ in range(101))
    response = client.get(SUBMISSIONS, headers=bearer(tokens.learner), params={"ids": too_many})
    assert "at most 100" in error(response, 422, "invalid_input")
    assert response.json()["error"]["param"] == "ids"
    for bad in ("", "1,x", "-3", "1;2", "99999999999999"):
        response = client.get(SUBMISSIONS, headers=bearer(tokens.learner), params={"ids": bad})
        error(response, 422, "invalid_input")
    error(client.get(SUBMISSIONS, params={"ids": str(ident)}), 401, "unauthorized")


# ---------------------------------------------------------------------------------------------
# ?view=summary


def test_summary_view_has_the_counts_without_code_or_tests(client: TestClient, tokens: Tokens,
                                                            stored: Callable[[], int]) -> None:
    accepted = submit(client, tokens.learner, REFERENCE)["id"]  # mode submit: hidden tests too
    full = read(client, tokens.learner, accepted).json()
    summary = read(client, tokens.learner, accepted, view="summary").json()
    assert set(summary) == {"view", "id", "status", "verdict", "score", "passed", "total", "held"}
    hidden = full["hidden"] or {"total": 0, "passed": 0}
    assert summary["total"] == len(full["tests"]) + hidden["total"] > len(full["tests"])
    assert summary["passed"] == summary["total"]
    assert (summary["status"], summary["verdict"], summary["score"]) == ("done", "accepted", 1.0)
    wrong = submit(client, tokens.learner, WRONG)["id"]
    counted = read(client, tokens.learner, wrong, view="summary").json()
    assert counted["verdict"] == "wrong_answer" and counted["passed"] < counted["total"]
    # Before the verdict there is nothing to count; a wait works with the view as without.
    queued = stored()
    assert read(client, tokens.learner, queued, view="summary", wait=0.05).json() == {
        "view": "summary", "id": queued, "status": "queued", "verdict": None, "score": None,
        "passed": None, "total": None, "held": False}
    error(read(client, tokens.learner, accepted, view="nothing"), 422, "invalid_input")
    error(read(client, tokens.other_learner, accepted, view="summary"), 404, "not_found")
