"""`judge serve` on the embedded default holds up like production: a burst of concurrent posts is
all judged, a killed worker is started again, and a signal stops every process it started."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
import redis

from service import announcements
from service.private_redis import SOCKET_NAME, socket_folder
from tests.utils.service import REFERENCE, bearer, wait_done
from tests.utils.service_fixtures import Serve, alive, make_learners, process_tree, start_serve

WRONG = "def lookup(key):\n    return 'zq-secret-1O1'\n"
CLIENTS, PER_CLIENT = 40, 5  # 5 is the learner's queue quota: each client may hold all of them


@pytest.mark.slow
def test_a_burst_of_concurrent_posts_is_all_judged(serve_process: Serve) -> None:
    tokens = make_learners(serve_process, CLIENTS, "burst")
    started = time.monotonic()
    deadline = started + 900

    def post_all(token: str) -> list[tuple[int, str]]:
        posted = []
        with httpx.Client(base_url=serve_process.base, timeout=60) as http:
            for n in range(PER_CLIENT):
                code, verdict = (REFERENCE, "accepted") if n % 2 == 0 else (WRONG, "wrong_answer")
                response = http.post("/api/v1/submissions", headers=bearer(token),
                                     json={"problem": "secret_lookup", "code": code, "mode": "submit"})
                assert response.status_code == 202, response.text
                posted.append((response.json()["id"], verdict))
        return posted

    def judged(token: str, posted: list[tuple[int, str]]) -> list[tuple[str, str]]:
        with httpx.Client(base_url=serve_process.base, timeout=60) as http:
            return [(str(wait_done(http, token, submission_id, deadline - time.monotonic())["verdict"]), verdict)
                    for submission_id, verdict in posted]

    with ThreadPoolExecutor(CLIENTS) as pool:
        posts = list(pool.map(post_all, tokens))
        posted_in = time.monotonic() - started
        results = [pair for pairs in pool.map(judged, tokens, posts) for pair in pairs]
    elapsed = time.monotonic() - started
    print(f"\n{CLIENTS * PER_CLIENT} submissions from {CLIENTS} clients: posted in {posted_in:.1f} s, "
          f"all judged in {elapsed:.1f} s")
    assert len(results) == CLIENTS * PER_CLIENT
    assert [actual for actual, _ in results] == [expected for _, expected in results]
    assert "Unrecoverable error" not in serve_process.log
    assert httpx.get(f"{serve_process.base}/readyz").status_code == 200


def _wait_for_new_worker(serve: Serve, old: int, timeout: float = 10) -> tuple[int, float]:
    started = time.monotonic()
    while True:
        pid = serve.worker_pid()
        if pid is not None and pid != old:
            return pid, time.monotonic() - started
        assert time.monotonic() - started < timeout, "the worker was not started again:\n" + serve.log
        time.sleep(0.1)


@pytest.mark.slow
def test_a_killed_worker_is_started_again(serve_process: Serve) -> None:
    worker = serve_process.worker_pid()
    assert worker is not None, process_tree(serve_process.process.pid)
    pool = set(process_tree(worker))  # its pool processes and beat
    os.kill(worker, signal.SIGKILL)
    with httpx.Client(base_url=serve_process.base, timeout=60) as http:
        # Posted while no worker runs: the message waits in the broker for the next one.
        response = http.post("/api/v1/submissions", headers=bearer(serve_process.learners[0]),
                             json={"problem": "secret_lookup", "code": REFERENCE, "mode": "run"})
        assert response.status_code == 202, response.text
        _, after = _wait_for_new_worker(serve_process, worker)
        print(f"\nworker started again {after:.1f} s after kill -9")
        assert after < 5
        done = wait_done(http, serve_process.learners[0], response.json()["id"], 90)
        assert done["verdict"] == "accepted"
    assert "exited with SIGKILL" in serve_process.log
    assert not [pid for pid in pool if alive(pid)], "the dead worker's processes live on"
    serve_process.wait_ready()


@pytest.mark.slow
@pytest.mark.skipif(not shutil.which("redis-server"), reason="no private redis-server without one")
def test_waiting_clients_are_woken_by_the_private_brokers_announcements(serve_process: Serve) -> None:
    """The API subscribes to the worker's announcements over the private broker's Unix socket,
    rather than falling back to looking at the database every tick."""
    with httpx.Client(base_url=serve_process.base, timeout=60) as http:
        response = http.post("/api/v1/submissions", headers=bearer(serve_process.learners[0]),
                             json={"problem": "secret_lookup", "code": REFERENCE, "mode": "run"})
        assert response.status_code == 202, response.text
        assert wait_done(http, serve_process.learners[0], response.json()["id"])["verdict"] == "accepted"
    broker = redis.Redis(unix_socket_path=str(socket_folder(serve_process.data) / SOCKET_NAME))
    with broker:
        [(_, subscribers)] = broker.pubsub_numsub(announcements.channel())
    assert subscribers >= 1, serve_process.log


@pytest.mark.slow
@pytest.mark.skipif(not shutil.which("redis-server"), reason="no private redis-server without one")
def test_a_killed_private_broker_is_started_again(serve_process: Serve) -> None:
    def redis_pid() -> int | None:
        return next((pid for pid, cmd in process_tree(serve_process.process.pid).items()
                     if "redis-server" in cmd), None)

    old = redis_pid()
    assert old is not None
    os.kill(old, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while redis_pid() in (None, old):
        assert time.monotonic() < deadline, "redis-server was not started again:\n" + serve_process.log
        time.sleep(0.1)
    serve_process.wait_ready(timeout=30)
    with httpx.Client(base_url=serve_process.base, timeout=60) as http:
        # The restarted broker is empty; the worker and the API connect to it again.
        response = http.post("/api/v1/submissions", headers=bearer(serve_process.learners[1]),
                             json={"problem": "secret_lookup", "code": REFERENCE, "mode": "run"})
        assert response.status_code == 202, response.text
        done = wait_done(http, serve_process.learners[1], response.json()["id"], 90)
        assert done["verdict"] == "accepted"
    assert f"redis-server (pid {old}) exited with SIGKILL" in serve_process.log


def _heartbeats(data: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(data / "judge.db") as connection:
        return connection.execute("SELECT name, seen_at FROM worker_heartbeats").fetchall()


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_everything(docker_sandbox: object, tmp_path_factory: pytest.TempPathFactory,
                                   sig: signal.Signals) -> None:
    serve = start_serve(tmp_path_factory.mktemp("stopped"))
    children = process_tree(serve.process.pid)
    assert any("celery" in cmd for cmd in children.values()), children
    assert _heartbeats(serve.data)
    started = time.monotonic()
    assert serve.stop(sig, timeout=60) == 0, serve.log
    print(f"\n{sig.name}: stopped in {time.monotonic() - started:.1f} s")
    assert not [pid for pid in children if alive(pid)], "processes outlived judge serve"
    assert not (socket_folder(serve.data) / SOCKET_NAME).exists()
    assert _heartbeats(serve.data) == []  # a clean shutdown removes the worker's heartbeat
    assert "Unrecoverable error" not in serve.log
