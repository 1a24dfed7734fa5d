"""Celery workers started by a fault test, on a key prefix (or broker) no other worker reads, so
the test decides which worker gets which submission and can kill it."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from service.celery_app import GRADE_TASK, make_celery
from service.cli import worker_command
from service.settings import get_settings
from tests.utils.service_env import child_env


class Workers:
    """Celery workers of this test's own, on a key prefix (or broker) no other worker reads."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.prefix = f"faults-{os.getpid()}-{time.monotonic_ns()}:"
        self.processes: list[subprocess.Popen[bytes]] = []

    def start(self, command: list[str] | None = None, ready: bool = True,
              **env: str) -> subprocess.Popen[bytes]:
        """A worker (by default Celery's own command, as `judge serve` runs it), its log in
        ``self.log(process)``; with ``ready``, once it consumes."""
        log = self.folder / f"worker-{len(self.processes)}.log"
        settings = child_env(JUDGE_BROKER_KEY_PREFIX=self.prefix, **env)
        with log.open("wb") as sink:
            process = subprocess.Popen(command or worker_command(1), stdout=sink,
                                       stderr=subprocess.STDOUT, env=settings, start_new_session=True)
        self.processes.append(process)
        if ready:
            self.wait_ready(process)
        return process

    def log(self, process: subprocess.Popen[bytes]) -> Path:
        return self.folder / f"worker-{self.processes.index(process)}.log"

    def wait_ready(self, process: subprocess.Popen[bytes], timeout: float = 60) -> None:
        log = self.log(process)
        deadline = time.monotonic() + timeout
        while b"ready." not in log.read_bytes():
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)

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
