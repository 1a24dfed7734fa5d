"""Push, not poll: every status change is announced after its commit, and waiting requests wake
on the announcement (``?wait=``, ``?wait=&until=change``, ``/events``); without pub/sub they wake
from the database. Here the announcements go through ``LocalBus`` (see conftest); the real
Redis path is tested in tests/stack/test_push.py."""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

import api.routes.submissions as submission_routes
import api.waits as waits
from api.routes.web import WEB
from api.waits import Watcher, watcher
from judge.results import Report, Verdict
from service import announcements, jobs, lifecycle
from service.announcements import Change
from service.celery_app import celery
from service.db.models import Submission, SubmissionStatus, utcnow
from service.db.session import new_session, session_scope
from service.settings import Settings
from tests.unit.service.conftest import EagerQueue
from tests.unit.service.helpers import SUBMISSIONS, error, read
from tests.unit.service.local_bus import LocalBus
from tests.utils.service import REFERENCE, bearer, store_submission, submit
from tests.utils.service_fixtures import Tokens, problem_files


def eventually(condition: Callable[[], object], timeout: float = 5, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"not within {timeout} s: {what or condition}"
        time.sleep(0.005)


@pytest.fixture
def background() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(4) as pool:
        yield pool


@pytest.fixture
def stored(tokens: Tokens) -> Iterator[Callable[..., int]]:
    """Makes submissions of test-learner's, written straight to the database (never sent); they
    are marked done afterwards, so that they count against no quota in later tests."""
    made: list[int] = []

    def make(**fields: Any) -> int:
        made.append(store_submission(**fields))
        return made[-1]

    yield make
    with session_scope() as session:
        for row in session.scalars(select(Submission).where(Submission.id.in_(made))):
            row.status, row.lease_token = SubmissionStatus.DONE, None


@pytest.fixture
def queued(stored: Callable[..., int]) -> int:
    return stored()


@pytest.fixture
def subscribed(client: TestClient, tokens: Tokens, queued: int) -> None:
    """The API's watcher is running and subscribed to the bus."""
    read(client, tokens.learner, queued, wait=0.01)  # starts the watcher if need be
    eventually(lambda: watcher.subscribed, what="the watcher subscribes")


@pytest.fixture
def no_polling(monkeypatch: pytest.MonkeyPatch) -> None:
    """The watcher's looks at the database find nothing: only an announcement can wake anyone."""
    monkeypatch.setattr(waits, "_states", lambda ids: [])


def claim(submission_id: int) -> str:
    with session_scope() as session:
        token = lifecycle.claim(session, submission_id)
    assert token is not None
    return token


def finish(submission_id: int, token: str, verdict: Verdict = Verdict.ACCEPTED) -> None:
    report = Report(verdict, 1.0 if verdict is Verdict.ACCEPTED else 0.0, "secret_lookup", "fast")
    with session_scope() as session:
        assert lifecycle.finish(session, submission_id, token, report)


def read_its_state(submission_id: int) -> Callable[[], bool]:
    """A waiting request (or stream) of the submission has read its state since it started to
    watch: from now on each change reaches it as a change. Watching alone is not enough: a claim
    made before that read is simply the state it reads, not a change it is told of."""
    return lambda: any(w.last is not None for w in watcher.watches.get(submission_id, ()))


def events_of(text: str) -> list[tuple[str, dict[str, Any]]]:
    """(event, data) for each event of a text/event-stream body; comments are left out."""
    found = []
    for block in text.split("\n\n"):
        lines = [line for line in block.split("\n") if line and not line.startswith(":")]
        if not lines:
            continue
        fields = dict(line.split(": ", 1) for line in lines)
        found.append((fields["event"], json.loads(fields["data"])))
    return found


def stream(client: TestClient, token: str, submission_id: int) -> httpx.Response:
    response = client.get(f"{SUBMISSIONS}/{submission_id}/events", headers=bearer(token))
    return response


# ---------------------------------------------------------------------------------------------
# The message


def test_messages_are_small_json_and_anything_else_is_ignored() -> None:
    change = Change(7, SubmissionStatus.DONE, "accepted")
    assert json.loads(announcements.encode(change)) == {"id": 7, "status": "done", "verdict": "accepted"}
    assert announcements.decode(announcements.encode(change)) == change
    assert announcements.decode(b'{"id": 3, "status": "queued", "verdict": null}') == Change(3, "queued")
    for bad in (b"", b"\xff", b"[]", b'{"id": true, "status": "done"}', b'{"id": "3", "status": "done"}',
                b'{"id": 3, "status": "lost"}', b'{"id": 3, "status": "done", "verdict": 1}', b"null"):
        assert announcements.decode(bad) is None, bad


def test_the_channel_is_under_the_broker_key_prefix(fast_settings: Settings,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    assert announcements.channel() == "judge:submissions"
    monkeypatch.setattr(fast_settings, "broker_key_prefix", "run-42:")
    assert announcements.channel() == "run-42:judge:submissions"


def test_redis_urls_and_the_file_system_fallback(fast_settings: Settings,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    assert announcements.redis_url("redis://h:6379/15") == "redis://h:6379/15"
    assert announcements.redis_url("rediss://:pw@h:6380/0") == "rediss://:pw@h:6380/0"
    assert announcements.redis_url("redis+socket:///srv/data/redis/redis.sock") == (
        "unix:///srv/data/redis/redis.sock")
    assert announcements.redis_url("redis://a:6379/0;redis://b:6379/0") == "redis://a:6379/0"
    assert announcements.redis_url("filesystem://") is None
    assert announcements.redis_url("memory://") is None
    monkeypatch.setattr(fast_settings, "broker_url", "filesystem://")
    assert announcements.open_feed() is None  # the API polls; nothing is published


# ---------------------------------------------------------------------------------------------
# Announcing


def test_judging_announces_running_then_done_after_each_commit(
        client: TestClient, tokens: Tokens, local_bus: LocalBus, monkeypatch: pytest.MonkeyPatch) -> None:
    committed: list[tuple[int, str, str]] = []
    publish = local_bus.publish

    def publish_and_look(channel: str, messages: Any) -> None:
        for message in messages:  # what another process would read at this moment
            change = announcements.decode(message)
            assert change is not None
            with new_session() as session:
                row = session.get(Submission, change.id)
                assert row is not None
                committed.append((change.id, change.status, row.status))
        publish(channel, messages)

    monkeypatch.setattr(local_bus, "publish", publish_and_look)
    created = submit(client, tokens.learner, REFERENCE)
    assert local_bus.changes_of(created["id"]) == [("running", None), ("done", "accepted")]
    assert [c for c in committed if c[0] == created["id"]] == [
        (created["id"], "running", "running"), (created["id"], "done", "done")]
    assert local_bus.published[-1][0] == announcements.channel()


def test_a_release_is_announced(queued: int, local_bus: LocalBus) -> None:
    token = claim(queued)
    with session_scope() as session:
        assert lifecycle.release(session, queued, token, "waiting for a judge", refund=True)
        assert not lifecycle.release(session, queued, token, "again", refund=True)  # not ours: silent
    assert local_bus.changes_of(queued) == [("running", None), ("queued", None)]


def test_recovery_announces_what_it_requeues(stored: Callable[..., int], local_bus: LocalBus) -> None:
    dead = stored(status=SubmissionStatus.RUNNING, lease_token="gone",
                            lease_expires_at=utcnow() - timedelta(seconds=5))
    with session_scope() as session:
        assert dead in jobs.recover_stale(session)
    assert local_bus.changes_of(dead) == [("queued", None)]


def test_a_rejudge_announces_queued_before_the_message_goes(
        client: TestClient, tokens: Tokens, local_bus: LocalBus, eager_queue: EagerQueue) -> None:
    slug = "fast_push"
    created = client.post("/api/v1/problems", headers=bearer(tokens.instructor),
                          json={"slug": slug, "files": problem_files(slug)})
    assert created.status_code == 201, created.text
    published = client.post(f"/api/v1/problems/{slug}/publish", headers=bearer(tokens.instructor), json={})
    assert published.status_code == 200, published.text
    done = submit(client, tokens.learner, REFERENCE, problem=slug)
    order: list[str] = []
    publish, send = local_bus.publish, celery.send_task

    def publish_noted(channel: str, messages: Any) -> None:
        order.append("announced")
        publish(channel, messages)

    def send_noted(*args: Any, **kwargs: Any) -> None:
        order.append("sent")
        send(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(local_bus, "publish", publish_noted)
        patch.setattr(celery, "send_task", send_noted)
        with eager_queue.hold():
            response = client.post(f"/api/v1/problems/{slug}/rejudge", headers=bearer(tokens.instructor))
            assert response.status_code == 200 and response.json()["requeued"] == 1
    assert order == ["announced", "sent"]
    assert local_bus.changes_of(done["id"])[-1] == ("queued", None)
    eager_queue.release()
    assert local_bus.changes_of(done["id"])[-3:] == [("queued", None), ("running", None), ("done", "accepted")]


def test_publishing_never_fails_the_job(client: TestClient, tokens: Tokens, local_bus: LocalBus,
                                        caplog: pytest.LogCaptureFixture) -> None:
    local_bus.go_down()
    with caplog.at_level(logging.WARNING, logger="service.announcements"):
        created = submit(client, tokens.learner, REFERENCE)
    done = read(client, tokens.learner, created["id"], wait=5).json()
    assert done["status"] == "done" and done["verdict"] == "accepted"
    assert "could not announce" in caplog.text
    assert local_bus.changes_of(created["id"]) == []
    # After a failure it pauses instead of costing every job a time-out.
    assert announcements._quiet_until > time.monotonic()


# ---------------------------------------------------------------------------------------------
# Waking: ?wait=, ?wait=&until=change


def test_until_change_returns_on_the_next_change_pushed(
        client: TestClient, tokens: Tokens, queued: int, subscribed: None, no_polling: None,
        background: ThreadPoolExecutor) -> None:
    pushed = watcher.pushed
    waiting: Future[httpx.Response] = background.submit(read, client, tokens.learner, queued, wait=20,
                                                        until="change")
    eventually(read_its_state(queued), what="the request waits")
    claim(queued)
    response = waiting.result(timeout=10)
    # Looks find nothing here (no_polling): what woke the request can only be the announcement.
    assert response.status_code == 200 and response.json()["status"] == "running"
    assert watcher.pushed > pushed


def test_the_default_wait_still_holds_until_done(
        client: TestClient, tokens: Tokens, queued: int, subscribed: None, no_polling: None,
        background: ThreadPoolExecutor) -> None:
    waiting = background.submit(read, client, tokens.learner, queued, wait=20)
    eventually(read_its_state(queued), what="the request waits")
    token = claim(queued)
    time.sleep(0.3)
    assert not waiting.done()  # running is not what it waits for
    finish(queued, token)
    body = waiting.result(timeout=10).json()
    assert body["status"] == "done" and body["verdict"] == "accepted"


def test_a_change_right_after_the_read_is_not_missed(
        client: TestClient, tokens: Tokens, queued: int, subscribed: None, no_polling: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The watch is open before the row is read, so a change committed between the read and the
    wait is already on its way to it."""
    detail = submission_routes._detail_now
    reads: list[str] = []

    def read_then_claim(user: Any, submission_id: int) -> Any:
        current = detail(user, submission_id)
        if not reads:
            claim(submission_id)
        reads.append(current.status)
        return current

    monkeypatch.setattr(submission_routes, "_detail_now", read_then_claim)
    started = time.monotonic()
    body = read(client, tokens.learner, queued, wait=10, until="change").json()
    assert time.monotonic() - started < 3
    assert reads == ["queued", "running"] and body["status"] == "running"


def test_until_is_validated_and_does_not_hold_a_done_submission(client: TestClient, tokens: Tokens) -> None:
    created = submit(client, tokens.learner, REFERENCE, mode="run")
    error(read(client, tokens.learner, created["id"], wait=1, until="forever"), 422)
    started = time.monotonic()
    assert read(client, tokens.learner, created["id"], wait=10, until="change").json()["status"] == "done"
    assert time.monotonic() - started < 2


def test_until_change_times_out_with_the_row_unchanged(client: TestClient, tokens: Tokens, queued: int) -> None:
    started = time.monotonic()
    body = read(client, tokens.learner, queued, wait=0.3, until="change").json()
    assert body["status"] == "queued" and 0.25 < time.monotonic() - started < 3
    assert not watcher.watches.get(queued)  # the watch is gone with the request


def test_waiters_wake_from_the_database_while_pubsub_is_down(
        client: TestClient, tokens: Tokens, queued: int, subscribed: None, local_bus: LocalBus,
        background: ThreadPoolExecutor) -> None:
    local_bus.go_down()
    eventually(lambda: not watcher.subscribed, what="the watcher notices")
    looks = watcher.looks
    waiting = background.submit(read, client, tokens.learner, queued, wait=20, until="change")
    eventually(read_its_state(queued), what="the request waits")
    started = time.monotonic()
    claim(queued)  # its announcement fails (logged): only the database can tell
    body = waiting.result(timeout=10).json()
    assert body["status"] == "running" and time.monotonic() - started < 3
    assert watcher.looks > looks
    local_bus.come_back()
    eventually(lambda: watcher.subscribed, timeout=10, what="the watcher subscribes again")


def test_without_pubsub_the_watcher_polls_the_database(tokens: Tokens, queued: int) -> None:
    """The file-system broker has no pub/sub: a watcher with no feed looks at the database."""

    async def scenario() -> tuple[Change | None, Watcher]:
        polling = Watcher(open_feed=lambda: None)
        with polling.watch(queued) as watch:
            watch.saw("queued", None)
            threading.Timer(0.2, claim, args=(queued,)).start()
            change = await watch.until(lambda c: c.status != "queued", 10)
        return change, polling

    change, polling = asyncio.run(scenario())
    assert change == Change(queued, "running", None)
    assert polling.looks >= 1 and polling.pushed == 0 and not polling.subscribed


# ---------------------------------------------------------------------------------------------
# /events


def test_events_stream_each_change_in_order(client: TestClient, tokens: Tokens, queued: int,
                                            subscribed: None, no_polling: None,
                                            background: ThreadPoolExecutor) -> None:
    streaming = background.submit(stream, client, tokens.learner, queued)
    eventually(read_its_state(queued), what="the stream has sent the queued state")
    token = claim(queued)
    finish(queued, token)
    response = streaming.result(timeout=10)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    assert response.headers["cache-control"] == "no-cache"
    events = events_of(response.text)
    assert [name for name, _ in events] == ["status", "status", "done"], response.text  # one name, one shape
    assert events[0][1] == {"id": queued, "status": "queued", "verdict": None, "score": None}
    assert events[1][1] == {"id": queued, "status": "running", "verdict": None, "score": None}
    final = events[2][1]
    assert final["status"] == "done" and final["verdict"] == "accepted" and final["score"] == 1.0
    assert final == read(client, tokens.learner, queued).json()  # the whole body, as GET has it
    assert not watcher.watches.get(queued)


def test_events_of_a_done_submission_are_one_event(client: TestClient, tokens: Tokens) -> None:
    created = submit(client, tokens.learner, REFERENCE, mode="run")
    events = events_of(stream(client, tokens.learner, created["id"]).text)
    assert len(events) == 1 and events[0][1]["verdict"] == "accepted" and "tests" in events[0][1]


def test_events_are_authorized_like_get(client: TestClient, tokens: Tokens, queued: int) -> None:
    error(stream(client, tokens.other_learner, queued), 404, "not_found")
    error(stream(client, tokens.learner, 10**9), 404, "not_found")
    error(client.get(f"{SUBMISSIONS}/{queued}/events"), 401, "unauthorized")
    assert not watcher.watches.get(queued) and not watcher.watches.get(10**9)
    # The problem's owner (an admin, for a shipped problem) may follow it.
    with session_scope() as session:
        row = session.get(Submission, queued)
        assert row is not None
        row.status = SubmissionStatus.DONE
    assert events_of(stream(client, tokens.admin, queued).text)[0][1]["status"] == "done"


def test_events_keep_alive_and_end_after_the_cap(client: TestClient, tokens: Tokens, queued: int,
                                                 fast_settings: Settings,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast_settings, "stream_keepalive_seconds", 0.05)
    monkeypatch.setattr(fast_settings, "max_stream_seconds", 0.4)
    started = time.monotonic()
    text = stream(client, tokens.learner, queued).text
    assert 0.35 < time.monotonic() - started < 5
    assert len(events_of(text)) == 1 and text.count(": keep-alive\n\n") >= 3
    assert text.endswith(": 0.4 s are up; open the stream again\n\n")


NODE_READER = """
import { eventStream } from "./api.mjs";
const body = new TextEncoder().encode(process.argv[2]);
globalThis.fetch = async (url, options) => {
  let at = 0; // served in chunks of 1 to 7 bytes, cutting lines and characters anywhere
  const stream = new ReadableStream({ pull(controller) {
    if (at >= body.length) return controller.close();
    const size = 1 + (at % 7);
    controller.enqueue(body.slice(at, at + size));
    at += size;
  } });
  return new Response(stream, { status: 200, headers: { "content-type": "text/event-stream" } });
};
const events = [];
for await (const { event, data } of eventStream("/submissions/1/events", new AbortController().signal)) {
  events.push([event, JSON.parse(data)]);
}
console.log(JSON.stringify(events));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="no Node.js to run the page's reader with")
def test_the_pages_reader_parses_the_stream_the_api_sends(
        client: TestClient, tokens: Tokens, queued: int, subscribed: None, no_polling: None,
        background: ThreadPoolExecutor, tmp_path: Path) -> None:
    streaming = background.submit(stream, client, tokens.learner, queued)
    eventually(read_its_state(queued), what="the stream has sent the queued state")
    finish(queued, claim(queued))
    text = streaming.result(timeout=10).text
    (tmp_path / "api.mjs").write_text((WEB / "static" / "js" / "core" / "api.js").read_text())
    (tmp_path / "reader.mjs").write_text(NODE_READER)
    ran = subprocess.run(["node", "reader.mjs", text.replace("\n\n", "\n: keep-alive\n\n", 1)],
                         cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert ran.returncode == 0, ran.stderr
    assert [tuple(pair) for pair in json.loads(ran.stdout)] == events_of(text)
    assert [data["status"] for _, data in events_of(text)] == ["queued", "running", "done"]
