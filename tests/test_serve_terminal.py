"""What `judge serve` prints, as a newcomer runs it: the URL, the first admin's token once, one
line per verdict and a line when a part is started again; not Celery's warning about root, its
banner, the recovery beat's lines or a line per HTTP request (those wait for --verbose)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import httpx
import pytest

from sandbox.docker_runner import DockerSandbox
from tests.utils.service import REFERENCE, bearer, wait_done
from tests.utils.service_fixtures import Serve, start_serve

BEAT_SECONDS = 3  # the recovery beat's interval here: it fires several times while the test runs
WATCHED_SECONDS = 40  # the terminal is read after this long


def _wait_for(serve: Serve, text: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while text not in serve.log:
        assert time.monotonic() < deadline, f"no {text!r} in:\n{serve.log}"
        time.sleep(0.2)


@pytest.mark.slow
def test_the_terminal_shows_the_url_a_verdict_and_a_restart_and_no_chatter(
        docker_sandbox: DockerSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUDGE_RECOVERY_INTERVAL_SECONDS", str(BEAT_SECONDS))
    monkeypatch.delenv("JUDGE_LOG_LEVEL", raising=False)
    started = time.monotonic()
    serve = start_serve(tmp_path)
    try:
        learner = serve.learners[0]
        with httpx.Client(base_url=serve.base, timeout=60) as http:
            response = http.post("/api/v1/submissions", headers=bearer(learner),
                                 json={"problem": "secret_lookup", "code": REFERENCE, "mode": "submit"})
            assert response.status_code == 202, response.text
            submission = response.json()["id"]
            assert wait_done(http, learner, submission)["verdict"] == "accepted"
        _wait_for(serve, f"submission {submission} (", 10)

        validating = serve.worker_pid(validation=True)
        assert validating is not None, serve.log
        os.kill(validating, signal.SIGKILL)
        _wait_for(serve, "validation worker started again (pid", 15)
        time.sleep(max(0.0, WATCHED_SECONDS - (time.monotonic() - started)))
        assert serve.process.poll() is None, serve.log
    finally:
        serve.stop()
    log = serve.log
    lines = log.splitlines()

    assert serve.base in log
    assert sum("Admin token" in line for line in lines) == 1
    verdicts = [line for line in lines if f"submission {submission} (" in line]
    assert len(verdicts) == 1, log
    assert "secret_lookup, submit): accepted, 5/5 tests, score 1" in verdicts[0], verdicts
    assert f"validation worker (pid {validating}) exited with SIGKILL" in log

    # The beat ran all along (it keeps its schedule in the data folder, as shelve's files) and
    # said nothing.
    assert list(tmp_path.glob("celerybeat-schedule*")), sorted(p.name for p in tmp_path.iterdir())
    assert "superuser" not in log and "SecurityWarning" not in log
    for chatter in ("recover_stale", "Sending due task", "beat: Starting", "[tasks]", "mingle:",
                    "GET /api/v1", "POST /api/v1", "problems: added"):
        assert chatter not in log, f"{chatter!r} in the terminal:\n{log}"
