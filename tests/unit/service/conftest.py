"""The in-process layer of tests/unit: the whole API in one process, with no Docker, broker,
PostgreSQL or network.

- Settings: every ``JUDGE_*`` variable of the session is replaced for this package: SQLite in a
  temporary folder, the fixture problems, a broker URL where nothing listens, ``DOCKER_HOST`` at
  a socket that does not exist. ``get_settings`` and the engine caches are cleared on the way in
  and out, so the rest of a session that also runs other tests keeps its own services.
- Tasks: ``celery.send_task`` (which every ``enqueue_*`` goes through) runs the task in this
  thread with Celery's eager mode, as a worker would have; a test may hold messages instead.
- Sandbox: the worker's sandbox factory returns ``ExecSandbox``, a test double that runs the
  code with ``exec`` (``tests/unit/service/exec_sandbox.py``).
- Announcements: status changes are published to, and the API's watcher subscribes to,
  ``LocalBus`` (``tests/unit/service/local_bus.py``), an in-process stand-in for Redis pub/sub.
- Broker memory: recovery's sentinel key lives in ``LocalKeys`` (``tests/unit/service/local_keys.py``),
  a dict standing in for the broker's Redis.
- Network: ``socket.connect`` refuses everything while these tests run and records who tried;
  a test fails if anything tried, unless it asks for ``refused_connections`` to inspect them.

These tests request none of the service fixtures, so tests/conftest.py marks them ``unit``:
``pytest -m unit`` runs them with tests/unit/engine and the other tests that need no service.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import traceback
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient

import service.tasks as worker_tasks
from service import announcements, broker_memory
from service.celery_app import celery
from service.db import session as db_session
from service.db.models import Role
from service.db.session import session_scope
from service.settings import Settings, get_settings
from service.users import create_user
from tests.unit.service.exec_sandbox import ExecSandbox
from tests.unit.service.local_bus import LocalBus
from tests.unit.service.local_keys import LocalKeys
from tests.utils.service_env import FIXTURE_PROBLEMS
from tests.utils.service_fixtures import Tokens

DEAD_BROKER = "redis://127.0.0.1:9/15"  # the discard port: nothing answers, and the guard refuses first
NO_DOCKER = "unix:///nonexistent/docker.sock"
REQUEST_CAP = 256 * 1024  # JUDGE_MAX_REQUEST_BYTES here: a 413 without building 25 MB bodies


# ---------------------------------------------------------------------------------------------
# No network at all


@dataclass
class NetworkGuard:
    attempts: list[str]
    # Threads that were running before this layer's first test, other than the main one: in a
    # parallel run they belong to the session's other fixtures (a Docker sandbox's janitor, a
    # warm slot on its way), started by tests of other layers that ran earlier in the same worker.
    # (Thread objects, not idents: a thread a test starts may get the ident of one that ended.)
    others: set[threading.Thread] = field(default_factory=lambda: set(threading.enumerate()) - {
        threading.main_thread()})

    def allows(self) -> bool:
        return threading.current_thread() in self.others

    def refuse(self, sock: socket.socket, address: Any) -> None:
        self.attempts.append(f"{sock.family.name} {address!r}")
        raise ConnectionRefusedError(f"the in-process layer reaches no network (tried {address!r})")


@pytest.fixture(scope="package", autouse=True)
def network_guard() -> Iterator[NetworkGuard]:
    guard = NetworkGuard([])
    real_connect, real_connect_ex = socket.socket.connect, socket.socket.connect_ex

    def connect(sock: socket.socket, address: Any) -> None:
        if guard.allows():
            return real_connect(sock, address)
        guard.refuse(sock, address)

    def connect_ex(sock: socket.socket, address: Any) -> int:
        if guard.allows():
            return real_connect_ex(sock, address)
        guard.refuse(sock, address)
        return 1  # not reached

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(socket.socket, "connect", connect)
        patch.setattr(socket.socket, "connect_ex", connect_ex)
        yield guard


@pytest.fixture
def refused_connections(network_guard: NetworkGuard) -> list[str]:
    """For a test that expects attempts (readiness probes): the list of what was refused."""
    return network_guard.attempts


@pytest.fixture(autouse=True)
def nothing_reached_out(request: pytest.FixtureRequest, network_guard: NetworkGuard) -> Iterator[None]:
    network_guard.attempts.clear()
    yield
    if "refused_connections" not in request.fixturenames:
        assert not network_guard.attempts, f"an in-process test tried the network: {network_guard.attempts}"


# ---------------------------------------------------------------------------------------------
# Settings: SQLite in a temporary folder


def _forget_cached_settings() -> None:
    get_settings.cache_clear()
    db_session.forget_engines()


@pytest.fixture(scope="package", autouse=True)
def fast_settings(tmp_path_factory: pytest.TempPathFactory, network_guard: NetworkGuard) -> Iterator[Settings]:
    data = tmp_path_factory.mktemp("fast-judge")
    with pytest.MonkeyPatch.context() as patch:
        for name in [n for n in os.environ if n.startswith("JUDGE_")]:
            patch.delenv(name)
        patch.setenv("JUDGE_DATA_DIR", str(data))
        patch.setenv("JUDGE_PROBLEMS_DIR", str(FIXTURE_PROBLEMS))
        patch.setenv("JUDGE_DATABASE_URL", f"sqlite:///{data / 'judge.db'}")
        patch.setenv("JUDGE_BROKER_URL", DEAD_BROKER)
        patch.setenv("JUDGE_MAX_REQUEST_BYTES", str(REQUEST_CAP))
        patch.setenv("JUDGE_API_NICENESS", "0")  # the app runs in the test process
        patch.setenv("DOCKER_HOST", NO_DOCKER)
        _forget_cached_settings()
        settings = get_settings()
        assert settings.resolved_database_url() == f"sqlite:///{data / 'judge.db'}"
        assert settings.resolved_broker_url() == DEAD_BROKER
        try:
            yield settings
        finally:
            db_session.get_engine().dispose()
    _forget_cached_settings()  # the session's own settings again, for whatever runs next


# ---------------------------------------------------------------------------------------------
# Eager tasks and the exec sandbox


@dataclass(frozen=True)
class Message:
    task: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    queue: str | None


class EagerQueue:
    """Stands in for the broker behind ``celery.send_task``: each message runs its task at once,
    in the sending thread, through Celery's eager mode (``task_always_eager``).

    A task that raises does not fail the request that sent it (a broker would not either); its
    error is kept and fails the test. ``hold()`` keeps messages instead, as a broker with no
    worker would, until ``release()``; ``down = True`` makes sending fail like a lost broker.
    """

    def __init__(self) -> None:
        self.sent: list[Message] = []
        self.held: list[Message] = []
        self.errors: list[str] = []
        self.holding = False
        self.down = False

    def send_task(self, name: str, args: Any = None, kwargs: Any = None, countdown: float | None = None,
                  queue: str | None = None, **_: Any) -> None:
        if self.down:
            from kombu.exceptions import OperationalError

            raise OperationalError("the broker is down (in-process test)")
        message = Message(name, tuple(args or ()), dict(kwargs or {}), queue)
        self.sent.append(message)
        if self.holding:
            self.held.append(message)
        else:
            self.run(message)

    def run(self, message: Message) -> None:
        try:
            celery.tasks[message.task].apply_async(args=message.args, kwargs=message.kwargs,
                                                   queue=message.queue)
        except Exception:
            self.errors.append(traceback.format_exc())

    @contextlib.contextmanager
    def hold(self) -> Iterator[list[Message]]:
        self.holding = True
        try:
            yield self.held
        finally:
            self.holding = False

    def release(self) -> None:
        held, self.held = self.held, []
        for message in held:
            self.run(message)


@pytest.fixture(scope="package")
def exec_sandbox() -> ExecSandbox:
    return ExecSandbox()


@pytest.fixture(scope="package", autouse=True)
def eager_queue(fast_settings: Settings, exec_sandbox: ExecSandbox) -> Iterator[EagerQueue]:
    queue = EagerQueue()
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(celery.conf, "task_always_eager", True)
        patch.setitem(celery.conf, "task_eager_propagates", True)
        patch.setitem(celery.conf, "broker_url", DEAD_BROKER)
        patch.setattr(celery, "send_task", queue.send_task)
        patch.setattr(worker_tasks, "worker_sandbox", lambda: exec_sandbox)
        patch.setattr(worker_tasks, "_sandbox", lambda: exec_sandbox)
        yield queue
    # Pools made meanwhile (a read of the broker, a Celery call not routed through send_task)
    # hold connections to the dead broker: dropped, so that whatever runs next in this process
    # (a stack test after these, as a parallel worker may run it) gets the session's own broker.
    if celery._pool is not None:
        celery._pool.force_close_all()
        celery._pool = None
    celery.amqp._producer_pool = None


@pytest.fixture(scope="package", autouse=True)
def local_bus(fast_settings: Settings) -> Iterator[LocalBus]:
    from api.waits import watcher

    bus = LocalBus()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(announcements, "publisher", lambda: bus)
        patch.setattr(watcher, "open_feed", bus.open_feed)
        yield bus


@pytest.fixture(scope="package", autouse=True)
def local_keys(fast_settings: Settings) -> Iterator[LocalKeys]:
    keys = LocalKeys()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(broker_memory, "keys", lambda: keys)
        yield keys


@pytest.fixture(autouse=True)
def broker_remembers(local_keys: LocalKeys) -> None:
    """Each test starts with a broker that lost nothing (``local_keys.flush()`` to lose it), so
    that recovery sends only what is stale, whichever test ran first."""
    local_keys.flush()
    local_keys.set(broker_memory.sentinel(), "set by the conftest")


@pytest.fixture(autouse=True)
def settings_stay_the_layers(fast_settings: Settings) -> Iterator[None]:
    """A test changes a setting with ``monkeypatch.setattr(get_settings(), ...)``, never by
    clearing the cache: a new Settings object would outlive the test, and tests that change
    ``fast_settings`` afterwards (as any test after it in this process may) would change nothing."""
    yield
    assert get_settings() is fast_settings, "a test left other settings than the layer's"


@pytest.fixture(autouse=True)
def bus_is_up(local_bus: LocalBus, monkeypatch: pytest.MonkeyPatch) -> None:
    local_bus.come_back()
    monkeypatch.setattr(announcements, "_quiet_until", 0.0)  # no pause left by an earlier failure


@pytest.fixture(autouse=True)
def tasks_did_not_fail(eager_queue: EagerQueue, exec_sandbox: ExecSandbox) -> Iterator[None]:
    eager_queue.errors.clear()
    eager_queue.held.clear()
    eager_queue.holding = eager_queue.down = False
    exec_sandbox.available = True
    yield
    assert not eager_queue.errors, "a task raised:\n" + "\n".join(eager_queue.errors)


# ---------------------------------------------------------------------------------------------
# The app and its users (these shadow the Docker-backed `client` and `tokens` of tests/stack)


@pytest.fixture(scope="package")
def client(fast_settings: Settings, eager_queue: EagerQueue) -> Iterator[TestClient]:
    from api.main import create_app

    # Start-up runs: migrations on the SQLite file, then the fixture problems folder.
    with TestClient(create_app(), raise_server_exceptions=False) as test_client:
        yield test_client


def _user(name: str, role: Role) -> str:
    with session_scope() as session:
        return create_user(session, name, role)[1]


@pytest.fixture(scope="package")
def tokens(client: TestClient) -> Tokens:
    """Users of every role, named as tests/utils/service_fixtures names them (its helpers work)."""
    roles = {"learner": Role.LEARNER, "other_learner": Role.LEARNER, "instructor": Role.INSTRUCTOR,
             "other_instructor": Role.INSTRUCTOR, "admin": Role.ADMIN}
    return Tokens(**{name: _user(f"test-{name}", role) for name, role in roles.items()})


@pytest.fixture
def new_user(client: TestClient) -> Callable[[Role], str]:
    """A fresh user of a role (for tests that count one user's submissions); returns its token."""
    return lambda role=Role.LEARNER: _user(f"fast-{role}-{uuid.uuid4().hex[:8]}", role)
