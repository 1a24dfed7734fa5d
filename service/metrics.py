"""What operators watch, in the Prometheus text format (``GET /metrics``, ``api.routes.metrics``).

The worker's processes record (``service.jobs``); the API answers the scrape. They are
different processes (Celery's pool forks its children; uvicorn may run several), so
prometheus_client runs in its multiprocess mode: each process writes its values to memory-mapped
files in one folder, ``PROMETHEUS_MULTIPROC_DIR``, and the scrape adds them up. ``start()``, called
where a process starts (the API's start-up, a Celery worker's ``worker_init``, ``judge serve``
before it starts the workers), chooses that folder, sets the variable and makes the metrics;
importing this module does none of it. Processes started afterwards inherit the variable.

The folder: ``PROMETHEUS_MULTIPROC_DIR`` when the operator set it, else ``<JUDGE_DATA_DIR>/metrics``
(every process of one judge on one machine agrees on it without being told). Stale files are
removed when a process starts its metrics: those of processes that no longer exist (an earlier
run, a worker that died) and any left under this process's own id, so a counter starts again
from zero on a restart instead of carrying old counts. A pool process that ends marks its live
gauges dead. The folder must be shared only by processes that see each other's process ids
(one machine, one PID namespace): a container that shares it with another needs ``pid:`` set to
share the namespace, or its files would be taken for a dead process's.

A process that never starts its metrics (a one-off command such as ``judge users create``)
records nothing. The engine (``judge`` outside ``service``, and ``sandbox``) records nothing
itself: what it knows reaches these metrics through the service layer.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterator
from functools import wraps
from pathlib import Path
from typing import Any, Concatenate, ParamSpec

import prometheus_client
from prometheus_client import values as _values
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead

from service.settings import get_settings

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = prometheus_client.CONTENT_TYPE_LATEST
QUEUE_WAIT_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600)
JUDGE_TIME_BUCKETS = (0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 20, 30, 60, 120, 300)
log = logging.getLogger(__name__)


def _pid_of(path: Path) -> int | None:
    """The process id in a file name of prometheus_client's: counter_123.db, gauge_livesum_123.db."""
    if path.suffix != ".db":
        return None
    tail = path.stem.rpartition("_")[2]
    return int(tail) if tail.isdigit() else None


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True


def clean_stale(folder: Path) -> list[Path]:
    """Remove the files of processes that no longer exist, and this process's own leftovers
    (a dead process's id that this one reused); return what was removed."""
    removed = []
    for path in folder.glob("*.db"):
        pid = _pid_of(path)
        if pid is None or (pid != os.getpid() and _exists(pid)):
            continue
        try:
            path.unlink()
        except FileNotFoundError:  # another process starting at the same moment took it
            continue
        removed.append(path)
    return removed


class Metrics:
    """Every metric this process records, made by ``start()`` once the folder is chosen."""

    def __init__(self) -> None:
        self.verdicts = prometheus_client.Counter(
            "judge_verdicts", "Verdicts written (one per submission judged to the end), by verdict and mode.",
            ["verdict", "mode"])
        self.queue_wait = prometheus_client.Histogram(
            "judge_queue_wait_seconds", "From queued (created, or queued again) to claimed by a worker.",
            ["mode"], buckets=QUEUE_WAIT_BUCKETS)
        self.judge_time = prometheus_client.Histogram(
            "judge_judge_seconds", "From claimed by a worker to its verdict written.",
            ["mode"], buckets=JUDGE_TIME_BUCKETS)
        self.sandbox_failures = prometheus_client.Counter(
            "judge_sandbox_failures",
            "Infrastructure faults of the sandbox (SandboxUnavailable), never a verdict: no_engine (the "
            "sandbox could not be opened), engine_down (the engine went away mid-run), run_lost (the "
            "engine answers but the container vanished or stopped answering).", ["reason"])
        # Set by the warm pool (containers started ahead of need) in each worker process; the scrape
        # shows the sum over live processes. The engine may not import this module: the service
        # layer sets it.
        self.warm_pool_size = prometheus_client.Gauge(
            "judge_warm_pool_containers", "Sandbox containers started and waiting for a submission.",
            multiprocess_mode="livesum")
        # The API's argon2 runs (service.password_hashing): what a flood of sign-ins costs,
        # and how often the pool was full.
        self.password_hashes = prometheus_client.Counter(
            "judge_password_hashes", "argon2 runs by kind: verify (a sign-in, or the current password "
            "before a change) and hash (a new password, or a stored hash made again with new "
            "parameters).", ["kind"])
        self.password_hashing_refused = prometheus_client.Counter(
            "judge_password_hashing_refused", "Requests answered 429 busy at once: the hashing pool's "
            "workers and queue were all taken.")
        # A client gone before its request was whole (a hang-up mid-upload): the client's doing,
        # never a failure of the server's, so counted apart from 5xx answers.
        self.client_disconnects = prometheus_client.Counter(
            "judge_api_client_disconnects", "Requests whose client hung up before the body was complete.")


METRICS_DIR: Path  # the folder this process's metrics live in, once start() chose it
_metrics: Metrics | None = None
_starting = threading.Lock()


def start() -> Metrics:
    """Start this process's metrics, once, and return them: choose the folder (above), create
    it, point ``PROMETHEUS_MULTIPROC_DIR`` at it, remove stale files, then make the metrics.

    Called where a process starts, never at import: an import would otherwise create folders,
    delete other runs' files and change the environment of whatever imported it (a test, a
    command that needed one name). The order is prometheus_client's: a metric is multiprocess,
    and takes its file in the folder, only if the variable is set when the metric is made, so
    nothing is made before. Later calls return the same metrics, so every entry point may call it.
    """
    global METRICS_DIR, _metrics
    with _starting:
        if _metrics is not None:
            return _metrics
        folder = Path(os.environ.get(MULTIPROC_ENV) or get_settings().data_dir / "metrics")
        folder.mkdir(parents=True, exist_ok=True)
        os.environ[MULTIPROC_ENV] = str(folder)
        clean_stale(folder)
        # prometheus_client chose its value class (multiprocess or not) when first imported,
        # perhaps before the variable was set: choose again, now, before any metric exists.
        _values.ValueClass = _values.get_value_class()  # type: ignore[no-untyped-call]
        METRICS_DIR = folder
        _metrics = Metrics()
        _connect_worker_signals()
        return _metrics


P = ParamSpec("P")


def _recorder(record: Callable[Concatenate[Metrics, P], None]) -> Callable[P, None]:
    """Metrics never decide a verdict: a failure to record is logged, never raised. A process
    that did not start its metrics records nothing."""

    @wraps(record)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> None:
        metrics = _metrics
        if metrics is None:
            return
        try:
            record(metrics, *args, **kwargs)
        except Exception:
            log.warning("recording a metric failed", exc_info=True)

    return guarded


@_recorder
def verdict_stored(metrics: Metrics, verdict: str, mode: str) -> None:
    metrics.verdicts.labels(verdict=verdict, mode=mode).inc()


@_recorder
def claimed(metrics: Metrics, mode: str, waited_seconds: float) -> None:
    metrics.queue_wait.labels(mode=mode).observe(max(0.0, waited_seconds))


@_recorder
def judged(metrics: Metrics, mode: str, seconds: float) -> None:
    metrics.judge_time.labels(mode=mode).observe(max(0.0, seconds))


@_recorder
def sandbox_failure(metrics: Metrics, reason: str) -> None:
    metrics.sandbox_failures.labels(reason=reason).inc()


@_recorder
def warm_pool_size(metrics: Metrics, size: int) -> None:
    metrics.warm_pool_size.set(size)


@_recorder
def password_hashed(metrics: Metrics, kind: str) -> None:
    metrics.password_hashes.labels(kind=kind).inc()


@_recorder
def password_hashing_refused(metrics: Metrics) -> None:
    metrics.password_hashing_refused.inc()


@_recorder
def client_hung_up(metrics: Metrics) -> None:
    metrics.client_disconnects.inc()


# ---------------------------------------------------------------------------------------------
# Queue depth, read when scraped


def broker_queue_depths(app: Any = None) -> dict[str, int]:
    """Messages waiting in each queue, read from ``app``'s broker (the service's by default).

    Read with ``queue_declare``, whose answer counts the messages (kombu's public API; declaring
    a queue on these transports writes nothing to the broker). Not the passive form Celery's
    documentation shows: kombu's Redis check that a queue exists ignores the key prefix, so under
    ``JUDGE_BROKER_KEY_PREFIX`` every queue would read as missing. On Redis each queue is a list
    per priority step (kombu's ``queue``, ``queue\\x06\\x163``, ``...6``, ``...9``), and the count
    adds up their LLENs through the same prefixing client the worker reads them with. On the
    file-system broker it counts the queue's message files. Messages a worker already holds (reserved, or
    waiting out a countdown) are not in the queue and not counted.
    """
    from service.celery_app import ALL_QUEUES, celery

    with (app or celery).connection_for_read() as connection:
        # One try, no pause: a scrape that finds the broker down falls back at once.
        connection.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=3)
        channel = connection.default_channel
        return {queue: int(channel.queue_declare(queue=queue).message_count) for queue in ALL_QUEUES}


def database_queue_depths() -> dict[str, int]:
    """The fallback: queued rows per queue their mode goes to (``run`` for runs and tries,
    ``submit``). A rejudge's rows are ``submit`` rows, so the background queue cannot be told
    apart here."""
    from sqlalchemy import func, select

    from service.db.models import Submission, SubmissionStatus
    from service.db.session import new_session
    from service.submissions import Mode, queue_for

    depths = {queue_for(mode): 0 for mode in Mode}
    with new_session() as session:
        rows = session.execute(select(Submission.mode, func.count()).where(
            Submission.status == SubmissionStatus.QUEUED).group_by(Submission.mode))
        for mode, count in rows:
            depths[queue_for(str(mode))] += int(count)
    return depths


class QueueDepthCollector:
    """``judge_queue_depth{queue, source}``: from the broker (``source="broker"``), or, when the
    broker cannot be read, queued rows per mode from the database (``source="database"``)."""

    def __init__(self, broker: Callable[[], dict[str, int]] = broker_queue_depths,
                 database: Callable[[], dict[str, int]] = database_queue_depths) -> None:
        self.broker, self.database = broker, database

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import GaugeMetricFamily

        family = GaugeMetricFamily(
            "judge_queue_depth", "Submissions waiting to be judged: messages in each Celery queue "
            "(source=broker) or, with the broker unreadable, queued rows per mode (source=database).",
            labels=["queue", "source"])
        try:
            depths, source = self.broker(), "broker"
        except Exception as exc:
            log.warning("queue depth: the broker could not be read (%s); counting rows", exc)
            try:
                depths, source = self.database(), "database"
            except Exception:
                log.warning("queue depth: the database could not be read either", exc_info=True)
                depths, source = {}, ""
        for queue, depth in depths.items():
            family.add_metric([queue, source], depth)
        yield family


def exposition(queue_depth: QueueDepthCollector | None = None) -> bytes:
    """Every process's values added up, and the queue depths read now, in the text format."""
    if _metrics is None:  # the API's start-up starts them: this process is not one that may scrape
        raise RuntimeError("metrics.start() was not called in this process")
    registry = prometheus_client.CollectorRegistry()
    MultiProcessCollector(registry, path=str(METRICS_DIR))  # type: ignore[no-untyped-call]
    registry.register(queue_depth or QueueDepthCollector())
    return bytes(prometheus_client.generate_latest(registry))


def serve(port: int) -> None:
    """Serve this process's folder's values (every process that shares it) at
    ``http://0.0.0.0:PORT/metrics``, in a thread: a worker's own endpoint, for a Prometheus that
    scrapes each worker container (the API's /metrics sees only the processes on its own host).
    No queue depths here: those are the API's, read once for everyone."""
    if _metrics is None:
        raise RuntimeError("metrics.start() was not called in this process")
    registry = prometheus_client.CollectorRegistry()
    MultiProcessCollector(registry, path=str(METRICS_DIR))  # type: ignore[no-untyped-call]
    try:
        prometheus_client.start_http_server(port, registry=registry)
    except OSError as exc:  # another process of the host took it (`judge serve` runs several)
        log.warning("metrics not served on port %d (%s); the API's /metrics has them on this host",
                    port, exc.strerror)
        return
    log.info("metrics served on port %d", port)


# ---------------------------------------------------------------------------------------------
# Celery's pool processes: a process that ends takes its live gauges with it


def _mark_dead(**_: Any) -> None:
    try:
        mark_process_dead(os.getpid(), str(METRICS_DIR))  # type: ignore[no-untyped-call]
    except OSError:
        log.warning("could not mark this process's gauges dead", exc_info=True)


def _connect_worker_signals() -> None:
    from celery.signals import worker_process_shutdown, worker_shutdown

    worker_process_shutdown.connect(_mark_dead, weak=False)  # a pool process
    worker_shutdown.connect(_mark_dead, weak=False)  # the worker's main process

