"""The one pool that runs argon2 in a process: a few threads, a bounded queue, refusal at once.

argon2id is made to cost memory and time (64 MiB and about 0.1 s a run by default), so whoever
can make the API hash can make it spend both. Every hash and verification of the process runs
here, on ``password_hash_workers`` threads (each holds one memory block while it works), with at
most ``password_hash_queue`` more requests waiting for them. The request after that gets
``HashingBusy`` (429 with Retry-After) at once instead of waiting, so a flood of sign-ins queues
nowhere else: not in the routes' thread pool, not for a database connection. The threads run
``password_hash_niceness`` nicer than the thread that started them (argon2's own lane threads
inherit it), so that on a busy machine the API's other answers go first.

A request takes one slot (``admitted``) for all its hashing, whose jobs run one at a time, so the
queue never holds more than ``password_hash_queue`` jobs. A sign-in takes its slot before its
attempt is counted (``sign_in_limits``): a refusal for a full pool costs the user no attempt.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from service import metrics
from service.errors import HashingBusy
from service.settings import get_settings

RETRY_AFTER = 1  # seconds: a slot frees as soon as one run (about 0.1 s) ends
T = TypeVar("T")


@dataclass(frozen=True)
class Check:
    """A verification: whether the password matched, and its new hash when the stored one was
    made with other parameters than the settings' (the caller stores it)."""

    ok: bool
    rehashed: str | None = None


@lru_cache
def _hasher(time_cost: int, memory_kib: int, parallelism: int) -> PasswordHasher:
    return PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism)


def hasher() -> PasswordHasher:
    """The hasher for the parameters the settings name now."""
    settings = get_settings()
    return _hasher(settings.password_time_cost, settings.password_memory_kib, settings.password_parallelism)


@lru_cache
def _dummy_hash(ph: PasswordHasher) -> str:
    metrics.password_hashed("hash")
    return ph.hash("a password nobody has: verified for names that do not exist")


def _run_nicer(by: int) -> None:
    """Each worker thread's start: ``by`` nicer than the thread that made it (Linux keeps a
    niceness per thread). Raising a niceness is always allowed; where it fails, it stays."""
    with contextlib.suppress(OSError):
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + by))


class _Pool:
    def __init__(self, workers: int, queue: int, niceness: int) -> None:
        self.shape = (workers, queue, niceness)
        self.capacity = workers + queue
        self.held = 0
        self.lock = threading.Lock()
        self.executor = ThreadPoolExecutor(workers, thread_name_prefix="password-hashing",
                                           initializer=_run_nicer, initargs=(niceness,))

    def take(self) -> None:
        with self.lock:
            if self.held >= self.capacity:
                metrics.password_hashing_refused()
                raise HashingBusy(f"the server is checking as many passwords as it takes at once "
                                  f"({self.capacity}); try again in {RETRY_AFTER} s",
                                  retry_after=RETRY_AFTER)
            self.held += 1

    def give(self) -> None:
        with self.lock:
            self.held -= 1


_pool: _Pool | None = None
_pool_lock = threading.Lock()
# The pool whose slot the current request holds (contextvars follow it into the thread that
# runs its route): its jobs go there, and a nested ``admitted`` takes no second slot.
_holding: ContextVar[_Pool | None] = ContextVar("password_hashing_slot", default=None)


def _current_pool() -> _Pool:
    """The pool for the settings now; a new one when they changed (tests change them), the old
    one finishing what it holds."""
    global _pool
    settings = get_settings()
    shape = (settings.password_hash_workers, settings.password_hash_queue, settings.password_hash_niceness)
    with _pool_lock:
        if _pool is None or _pool.shape != shape:
            if _pool is not None:
                _pool.executor.shutdown(wait=False)
            _pool = _Pool(*shape)
        return _pool


@dataclass(frozen=True)
class Slot:
    """One of a pool's workers + queue places, held by a request for all its hashing."""

    pool: _Pool


def take_slot() -> Slot:
    """A slot of the pool for the settings now; HashingBusy at once when none is free."""
    pool = _current_pool()
    pool.take()
    return Slot(pool)


@contextlib.contextmanager
def holding(slot: Slot) -> Iterator[None]:
    """Hash inside as the holder of ``slot`` (in its pool, taking no other), and give it back at
    the end: the thread that does the work gives it back, whatever became of the request."""
    token = _holding.set(slot.pool)
    try:
        yield
    finally:
        _holding.reset(token)
        slot.pool.give()


@contextlib.contextmanager
def admitted() -> Iterator[None]:
    """Hold a slot for the hashing done inside; HashingBusy at once when none is free. Nested
    (a route's slot, then the service function's), it takes only the outer one."""
    if _holding.get() is not None:
        yield
        return
    with holding(take_slot()):
        yield


def slots_held() -> int:
    """Slots of the current pool held now: requests admitted and not yet done with hashing."""
    with _pool_lock:
        pool = _pool
    return pool.held if pool is not None else 0


def _run(job: Callable[[], T]) -> T:
    with admitted():
        pool = _holding.get()
        assert pool is not None
        return pool.executor.submit(job).result()


def new_hash(password: str) -> str:
    """The argon2id hash of ``password`` with the settings' parameters, made in the pool."""
    ph = hasher()

    def job() -> str:
        metrics.password_hashed("hash")
        return ph.hash(password)

    return _run(job)


def check(stored: str | None, password: str) -> Check:
    """Verify ``password`` against ``stored`` in the pool. ``None`` (no such user, or one without
    a password) is verified against a dummy hash with the same parameters: the same cost, and
    never a match, so the answer's timing does not tell which names exist."""
    ph = hasher()

    def job() -> Check:
        metrics.password_hashed("verify")
        try:
            ok = ph.verify(stored or _dummy_hash(ph), password) and stored is not None
        except (VerificationError, InvalidHashError):
            return Check(False)
        if ok and stored is not None and ph.check_needs_rehash(stored):
            metrics.password_hashed("hash")
            return Check(True, ph.hash(password))
        return Check(ok)

    return _run(job)
