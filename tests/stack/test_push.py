"""Push, not poll, for real: a worker process commits each status change and announces it on
Redis; the API (in this process) wakes its waiters from its subscription. With the subscription
cut, the waiters wake from the database instead. The figures printed compare the delay from the
worker's claim to the waiter waking, pushed and polled (the old 0.1 s tick)."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

import api.routes.submissions as submission_routes
from api.waits import Watcher, watcher
from service import announcements
from service.announcements import Change, RedisFeed
from service.celery_app import RUN_QUEUE, enqueue_submission
from service.db.models import Submission, SubmissionStatus
from service.db.session import session_scope
from service.settings import get_settings
from tests.utils.service import SLOW_REFERENCE, bearer, store_submission, submit
from tests.utils.service_fixtures import Service, Tokens
from tests.utils.socket_proxy import SocketProxy

SAMPLES = 8


@pytest.fixture(autouse=True)
def redis_broker() -> None:
    if announcements.redis_url(get_settings().resolved_broker_url()) is None:
        pytest.skip("the broker is not Redis: there is nothing to push with (the API polls)")


def eventually(condition: Callable[[], object], timeout: float = 10, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"not within {timeout} s: {what}"
        time.sleep(0.005)


def events_of(text: str) -> list[tuple[str, dict[str, Any]]]:
    found = []
    for block in text.split("\n\n"):
        lines = [line for line in block.split("\n") if line and not line.startswith(":")]
        if lines:
            fields = dict(line.split(": ", 1) for line in lines)
            found.append((fields["event"], json.loads(fields["data"])))
    return found


def started_at(submission_id: int) -> float:
    """The worker's claim (just before its commit), as a Unix time."""
    with session_scope() as session:
        row = session.get(Submission, submission_id)
        assert row is not None and row.started_at is not None
        return row.started_at.replace(tzinfo=UTC).timestamp()


class TimedWatcher(Watcher):
    """Notes when the first change after queued reached this process (pushed or looked up)."""

    def __init__(self, open_feed: Callable[[], RedisFeed]) -> None:
        super().__init__(open_feed)
        self.woke_at: dict[int, float] = {}

    def _hand_out(self, change: Change) -> None:
        if change.status != SubmissionStatus.QUEUED and change.id in self.watches:
            self.woke_at.setdefault(change.id, time.time())
        super()._hand_out(change)


@pytest.fixture
def proxied(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TimedWatcher, SocketProxy]]:
    """The API's routes on a watcher of their own whose subscription goes through SocketProxy."""
    url = announcements.redis_url(get_settings().resolved_broker_url())
    assert url is not None
    parsed = httpx.URL(url)
    proxy = SocketProxy(upstream=(parsed.host or "127.0.0.1", parsed.port or 6379))
    own = TimedWatcher(lambda: RedisFeed(f"redis://127.0.0.1:{proxy.port}/0", announcements.channel()))
    monkeypatch.setattr(submission_routes, "watcher", own)
    yield own, proxy
    for task in (own.subscriber, own.poller):
        if task is not None and own.loop is not None:
            own.loop.call_soon_threadsafe(task.cancel)
    proxy.cut()


def wait_for_change(client: TestClient, token: str, watching: Watcher,
                    pool: ThreadPoolExecutor) -> tuple[int, dict[str, Any], float, float]:
    """A queued run of the reference, a request waiting for its next change, then the message to
    the worker: (id, body, seconds from sending to the answer, the answer's Unix time)."""
    submission_id = store_submission()
    waiting = pool.submit(client.get, f"/api/v1/submissions/{submission_id}?wait=20&until=change",
                          headers=bearer(token))
    eventually(lambda: watching.watches.get(submission_id), what="the request waits")
    sent = time.monotonic()
    enqueue_submission(submission_id, queue=RUN_QUEUE)
    response = waiting.result(timeout=60)
    answered = time.time()
    assert response.status_code == 200, response.text
    return submission_id, response.json(), time.monotonic() - sent, answered


def settle(ids: list[int], timeout: float = 90) -> None:
    """Wait until the worker has judged these (so that none counts against a later quota)."""
    deadline = time.monotonic() + timeout
    while True:
        with session_scope() as session:
            statuses = [session.get(Submission, i).status for i in ids]  # type: ignore[union-attr]
        if set(statuses) <= {SubmissionStatus.DONE}:
            return
        assert time.monotonic() < deadline, statuses
        time.sleep(0.2)


def figures(delays: list[float]) -> str:
    ms = sorted(d * 1000 for d in delays)
    return f"median {statistics.median(ms):.0f} ms, min {ms[0]:.0f}, max {ms[-1]:.0f} (n={len(ms)})"


def test_events_stream_queued_running_done_for_a_real_submission(client: TestClient, tokens: Tokens) -> None:
    submission_id = store_submission()
    with ThreadPoolExecutor(1) as pool:
        streaming = pool.submit(client.get, f"/api/v1/submissions/{submission_id}/events",
                                headers=bearer(tokens.learner))
        eventually(lambda: watcher.watches.get(submission_id), what="the stream is open")
        enqueue_submission(submission_id, queue=RUN_QUEUE)
        response = streaming.result(timeout=90)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    events = events_of(response.text)
    assert [data["status"] for _, data in events] == ["queued", "running", "done"]
    assert [name for name, _ in events] == ["status", "status", "done"]
    assert events[0][1] == {"id": submission_id, "status": "queued", "verdict": None, "score": None}
    final = events[-1][1]
    assert final["verdict"] == "accepted" and final["score"] == 1.0 and len(final["tests"]) == 2


def test_a_wait_until_change_returns_on_the_first_change_pushed_or_polled(
        client: TestClient, tokens: Tokens, proxied: tuple[TimedWatcher, SocketProxy]) -> None:
    own, proxy = proxied
    with ThreadPoolExecutor(2) as pool:
        # Subscribed: every change is pushed.
        first = store_submission()
        pool.submit(client.get, f"/api/v1/submissions/{first}?wait=0.1", headers=bearer(tokens.learner)).result()
        enqueue_submission(first, queue=RUN_QUEUE)
        ids = [first]
        eventually(lambda: own.subscribed, what="the watcher subscribes")
        pushed_before = own.pushed
        pushed: list[float] = []
        answers: list[float] = []
        for _ in range(SAMPLES):
            submission_id, body, elapsed, answered = wait_for_change(client, tokens.learner, own, pool)
            assert body["status"] in ("running", "done") and elapsed < 10  # well before the 20 s
            ids.append(submission_id)
            pushed.append(own.woke_at[submission_id] - started_at(submission_id))
            answers.append(answered - started_at(submission_id))
        assert own.pushed >= pushed_before + SAMPLES

        # The subscription cut: the same waits wake from the database, tick by tick (as before).
        proxy.cut()
        eventually(lambda: not own.subscribed, what="the watcher notices the cut")
        polled: list[float] = []
        for _ in range(3 * SAMPLES):
            submission_id, body, elapsed, _ = wait_for_change(client, tokens.learner, own, pool)
            assert body["status"] in ("running", "done") and elapsed < 10
            ids.append(submission_id)
            # Under load the request's own first read (in a thread) may come after the verdict: it
            # answers at once, no look at the database woke it, and the sample measures nothing
            # (pushed, the announcements reach the open watch either way). Seen in CI once the
            # worker's claim and judging got faster (stop 44).
            if submission_id in own.woke_at:
                polled.append(own.woke_at[submission_id] - started_at(submission_id))
            if len(polled) == SAMPLES:
                break
        assert len(polled) == SAMPLES, f"only {len(polled)} waits were woken by a look"
        proxy.restore()
        eventually(lambda: own.subscribed, timeout=15, what="the watcher subscribes again")
    settle(ids)
    print(f"\nfrom the worker's claim to the waiter waking: pushed {figures(pushed)}; "
          f"polled every {0.1:g} s {figures(polled)}; to the answer in the client (pushed) {figures(answers)}")


def test_waiters_wake_while_redis_pubsub_is_unavailable(
        client: TestClient, tokens: Tokens, proxied: tuple[TimedWatcher, SocketProxy]) -> None:
    own, proxy = proxied
    with ThreadPoolExecutor(2) as pool:
        first = store_submission()
        waiting = pool.submit(client.get, f"/api/v1/submissions/{first}?wait=20&until=change",
                              headers=bearer(tokens.learner))
        eventually(lambda: own.subscribed and own.watches.get(first), what="a subscribed waiter")
        proxy.cut()  # Redis "restarts" under a waiting request
        eventually(lambda: not own.subscribed, what="the watcher notices the cut")
        looks = own.looks
        sent = time.monotonic()
        enqueue_submission(first, queue=RUN_QUEUE)  # the worker's announcement reaches nobody
        body = waiting.result(timeout=60).json()
        assert body["status"] in ("running", "done") and time.monotonic() - sent < 10
        assert own.looks > looks
        # A default wait (until done) wakes too.
        done = pool.submit(client.get, f"/api/v1/submissions/{first}?wait=20", headers=bearer(tokens.learner))
        assert done.result(timeout=60).json()["status"] == "done"

        proxy.restore()
        eventually(lambda: own.subscribed, timeout=15, what="the watcher subscribes again")
        pushed = own.pushed
        submission_id, body, elapsed, _ = wait_for_change(client, tokens.learner, own, pool)
        assert body["status"] in ("running", "done") and elapsed < 10
        # Subscribed again, the watcher also looks at the database once (what the cut may have
        # hidden), and that look may wake the request just before the announcement comes.
        eventually(lambda: own.pushed > pushed, what="announcements arrive again")
    settle([first, submission_id])


def test_a_real_stream_arrives_event_by_event_on_the_embedded_default(embedded: Service) -> None:
    """Over a real socket and `judge serve`'s private Redis (a Unix socket): events come as they
    happen, not at the end."""
    created = submit(embedded.client, embedded.learner, SLOW_REFERENCE)  # running lasts ~3 s
    arrivals: list[tuple[float, dict[str, Any]]] = []
    started = time.monotonic()
    with embedded.client.stream("GET", f"/api/v1/submissions/{created['id']}/events",
                                headers=bearer(embedded.learner), timeout=120) as response:
        assert response.status_code == 200
        event: dict[str, str] = {}
        for line in response.iter_lines():
            if not line:
                if "data" in event:
                    arrivals.append((time.monotonic() - started, json.loads(event["data"])))
                event = {}
            elif not line.startswith(":"):
                name, _, value = line.partition(": ")
                event[name] = value
    statuses = [data["status"] for _, data in arrivals]
    assert statuses[-1] == "done" and arrivals[-1][1]["verdict"] == "accepted"
    assert statuses in (["queued", "running", "done"], ["running", "done"]), statuses
    # The verdict came seconds after "running": the stream was not held back until the end.
    running = next(t for t, data in arrivals if data["status"] == "running")
    assert arrivals[-1][0] - running > 1.0, arrivals
    print("\nembedded default, events after opening the stream: "
          + ", ".join(f"{data['status']} {at:.2f} s" for at, data in arrivals))
