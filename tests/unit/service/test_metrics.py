"""GET /metrics: the Prometheus text format, the counts the jobs record, and the queue depth's
fallback to the database when the broker cannot be read."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from sandbox.interface import Sandbox, SandboxUnavailable
from service import jobs, metrics
from service.db.models import Role
from service.db.session import new_session
from tests.unit.service.conftest import EagerQueue
from tests.unit.service.exec_sandbox import ExecSandbox
from tests.unit.service.helpers import WRONG
from tests.utils.service import REFERENCE, bearer, store_submission, submit
from tests.utils.service_fixtures import Tokens

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(client: TestClient) -> Samples:
    response = client.get("/metrics")  # no token: a scraper is not a user
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(response.text) for sample in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_verdicts_and_durations_are_counted_where_the_verdict_is_written(
        client: TestClient, new_user: Callable[[Role], str], refused_connections: list[str]) -> None:
    learner = new_user(Role.LEARNER)
    before = scrape(client)
    submit(client, learner, REFERENCE)
    submit(client, learner, WRONG)
    submit(client, learner, REFERENCE, mode="run")
    after = scrape(client)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("judge_verdicts_total", verdict="accepted", mode="submit") == 1
    assert grew("judge_verdicts_total", verdict="wrong_answer", mode="submit") == 1
    assert grew("judge_verdicts_total", verdict="accepted", mode="run") == 1
    assert grew("judge_judge_seconds_count", mode="submit") == 2
    assert grew("judge_judge_seconds_count", mode="run") == 1
    assert grew("judge_queue_wait_seconds_count", mode="submit") == 2
    assert grew("judge_judge_seconds_sum", mode="submit") > 0
    assert ("judge_warm_pool_containers", frozenset()) in after  # defined, for the warm pool to set


def test_sandbox_failures_are_counted_and_are_no_verdict(
        client: TestClient, tokens: Tokens, exec_sandbox: ExecSandbox, refused_connections: list[str]) -> None:
    def no_engine() -> Sandbox:
        raise SandboxUnavailable("no engine")

    before = scrape(client)
    submission_id = store_submission(user="test-other_learner")
    with new_session() as session:
        assert jobs.judge_submission(session, submission_id, no_engine) is jobs.JobResult.WAIT
        exec_sandbox.available = False  # the engine goes away: opened, then down mid-run
        assert jobs.judge_submission(session, submission_id, lambda: exec_sandbox) is jobs.JobResult.WAIT
    after = scrape(client)
    for reason in ("no_engine", "engine_down"):
        assert (value(after, "judge_sandbox_failures_total", reason=reason)
                - value(before, "judge_sandbox_failures_total", reason=reason)) == 1
    assert value(after, "judge_verdicts_total", verdict="internal_error", mode="run") == value(
        before, "judge_verdicts_total", verdict="internal_error", mode="run")


def test_queue_depth_falls_back_to_queued_rows_when_the_broker_is_unreadable(
        client: TestClient, new_user: Callable[[Role], str], eager_queue: EagerQueue,
        refused_connections: list[str]) -> None:
    learner = new_user(Role.LEARNER)
    baseline = value(scrape(client), "judge_queue_depth", queue="run", source="database")
    with eager_queue.hold():
        submit(client, learner, REFERENCE, mode="run")
        submit(client, learner, REFERENCE, mode="run")
        tried = client.post("/api/v1/submissions", headers=bearer(learner), json={
            "problem": "secret_lookup", "code": REFERENCE, "mode": "try", "arguments": ["a"]})
        assert tried.status_code == 202, tried.text
        samples = scrape(client)
    assert refused_connections  # the broker was asked first (and the guard refused it)
    # A try waits on the run queue, so it counts there.
    assert value(samples, "judge_queue_depth", queue="run", source="database") == baseline + 3
    assert ("judge_queue_depth", frozenset({("queue", "try"), ("source", "database")})) not in samples
    assert not any(labels and dict(labels).get("source") == "broker" for _, labels in samples)
    eager_queue.release()


def test_the_broker_is_read_when_it_answers() -> None:
    collector = metrics.QueueDepthCollector(
        broker=lambda: {"run": 1, "submit": 2, "background": 30, "recovery": 0},
        database=lambda: pytest.fail("the database is only the fallback"))
    [family] = collector.collect()
    assert {(s.labels["queue"], s.labels["source"], s.value) for s in family.samples} == {
        ("run", "broker", 1), ("submit", "broker", 2), ("background", "broker", 30),
        ("recovery", "broker", 0)}


def test_every_process_shares_one_folder_and_stale_files_go(tmp_path: Path) -> None:
    metrics.start()  # as every entry point does (this process's metrics may be started already)
    assert os.environ[metrics.MULTIPROC_ENV] == str(metrics.METRICS_DIR) and metrics.METRICS_DIR.is_dir()
    dead = tmp_path / "counter_999999999.db"  # a process id no live process has
    alive = tmp_path / f"gauge_livesum_{os.getppid()}.db"
    reused = tmp_path / f"histogram_{os.getpid()}.db"  # left by a dead process whose id this one has
    other = tmp_path / "notes.txt"
    for path in (dead, alive, reused, other):
        path.write_bytes(b"")
    assert sorted(metrics.clean_stale(tmp_path)) == sorted([dead, reused])
    assert alive.exists() and other.exists()


# A process of its own: this one's metrics may be started already.
PROBE = """
import json, os, sys
from service import metrics
stale = sys.argv[1]
seen = {"imported": [os.environ.get(metrics.MULTIPROC_ENV), os.path.exists(stale)]}
started = metrics.start()
seen["started"] = [os.environ.get(metrics.MULTIPROC_ENV), os.path.exists(stale)]
seen["once"] = metrics.start() is started
seen["files"] = sorted(os.listdir(metrics.METRICS_DIR))
seen["pid"] = os.getpid()
print(json.dumps(seen))
"""


def test_importing_changes_nothing_and_start_prepares_the_folder_once(tmp_path: Path) -> None:
    folder = tmp_path / "metrics"
    folder.mkdir()
    stale = folder / "counter_999999999.db"  # a process id no live process has
    stale.write_bytes(b"")
    env = {key: value for key, value in os.environ.items() if key != metrics.MULTIPROC_ENV}
    done = subprocess.run([sys.executable, "-c", PROBE, str(stale)], capture_output=True, text=True,
                          env={**env, "JUDGE_DATA_DIR": str(tmp_path)}, cwd=Path(__file__).parents[3],
                          timeout=60)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["imported"] == [None, True]
    assert seen["started"] == [str(folder), False]
    assert seen["once"] is True
    # Made after the variable was set, so multiprocess: the counters' file is in the folder, the
    # dead process's is gone.
    assert seen["files"] == [f"counter_{seen['pid']}.db", f"gauge_livesum_{seen['pid']}.db"]
