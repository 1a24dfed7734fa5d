"""Sandbox containers are removed for sure: a removal that fails is tried again until it succeeds,
and the label sweep runs on a timer, whether the worker is judging or idle.

Why both: a removal fails whenever the engine does. While a dockerd restarts (about 10 s to stop)
a client that holds a connection still creates containers while starting and removing them
fails, so a dropped removal left each of those behind in Created state. And a worker that was
killed leaves its finished containers stopped for some other worker's sweep, which an idle worker
never ran when it swept only at the start of a run.

One daemon thread per sandbox, with a Docker client of its own (docker-py's is not documented as
safe to share between threads). Knows nothing of the sandbox's limits: it is given how to
connect, how to remove one container (True once it is gone) and how to sweep.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

RETRY_FIRST = 1.0  # a failed removal is tried again after this long, doubling up to RETRY_MAX
RETRY_MAX = 10.0  # short: once the engine is back, its leftovers go within seconds
MAX_PENDING = 10_000  # ids kept for retrying; past that the sweep alone removes the rest


class Janitor:
    """Retries failed removals and sweeps every ``sweep_every`` seconds (0: never sweeps)."""

    def __init__(self, connect: Callable[[], Any], remove: Callable[[Any, str], bool],
                 sweep: Callable[[Any], int], sweep_every: float,
                 name: str = "sandbox-janitor") -> None:
        self._connect, self._remove, self._sweep = connect, remove, sweep
        self.sweep_every = sweep_every
        self.name = name
        self.sweeps = 0  # sweeps done, for tests and figures
        self._reset()
        _JANITORS.add(self)
        if sweep_every > 0:
            with self._cond:
                self._start_thread()

    def _reset(self) -> None:
        self._cond = threading.Condition()
        self._pending: dict[str, tuple[float, float]] = {}  # id -> (retry at, delay)
        self._client: Any = None
        self._thread: threading.Thread | None = None
        self._closed = False
        self._sweep_at = time.monotonic() + self.sweep_every

    def remove(self, client: Any, container_id: str) -> bool:
        """Remove now with the caller's client; on failure the thread tries again until the
        container is gone. Whether it is gone already."""
        if self._remove(client, container_id):
            if self.sweep_every > 0 and self._thread is None:  # a forked child's first run
                with self._cond:
                    self._start_thread()
            return True
        self.retry_later(container_id)
        return False

    def retry_later(self, container_id: str) -> None:
        with self._cond:
            if self._closed or container_id in self._pending:
                return
            if len(self._pending) >= MAX_PENDING:
                log.warning("%s: %d removals already wait; the sweep will remove %s", self.name,
                            len(self._pending), container_id[:12])
                return
            self._pending[container_id] = (time.monotonic() + RETRY_FIRST, RETRY_FIRST)
            self._start_thread()
            self._cond.notify_all()

    def pending(self) -> list[str]:
        """Ids whose removal failed and waits to be tried again."""
        with self._cond:
            return list(self._pending)

    def wait_clear(self, timeout: float) -> bool:
        """Wait until no removal waits; whether it happened in time."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._pending:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(remaining)
            return True

    def close(self) -> None:
        """Stop the thread (what still waits is left to the next sweep, of any worker)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def _start_thread(self) -> None:
        """Called with the lock held."""
        if self._thread is None and not self._closed:
            self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
            self._thread.start()

    def _next(self) -> tuple[list[str], bool, float | None]:
        """With the lock held: (ids due for another try, whether a sweep is due, how long to
        sleep otherwise)."""
        now = time.monotonic()
        due = [cid for cid, (at, _) in self._pending.items() if at <= now]
        sweep = self.sweep_every > 0 and now >= self._sweep_at
        times = [at for at, _ in self._pending.values()]
        if self.sweep_every > 0:
            times.append(self._sweep_at)
        return due, sweep, (min(times) - now if times else None)

    def _run(self) -> None:
        while True:
            with self._cond:
                if self._closed:
                    return
                due, sweep, sleep = self._next()
                if not due and not sweep:
                    self._cond.wait(sleep)
                    continue
                if sweep:
                    self._sweep_at = time.monotonic() + self.sweep_every
            client = self._engine()
            for container_id in due:
                gone = client is not None and self._remove(client, container_id)
                with self._cond:
                    if gone:
                        self._pending.pop(container_id, None)
                    elif container_id in self._pending:
                        delay = min(RETRY_MAX, self._pending[container_id][1] * 2)
                        self._pending[container_id] = (time.monotonic() + delay, delay)
                    self._cond.notify_all()
            if sweep and client is not None:
                try:
                    self._sweep(client)
                    self.sweeps += 1
                except Exception as exc:  # the engine is away: the next sweep comes on time
                    log.warning("%s: sweeping failed: %s", self.name,
                                (str(exc).splitlines() or [""])[0][:200])
                    self._client = None

    def _engine(self) -> Any:
        if self._client is None:
            try:
                self._client = self._connect()
            except Exception:  # the engine is away: what is due waits for the next try
                return None
        return self._client


_JANITORS: weakref.WeakSet[Janitor] = weakref.WeakSet()


def _forget_all_in_child() -> None:
    """A forked child starts with no thread and nothing pending: the parent's janitor goes on
    with the parent's removals. No lock is taken (the parent's thread may have held it), and no
    thread is started here (the child may be about to exec): the child's first removal starts
    it."""
    for janitor in list(_JANITORS):
        with contextlib.suppress(Exception):
            janitor._reset()


os.register_at_fork(after_in_child=_forget_all_in_child)
