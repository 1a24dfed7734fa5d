"""`judge serve` runs validations in a worker of their own: it starts it beside the worker that
judges, gives it only the validation queue, and starts it again when it dies."""

from __future__ import annotations

import os
import signal
import time
import uuid
from pathlib import Path

import httpx
import pytest

from service.db.models import Role
from tests.utils.service import bearer, wait_version
from tests.utils.service_fixtures import Serve, make_learners, problem_files


def _queues(pid: int) -> list[str]:
    command = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    return command[command.index("-Q") + 1].split(",")


@pytest.mark.slow
def test_serve_supervises_a_validation_worker_that_alone_takes_validations(serve_process: Serve) -> None:
    judging, validating = serve_process.worker_pid(), serve_process.worker_pid(validation=True)
    assert judging is not None and validating is not None, serve_process.log
    assert "validation" not in _queues(judging) and "run" in _queues(judging)
    assert _queues(validating) == ["validation"]

    os.kill(validating, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while serve_process.worker_pid(validation=True) in (None, validating):
        assert time.monotonic() < deadline, "the validation worker was not started again:\n" + serve_process.log
        time.sleep(0.1)
    assert f"validation worker (pid {validating}) exited with SIGKILL" in serve_process.log
    assert serve_process.worker_pid() == judging  # the judging worker was left alone

    [author] = make_learners(serve_process, 1, f"author-{uuid.uuid4().hex[:6]}", Role.INSTRUCTOR)
    slug = f"served_{uuid.uuid4().hex[:6]}"
    with httpx.Client(base_url=serve_process.base, timeout=60) as http:
        response = http.post("/api/v1/problems", headers=bearer(author),
                             json={"slug": slug, "files": problem_files(slug)})
        assert response.status_code == 201, response.text
        assert wait_version(http, author, slug)["status"] == "valid"
