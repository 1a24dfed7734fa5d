"""A pool of sandboxes prepared ahead of time, each handed out once and never returned.

The pool knows nothing of Docker: it is given how to make an item for a key, how to discard one
(remove it for good) and how to forget one (close this process's handles on it and leave it be).
``sandbox.docker_runner`` keys it by the container-level limits and fills it with containers
that are created, attached and started, each waiting for its one payload.

- **Single use.** ``take`` pops an item; nothing ever puts one back. The taker owns it and
  removes it after its run.
- **Lazy, per key.** A key is filled once it was first asked for (the first payload of a key
  takes the cold path and starts the filling), and only keys the pool was made for are filled:
  a payload of any other key always takes the cold path.
- **Refilled in the background, between runs.** One daemon thread per pool keeps ``size`` idle
  items for each key in use: it makes one for every item taken, replaces an item that has been
  idle for ``max_idle`` seconds, and waits (1 s, doubling up to 30 s) after a failed make instead
  of spinning. It starts nothing while the owner is inside ``running()`` (a run in progress), so
  making a container never competes with a learner's timed tests for the CPU while the pool
  keeps up (a run that overlaps a make is measurably slower: docs/performance.md).
  After a run it stays quiet for ``after_run`` seconds more (0.1 by default): the owner is then
  storing and announcing the verdict, which a make or a removal (the engine busy on the same
  cores) would otherwise delay.
- **Faster when starved.** A take that finds no idle item (runs arrive faster than one thread
  makes items: a burst, or runs back to back) marks the pool starved for ``STARVED_FOR``
  seconds. Meanwhile throughput is what counts: the thread no longer waits for runs or the
  quiet after them, and ``makers - 1`` more threads make items beside it, so that the engine
  works on several at once, as a burst of plain ``docker run`` does. Deferred jobs that pile up
  go before makes then, so that a run never removes its own container for want of a thread.
- **Checked when taken.** ``take`` calls the caller's ``accept`` on each candidate outside the
  lock; a refused or too old item is discarded and the next is tried, then none (cold path).
- **Clean-up after a run, off its clock.** ``defer`` hands the thread a job (removing the
  container a run used) that it runs between runs, once no item is due to be made: a warm item
  saves the next run more than a removal costs it, so when runs follow each other with no pause,
  jobs wait. At most ``MAX_DEFERRED`` wait: past that, or once closed, the caller runs its job
  itself (which is what a run did before there were deferred jobs).
- **Drained.** ``close`` discards every idle item, runs every deferred job and stops the thread;
  an item the thread is still making is discarded as soon as it is made. Every pool in the
  process is closed at exit (``atexit``); a forked child forgets what its parent's pools hold
  (items and deferred jobs alike), so only the parent's own death ends them.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

log = logging.getLogger(__name__)

MAX_IDLE = 300.0  # seconds an item may wait before the pool replaces it
RETRY_FIRST = 1.0  # after a failed make, wait this long, doubling up to RETRY_MAX
RETRY_MAX = 30.0
JOIN_TIMEOUT = 15.0  # how long close waits for a make in flight (creating a container)
AFTER_RUN = 0.1  # seconds the thread stays quiet after a run (its verdict is being stored)
MAX_DEFERRED = 4  # jobs waiting for the thread; past this the caller runs its own
STARVED_FOR = 3.0  # seconds a take that found no idle item keeps the pool in its fast mode
MAKERS = 3  # threads that make items while the pool is starved (one otherwise)

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")


@dataclass
class _Idle(Generic[T]):
    item: T
    since: float  # time.monotonic() when it became ready


class WarmPool(Generic[K, T]):
    """Up to ``size`` idle items for each key in use; see the module's docstring."""

    def __init__(self, size: int, keys: Iterable[K], make: Callable[[K], T],
                 discard: Callable[[T], None], forget: Callable[[T], None],
                 max_idle: float = MAX_IDLE, name: str = "warm-pool",
                 after_run: float = AFTER_RUN, makers: int = MAKERS) -> None:
        self.size = size
        self.makers = max(1, makers)
        self.keys = frozenset(keys)
        self.max_idle = max_idle
        self.after_run = after_run
        self.name = name
        self._make, self._discard, self._forget = make, discard, forget
        # Told the number of idle items whenever it changes (a metrics gauge); never raises here.
        self.observer: Callable[[int], None] | None = None
        self._reset()
        _POOLS.add(self)

    def _reset(self) -> None:
        self._cond = threading.Condition()
        self._idle: dict[K, deque[_Idle[T]]] = {}  # the keys in use, in the order first asked
        self._thread: threading.Thread | None = None  # the one that also runs deferred jobs
        self._helpers: list[threading.Thread] = []  # more makers, started when first starved
        self._making: dict[K, int] = {}  # makes in flight, per key
        self._starved_until = 0.0
        self._closed = False
        self._busy = 0  # runs in progress (``running``): the thread starts nothing meanwhile
        self._quiet_until = 0.0  # nor before this (time.monotonic()), just after a run
        self._retry_at = 0.0
        self._delay = RETRY_FIRST
        self._deferred: deque[Callable[[], None]] = deque()
        self._deferred_running = 0
        self.made = 0  # items made by this pool, for tests and figures
        self.failures = 0  # makes that failed

    # -- the taker's side --------------------------------------------------------------------

    def take(self, key: K, accept: Callable[[T], bool], wait: float = 0.0) -> T | None:
        """An idle item for key that ``accept`` approved, now the caller's alone; else None.

        Asking for a key the pool was made for starts filling it. ``accept`` runs outside the
        lock; an item it refuses (or that raises, or that idled too long) is discarded. With
        ``wait``, a take that finds none waits up to that long for the items being made (one
        in flight is ready sooner than one the caller would start), unless making fails.
        """
        if self.size <= 0 or key not in self.keys:
            return None
        with self._cond:
            if self._closed:
                return None
            filling = key in self._idle
            queue = self._want(key)
            if not filling:
                # The first take of a key only starts its filling: returning here, before the
                # lock is let go, keeps an item the thread makes at once from being taken cold.
                return None
        deadline = time.monotonic() + wait
        while True:
            with self._cond:
                if not queue:
                    self._starve()
                    while not queue and not self._closed:
                        left = deadline - time.monotonic()
                        if left <= 0 or (not self._making.get(key)
                                         and time.monotonic() < self._retry_at):
                            break
                        self._cond.wait(left)
                if not queue:
                    return None
                idle = queue.popleft()
                self._cond.notify_all()  # the thread makes its replacement now
            self._observe()
            fresh = time.monotonic() - idle.since <= self.max_idle
            try:
                ok = fresh and accept(idle.item)
            except Exception:
                log.exception("%s: checking an idle item failed", self.name)
                ok = False
            if ok:
                return idle.item
            self._discard_quietly(idle.item)

    @contextlib.contextmanager
    def running(self) -> Iterator[None]:
        """Around a run (warm or cold): the thread starts no work until it ends."""
        with self._cond:
            self._busy += 1
        try:
            yield
        finally:
            with self._cond:
                self._busy -= 1
                self._quiet_until = time.monotonic() + self.after_run
                self._cond.notify_all()

    def defer(self, job: Callable[[], None]) -> bool:
        """Have the thread run ``job`` once no run is in progress, before it makes anything.
        False when the pool will not (closed, or ``MAX_DEFERRED`` jobs already wait): the
        caller runs it itself. A job that raises is logged."""
        with self._cond:
            if self._closed or len(self._deferred) >= MAX_DEFERRED:
                return False
            self._deferred.append(job)
            self._start_thread()
            self._cond.notify_all()
            return True

    def wait_settled(self, timeout: float) -> bool:
        """Wait until no deferred job waits or runs; whether it happened in time."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._deferred or self._deferred_running:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(remaining)
            return True

    def prime(self, key: K) -> None:
        """Start filling key now rather than at its first take (no-op for a key not served)."""
        if self.size <= 0 or key not in self.keys:
            return
        with self._cond:
            if not self._closed:
                self._want(key)

    def idle(self, key: K | None = None) -> int:
        with self._cond:
            if key is not None:
                return len(self._idle.get(key, ()))
            return sum(len(queue) for queue in self._idle.values())

    def items(self) -> list[T]:
        """The idle items now, oldest first (for audits and tests): they stay the pool's."""
        with self._cond:
            return [idle.item for queue in self._idle.values() for idle in queue]

    def wait_filled(self, timeout: float) -> bool:
        """Wait until every key in use has ``size`` idle items; whether it happened in time."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while any(len(queue) < self.size for queue in self._idle.values()):
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self._closed:
                    return False
                self._cond.wait(remaining)
            return True

    def in_refill_thread(self) -> bool:
        current = threading.current_thread()
        return current is self._thread or current in self._helpers

    def close(self) -> int:
        """Discard every idle item and stop refilling; how many were discarded. Idempotent."""
        with self._cond:
            self._closed = True
            items = [idle.item for queue in self._idle.values() for idle in queue]
            for queue in self._idle.values():
                queue.clear()
            jobs = list(self._deferred)
            self._deferred.clear()
            self._cond.notify_all()
            threads = [t for t in (self._thread, *self._helpers) if t is not None]
        self._observe()
        self._run_jobs(jobs)
        for item in items:
            self._discard_quietly(item)
        for thread in threads:
            if thread is not threading.current_thread():
                thread.join(JOIN_TIMEOUT)
        return len(items)

    # -- inside ------------------------------------------------------------------------------

    def _want(self, key: K) -> deque[_Idle[T]]:
        """Called with the lock held: the key's queue, the thread started and woken."""
        queue = self._idle.setdefault(key, deque())
        self._start_thread()
        self._cond.notify_all()
        return queue

    def _start_thread(self) -> None:
        """Called with the lock held."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._refill, name=self.name, daemon=True)
            self._thread.start()

    def _starve(self) -> None:
        """Called with the lock held, by a take that found no idle item for its key."""
        self._starved_until = time.monotonic() + STARVED_FOR
        while len(self._helpers) < self.makers - 1 and not self._closed:
            helper = threading.Thread(target=self._help, daemon=True,
                                      name=f"{self.name}-{len(self._helpers) + 1}")
            self._helpers.append(helper)
            helper.start()
        self._cond.notify_all()

    def _run_jobs(self, jobs: list[Callable[[], None]]) -> None:
        for job in jobs:
            try:
                job()
            except Exception:  # the owner's sweep removes what could not be removed here
                log.exception("%s: a deferred job failed", self.name)

    def _observe(self) -> None:
        if self.observer is not None:
            try:
                self.observer(self.idle())
            except Exception:
                log.exception("%s: the observer failed", self.name)

    def _discard_quietly(self, item: T) -> None:
        try:
            self._discard(item)
        except Exception:  # the owner's sweep removes what could not be removed here
            log.exception("%s: discarding an item failed", self.name)

    def _capacity(self, now: float) -> int:
        """Idle items (with makes in flight) a key may have: ``size``, or while starved as many
        as there are makers, if that is more."""
        return max(self.size, self.makers) if now < self._starved_until else self.size

    def _short_key(self, now: float) -> K | None:
        """With the lock held: a key with fewer idle items (counting makes in flight) than its
        capacity, when making is allowed now."""
        if now < self._retry_at:
            return None
        capacity = self._capacity(now)
        return next((k for k, queue in self._idle.items()
                     if len(queue) + self._making.get(k, 0) < capacity), None)

    def _next_job(self) -> tuple[list[Callable[[], None]], list[T], K | None, float | None]:
        """With the lock held: (deferred jobs to run, items to discard, a key to make one for,
        how long to sleep). An item due to be made goes before deferred jobs, unless the pool
        is starved and jobs pile up."""
        now = time.monotonic()
        starved = now < self._starved_until
        if not starved:
            if self._busy:
                return [], [], None, None  # woken when the run ends
            if now < self._quiet_until:
                return [], [], None, self._quiet_until - now
        aged: list[T] = []
        for queue in self._idle.values():
            while queue and now - queue[0].since > self.max_idle:
                aged.append(queue.popleft().item)
        piled = starved and len(self._deferred) >= MAX_DEFERRED // 2
        short = None if piled or (not starved and any(self._making.values())) else (
            self._short_key(now))
        if short is not None:
            return [], aged, short, 0.0
        if self._deferred:
            jobs = list(self._deferred)
            self._deferred.clear()
            self._deferred_running += len(jobs)
            return jobs, aged, None, 0.0
        if any(len(q) < self.size for q in self._idle.values()) and now < self._retry_at:
            return [], aged, None, self._retry_at - now
        if starved:
            return [], aged, None, self._starved_until - now
        oldest = min((queue[0].since for queue in self._idle.values() if queue), default=None)
        return [], aged, None, None if oldest is None else oldest + self.max_idle - now + 0.05

    def _help(self) -> None:
        """A helper maker: while the pool is starved, make items beside the main thread."""
        while True:
            with self._cond:
                if self._closed:
                    return
                now = time.monotonic()
                key = self._short_key(now) if now < self._starved_until else None
                if key is None:
                    self._cond.wait(max(0.05, self._starved_until - now)
                                    if now < self._starved_until else None)
                    continue
                self._making[key] = self._making.get(key, 0) + 1
            self._make_one(key)

    def _refill(self) -> None:
        while True:
            with self._cond:
                if self._closed:
                    return
                jobs, aged, key, sleep = self._next_job()
                if not jobs and not aged and key is None:
                    self._cond.wait(sleep)
                    continue
            if jobs:
                self._run_jobs(jobs)
                with self._cond:
                    self._deferred_running -= len(jobs)
                    self._cond.notify_all()
            if aged:
                self._observe()
            for item in aged:
                self._discard_quietly(item)
            if key is not None:
                with self._cond:
                    self._making[key] = self._making.get(key, 0) + 1
                self._make_one(key)

    def _make_one(self, key: K) -> None:
        try:
            item = self._make(key)
        except Exception as exc:
            with self._cond:
                self._making[key] -= 1
                self.failures += 1
                self._retry_at = time.monotonic() + self._delay
                log.warning("%s: could not prepare an item (%s); trying again in %.0f s",
                            self.name, (str(exc).splitlines() or [""])[0][:200], self._delay)
                self._delay = min(self._delay * 2, RETRY_MAX)
                self._cond.notify_all()  # a thread that waited for this make sees the retry time
            return
        with self._cond:
            self._making[key] -= 1
            self.made += 1
            self._delay = RETRY_FIRST
            queue = self._idle.get(key)
            keep = (not self._closed and queue is not None
                    and len(queue) < self._capacity(time.monotonic()))
            if keep and queue is not None:
                queue.append(_Idle(item, time.monotonic()))
                self._cond.notify_all()
        if keep:
            self._observe()
        else:
            self._discard_quietly(item)

    def _forget_after_fork(self) -> None:
        """In a forked child: the parent's items are the parent's. Close this process's handles
        on them (so the parent's death still ends them) and start empty. No lock is taken: the
        parent's thread may have held it at the fork, and no other thread exists here yet."""
        for queue in self._idle.values():
            for idle in queue:
                with contextlib.suppress(Exception):
                    self._forget(idle.item)
        self._reset()


_POOLS: weakref.WeakSet[WarmPool[Any, Any]] = weakref.WeakSet()


def _close_all() -> None:
    for pool in list(_POOLS):
        with contextlib.suppress(Exception):
            pool.close()


def _forget_all_in_child() -> None:
    for pool in list(_POOLS):
        pool._forget_after_fork()


atexit.register(_close_all)
os.register_at_fork(after_in_child=_forget_all_in_child)
