"""A real API server for tests: uvicorn in a process of its own, on the session's database.

Its lifespan migrates the database, so a test may make users only once the server answers.
Its log goes to a file, shown when it fails to start.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import httpx

from tests.utils.service_env import child_env
from tests.utils.service_fixtures import free_port


@contextlib.contextmanager
def serving(command: Callable[[int], list[str]], log: Path, env: Mapping[str, str]) -> Iterator[str]:
    """Run ``command(port)`` (an HTTP server on 127.0.0.1 at a free port) with ``env`` and its
    output in ``log``; yield its base URL once ``/healthz`` answers, stop it afterwards."""
    port = free_port()
    with log.open("wb") as sink:
        process = subprocess.Popen(command(port), env=dict(env), stdout=sink, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, "the API did not start:\n" + log.read_text(errors="replace")
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"{base}/healthz", timeout=5).status_code == 200:
                    break
            assert time.monotonic() < deadline, "the API did not answer /healthz:\n" + log.read_text(errors="replace")
            time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def uvicorn(port: int, *extra: str) -> list[str]:
    """``uvicorn api.main:app`` on 127.0.0.1 at ``port``, quiet but for warnings."""
    return [sys.executable, "-m", "uvicorn", "api.main:app", "--host", "127.0.0.1", "--port", str(port),
            "--log-level", "warning", *extra]


@contextlib.contextmanager
def api_server(log: Path, env: dict[str, str] | None = None, unset: tuple[str, ...] = ()) -> Iterator[str]:
    """``uvicorn api.main:app`` with this process's environment, ``env`` on top and ``unset``
    removed; its base URL."""
    environment = child_env(**(env or {}))
    for name in unset:
        environment.pop(name, None)
    # A test may leave requests waiting: the server must not wait long for them when stopped.
    with serving(lambda port: uvicorn(port, "--timeout-graceful-shutdown", "5"), log, environment) as base:
        yield base
