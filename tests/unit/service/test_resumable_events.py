"""GET /submissions/{id}/events can be resumed: each event has an `id:` that grows with every
later state of the submission (the same state keeps its id from one stream to the next), the
first block says `retry:`, `Last-Event-ID` skips what the client saw, intermediate events are
named `status` and the last one `done` (the whole submission); a client that saw done hears 204.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

import api.waits as waits
from api.routes.submissions import RETRY_MS
from api.waits import watcher
from judge.results import Report, Verdict
from service import lifecycle
from service.db.models import Submission, SubmissionStatus
from service.db.session import session_scope
from service.settings import Settings
from tests.unit.service.helpers import SUBMISSIONS, read
from tests.utils.service import REFERENCE, bearer, store_submission, submit
from tests.utils.service_fixtures import Tokens


def eventually(condition: Callable[[], object], timeout: float = 5) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"not within {timeout} s"
        time.sleep(0.005)


def blocks(text: str) -> list[dict[str, str]]:
    """Each block of a text/event-stream body as its fields (comments left out)."""
    found = []
    for block in text.split("\n\n"):
        lines = [line for line in block.split("\n") if line and not line.startswith(":")]
        if lines:
            found.append(dict(line.split(": ", 1) for line in lines))
    return found


def events(text: str) -> list[tuple[str, int, dict[str, Any]]]:
    """(name, id, data) of each event."""
    return [(b["event"], int(b["id"]), json.loads(b["data"])) for b in blocks(text) if "event" in b]


def stream(client: TestClient, token: str, submission_id: int, last: str | None = None) -> httpx.Response:
    headers = bearer(token) | ({} if last is None else {"Last-Event-ID": last})
    return client.get(f"{SUBMISSIONS}/{submission_id}/events", headers=headers)


@pytest.fixture
def background() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(2) as pool:
        yield pool


@pytest.fixture(autouse=True)
def pushed(client: TestClient, tokens: Tokens, monkeypatch: pytest.MonkeyPatch) -> None:
    """Changes reach the streams by announcement only, one by one: a look at the database could
    find running and done at once and rightly send done alone."""
    read(client, tokens.learner, 10**9, wait=0.01)  # starts the watcher if need be (a 404)
    eventually(lambda: watcher.subscribed)
    monkeypatch.setattr(waits, "_states", lambda ids: [])


@pytest.fixture
def queued() -> Iterator[int]:
    ident = store_submission()
    yield ident
    with session_scope() as session:  # so that it holds none of the learner's queue quota later
        row = session.get(Submission, ident)
        assert row is not None
        row.status, row.lease_token = SubmissionStatus.DONE, None


def claim(submission_id: int) -> str:
    with session_scope() as session:
        token = lifecycle.claim(session, submission_id)
    assert token is not None
    return token


def finish(submission_id: int, token: str) -> None:
    with session_scope() as session:
        assert lifecycle.finish(session, submission_id, token,
                                Report(Verdict.ACCEPTED, 1.0, "secret_lookup", "fast"))


def follow_while(client: TestClient, token: str, submission_id: int, pool: ThreadPoolExecutor,
                 change: Callable[[], None], last: str | None = None) -> str:
    """The stream's whole text, with change() made while it waits."""
    opened = len(watcher.watches.get(submission_id, ()))
    streaming = pool.submit(stream, client, token, submission_id, last)
    eventually(lambda: len(watcher.watches.get(submission_id, ())) > opened)
    change()
    response = streaming.result(timeout=10)
    assert response.status_code == 200, response.text
    return response.text


def test_events_have_growing_ids_a_retry_and_end_with_done(client: TestClient, tokens: Tokens, queued: int,
                                                           background: ThreadPoolExecutor) -> None:
    text = follow_while(client, tokens.learner, queued, background, lambda: finish(queued, claim(queued)))
    assert text.startswith(f"retry: {RETRY_MS}\n")
    found = events(text)
    # Running is seen unless the stream's read after its announcement already finds the verdict
    # (the change runs claim and finish back to back): then done follows queued at once.
    assert [name for name, _, _ in found] == ["status"] * (len(found) - 1) + ["done"]
    assert [data["status"] for _, _, data in found] in (["queued", "running", "done"], ["queued", "done"])
    ids = [ident for _, ident, _ in found]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    # Each name has one shape: status the brief state, done the whole submission.
    assert all(set(data) == {"id", "status", "verdict", "score"} for name, _, data in found if name == "status")
    assert found[-1][2] == read(client, tokens.learner, queued).json()


def test_the_same_state_has_the_same_id_in_every_stream(client: TestClient, tokens: Tokens, queued: int,
                                                        background: ThreadPoolExecutor) -> None:
    token = claim(queued)
    first = background.submit(stream, client, tokens.learner, queued)
    eventually(lambda: watcher.watches.get(queued))
    second = events(follow_while(client, tokens.learner, queued, background, lambda: finish(queued, token)))
    whole = events(first.result(timeout=10).text)
    assert [data["status"] for _, _, data in whole] == ["running", "done"]
    assert second == whole
    # Resumed after the running event once done: only the done event.
    after_running = events(stream(client, tokens.learner, queued, last=str(whole[0][1])).text)
    assert after_running == whole[1:]
    # Resumed after done: nothing more will come, and an EventSource stops on 204.
    done = stream(client, tokens.learner, queued, last=str(whole[1][1]))
    assert done.status_code == 204 and done.text == ""


def test_a_stream_resumed_at_the_current_state_sends_only_what_comes_next(
        client: TestClient, tokens: Tokens, queued: int, background: ThreadPoolExecutor,
        fast_settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    token = claim(queued)
    with monkeypatch.context() as short:  # a stream that ends soon, with the running event
        short.setattr(fast_settings, "max_stream_seconds", 0.2)
        cut = stream(client, tokens.learner, queued).text
    assert cut.endswith("s are up; open the stream again\n\n")
    [(name, running_id, data)] = events(cut)
    assert (name, data["status"]) == ("status", "running")
    text = follow_while(client, tokens.learner, queued, background, lambda: finish(queued, token),
                        last=str(running_id))
    # The retry, but not the running event again. The stream's first read may come after the
    # change (its watch is registered first): then done shares the retry's block.
    assert text.startswith(f"retry: {RETRY_MS}\n")
    assert [(name, data["verdict"]) for name, _, data in events(text)] == [("done", "accepted")]


def test_garbage_last_event_id_is_as_if_none(client: TestClient, tokens: Tokens) -> None:
    created = submit(client, tokens.learner, REFERENCE, mode="run")
    plain, garbage = (events(stream(client, tokens.learner, created["id"], last).text)
                      for last in (None, "not-a-number"))
    assert plain == garbage and [name for name, _, _ in plain] == ["done"]
    older = events(stream(client, tokens.learner, created["id"], last=str(plain[0][1] - 1)).text)
    assert older == plain  # an id from before done: done is sent


def test_a_state_after_done_has_a_larger_id(client: TestClient, tokens: Tokens, queued: int,
                                            background: ThreadPoolExecutor) -> None:
    finish(queued, claim(queued))
    done = events(stream(client, tokens.learner, queued).text)[0]

    with session_scope() as session:  # judged again: back in the queue
        row = session.get(Submission, queued)
        assert row is not None
        lifecycle.reset_for_rejudge(row, row.version_id)
    lifecycle.requeued([queued])
    text = follow_while(client, tokens.learner, queued, background, lambda: finish(queued, claim(queued)),
                        last=str(done[1]))
    again = events(text)
    assert [data["status"] for _, _, data in again] in (["queued", "running", "done"], ["queued", "done"])
    assert all(ident > done[1] for _, ident, _ in again)
