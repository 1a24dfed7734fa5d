"""The database restarted, and the API killed, under a running service: a PostgreSQL cluster of the
test's own (initdb), an API server and a worker pointed at it. Every submission must end done
and accepted; while the database is down the API answers in the JSON error shape, never plain
text, and no answer is lost.

And a verdict's commit whose answer was lost: a proxy in front of the session's PostgreSQL lets
the COMMIT reach the server, then cuts the connection before the answer comes back. The verdict
is stored, and the worker's retry must still announce it, log it and send its webhook's message,
once."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy import make_url

from service.announcements import CHANNEL, decode
from service.db.models import SubmissionStatus
from service.settings import get_settings
from tests.utils.fault_workers import Workers
from tests.utils.service import REFERENCE, SLOW_REFERENCE, store_submission
from tests.utils.service_fixtures import Tokens, free_port

pytestmark = pytest.mark.docker


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found or shutil.which("runuser") is None or os.getuid() != 0:
        pytest.skip(f"needs PostgreSQL's {name} and root (to run it as the postgres user)")
    return found[-1]


class Cluster:
    """A throwaway PostgreSQL cluster on a free port, run as the postgres user."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.port = folder, free_port()
        folder.mkdir()
        shutil.chown(folder, "postgres", "postgres")
        folder.parent.chmod(0o755)
        self._as_postgres(_pg_bin("initdb"), "-D", str(folder / "data"), "-U", "postgres",
                          "--auth=trust")
        self.start()
        self._as_postgres(shutil.which("psql") or "psql", "-h", "127.0.0.1", "-p", str(self.port),
                          "-U", "postgres", "-c", "CREATE DATABASE judge")

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/judge"

    def _as_postgres(self, *command: str) -> None:
        subprocess.run(["runuser", "-u", "postgres", "--", *command], check=True,
                       capture_output=True, cwd=self.folder)

    def _ctl(self, *args: str) -> None:
        self._as_postgres(_pg_bin("pg_ctl"), "-D", str(self.folder / "data"), "-w",
                          "-l", str(self.folder / "log"), *args)

    def start(self) -> None:
        self._ctl("-o", f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1", "start")

    def stop(self) -> None:
        self._ctl("-m", "fast", "stop")


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    # Outside pytest's own temporary folder, which only root may enter.
    parent = Path(tempfile.mkdtemp(prefix="judge-pg-"))
    made = Cluster(parent / "pg")
    yield made
    made.stop()
    shutil.rmtree(parent, ignore_errors=True)


def _api(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as sink:
        process = subprocess.Popen([sys.executable, "-m", "uvicorn", "api.main:app", "--port",
                                    str(port), "--log-level", "warning"], env=env, stdout=sink,
                                   stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while True:
        assert process.poll() is None, log.read_text()
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 200:
                return process
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.2)


def test_database_restart_and_api_kill(cluster: Cluster, tmp_path: Path,
                                       docker_sandbox: object) -> None:
    workers = Workers(tmp_path)
    env = {**os.environ, "JUDGE_DATABASE_URL": cluster.url, "JUDGE_BROKER_KEY_PREFIX": workers.prefix,
           "JUDGE_DATA_DIR": str(tmp_path / "data"), "JUDGE_LEARNER_QUEUE_QUOTA": "100"}
    port = free_port()
    api = _api(env, port, tmp_path / "api.log")  # migrates the new database on start
    token = subprocess.run([sys.executable, "-m", "service.cli", "users", "create", "faulty"], env=env,
                           check=True, capture_output=True, text=True).stdout.strip()
    # A short lease: a claim left behind when the database died mid-verdict lapses soon.
    workers.start(JUDGE_DATABASE_URL=cluster.url, JUDGE_DATA_DIR=str(tmp_path / "fresh-data"),
                  JUDGE_LEASE_SECONDS="5")
    headers = {"Authorization": f"Bearer {token}"}
    body = {"problem": "secret_lookup", "code": REFERENCE, "mode": "submit"}
    ids: list[int] = []
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=60) as http:
            slow = {**body, "code": SLOW_REFERENCE}  # still judging when the database stops
            ids += [http.post("/api/v1/submissions", json=slow).json()["id"] for _ in range(3)]
            time.sleep(1.0)
            cluster.stop()
            during = http.get(f"/api/v1/submissions/{ids[0]}")
            assert during.status_code in (200, 503), during.text
            if during.status_code == 503:
                assert during.json()["error"]["code"] == "unavailable"
                assert during.headers["retry-after"] == "5" and during.headers["x-request-id"]
            time.sleep(5)
            cluster.start()
            ids += [http.post("/api/v1/submissions", json=body).json()["id"] for _ in range(3)]
            api.send_signal(signal.SIGKILL)
            api.wait()
        api = _api(env, port, tmp_path / "api.log")
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=60) as http:
            for submission_id in ids:
                deadline = time.monotonic() + 120
                while True:
                    done = http.get(f"/api/v1/submissions/{submission_id}?wait=20")
                    assert done.status_code == 200, done.text
                    if done.json()["status"] == "done":
                        break
                    assert time.monotonic() < deadline, done.text
                assert done.json()["verdict"] == "accepted"
    finally:
        api.terminate()
        api.wait(timeout=30)
        workers.stop_all()


class CommitAnswerCutter:
    """A TCP proxy in front of PostgreSQL. On the connection that stores a verdict (the UPDATE
    of ``lifecycle.finish``, known by its RETURNING), it lets the commit reach the server, then
    closes both sides when the server answers, without passing the answer on: the database took
    the commit, and the worker hears only that its connection died. Once. The commit is the
    next COMMIT, or with ``commits_itself`` (a verdict that calls for no webhook, stored in
    autocommit) the verdict's statement itself."""

    MARK = b"RETURNING submissions.id, submissions.callback_url, submissions.webhook_batch_id"
    COMMIT = b"Q\x00\x00\x00\x0bCOMMIT\x00"  # a simple query: its length (11), the text, NUL

    def __init__(self, upstream: tuple[str, int], commits_itself: bool = False) -> None:
        self.upstream, self.commits_itself = upstream, commits_itself
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.cut = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.upstream)
            holding = threading.Event()  # set: the server's next answer is the verdict's COMMIT's
            threading.Thread(target=self._to_server, args=(client, server, holding), daemon=True).start()
            threading.Thread(target=self._to_client, args=(server, client, holding), daemon=True).start()

    def _to_server(self, client: socket.socket, server: socket.socket, holding: threading.Event) -> None:
        storing = False
        with contextlib.suppress(OSError):
            while data := client.recv(65536):
                storing = storing or (self.MARK in data and not self.cut.is_set())
                if storing and (self.commits_itself or self.COMMIT in data):
                    storing = False
                    self.cut.set()
                    holding.set()
                server.sendall(data)

    @staticmethod
    def _to_client(server: socket.socket, client: socket.socket, holding: threading.Event) -> None:
        with contextlib.suppress(OSError):
            while data := server.recv(65536):
                if holding.is_set():  # the commit is done on the server: its answer is lost
                    break
                client.sendall(data)
        for end in (client, server):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()

    def close(self) -> None:
        self.listener.close()


def _announced_done(feed: redis.client.PubSub, submission_id: int, timeout: float) -> list[str | None]:
    """The verdicts announced as done for submission_id within timeout seconds."""
    seen: list[str | None] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = feed.get_message(ignore_subscribe_messages=True, timeout=0.5)
        change = decode(message["data"]) if message and message.get("type") == "message" else None
        if change is not None and change.id == submission_id and change.status == SubmissionStatus.DONE:
            seen.append(change.verdict)
    return seen


@pytest.mark.parametrize("webhook", [True, False], ids=["with a webhook", "committing itself"])
def test_a_verdict_whose_commit_answer_was_lost_is_announced_logged_and_hooked_once(
        client: TestClient, tokens: Tokens, tmp_path: Path, webhook: bool) -> None:
    settings = get_settings()
    database = make_url(settings.resolved_database_url())
    if database.get_backend_name() != "postgresql" or not settings.broker_url.startswith("redis://"):
        pytest.skip("needs the session's PostgreSQL and Redis")
    cutter = CommitAnswerCutter((database.host or "127.0.0.1", database.port or 5432),
                                commits_itself=not webhook)
    workers = Workers(tmp_path)
    broker = redis.Redis.from_url(settings.broker_url)
    feed = broker.pubsub()  # type: ignore[no-untyped-call]  # redis-py leaves it untyped
    feed.subscribe(f"{workers.prefix}{CHANNEL}")
    process = workers.start(JUDGE_DATABASE_URL=database.set(port=cutter.port).render_as_string(
        hide_password=False))
    try:
        submission_id = store_submission(mode="submit", status=SubmissionStatus.QUEUED,
                                         callback_url="https://example.org/hook" if webhook else None)
        workers.send(submission_id)
        # Within the first retry's second of back-off, and a little more: a verdict announced
        # after the retry, or never (the retry took the stored row for done and skipped it).
        assert _announced_done(feed, submission_id, timeout=30) == ["accepted"]
        assert cutter.cut.is_set(), "the proxy never saw the verdict's commit"
        lines = [line for line in workers.log(process).read_text().splitlines()
                 if f"] submission {submission_id} (" in line]  # the line itself, not a retry quoting it
        assert len(lines) == 1, lines
        # The delivery, written with the verdict, has its message waiting (no webhook worker here).
        assert broker.llen(f"{workers.prefix}webhooks") == (1 if webhook else 0)
    finally:
        workers.stop_all()
        feed.close()
        broker.close()
        cutter.close()
