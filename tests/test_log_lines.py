"""JUDGE_LOG_FORMAT=json: every line `judge api` and `judge worker` log is one JSON object, with
the request id or the task it belongs to; and a service setting that does not fit is one line
naming it, not a traceback."""

from __future__ import annotations

import json
import logging
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx

from sandbox.docker_runner import DockerSandbox
from service.log_format import ACCESS_LOGGER, REQUEST_ID, JsonLines
from tests.utils.api_server import serving
from tests.utils.service_env import FIXTURE_PROBLEMS, child_env

HOSTILE = "\x1b]0;owned\x07\x1b[31mred\nsecond line\r\u202e"  # what a learner's slug or file name may hold


def _record(message: str, *args: object, name: str = "api", exc: bool = False) -> logging.LogRecord:
    exc_info = None
    if exc:
        try:
            raise ValueError("boom")
        except ValueError:
            exc_info = sys.exc_info()
    return logging.LogRecord(name, logging.WARNING, __file__, 1, message, args, exc_info)


def test_a_record_is_one_line_of_json_with_its_fields_and_no_control_character() -> None:
    line = JsonLines().format(_record("could not load %r", HOSTILE, exc=True))
    assert "\n" not in line and not any(ord(c) < 0x20 or c == "\x7f" for c in line)
    assert line.isascii()  # the bidi override too is escaped: a terminal shows the line as it is
    entry = json.loads(line)
    assert entry["message"] == f"could not load {HOSTILE!r}"
    assert (entry["level"], entry["logger"]) == ("WARNING", "api")
    assert entry["time"].endswith("+00:00") and isinstance(entry["process"], int)
    assert entry["exception"].startswith("Traceback") and "ValueError: boom" in entry["exception"]
    assert "request_id" not in entry and "task_id" not in entry


def test_a_line_written_while_a_request_is_answered_names_it() -> None:
    token = REQUEST_ID.set("req-42")
    try:
        access = _record('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET", "/healthz", "1.1", 200,
                         name=ACCESS_LOGGER)
        entry = json.loads(JsonLines().format(access))
    finally:
        REQUEST_ID.reset(token)
    assert entry["request_id"] == "req-42"
    assert (entry["client"], entry["method"], entry["path"], entry["status"]) == (
        "127.0.0.1:5000", "GET", "/healthz", 200)
    assert "request_id" not in json.loads(JsonLines().format(_record("after")))


def _env(tmp_path: Path, **changes: str) -> dict[str, str]:
    """A judge of its own: SQLite and the file-system broker in tmp_path, the fixture problems,
    and no Docker engine."""
    env = {k: v for k, v in child_env().items()
           if k not in ("JUDGE_DATABASE_URL", "JUDGE_BROKER_URL", "JUDGE_BROKER_KEY_PREFIX")}
    env.update(JUDGE_DATA_DIR=str(tmp_path), JUDGE_PROBLEMS_DIR=str(FIXTURE_PROBLEMS),
               JUDGE_LOG_FORMAT="json", JUDGE_READY_NEEDS_DOCKER="false",
               DOCKER_HOST="unix:///nonexistent/docker.sock")
    return {**env, **changes}


def _json_lines(text: str) -> list[dict[str, Any]]:
    lines = [line for line in text.splitlines() if line.strip()]
    assert lines, "nothing was logged"
    entries = []
    for line in lines:
        entry = json.loads(line)  # every line, or this fails naming it
        assert isinstance(entry, dict) and {"time", "level", "logger", "message"} <= set(entry), line
        entries.append(entry)
    return entries


def test_judge_api_logs_json_lines_that_carry_each_requests_id(tmp_path: Path) -> None:
    log = tmp_path / "api.log"
    command = [sys.executable, "-m", "service.cli", "api"]
    with serving(lambda port: [*command, "--port", str(port)], log, _env(tmp_path)) as base:
        assert httpx.get(f"{base}/healthz", headers={"X-Request-ID": "log-lines-1"}).status_code == 200
        refused = httpx.get(f"{base}/api/v1/problems/%1b%5b31mred")
        assert refused.status_code == 401
    written = log.read_text()
    entries = _json_lines(written)
    access = [e for e in entries if e["logger"] == ACCESS_LOGGER]
    mine = [e for e in access if e.get("request_id") == "log-lines-1"]
    assert [(e["method"], e["path"], e["status"]) for e in mine] == [("GET", "/healthz", 200)], access
    other = next(e for e in access if e["status"] == 401)
    assert other["request_id"] == refused.headers["x-request-id"]  # the id the answer named
    assert "\x1b" not in written


def test_judge_worker_logs_json_lines_that_name_their_task(docker_sandbox: DockerSandbox, tmp_path: Path) -> None:
    env = _env(tmp_path)
    del env["DOCKER_HOST"]  # a judging worker waits for its engine before it starts
    worker = subprocess.Popen([sys.executable, "-m", "service.cli", "worker", "--concurrency", "1"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    # The worker sends itself a recovery when it connects (service.celery_app.RecoverOnConnect):
    # its lines name that task. Read until one does (a thread reads: a line may never come).
    seen: list[str] = []
    named = threading.Event()

    def read() -> None:
        assert worker.stderr is not None
        for line in worker.stderr:
            seen.append(line)
            if '"task_id"' in line:
                named.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        named.wait(timeout=90)
    finally:
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(timeout=60)
        except subprocess.TimeoutExpired:
            worker.kill()
        reader.join(timeout=10)
    entries = _json_lines("".join(seen))
    tasks = [e for e in entries if "task_id" in e]
    assert tasks and tasks[0]["task"] == "judge.recover_stale", seen
    assert any(e["message"].endswith("ready.") for e in entries)


def test_a_service_setting_that_does_not_fit_is_one_line_naming_it(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "service.cli", "api"],
                          env=_env(tmp_path, JUDGE_LOG_FORMAT="xml", JUDGE_PORT="eighty"),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "error: JUDGE_LOG_FORMAT is 'xml': input should be 'text' or 'json'; JUDGE_PORT is 'eighty': "
        "input should be a valid integer, unable to parse string as an integer"), done.stderr
