"""Benchmark: how long another user's webhook waits while one user's receiver stalls.

    python benchmarks/webhook_fairness.py [--batches 16,100] [--probes 5] [--concurrency N]
                                          [--backend embedded|postgres]

The webhook worker (`judge webhook-worker`'s command, the one `judge serve` supervises) with the
settings' defaults (JUDGE_WEBHOOK_CONCURRENCY threads unless --concurrency, 5 s per attempt, a
sweep every 5 s) on a database of its own: SQLite and a private redis-server, as `judge serve`
runs them, or with --backend postgres a throw-away PostgreSQL database (127.0.0.1:5432) and
Redis (127.0.0.1:6379) under a key prefix of its own. Two receivers on loopback
(JUDGE_WEBHOOK_ALLOW_PRIVATE): user A's accepts every connection and never answers, user B's
answers 200 at once.

A delivery of B's is written as a verdict writes it, queued, and timed to its arrival at B's
receiver. The floor: --probes of them one after another, nothing else going on. Then for each
batch size N: a fresh user A gets N deliveries queued at once (a batch's verdicts, a rejudge),
and B's are queued right behind them, --probes one after another while A's stall. Prints the
delay of B's first (queued right behind all of A's) and the worst, for each series, and the
most of A's attempts the stalled receiver saw at once. Between series A's deliveries are
given up and their attempts left to time out.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(Path(__file__).resolve().parent))

from e2e_http import Backend, make_backend, say  # noqa: E402


def start_worker(command: list[str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT, env=os.environ.copy())
    deadline = time.monotonic() + 60
    while b"ready." not in log.read_bytes():
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("the webhook worker did not start:\n" + log.read_text(errors="replace"))
        time.sleep(0.2)
    return process


def embedded_backend(data: Path) -> Backend:
    """SQLite in data and a private redis-server on a socket there, as `judge serve` has them."""
    from service.private_redis import PrivateRedis, redis_binary

    binary = redis_binary()
    if binary is None:
        raise SystemExit("no redis-server installed: use --backend postgres")
    broker = PrivateRedis(binary, data, say)
    broker.start()
    backend = Backend("SQLite + private redis-server", {
        "JUDGE_DATA_DIR": str(data), "JUDGE_DATABASE_URL": f"sqlite:///{data / 'judge.db'}",
        "JUDGE_BROKER_URL": broker.url})
    backend.cleanups.append(broker.stop)
    return backend


class Run:
    """The receivers, user B, and the way to time one of B's deliveries."""

    def __init__(self) -> None:
        from tests.utils.webhook_fairness import Prompt, Stalled, new_user

        self.stalled, self.prompt = Stalled("127.0.0.1"), Prompt("127.0.0.2")
        self.user_b = new_user("prompt")

    def probe(self) -> float:
        """Seconds from queueing one delivery of B's to its arrival."""
        from service.webhooks.outbox import enqueue
        from tests.utils.webhook_fairness import write_deliveries

        [(pk, delivery_id)] = write_deliveries(self.user_b, self.prompt.url, 1)
        sent = time.monotonic()
        enqueue([pk])
        arrived = self.prompt.wait_for(delivery_id, timeout=900)
        if arrived is None:
            raise SystemExit("B's delivery did not arrive within 15 minutes")
        return arrived - sent

    def stalled_series(self, size: int, probes: int, timeout: float) -> tuple[list[float], int]:
        """B's delays while A's size deliveries stall; the most of A's attempts at once."""
        from sqlalchemy import update

        from service.db.models import WebhookDelivery
        from service.db.session import session_scope
        from service.webhooks.outbox import enqueue
        from tests.utils.webhook_fairness import new_user, write_deliveries

        written = write_deliveries(new_user("stalled"), self.stalled.url, size)
        self.stalled.reset()
        enqueue([pk for pk, _ in written])
        delays = [self.probe() for _ in range(probes)]
        most = self.stalled.most_open
        with session_scope() as session:  # A gives up: its queued messages are skipped
            session.execute(update(WebhookDelivery).where(
                WebhookDelivery.id.in_([pk for pk, _ in written])).values(state="failed"))
        deadline = time.monotonic() + 10 * timeout + 60
        while self.stalled.open_now and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(1)
        return delays, most

    def close(self) -> None:
        self.stalled.close()
        self.prompt.close()


def row(name: str, delays: list[float], most: str) -> str:
    return f"| {name} | {delays[0] * 1000:.0f} ms | {max(delays) * 1000:.0f} ms | {most} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--batches", default="16,100", help="sizes of A's stalled batches")
    parser.add_argument("--probes", type=int, default=5, help="B's deliveries in each series")
    parser.add_argument("--concurrency", type=int, default=None,
                        help="the webhook worker's threads (default JUDGE_WEBHOOK_CONCURRENCY)")
    parser.add_argument("--backend", choices=["embedded", "postgres"], default="embedded")
    options = parser.parse_args()
    sizes = [int(size) for size in options.batches.split(",")]
    data = Path(tempfile.mkdtemp(prefix="judge-bench-"))
    backend = make_backend("postgres", data) if options.backend == "postgres" else embedded_backend(data)
    os.environ.update(backend.env, JUDGE_WEBHOOK_ALLOW_PRIVATE="true")
    worker = run = None
    try:
        from service.cli import webhook_worker_command
        from service.db.migrate import upgrade
        from service.settings import get_settings

        get_settings.cache_clear()
        settings = get_settings()
        upgrade()
        threads = options.concurrency or settings.webhook_concurrency
        worker = start_worker(webhook_worker_command(threads, "INFO"), data / "webhook-worker.log")
        run = Run()
        run.probe()  # the worker's first delivery opens its connections
        say("floor: B alone")
        series: list[tuple[str, list[float], str]] = [
            ("floor: nothing stalled", [run.probe() for _ in range(options.probes)], "-")]
        for size in sizes:
            say(f"B behind {size} of A's, stalled")
            delays, at_once = run.stalled_series(size, options.probes, settings.webhook_timeout_seconds)
            series.append((f"A's {size} stalled, queued ahead", delays, str(at_once)))
    finally:
        if run is not None:
            run.close()
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=30)
        backend.cleanup()
        shutil.rmtree(data, ignore_errors=True)
    bounds = "/".join(str(getattr(settings, f"webhook_max_in_flight_per_{who}", "none"))
                      for who in ("user", "host"))
    print(f"\n{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, {backend.name}; "
          f"webhook worker {threads} threads, {settings.webhook_timeout_seconds:g} s per attempt, "
          f"sweep {settings.webhook_sweep_seconds:g} s; bounds in flight per user/host: {bounds}\n")
    print(f"| series | B's first | B's worst of {options.probes} | A's attempts at once |")
    print("|---|---|---|---|")
    for name, delays, most in series:
        print(row(name, delays, most))


if __name__ == "__main__":
    main()
