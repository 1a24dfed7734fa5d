"""Waiting for a submission's changes without a connection or a thread per waiting client.

A request that waits (``?wait=``, or the ``/events`` stream) opens a ``Watch`` on its submission
and sleeps on it. One ``Watcher`` per process feeds every watch:

- **pushed**: a single subscription to the workers' announcements
  (``service.announcements``: Redis pub/sub) hands each change to the watches of its
  submission the moment the worker has committed it;
- **polled**: while that subscription is down (Redis restarting, or not there at all on the
  file-system broker), one query per tick (``TICK``) from the thread pool reads the status of
  every watched submission, as before; once more right after every (re)subscription, to catch
  what was committed in between; and every ``BACKSTOP`` seconds even when subscribed, in case
  an announcement was lost on the way.

The subscription reconnects with a growing delay. A hundred waiting clients cost one Redis
connection and, at most, one short query per tick; the event loop stays free for everything
else (/healthz included).

A watch is opened *before* the request reads the row, so a change committed after that read is
never missed: it is already on its way to the watch.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections import deque
from collections.abc import Callable, Iterator

import anyio
import anyio.to_thread
from sqlalchemy import select

from service import announcements
from service.announcements import Change, Feed
from service.db.models import Submission
from service.db.session import new_session
from service.errors import QuotaExceeded

log = logging.getLogger(__name__)

TICK = 0.1  # seconds between looks at the database while not subscribed and anyone waits
BACKSTOP = 5.0  # seconds between looks while subscribed (an announcement may have been lost)
BACKOFF_MIN, BACKOFF_MAX = 0.2, 5.0  # seconds before subscribing again after a failure
KEPT_CHANGES = 64  # a watch keeps at most this many changes its request has not taken yet


def _states(ids: list[int]) -> list[Change]:
    with new_session() as session:
        rows = session.execute(select(Submission.id, Submission.status, Submission.verdict)
                               .where(Submission.id.in_(ids)))
        return [Change(ident, str(status), verdict) for ident, status, verdict in rows]


class Watch:
    """The changes of one submission, in the order they arrive, for one waiting request."""

    def __init__(self, submission_id: int) -> None:
        self.submission_id = submission_id
        self.changes: deque[Change] = deque(maxlen=KEPT_CHANGES)
        self.last: tuple[str, str | None] | None = None
        self.event = asyncio.Event()

    def offer(self, change: Change) -> None:
        state = (change.status, change.verdict)
        if state == self.last:  # the same again (a look at the database, a repeated message)
            return
        self.last = state
        self.changes.append(change)
        self.event.set()

    def saw(self, status: str, verdict: str | None) -> None:
        """The request read this state: a later look that finds it again is no change."""
        if self.last is None:
            self.last = (status, verdict)

    async def next_change(self, timeout: float) -> Change | None:
        """The oldest change not taken yet, waiting up to timeout seconds; None after that."""
        if not self.changes:
            self.event.clear()
            try:
                await asyncio.wait_for(self.event.wait(), max(timeout, 0))
            except TimeoutError:
                return None
        return self.changes.popleft() if self.changes else None

    async def until(self, wanted: Callable[[Change], bool], timeout: float) -> Change | None:
        """The first change that is wanted, or None after timeout seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (remaining := deadline - loop.time()) > 0:
            change = await self.next_change(remaining)
            if change is None:
                return None
            if wanted(change):
                return change
        return None


class Watcher:
    def __init__(self, open_feed: Callable[[], Feed | None] = announcements.open_feed) -> None:
        self.open_feed = open_feed
        self.watches: dict[int, set[Watch]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.subscriber: asyncio.Task[None] | None = None
        self.poller: asyncio.Task[None] | None = None
        self.subscribed = False
        self.look_now = False  # look at the database at the next tick, even when subscribed
        self.someone_waits = asyncio.Event()
        # For tests and figures: announcements received, looks at the database.
        self.pushed = self.looks = 0

    # -- the requests' side ------------------------------------------------------------------

    def open(self, submission_id: int) -> Watch:
        """A watch on the submission; close it with ``close`` (or use ``watch``)."""
        self._start()
        watch = Watch(submission_id)
        self.watches.setdefault(submission_id, set()).add(watch)
        self.someone_waits.set()
        return watch

    def close(self, watch: Watch) -> None:
        watches = self.watches.get(watch.submission_id)
        if watches is not None:
            watches.discard(watch)
            if not watches:
                del self.watches[watch.submission_id]

    @contextlib.contextmanager
    def watch(self, submission_id: int) -> Iterator[Watch]:
        watch = self.open(submission_id)
        try:
            yield watch
        finally:
            self.close(watch)

    # -- the watcher's side ------------------------------------------------------------------

    def _start(self) -> None:
        """One subscriber and one poller per event loop (an app restarted in tests gets new ones).
        The subscriber ends by itself where there is no pub/sub; the poller never ends."""
        loop = asyncio.get_running_loop()
        if self.loop is loop and self.poller is not None and not self.poller.done():
            return
        if self.loop is not loop:  # a new loop (tests): the old one's tasks and watches go
            for task in (self.subscriber, self.poller):
                if task is not None and self.loop is not None and not self.loop.is_closed():
                    with contextlib.suppress(RuntimeError):  # closed meanwhile
                        self.loop.call_soon_threadsafe(task.cancel)
            self.loop, self.subscribed, self.look_now = loop, False, False
            self.someone_waits = asyncio.Event()
            self.watches = {}
            self.subscriber = loop.create_task(self._subscribe(), name="judge-waits-subscriber")
        self.poller = loop.create_task(self._poll(), name="judge-waits-poller")

    def _hand_out(self, change: Change) -> None:
        for watch in list(self.watches.get(change.id, ())):
            watch.offer(change)

    async def _subscribe(self) -> None:
        mine = asyncio.get_running_loop()
        delay = BACKOFF_MIN
        lost_logged = False
        while True:
            try:
                feed = self.open_feed()
            except Exception:
                log.exception("the announcements feed could not be made; polling the database")
                return
            if feed is None:
                return  # no pub/sub on this broker: the poller does it all
            try:
                await feed.subscribe()
                self.subscribed, self.look_now, delay = True, True, BACKOFF_MIN
                if lost_logged:
                    log.warning("subscribed again to status announcements")
                    lost_logged = False
                while True:
                    change = announcements.decode(await feed.next_message())
                    if change is not None:
                        self.pushed += 1
                        self._hand_out(change)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not lost_logged:
                    log.warning("status announcements unavailable (%s: %s); polling the database "
                                "until they are back", type(exc).__name__, str(exc)[:200])
                    lost_logged = True
            finally:
                if self.loop is mine:  # not a newer loop's subscription (tests)
                    self.subscribed = False
                with contextlib.suppress(Exception):
                    await feed.close()
            await asyncio.sleep(delay)
            delay = min(delay * 2, BACKOFF_MAX)

    async def _poll(self) -> None:
        loop = asyncio.get_running_loop()
        last_look = loop.time()
        # A thread of its own: a look must never queue behind request threads that hold the
        # shared pool, or every waiter would sleep until they let go.
        own_thread = anyio.CapacityLimiter(1)
        while True:
            if not self.watches:
                self.someone_waits.clear()
                await self.someone_waits.wait()
            due = (not self.subscribed or self.look_now
                   or loop.time() - last_look >= BACKSTOP)
            if due and self.watches:
                self.look_now = False
                last_look = loop.time()
                try:
                    changes = await anyio.to_thread.run_sync(_states, list(self.watches),
                                                             limiter=own_thread)
                except Exception:  # the database hiccuped: the next tick tries again
                    changes = []
                self.looks += 1
                for change in changes:
                    self._hand_out(change)
            await asyncio.sleep(TICK)


watcher = Watcher()


class WaitQuota:
    """How many waiting requests (``?wait=`` and ``/events``) each user holds in this process.

    A waiting request costs no connection and no thread, but it costs memory and a socket, and
    one account must not be able to hold them by the thousand. Taking one beyond the cap is
    a 429 with Retry-After; ``release`` may be called more than once (only the first counts)
    and from any thread (a stream's finalizer runs wherever its generator is collected).
    """

    def __init__(self) -> None:
        self.held: dict[int, int] = {}
        self._lock = threading.Lock()

    def take(self, user_id: int, cap: int) -> Callable[[], None]:
        with self._lock:
            count = self.held.get(user_id, 0)
            if count >= cap:
                raise QuotaExceeded(
                    f"wait quota: you already have {count} requests waiting for submissions (at "
                    f"most {cap} at once, JUDGE_MAX_WAITS_PER_USER); end one, or ask without ?wait=",
                    retry_after=1, quota=WAIT_QUOTA, limit=cap)
            self.held[user_id] = count + 1
        released = False

        def release() -> None:
            nonlocal released
            with self._lock:
                if released:
                    return
                released = True
                left = self.held.get(user_id, 1) - 1
                if left > 0:
                    self.held[user_id] = left
                else:
                    self.held.pop(user_id, None)

        return release

    def left(self, user_id: int, cap: int) -> int:
        """How many more waiting requests user may open now (for the RateLimit headers)."""
        with self._lock:
            return max(cap - self.held.get(user_id, 0), 0)


WAIT_QUOTA = "wait"  # the name a 429 of this quota gives (QuotaExceeded.quota)
wait_quota = WaitQuota()
