"""A real API server for tests: uvicorn in a process of its own, on the session's database.

Its lifespan migrates the database, so a test may make users only once the server answers.
Its log goes to a file, shown when it fails to start.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from tests.utils.service_fixtures import free_port


@contextlib.contextmanager
def api_server(log: Path, env: dict[str, str] | None = None, unset: tuple[str, ...] = ()) -> Iterator[str]:
    """Start ``uvicorn api.main:app`` with this process's environment, ``env`` on top and
    ``unset`` removed; yield its base URL once ``/healthz`` answers, stop it afterwards."""
    port = free_port()
    environment = {**os.environ, **(env or {})}
    for name in unset:
        environment.pop(name, None)
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "api.main:app", "--port", str(port), "--log-level", "warning",
             "--timeout-graceful-shutdown", "5"],  # a test may leave requests waiting
            env=environment, stdout=sink, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, log.read_text()
            try:
                if httpx.get(f"{base}/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
