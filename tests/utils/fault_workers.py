"""Celery workers started by a fault test, on a key prefix (or broker) no other worker reads, so
the test decides which worker gets which submission and can kill it."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from judge.service.celery_app import GRADE_TASK, make_celery
from judge.service.cli import worker_command
from judge.settings import get_settings


class Workers:
    """Celery workers of this test's own, on a key prefix (or broker) no other worker reads."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.prefix = f"faults-{os.getpid()}-{time.monotonic_ns()}:"
        self.processes: list[subprocess.Popen[bytes]] = []

    def start(self, **env: str) -> subprocess.Popen[bytes]:
        log = self.folder / f"worker-{len(self.processes)}.log"
        settings = {**os.environ, "JUDGE_BROKER_KEY_PREFIX": self.prefix, **env}
        with log.open("wb") as sink:
            process = subprocess.Popen(worker_command(1), stdout=sink, stderr=subprocess.STDOUT,
                                       env=settings, start_new_session=True)
        self.processes.append(process)
        deadline = time.monotonic() + 60
        while b"ready." not in log.read_bytes():
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        return process

    def send(self, submission_id: int, broker_url: str | None = None) -> None:
        settings = get_settings().model_copy(update={"broker_key_prefix": self.prefix})
        if broker_url:
            settings = settings.model_copy(update={"broker_url": broker_url})
        app = make_celery(settings)
        app.send_task(GRADE_TASK, args=[submission_id], queue="submit")
        app.close()

    @staticmethod
    def kill(process: subprocess.Popen[bytes]) -> None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()

    def stop_all(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    self.kill(process)
