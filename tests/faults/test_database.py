"""The database restarted, and the API killed, under a running service: a PostgreSQL cluster of the
test's own (initdb), an API server and a worker pointed at it. Every submission must end done
and accepted; while the database is down the API answers in the JSON error shape, never plain
text, and no answer is lost."""

from __future__ import annotations

import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.utils.fault_workers import Workers
from tests.utils.service import REFERENCE, SLOW_REFERENCE
from tests.utils.service_fixtures import free_port

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
    token = subprocess.run([sys.executable, "-m", "judge.service.cli", "users", "create", "faulty"], env=env,
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
