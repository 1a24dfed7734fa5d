"""Submissions: create, read (optionally waiting for the verdict or the next change), follow
as server-sent events, list.

Each route parses, calls ``judge.service.submissions`` (which authorizes through
``judge.service.access``) and shapes the answer (``api.presenters``)."""

from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Literal

import anyio
from fastapi import APIRouter, Header, Query, Response
from fastapi.responses import StreamingResponse

from api.deps import CurrentUser, SessionDep
from api.presenters import submission_detail, submission_summary
from api.schemas import Page, SubmissionCreate, SubmissionOut
from api.schemas.bounds import Id, Offset
from api.waits import wait_quota, watcher
from judge.service import submissions
from judge.service.db.models import SubmissionStatus, User
from judge.service.db.session import new_session
from judge.service.notifications import Change
from judge.settings import get_settings

router = APIRouter(prefix="/submissions", tags=["submissions"])


@router.post("", status_code=202, response_model=SubmissionOut,
             responses={503: {"description": "saved, but the queue is unreachable: it will be "
                                             "judged when the queue is back"}})
def submit(
    body: SubmissionCreate,
    session: SessionDep,
    user: CurrentUser,
    response: Response,
    idempotency_key: Annotated[str | None, Header()] = None,
) -> SubmissionOut:
    """Store a submission and queue it for judging (a try: on your own arguments)."""
    submission = submissions.submit(session, user, body.problem, body.code, body.mode,
                                    idempotency_key, body.arguments, body.assignment)
    response.headers["Location"] = f"/api/v1/submissions/{submission.id}"
    return submission_detail(submission, user)


def _detail_now(user: User, submission_id: int) -> SubmissionOut:
    with new_session() as session:
        return submission_detail(submissions.find_submission(session, user, submission_id), user)


_reads: list[anyio.CapacityLimiter] = []  # made on first use: a limiter belongs to the event loop
READ_THREADS = 8


async def _detail(user: User, submission_id: int) -> SubmissionOut:
    """The body, read in a thread of the reads' own small pool.

    When a verdict wakes many waiting clients at once, each reads its submission in a thread. The
    threads share one GIL with the event loop; with anyio's default of 40 all busy, the loop gets
    one turn in 41 and /healthz takes hundreds of milliseconds. Eight are as fast for these short
    reads (the database pool is small anyway), and posts keep the default pool, so a read never
    waits for a thread that a post holds.
    """
    if not _reads:
        _reads.append(anyio.CapacityLimiter(READ_THREADS))
    return await anyio.to_thread.run_sync(_detail_now, user, submission_id, limiter=_reads[0])


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


@router.get("/{submission_id}", response_model=SubmissionOut)
async def read(
    submission_id: Id,
    user: CurrentUser,
    wait: Annotated[float, Query(ge=0, description="hold up to this many seconds (capped) for "
                                                   "what `until` names")] = 0,
    until: Annotated[Literal["done", "change"], Query(
        description="done: hold until the verdict is in; change: until the status changes "
                    "(queued -> running, running -> done, ...)")] = "done",
) -> SubmissionOut:
    """A submission with its verdict and per-test results; ?wait=S holds until it is done
    (or, with until=change, until its status changes), at most S seconds.

    While it waits it holds no database connection and no thread (see ``api.waits``).
    """
    settings = get_settings()
    wait = min(wait, settings.max_wait_seconds)
    if wait <= 0:
        return await _detail(user, submission_id)
    release = wait_quota.take(user.id, settings.max_waits_per_user)
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


def _event(data: dict[str, object] | SubmissionOut) -> bytes:
    text = data.model_dump_json() if isinstance(data, SubmissionOut) else json.dumps(data)
    return f"event: status\ndata: {text}\n\n".encode()


async def _stream(user: User, submission_id: int, release: Callable[[], None]) -> AsyncIterator[bytes]:
    try:
        async for chunk in _changes(user, submission_id):
            yield chunk
    finally:
        release()


async def _changes(user: User, submission_id: int) -> AsyncIterator[bytes]:
    settings = get_settings()
    loop = asyncio.get_running_loop()
    # The watch lives exactly as long as the stream: opened here, closed however the stream ends.
    with watcher.watch(submission_id) as watch:
        # Read again now that the watch is open, as read() does: no change after this is missed.
        current = await _detail(user, submission_id)
        if current.status == SubmissionStatus.DONE:
            yield _event(current)
            return
        yield _event(_brief(current))
        sent = _state(current)
        watch.saw(*sent)
        deadline = loop.time() + settings.max_stream_seconds
        while (remaining := deadline - loop.time()) > 0:
            wait = min(settings.stream_keepalive_seconds, remaining)
            change = await watch.until(_other_than(sent), wait)
            if change is None:
                yield b": keep-alive\n\n"
                continue
            if change.status != SubmissionStatus.DONE:
                sent = _state(change)
                yield _event(_brief(change))
                continue
            final = await _detail(user, submission_id)
            if final.status == SubmissionStatus.DONE:
                yield _event(final)
                return
            sent = _state(final)  # judged again meanwhile: go on with what the row says now
            yield _event(_brief(final))
        yield f": {settings.max_stream_seconds:g} s are up; open the stream again\n\n".encode()


@router.get("/{submission_id}/events", response_class=StreamingResponse, responses={200: {
    "content": {"text/event-stream": {}},
    "description": "`event: status` with `{id, status, verdict, score}` for the current state and "
                   "every change after it; the last one, once done, is the whole submission as GET "
                   "returns it. A comment line every few seconds keeps the connection alive; the "
                   "stream ends after done, or after JUDGE_MAX_STREAM_SECONDS."}})
async def events(submission_id: Id, user: CurrentUser) -> StreamingResponse:
    """Server-sent events: the submission's status now and at every change until it is done.

    Holds no database connection and no thread while nothing changes (see ``api.waits``)."""
    await _detail(user, submission_id)  # 404 (or 401) before the stream starts
    release = wait_quota.take(user.id, get_settings().max_waits_per_user)  # 429 before it, too
    stream = _stream(user, submission_id, release)
    # A stream whose client left before it started never runs its finally: its collection
    # gives the hold back instead.
    weakref.finalize(stream, release)
    return StreamingResponse(stream, media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@router.get("", response_model=Page)
def list_submissions(
    session: SessionDep,
    user: CurrentUser,
    problem: Annotated[str | None, Query(description="only this problem's submissions")] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[Offset, Query()] = 0,
) -> Page:
    """Your submissions, newest first; instructors also see those to the problems they own."""
    rows, total = submissions.list_submissions(session, user, problem, limit, offset)
    return Page(items=[submission_summary(s) for s in rows], total=total, limit=limit, offset=offset)
