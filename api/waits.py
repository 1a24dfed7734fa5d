"""Waiting for verdicts without a connection or a thread per waiting client.

Every request that waits (``?wait=``) registers its submission here and sleeps on an event. One
watcher task per process asks the database, in a single query from the thread pool, which of the
watched submissions are done, and wakes their waiters. A hundred waiting clients cost one short
query per tick, and the event loop stays free for everything else (/healthz included).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict

from sqlalchemy import select
from starlette.concurrency import run_in_threadpool

from judge.service.db.models import Submission, SubmissionStatus
from judge.service.db.session import new_session

TICK = 0.1  # seconds between looks while anyone waits


def _done_among(ids: list[int]) -> set[int]:
    with new_session() as session:
        return set(session.scalars(select(Submission.id).where(
            Submission.id.in_(ids), Submission.status == SubmissionStatus.DONE)))


class Watcher:
    def __init__(self) -> None:
        self.waiting: dict[int, list[asyncio.Event]] = defaultdict(list)
        self.task: asyncio.Task[None] | None = None

    async def wait_done(self, submission_id: int, timeout: float) -> None:
        """Return when the submission is done, or after timeout seconds, whichever is first."""
        event = asyncio.Event()
        self.waiting[submission_id].append(event)
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._watch())
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            pass
        finally:
            events = self.waiting.get(submission_id, [])
            if event in events:
                events.remove(event)
            if not events:
                self.waiting.pop(submission_id, None)

    async def _watch(self) -> None:
        while self.waiting:
            try:
                done = await run_in_threadpool(_done_among, list(self.waiting))
            except Exception:  # the database hiccuped: the waiters time out or the next tick sees
                done = set()
            for submission_id in done:
                for event in self.waiting.get(submission_id, []):
                    event.set()
            await asyncio.sleep(TICK)


watcher = Watcher()
