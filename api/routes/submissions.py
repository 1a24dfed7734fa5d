"""Submissions: create, read (optionally waiting for the verdict or the next change), follow
as server-sent events, list.

Each route parses, calls ``service.submissions`` (which authorizes through
``service.access``) and shapes the answer (``api.presenters``)."""

from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from typing import Annotated, Any, Literal

import anyio
from fastapi import APIRouter, Header, Query, Response
from fastapi.responses import StreamingResponse
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from api.deps import CurrentUser, SessionDep
from api.errors import rate_limit_headers
from api.presenters import submission_detail, submission_summary
from api.schemas import Page, SubmissionCreate, SubmissionOut, SubmissionSummary
from api.schemas.bounds import Id, Offset, WaitSeconds
from api.schemas.submission_views import SubmissionBrief, brief
from api.waits import wait_quota, watcher
from judge.errors import InvalidInput
from judge.results import Verdict
from service import feedback, submissions
from service.announcements import Change
from service.db.models import Submission, SubmissionStatus, User
from service.db.session import new_session, read_session
from service.settings import get_settings
from service.webhooks.outbox import Callback

router = APIRouter(prefix="/submissions", tags=["submissions"])


# The RateLimit-* headers (IETF httpapi draft names) each submission route sends, for the
# OpenAPI description of its responses.
RATE_LIMIT_HEADERS: dict[str, Any] = {
    "RateLimit-Limit": {"description": "the size of the quota this request counts against (the "
                                       "tightest one: a learner's queue quota on posts, the wait "
                                       "quota on waiting reads and streams)",
                        "schema": {"type": "integer"}},
    "RateLimit-Remaining": {"description": "how much of it is left after this request",
                            "schema": {"type": "integer"}},
    "RateLimit-Reset": {"description": "seconds after which to try again when none is left "
                                       "(0 while some is); these quotas count what is held at "
                                       "once, so a slot frees as soon as one is given back",
                        "schema": {"type": "integer"}},
}
QUOTA_429: dict[int | str, dict[str, Any]] = {429: {
    "description": "a quota is used up: the error's message names it (queue quota or wait "
                   "quota); Retry-After and RateLimit-* say when to try again",
    "headers": RATE_LIMIT_HEADERS}}
Quota = tuple[int, int, int]  # (limit, remaining, seconds until one is free when none is)


def _wait_quota_left(user: User) -> Quota:
    cap = get_settings().max_waits_per_user
    return cap, wait_quota.left(user.id, cap), 1


def queue_quota(session: Session, user: User) -> Quota | None:
    left = submissions.queue_quota_left(session, user)
    return None if left is None else (left[0], left[1], submissions.QUEUE_RETRY_AFTER)


def _rate_limit(*quotas: Quota | None) -> dict[str, str]:
    """The RateLimit-* headers of the tightest of quotas (the one with the least left)."""
    known = [quota for quota in quotas if quota is not None]
    if not known:
        return {}
    limit, remaining, reset = min(known, key=lambda quota: quota[1])
    return rate_limit_headers(limit, remaining, 0 if remaining else reset)


def set_rate_limit(response: Response, *quotas: Quota | None) -> None:
    response.headers.update(_rate_limit(*quotas))


def _create(user: User, body: SubmissionCreate,
            idempotency_key: str | None) -> tuple[SubmissionOut, Quota | None]:
    """The submission stored and queued, and what is left of the queue quota after it, in a
    session of its own that is closed before any wait."""
    with new_session() as session:
        callback = None if body.callback_url is None else Callback(body.callback_url)
        submission = submissions.submit(session, user, body.problem, body.code, body.mode,
                                        idempotency_key, body.arguments, body.assignment, callback)
        return submission_detail(submission, user), queue_quota(session, user)


@router.post("", status_code=202, response_model=SubmissionOut,
             # The 200 names its model too: without it the document gives that answer no body,
             # and a generated client returns nothing for the one answer that holds the verdict.
             responses={200: {"model": SubmissionOut,
                              "description": "with ?wait=S: judged within S seconds, the "
                                             "verdict included", "headers": RATE_LIMIT_HEADERS},
                        202: {"description": "queued (or, with ?wait=S, not done within S "
                                             "seconds): follow its Location",
                              "headers": RATE_LIMIT_HEADERS},
                        **QUOTA_429,
                        503: {"description": "saved, but the queue is unreachable: it will be "
                                             "judged when the queue is back"}})
async def submit(
    body: SubmissionCreate,
    user: CurrentUser,
    response: Response,
    idempotency_key: Annotated[str | None, Header()] = None,
    wait: Annotated[WaitSeconds, Query(description=(
        "hold up to this many seconds (at most JUDGE_MAX_WAIT_SECONDS; more is a 422) for the "
        "verdict: 200 with it when done in time, else 202 as without"))] = 0,
) -> SubmissionOut:
    """Store a submission and queue it for judging (a try: on your own arguments); ?wait=S
    answers with the verdict when it is in within S seconds.

    It waits as GET ?wait= does: no database connection and no thread held, one hold of the
    wait quota."""
    settings = get_settings()
    wait = min(wait, settings.max_wait_seconds)
    # The wait quota first: a request refused for it has made no submission.
    release = wait_quota.take(user.id, settings.max_waits_per_user) if wait > 0 else None
    try:
        current, queue_left = await run_in_threadpool(_create, user, body, idempotency_key)
        response.headers["Location"] = f"/api/v1/submissions/{current.id}"
        set_rate_limit(response, queue_left, None if release is None else _wait_quota_left(user))
        if release is None:
            return current
        if current.status != SubmissionStatus.DONE:
            with watcher.watch(current.id) as watch:
                current = await _detail(user, current.id)  # what was committed before the watch
                if current.status != SubmissionStatus.DONE:
                    watch.saw(*_state(current))
                    await watch.until(_done, wait)
                    current = await _detail(user, current.id)  # the row has the last word
    finally:
        if release is not None:
            release()
    if current.status == SubmissionStatus.DONE:
        response.status_code = 200
    return current


def _detail_now(user: User, submission_id: int) -> SubmissionOut:
    with read_session() as session:
        return submission_detail(submissions.find_submission(session, user, submission_id), user)


# One limiter per event loop, made on first use: a limiter belongs to its loop, and one left
# holding tokens in a loop that has ended (tests start many) must never stall a newer loop's reads.
_reads: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, anyio.CapacityLimiter] = (
    weakref.WeakKeyDictionary())


def _read_limiter() -> anyio.CapacityLimiter:
    loop = asyncio.get_running_loop()
    if loop not in _reads:
        _reads[loop] = anyio.CapacityLimiter(READ_THREADS)
    return _reads[loop]
READ_THREADS = 8


async def _detail(user: User, submission_id: int) -> SubmissionOut:
    """The body, read in a thread of the reads' own small pool.

    When a verdict wakes many waiting clients at once, each reads its submission in a thread. The
    threads share one GIL with the event loop; with anyio's default of 40 all busy, the loop gets
    one turn in 41 and /healthz takes hundreds of milliseconds. Eight are as fast for these short
    reads (the database pool is small anyway), and posts keep the default pool, so a read never
    waits for a thread that a post holds.
    """
    return await anyio.to_thread.run_sync(_detail_now, user, submission_id, limiter=_read_limiter())


def _brief(submission: SubmissionOut | Change) -> dict[str, object]:
    """What an event says about a submission that is not done yet."""
    if isinstance(submission, Change):
        return {"id": submission.id, "status": submission.status, "verdict": submission.verdict,
                "score": None}
    return {"id": submission.id, "status": submission.status, "verdict": submission.verdict,
            "score": submission.score}


def _state(submission: SubmissionOut | Change) -> tuple[str, str | None]:
    return (submission.status, submission.verdict)


def _other_than(seen: tuple[str, str | None]) -> Callable[[Change], bool]:
    return lambda change: _state(change) != seen


def _done(change: Change) -> bool:
    return change.status == SubmissionStatus.DONE


View = Literal["full", "summary"]
VIEW_QUERY = Query(description="full: the whole submission (code and test rows included); "
                               "summary: only id, status, verdict, score, passed and total, for "
                               "polls that need no more")


@router.get("/{submission_id}", response_model=SubmissionOut | SubmissionBrief, responses={
    200: {"description": "the submission (with view=summary, its light view)",
          "headers": RATE_LIMIT_HEADERS}, **QUOTA_429})
async def read(
    submission_id: Id,
    user: CurrentUser,
    response: Response,
    wait: Annotated[WaitSeconds, Query(description="hold up to this many seconds (at most "
                                                   "JUDGE_MAX_WAIT_SECONDS; more is a 422) for "
                                                   "what `until` names")] = 0,
    until: Annotated[Literal["done", "change"], Query(
        description="done: hold until the verdict is in; change: until the status changes "
                    "(queued -> running, running -> done, ...)")] = "done",
    view: Annotated[View, VIEW_QUERY] = "full",
) -> SubmissionOut | SubmissionBrief:
    """A submission with its verdict and per-test results; ?wait=S holds until it is done
    (or, with until=change, until its status changes), at most S seconds; ?view=summary leaves
    out the code and the test rows.

    While it waits it holds no database connection and no thread (see ``api.waits``).
    """
    found = await _waited(user, submission_id, response, wait, until)
    return brief(found) if view == "summary" else found


async def _waited(user: User, submission_id: int, response: Response, wait: float,
                  until: Literal["done", "change"]) -> SubmissionOut:
    settings = get_settings()
    wait = min(wait, settings.max_wait_seconds)
    if wait <= 0:
        set_rate_limit(response, _wait_quota_left(user))
        return await _detail(user, submission_id)
    release = wait_quota.take(user.id, settings.max_waits_per_user)
    set_rate_limit(response, _wait_quota_left(user))
    # Watch before reading: whatever is committed after the read is on its way to the watch.
    try:
        with watcher.watch(submission_id) as watch:
            current = await _detail(user, submission_id)  # 404 before any wait
            if current.status == SubmissionStatus.DONE:
                return current
            seen = _state(current)
            watch.saw(*seen)
            await watch.until(_other_than(seen) if until == "change" else _done, wait)
    finally:
        release()
    # Woken, or the time is up: the row as it is now (the database has the last word).
    return await _detail(user, submission_id)


RETRY_MS = 3000  # the `retry:` of every stream: how long a client waits before opening it again
RANK = {SubmissionStatus.QUEUED: 1, SubmissionStatus.RUNNING: 2, SubmissionStatus.DONE: 3}
EPOCH = datetime(1970, 1, 1)


def sequence(enqueued_at: datetime, status: str) -> int:
    """The event id of a submission's state: later states have larger ids, across streams.

    Each time a submission enters the queue (first, after a lost worker, for a rejudge) its
    ``enqueued_at`` moves on, and within one stay the status only moves forward (queued,
    running, done); so the microsecond of that entry, times four, plus the status's rank grows
    with every change, and one state always has the same id (a resumed stream repeats nothing).
    """
    since = enqueued_at.replace(tzinfo=None) - EPOCH
    micros = (since.days * 86_400 + since.seconds) * 1_000_000 + since.microseconds
    return micros * 4 + RANK.get(SubmissionStatus(status), 0)


def _snapshot_now(user: User, submission_id: int) -> tuple[SubmissionOut, int]:
    with new_session() as session:
        row = submissions.find_submission(session, user, submission_id)
        return submission_detail(row, user), sequence(row.enqueued_at, row.status)


async def _snapshot(user: User, submission_id: int) -> tuple[SubmissionOut, int]:
    """The body and its event id, read in the reads' pool (see ``_detail``)."""
    return await anyio.to_thread.run_sync(_snapshot_now, user, submission_id, limiter=_read_limiter())


def _event(seq: int, data: dict[str, object] | SubmissionOut) -> bytes:
    """One event: `status` with the brief state while not done, `done` with the whole body."""
    if isinstance(data, SubmissionOut):
        name, text = "done", data.model_dump_json()
    else:
        name, text = "status", json.dumps(data)
    return f"id: {seq}\nevent: {name}\ndata: {text}\n\n".encode()


def _last_event_id(header: str | None) -> int | None:
    """The id a resuming client saw last; anything but a number is as if it sent none."""
    try:
        return None if header is None else int(header.strip())
    except ValueError:
        return None


async def _stream(user: User, submission_id: int, seen: int | None,
                  before: tuple[SubmissionOut, int],
                  release: Callable[[], None]) -> AsyncIterator[bytes]:
    try:
        async for chunk in _changes(user, submission_id, seen, before):
            yield chunk
    finally:
        release()


async def _changes(user: User, submission_id: int, seen: int | None,
                   before: tuple[SubmissionOut, int]) -> AsyncIterator[bytes]:
    settings = get_settings()
    loop = asyncio.get_running_loop()
    # The watch lives exactly as long as the stream: opened here, closed however the stream ends.
    with watcher.watch(submission_id) as watch:
        # Read again now that the watch is open, as read() does: no change after this is missed.
        current, seq = await _snapshot(user, submission_id)
        first: list[bytes] = []
        earlier, earlier_seq = before
        if earlier_seq not in (seen, seq) and earlier.status != SubmissionStatus.DONE:
            # The state read before the stream started, when the row moved on since: every
            # state the client could have seen comes, in order, whoever won the race.
            first.append(_event(earlier_seq, _brief(earlier)))
        if seq != seen:  # else resumed, and nothing changed since the client's last event
            done = current.status == SubmissionStatus.DONE
            first.append(_event(seq, current if done else _brief(current)))
        yield f"retry: {RETRY_MS}\n".encode() + (b"".join(first) or b"\n")
        if current.status == SubmissionStatus.DONE:
            return
        enqueued_seq = seq - RANK[SubmissionStatus(current.status)]  # this stay in the queue
        sent = _state(current)
        watch.saw(*sent)
        deadline = loop.time() + settings.max_stream_seconds
        while (remaining := deadline - loop.time()) > 0:
            wait = min(settings.stream_keepalive_seconds, remaining)
            change = await watch.until(_other_than(sent), wait)
            if change is None:
                yield b": keep-alive\n\n"
                continue
            if change.status == SubmissionStatus.RUNNING:
                # Claimed in the same stay in the queue: its id needs no read.
                sent = _state(change)
                yield _event(enqueued_seq + RANK[SubmissionStatus.RUNNING], _brief(change))
                continue
            # Done, or queued again (its new stay's id is in the row): the row has the last word.
            current, seq = await _snapshot(user, submission_id)
            enqueued_seq = seq - RANK[SubmissionStatus(current.status)]
            if current.status == SubmissionStatus.DONE:
                yield _event(seq, current)
                return
            if _state(current) != sent:
                sent = _state(current)
                yield _event(seq, _brief(current))
        yield f": {settings.max_stream_seconds:g} s are up; open the stream again\n\n".encode()


@router.get("/{submission_id}/events", response_class=StreamingResponse, responses={
    200: {"content": {"text/event-stream": {}},
          "headers": RATE_LIMIT_HEADERS,
          "description": "Server-sent events, each with an `id:` (larger for every later state "
                         "of the submission) and the first with `retry:` (ms). `event: status` "
                         "carries `{id, status, verdict, score}` for the current state and every "
                         "change after it while not done; `event: done`, the last one, the whole "
                         "submission as GET returns it. Send `Last-Event-ID` to resume: a state "
                         "already seen is not sent again. A comment line every few seconds keeps "
                         "the connection alive; the stream ends after done, or after "
                         "JUDGE_MAX_STREAM_SECONDS."},
    204: {"description": "Last-Event-ID is the id of its `done` event: nothing more will come "
                         "(an EventSource stops reconnecting)"},
    **QUOTA_429})
async def events(
    submission_id: Id,
    user: CurrentUser,
    last_event_id: Annotated[str | None, Header(description=(
        "the `id:` of the last event received: resume after it"))] = None,
) -> Response:
    """Server-sent events: the submission's status now and at every change until it is done.

    Holds no database connection and no thread while nothing changes (see ``api.waits``)."""
    current, seq = await _snapshot(user, submission_id)  # 404 (or 401) before the stream starts
    seen = _last_event_id(last_event_id)
    if seen == seq and current.status == SubmissionStatus.DONE:
        return Response(status_code=204)
    release = wait_quota.take(user.id, get_settings().max_waits_per_user)  # 429 before it, too
    stream = _stream(user, submission_id, seen, (current, seq), release)
    # A stream whose client left before it started never runs its finally: its collection
    # gives the hold back instead.
    weakref.finalize(stream, release)
    return StreamingResponse(stream, media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no",
                                      **_rate_limit(_wait_quota_left(user))})


@router.get("", response_model=Page)
def list_submissions(
    session: SessionDep,
    user: CurrentUser,
    problem: Annotated[str | None, Query(description="only this problem's submissions")] = None,
    learner: Annotated[str | None, Query(max_length=100, description=(
        "only the submissions of the user with this name (among those you may read)"))] = None,
    assignment: Annotated[Id | None, Query(description="only those handed in for this assignment")] = None,
    verdict: Annotated[Verdict | None, Query(description="only those judged with this verdict")] = None,
    late: Annotated[bool | None, Query(description=(
        "true: only those counted late (not excused); false: only those that are not"))] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[Offset, Query()] = 0,
    ids: Annotated[str | None, Query(description=(
        f"comma-separated ids, at most {submissions.MAX_BATCH}: exactly those of them you may "
        "read, in the order asked (limit, offset and every filter but problem do not apply); an "
        "id that does not exist or is not yours to read is left out, as reading it alone answers "
        "404 for both"), examples=["12,15,19"])] = None,
) -> Page:
    """Your submissions, newest first; instructors also see those to the problems they own and
    those handed in for the assignments of the courses they teach. The filters combine.
    With ids=, those submissions (a poll of many at once)."""
    if ids is None:
        filters = submissions.Filters(problem, learner, assignment,
                                      None if verdict is None else verdict.value, late)
        rows, total = submissions.list_submissions(session, user, filters, limit, offset)
        return Page(items=_summaries(session, user, rows), total=total, limit=limit, offset=offset)
    wanted = _parse_ids(ids)
    found = [row for row in submissions.find_submissions(session, user, wanted)
             if problem is None or row.problem.slug == problem]
    return Page(items=_summaries(session, user, found), total=len(found), limit=len(wanted), offset=0)


def _summaries(session: Session, user: User, rows: list[Submission]) -> list[SubmissionSummary]:
    """The rows as a listing shows them, each with its count of comments ``user`` has not seen."""
    new = feedback.unread_counts(session, user, [s.id for s in rows])
    return [submission_summary(s, user, new.get(s.id, 0)) for s in rows]


def _parse_ids(text: str) -> list[int]:
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if not parts:
        raise InvalidInput("ids: give at least one id", param="ids")
    if len(parts) > submissions.MAX_BATCH:
        raise InvalidInput(f"ids: at most {submissions.MAX_BATCH} ids at once, not {len(parts)}",
                           param="ids")
    if not all(part.isascii() and part.isdigit() and len(part) <= 10 for part in parts):
        raise InvalidInput("ids: comma-separated submission ids (whole numbers) only", param="ids")
    return [int(part) for part in parts]
