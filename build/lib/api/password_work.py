"""Where the routes that hash a password do their work: threads of their own, not the route pool.

A sign-in, a registration, a password change and an admin's new user wait for the hashing pool
(``service.password_hashing``). As plain ``def`` routes they would wait on threads of the
pool every route shares (40): 80 sign-ins at once took all of them and made ``GET /me`` wait
5 s. These routes are ``async`` and hand their work to this module's threads, as many as the
hashing pool has slots. The slot is taken on the event loop first, so a request that finds the
pool full is refused (429 busy) before it has a thread, and an admitted one always finds a free
thread. The thread gives the slot back when the work ends, even if the client has gone. The work
gets a database session of its own, made and closed on its thread (``api.deps``' would be made
on the shared pool).
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Concatenate, ParamSpec, TypeVar

from sqlalchemy.orm import Session

from service import password_hashing
from service.db.session import new_session

P = ParamSpec("P")
T = TypeVar("T")

_threads: ThreadPoolExecutor | None = None
_size = 0
_lock = threading.Lock()


def _executor(size: int) -> ThreadPoolExecutor:
    """Threads for ``size`` slots (more when a change of the settings made the pool bigger)."""
    global _threads, _size
    with _lock:
        if _threads is None or _size < size:
            if _threads is not None:
                _threads.shutdown(wait=False)
            _threads, _size = ThreadPoolExecutor(size, thread_name_prefix="password-route"), size
        return _threads


async def run(work: Callable[Concatenate[Session, P], T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``work(session, *args, **kwargs)`` on a thread of this module, holding a slot of the
    hashing pool for all its hashing; HashingBusy at once when the pool is full."""
    slot = password_hashing.take_slot()

    def in_slot() -> T:
        with password_hashing.holding(slot), new_session() as session:
            return work(session, *args, **kwargs)

    context = contextvars.copy_context()  # the request's context (its id in the log) goes along
    try:
        future = _executor(slot.pool.capacity).submit(context.run, in_slot)
    except BaseException:
        slot.pool.give()
        raise
    return await asyncio.wrap_future(future)
