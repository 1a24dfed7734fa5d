"""Worker heartbeats: each worker's main process writes a row to ``worker_heartbeats`` every few
seconds while it consumes, and removes it on a clean shutdown. /readyz wants one that is recent,
so a judge whose workers all died stops saying it is ready.

Connected to Celery's signals on import (``service.tasks`` imports this module, so every worker
loads it); in the API process the signals never fire.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
from datetime import timedelta
from typing import Any

from celery import signals
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from service.db.models import WorkerHeartbeat, utcnow
from service.db.session import get_engine, session_scope
from service.settings import get_settings

log = logging.getLogger(__name__)
VALIDATION_NODE = "validation"  # the validation worker's node name is validation@<host>
WEBHOOK_NODE = "webhooks"  # the webhook worker's is webhooks@<host>
FORGET_AFTER = timedelta(hours=1)  # rows of workers that died without removing theirs


def beat(name: str) -> None:
    with session_scope() as session:
        session.merge(WorkerHeartbeat(name=name, seen_at=utcnow()))


def remove(name: str) -> None:
    with session_scope() as session:
        session.execute(delete(WorkerHeartbeat).where(WorkerHeartbeat.name == name))


def forget_dead() -> None:
    with session_scope() as session:
        session.execute(delete(WorkerHeartbeat).where(WorkerHeartbeat.seen_at < utcnow() - FORGET_AFTER))


def recent(session: Session, seconds: float) -> int:
    """How many judging workers wrote a heartbeat in the last `seconds`. A validation worker's
    (node ``validation@...``) and a webhook worker's (``webhooks@...``) do not count: learners'
    verdicts would wait with only those alive."""
    since = utcnow() - timedelta(seconds=seconds)
    return session.scalar(select(func.count()).select_from(WorkerHeartbeat).where(
        WorkerHeartbeat.seen_at >= since,
        WorkerHeartbeat.name.not_like(f"{VALIDATION_NODE}@%"),
        WorkerHeartbeat.name.not_like(f"{WEBHOOK_NODE}@%"))) or 0


class Heartbeats:
    """A daemon thread that writes this worker's heartbeat until stopped."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True, name="worker-heartbeat")

    def _run(self) -> None:
        failing = False
        with contextlib.suppress(Exception):  # only housekeeping
            forget_dead()
        while True:
            try:
                beat(self.name)
                if failing:
                    log.warning("worker heartbeat written again")
                failing = False
            except Exception as exc:  # the database hiccuped: /readyz will say so if it lasts
                if not failing:
                    log.warning("worker heartbeat not written: %s", exc)
                failing = True
            if self.stopped.wait(get_settings().heartbeat_interval_seconds):
                self._remove()  # after the last beat: a beat in flight cannot write the row again
                return

    def start(self) -> None:
        self.thread.start()

    def stopping(self) -> None:
        """The worker begins to stop: it takes no more work, so it stops saying it is there. Only
        sets an event (this runs in a signal handler); the thread removes the row."""
        self.stopped.set()

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=10)
        self._remove()

    def _remove(self) -> None:
        try:
            remove(self.name)
        except Exception as exc:
            log.warning("worker heartbeat not removed: %s", exc)


_current: Heartbeats | None = None


def _start(sender: Any = None, **_: Any) -> None:
    global _current
    hostname = getattr(sender, "hostname", None) or socket.gethostname()
    _current = Heartbeats(f"{hostname}:{os.getpid()}"[:200])
    _current.start()


def _stop(**_: Any) -> None:
    global _current
    if _current is not None:
        _current.stop()
        _current = None


def _stopping(**_: Any) -> None:
    # A warm shutdown may last while running submissions finish and containers are removed, and
    # the worker may be killed at the end of its grace: its row goes now, not at the very end.
    if _current is not None:
        _current.stopping()


def _forked(**_: Any) -> None:
    # A pool process forked after the heartbeat thread opened connections must not share them
    # with its parent: it starts with an empty pool, leaving the parent's connections alone.
    get_engine().dispose(close=False)


signals.worker_ready.connect(_start)
signals.worker_shutting_down.connect(_stopping)
signals.worker_shutdown.connect(_stop)
signals.worker_process_init.connect(_forked)
