"""Service fixtures, shared by tests/stack and tests/faults (registered in tests/conftest.py):
the app in-process, a real Celery worker process, users of every role."""

from __future__ import annotations

import contextlib
import http.cookiejar
import os
import random
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sandbox.docker_runner import DockerSandbox
from service.cli import validation_worker_command, worker_command
from service.db.models import Role
from service.db.session import session_scope
from service.settings import get_settings
from service.users import create_user
from tests.conftest import FIXTURES
from tests.utils.service_env import child_env


def _started(command: list[str], log: Path) -> subprocess.Popen[bytes]:
    # The workers' metrics in a folder of their own: the test process's in-process app counts
    # deltas of its own work, which a worker's background work (recovery, a late retry) would
    # otherwise add to whenever it comes.
    env = child_env(PROMETHEUS_MULTIPROC_DIR=str(log.parent / f"metrics-{log.stem}"))
    with log.open("wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 60
    while b"ready." not in log.read_bytes():
        assert process.poll() is None, log.read_text()
        assert time.monotonic() < deadline, "the worker did not start:\n" + log.read_text()
        time.sleep(0.2)
    return process


def _stopped(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


WORKER_LOG, VALIDATION_WORKER_LOG = "worker.log", "validation-worker.log"  # in the data folder


@pytest.fixture(scope="session")
def worker(docker_sandbox: DockerSandbox) -> Iterator[subprocess.Popen[bytes]]:
    """A real Celery worker (with its recovery beat) on the test database and broker, and beside
    it the validation worker that proves uploaded drafts (the only one that consumes them)."""
    data = Path(get_settings().data_dir)
    process = _started(worker_command(2), data / WORKER_LOG)
    try:
        validator = _started(validation_worker_command(1), data / VALIDATION_WORKER_LOG)
    except BaseException:
        _stopped(process)
        raise
    yield process
    _stopped(validator)
    _stopped(process)


@pytest.fixture(scope="session")
def client(worker: subprocess.Popen[bytes]) -> Iterator[TestClient]:
    from api.main import app

    with TestClient(app) as test_client:  # runs start-up: migrations and problem sync
        # Shared by every test, so it keeps no cookie: one test's sign-in must never make another
        # test's "no credentials" request a signed-in one. Tests of cookie sessions use a client
        # of their own.
        test_client.cookies.jar.set_policy(_NoCookies())
        yield test_client


class _NoCookies(http.cookiejar.DefaultCookiePolicy):
    def set_ok(self, cookie: http.cookiejar.Cookie, request: urllib.request.Request) -> bool:
        return False


@dataclass(frozen=True)
class Tokens:
    learner: str
    other_learner: str
    instructor: str
    other_instructor: str
    admin: str


@pytest.fixture(scope="session")
def tokens(client: TestClient) -> Tokens:
    made = {}
    with session_scope() as session:
        for name, role in [("learner", Role.LEARNER), ("other_learner", Role.LEARNER),
                           ("instructor", Role.INSTRUCTOR), ("other_instructor", Role.INSTRUCTOR),
                           ("admin", Role.ADMIN)]:
            made[name] = create_user(session, f"test-{name}", role)[1]
    return Tokens(**made)


def problem_files(slug: str, **replace: str) -> dict[str, str]:
    """The secret_lookup fixture folder as an upload under another slug, with files replaced."""
    folder = FIXTURES / "problems" / "secret_lookup"
    files = {p.relative_to(folder).as_posix(): p.read_text() for p in folder.rglob("*") if p.is_file()}
    files["problem.toml"] = files["problem.toml"].replace('"secret_lookup"', f'"{slug}"')
    files.update(replace)
    return files


# Ports for the servers tests start, from a block of this process's own below the kernel's
# ephemeral range (32768 and up here). The kernel's bind to port 0 gave two parallel workers the
# same port at the same moment: the second `judge serve` could not bind, and its tests talked to
# the first one's server, which knew none of their tokens. Blocks of parallel workers never
# overlap, and outgoing connections, which take ephemeral ports, never hold one of these.
PORT_BLOCK = 1000
_next_ports: Iterator[int] | None = None


def _ports() -> Iterator[int]:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    index = int(worker[2:]) + 1 if worker.startswith("gw") and worker[2:].isdigit() else 0
    first = 20_000 + (index % 12) * PORT_BLOCK
    start = random.randrange(PORT_BLOCK)  # two sessions that are not one run's workers seldom meet
    while True:
        for offset in range(PORT_BLOCK):
            yield first + (start + offset) % PORT_BLOCK


def free_port() -> int:
    """A port nothing listens on, not handed out by this process before (until its block wraps)."""
    import socket

    global _next_ports
    if _next_ports is None:
        _next_ports = _ports()
    for port in _next_ports:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError("not reached")


@dataclass(frozen=True)
class Service:
    """A client and two learners' tokens for one way of running the service."""

    client: Any
    learner: str
    other_learner: str


def process_tree(pid: int) -> dict[int, str]:
    """Every live descendant of pid (zombies left out) and its command line."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z":
            parents[int(stat.parent.name)] = int(fields[1])
    found: dict[int, str] = {}
    todo = [pid]
    while todo:
        parent = todo.pop()
        for child, its_parent in parents.items():
            if its_parent == parent and child not in found:
                try:
                    found[child] = (Path("/proc") / str(child) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                except OSError:
                    continue
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


@dataclass
class Serve:
    """A `judge serve` process as a newcomer runs it, on a data folder of its own."""

    process: subprocess.Popen[bytes]
    data: Path
    base: str
    learners: tuple[str, str]

    @property
    def log(self) -> str:
        return (self.data / "serve.log").read_text(errors="replace")

    def worker_pid(self, validation: bool = False) -> int | None:
        """The main process of the Celery worker that judges, or with ``validation`` of the one
        that validates drafts (direct children of `judge serve`)."""
        children = {pid: cmd for pid, cmd in process_tree(self.process.pid).items()
                    if _parent(pid) == self.process.pid}
        return next((pid for pid, cmd in children.items()
                     if "celery" in cmd and "webhooks@" not in cmd
                     and ("validation@" in cmd) == validation), None)

    def wait_ready(self, timeout: float = 90) -> float:
        """Seconds until /readyz says ready (a worker's heartbeat included)."""
        import httpx

        started = time.monotonic()
        while True:
            assert self.process.poll() is None, self.log
            try:
                if httpx.get(f"{self.base}/readyz", timeout=10).status_code == 200:
                    return time.monotonic() - started
            except httpx.TransportError:
                pass
            assert time.monotonic() - started < timeout, "judge serve is not ready:\n" + self.log
            time.sleep(0.3)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 60) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            for pid in process_tree(self.process.pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            self.process.kill()
            raise


def _parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError):
        return None


def start_serve(data: Path) -> Serve:
    """`judge serve` on SQLite and its embedded broker, nothing else, with two learners."""
    port = free_port()
    env = {k: v for k, v in child_env().items() if k not in ("JUDGE_DATABASE_URL", "JUDGE_BROKER_URL")}
    env.update(JUDGE_DATA_DIR=str(data), JUDGE_PORT=str(port))
    with (data / "serve.log").open("wb") as sink:
        process = subprocess.Popen([sys.executable, "-m", "service.cli", "serve"], env=env, stdout=sink,
                                   stderr=subprocess.STDOUT)
    serve = Serve(process, data, f"http://127.0.0.1:{port}", ("", ""))
    try:
        serve.wait_ready()
    except BaseException:
        serve.stop(signal.SIGKILL)
        raise
    # Written directly once the server has made its database: two `judge users create` runs cost
    # 1.7 s of CPU for each server (tests/unit/service/test_accounts_cli.py tests that command).
    learner, other = _create_users(data, ["learner", "other"], Role.LEARNER)
    serve.learners = (learner, other)
    log = serve.log
    assert "sqlite" in log
    if shutil.which("redis-server"):
        assert "redis+socket://" in log and "private redis-server" in log, log
    else:
        assert "filesystem://" in log and "no redis-server installed" in log, log
    return serve


def make_learners(serve: Serve, count: int, prefix: str, role: Role = Role.LEARNER) -> list[str]:
    """count more learners (or users of another role) in serve's database, written directly (40
    CLI runs would take long)."""
    return _create_users(serve.data, [f"{prefix}-{n}" for n in range(count)], role)


def _create_users(data: Path, names: list[str], role: Role) -> list[str]:
    """Users written straight into the SQLite database of a `judge serve` on ``data``; their tokens."""
    from sqlalchemy import create_engine
    from sqlalchemy.orm import Session

    engine = create_engine(f"sqlite:///{data / 'judge.db'}", connect_args={"timeout": 30})
    try:
        with Session(engine) as session:
            tokens = [create_user(session, name, role)[1] for name in names]
            session.commit()
    finally:
        engine.dispose()
    return tokens


@pytest.fixture(scope="session")
def serve_process(docker_sandbox: DockerSandbox, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    serve = start_serve(tmp_path_factory.mktemp("embedded"))
    yield serve
    serve.stop()


@pytest.fixture(scope="session")
def embedded(serve_process: Serve) -> Iterator[Service]:
    """`judge serve` as a newcomer runs it: SQLite and the embedded broker, nothing else."""
    import httpx

    with httpx.Client(base_url=serve_process.base, timeout=60) as http:
        yield Service(http, *serve_process.learners)


@pytest.fixture(params=["postgres_redis", "embedded"])
def service(request: pytest.FixtureRequest) -> Service:
    """The same lifecycle runs against production services and the embedded default."""
    if request.param == "embedded":
        return request.getfixturevalue("embedded")  # type: ignore[no-any-return]
    tokens: Tokens = request.getfixturevalue("tokens")
    return Service(request.getfixturevalue("client"), tokens.learner, tokens.other_learner)
