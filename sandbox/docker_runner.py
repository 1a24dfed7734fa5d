"""Runs a payload in one fresh, locked-down Docker container.

Every limit is set here, from outside the container: nothing inside can lift them. The protocol
itself (what is sent, how each step is timed and decided) lives in ``sandbox.conversation``, and
the reading and writing of the container's attached stream in ``sandbox.attach_stream``.

A container may be made ahead of time (``sandbox.warm_pool``): created, attached and started with
every limit applied, its supervisor waiting on stdin for the Start message (its lease begins only
then). It still serves exactly one payload and is removed after it, as a cold one is. With a
pool, a run that finished (the container ends by itself) leaves the removal to the pool's thread,
which does it as soon as the run has returned, so that the verdict does not wait for the engine;
a run that stopped early, failed, or finds the pool busy removes its container before returning. Warm
containers are keyed by the limits the container itself enforces (``container_limits``); the
rest of a payload's limits travel in the Start message.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import os
import socket
import ssl
import threading
import time
import uuid
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import docker
from docker.errors import APIError, NotFound
from docker.types import LogConfig, Ulimit

from sandbox.attach_stream import ENGINE_ERRORS, AttachStream, attach, close_attachment, waits_quietly
from sandbox.conversation import StreamEnded, converse
from sandbox.inside.protocol import ProtocolError
from sandbox.interface import MAX_TIME_PER_SUBMISSION, Limits, Payload, SandboxRun, SandboxUnavailable
from sandbox.janitor import Janitor
from sandbox.slots import MAX_AGE, parse_ready, slot_options
from sandbox.warm_pool import MAX_IDLE, WarmPool

log = logging.getLogger(__name__)

LABEL = "metrics-judge.sandbox"
EXPIRES_LABEL = "metrics-judge.expires"
WARM_LABEL = "metrics-judge.warm"  # made ahead by a pool (for audits; the sweep treats all alike)
# host:pid of the process that made the container and holds its attachment (for audits, and for
# telling a live worker's waiting containers from a killed one's orphans).
OWNER_LABEL = "metrics-judge.owner"
# When that process started (clock ticks after boot, /proc/PID/stat): a pid used again by a
# later process (a restarted container's processes get the same pids) is not taken for it.
OWNER_STARTED_LABEL = "metrics-judge.owner-started"
# The deployment (JUDGE_DEPLOYMENT) that made it: another one's sweep leaves it alone until it expires.
DEPLOYMENT_LABEL = "metrics-judge.deployment"
# The supervisor's only privileges: becoming a learner uid, and killing learner processes.
SUPERVISOR_CAPS = ["SETUID", "SETGID", "KILL"]
GVISOR_TASKS = 512
SWEEP_EVERY = 60.0  # seconds between sweeps of expired leftovers (a timer: busy or idle)
# A container still created, or stopped, this long after it was created or stopped is a
# leftover: its worker starts or removes one within moments, and retries a removal that failed.
ABANDONED_AFTER = 60.0
# Every container's expires label leaves its run this much beyond the run's own wall clock.
EXPIRY_MARGIN = 60.0
# How long a run waits for the warm containers being made before it makes its own: one in
# flight is ready sooner, and a run that made its own would only add to the engine's load.
WAIT_FOR_WARM = 10.0
# The longest run a warm container is made for: the most a problem may declare. A warm
# container's label covers its idle time and then such a run.
LONGEST_RUN = MAX_TIME_PER_SUBMISSION
# The options of container_options that are the container's own configuration, passed to
# create_container itself; every other one is a field of its HostConfig (the limits).
CONTAINER_CONFIG = frozenset({"user", "labels", "network_disabled", "stdin_open", "detach",
                              "command"})
# How long a slot's ready record may take to come (it is nearly always there already: the
# template writes it as soon as the jail before has ended and the next one is built).
READY_WAIT = 5.0
SLOT_RUNS = 100  # submissions a slot judges before a fresh container replaces it


def connect() -> docker.DockerClient:
    """A client for the local engine, or SandboxUnavailable with the reason in one line."""
    try:
        client = local_client(timeout=30)
        client.ping()
    except ENGINE_ERRORS as exc:
        raise SandboxUnavailable(
            "no Docker engine answers (" + (str(exc).splitlines() or [""])[0][:120] + "); "
            "install one (Debian: apt-get install docker.io) and start it (dockerd), or set "
            "DOCKER_HOST"
        ) from exc
    return client


def local_client(timeout: float) -> docker.DockerClient:
    """docker.from_env, minus requests' reading of the environment on every request (proxies,
    netrc: a third of a request's CPU, 1 ms of the 2.7 a sandbox's five requests each cost here)
    when the engine is on a Unix socket, where no proxy or netrc entry can apply."""
    client = docker.from_env(timeout=timeout)
    if client.api.base_url.startswith("http+docker://"):
        client.api.trust_env = False
    return client


def engine_answers(timeout: float = 5.0) -> bool:
    """Whether the engine answers a ping now (a client of its own, closed again)."""
    try:
        client = local_client(timeout)
    except ENGINE_ERRORS:
        return False
    try:
        return bool(client.ping())
    except ENGINE_ERRORS:
        return False
    finally:
        client.close()


def wait_for_engine(timeout: float | None, every: float = 1.0) -> bool:
    """Wait until the engine answers, asking every ``every`` seconds; whether it did within
    ``timeout`` seconds (None: as long as it takes)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while not engine_answers(min(5.0, every * 5)):
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            return False
        time.sleep(every if left is None else min(every, left))
    return True


def container_options(limits: Limits, expires: float, runtime: str = "runc",
                      deployment: str = "default") -> dict[str, Any]:
    """The docker create options that enforce the sandbox's limits; every one explicit."""
    memory = f"{limits.memory_mb}m"
    tmpfs = (f"rw,noexec,nosuid,nodev,size={limits.tmpfs_mb}m,nr_inodes={limits.tmpfs_inodes},"
             "mode=1777")
    return {
        "network_disabled": True,
        "network_mode": "none",
        "read_only": True,
        "tmpfs": {"/tmp": tmpfs},
        "user": "0:0",  # the supervisor; learner processes drop to uids of their own
        "cap_drop": ["ALL"],
        "cap_add": SUPERVISOR_CAPS,
        "security_opt": ["no-new-privileges"],
        # gVisor's ptrace platform runs its own tasks in the container's pids cgroup.
        "pids_limit": limits.pids + (GVISOR_TASKS if runtime == "runsc" else 0),
        # No System V IPC and no POSIX message queues: nothing a test could leave for the next
        # one outside the folders that are wiped (gVisor ignores these; see docs/judging-honestly.md).
        "sysctls": {"kernel.msgmni": "0", "kernel.shmmni": "0", "kernel.sem": "0 0 0 0",
                    "fs.mqueue.queues_max": "0"},
        "mem_limit": memory,
        "memswap_limit": memory,  # equal to mem_limit: no swap at all
        "nano_cpus": int(limits.cpus * 1e9),
        "cpu_shares": limits.cpu_weight,
        "ulimits": [
            Ulimit(name="fsize", soft=limits.file_size_bytes, hard=limits.file_size_bytes),
            Ulimit(name="nofile", soft=limits.open_files, hard=limits.open_files),
            Ulimit(name="core", soft=0, hard=0),
        ],
        "ipc_mode": "none",
        "log_config": LogConfig(type="none"),  # nothing the container prints reaches the disk
        "runtime": runtime,
        "labels": {LABEL: "1", EXPIRES_LABEL: str(int(expires)), DEPLOYMENT_LABEL: deployment,
                   OWNER_LABEL: f"{socket.gethostname()}:{os.getpid()}",
                   OWNER_STARTED_LABEL: _started(os.getpid()) or ""},
        "stdin_open": True,
        "detach": False,  # with stdin_open: stdin closes when the host's attachment ends
    }


def container_limits(limits: Limits) -> Limits:
    """Only what the container itself enforces (``container_options`` reads nothing else): the
    key of a warm container. Time limits and the output cap travel in the Start message."""
    base = Limits()
    return dataclasses.replace(limits, time_per_test=base.time_per_test,
                               time_per_submission=base.time_per_submission,
                               stdout_bytes=base.stdout_bytes)


@dataclass
class WarmContainer:
    """A started container whose supervisor waits for its Start message; used once. A slot
    (``sandbox.slots``) is used for one submission after another, through one ``stream``."""

    id: str
    sock: socket.socket
    handle: Any  # what attach_socket returned: holds the HTTP response behind the socket
    expires: float  # the value of its expires label
    stream: AttachStream | None = None  # a slot's, kept between its submissions
    runs: int = 0  # submissions a slot has judged

    def close(self) -> None:
        """Close this process's end of the attach socket; with nobody attached, the container's
        stdin closes and its supervisor, still waiting for Start, ends by itself."""
        close_attachment(self.sock, self.handle)


class _DiedWaiting(Exception):
    """A warm container's stream ended before it answered anything: it died while idle."""


class DockerSandbox:
    """One container per submission; inside it, one learner process serves the tests in turn
    (a fresh one after a test that ended it), or one a test for a ``per_test`` problem.

    With ``warm_pool_size`` > 0, containers for ``warm_limits`` (default: the default limits,
    which every shipped problem uses) are made ahead of time by a pool of this process's own;
    a payload with other container-level limits takes the cold path.

    ``mode="slot"``: each container is a slot (``sandbox.slots``) that judges up to ``slot_runs``
    submissions in turn, each in a fresh jail; the process holds one slot per container-level
    limits between runs, and the pool keeps fresh ones ready to replace it. A host that cannot
    build a jail turns the sandbox to ``container`` mode for good, with one log line.
    """

    def __init__(self, image: str, client: docker.DockerClient | None = None,
                 runtime: str = "runc", warm_pool_size: int = 0,
                 warm_limits: Iterable[Limits] = (Limits(),),
                 max_idle: float = MAX_IDLE, sweep_every: float = SWEEP_EVERY,
                 abandoned_after: float = ABANDONED_AFTER, mode: str = "container",
                 slot_runs: int = SLOT_RUNS, deployment: str = "default") -> None:
        self.image = image
        self.runtime = runtime
        self.deployment = deployment
        self.mode = mode
        self.slot_runs = slot_runs
        self.slot_runs_served = 0  # runs judged in a slot that had judged one before: figures
        self._held: dict[Limits, WarmContainer] = {}  # the slot each limits' next run takes
        self._held_pid = os.getpid()
        self._client = client
        self.recent: deque[str] = deque(maxlen=64)  # ids of the latest containers, for audits
        # Removes for sure what this process made, and sweeps what crashed workers left.
        self.janitor = Janitor(connect, remove_container,
                               functools.partial(sweep_leftovers, abandoned_after=abandoned_after,
                                                 deployment=deployment),
                               sweep_every)
        self.warm_runs = 0  # runs served by a warm container, for tests and figures
        self._pool_clients = threading.local()  # each pool thread's own client, and its pid
        self.pool: WarmPool[Limits, WarmContainer] | None = None
        if mode == "slot":
            # A slot is replaced only after slot_runs runs or something unexpected: one started
            # ahead covers that, and every more one is an idle container to remove at shutdown.
            warm_pool_size = min(warm_pool_size, 1)
        if warm_pool_size > 0:
            self.pool = WarmPool(warm_pool_size, [container_limits(x) for x in warm_limits],
                                 self._make_warm, self._discard_warm, WarmContainer.close,
                                 max_idle=max_idle, name="warm-sandboxes")

    @property
    def client(self) -> docker.DockerClient:
        if self._client is None:
            self._client = connect()
        return self._client

    def check(self) -> None:
        try:
            self.client.ping()
        except ENGINE_ERRORS as exc:
            raise SandboxUnavailable(f"the Docker engine does not answer: {exc}") from exc

    def prime(self, limits: Limits | None = None) -> None:
        """Start keeping containers warm for these limits (default: the default limits) now,
        rather than from their first run."""
        if self.pool is not None:
            self.pool.prime(container_limits(limits or Limits()))

    def close(self) -> None:
        """Remove every idle warm container and held slot, and stop refilling (the worker is
        shutting down)."""
        if self.pool is not None:
            self.pool.close()
        for slot in self._take_held().values():
            self._discard_warm(slot)
        self.janitor.close()

    def run(self, payload: Payload) -> SandboxRun:
        if self.pool is None:
            return self._run(payload)
        with self.pool.running():  # no container is made meanwhile, unless the pool starves
            return self._run(payload)

    def _run(self, payload: Payload) -> SandboxRun:
        if self.mode == "slot":
            return self._run_in_slot(payload)
        warm = self._take_warm(payload.limits)
        if warm is None:
            return self._run_in(payload, None)
        try:
            return self._run_in(payload, warm)
        except _DiedWaiting:
            # It died while idle (its stream ended before it answered anything): this run was
            # never started, so it starts again in a cold container.
            return self._run_in(payload, None)

    def _run_in(self, payload: Payload, warm: WarmContainer | None) -> SandboxRun:
        limits = payload.limits
        # The clock of the startup grace and of time_per_submission starts now: when a warm
        # container is taken, not when it was made.
        started = time.monotonic()
        raw: Any = None
        if warm is not None:
            container = self.client.containers.prepare_model({"Id": warm.id})
            sock, raw = warm.sock, warm.handle
        else:
            expires = time.time() + limits.time_per_submission + EXPIRY_MARGIN
            container = self._create(self.client, container_options(limits, expires, self.runtime,
                                                                            self.deployment))
            sock = None
        self.recent.append(container.id)
        finished = False
        try:
            if sock is None:
                sock, raw = attach(self.client, container.id)
                container.start()
            stream = AttachStream(sock, container)
            try:
                run = converse(stream, payload, started)
            except StreamEnded as exc:
                if warm is not None and not stream.received:
                    raise _DiedWaiting from exc
                raise SandboxUnavailable(_why_it_ended(container, exc, stream)) from exc
            run.container = container.id
            finished = run.finished
            return run
        except ENGINE_ERRORS as exc:
            raise SandboxUnavailable(f"the sandbox container failed: {exc}") from exc
        finally:
            # A finished run's container stays up, idle, until the pool's thread removes it
            # after the verdict is stored: its exit (Docker's work) would compete with that.
            if not (finished and self.pool is not None and self.pool.defer(
                    functools.partial(self._remove_later, container.id, sock, raw))):
                close_attachment(sock, raw)
                self._remove(container.id)

    def _run_in_slot(self, payload: Payload, cold: bool = False) -> SandboxRun:
        """One submission in a slot's next jail: the held slot, else a fresh one from the pool,
        else (or ``cold``) one made now. A slot that finished its run cleanly is held for the
        next one."""
        started = time.monotonic()
        key = container_limits(payload.limits)
        slot = None if cold else (self._held_slot(key, payload.limits)
                                  or self._take_warm(payload.limits))
        if slot is None:
            slot = self._cold_slot(payload.limits)
            if slot is None:  # this host cannot build jails: the mode is container from now on
                return self._run(payload)
        assert slot.stream is not None
        stream = slot.stream
        stream.received = False
        container = self.client.containers.prepare_model({"Id": slot.id})
        self.recent.append(slot.id)
        self.slot_runs_served += slot.runs > 0
        finished = False
        try:
            try:
                run = converse(stream, payload, started)
            except StreamEnded as exc:
                if not stream.received and not cold:  # it died idle: this run never started
                    return self._run_in_slot(payload, cold=True)
                raise SandboxUnavailable(_why_it_ended(container, exc, stream)) from exc
            run.container = slot.id
            finished = run.finished
            return run
        except ENGINE_ERRORS as exc:
            raise SandboxUnavailable(f"the sandbox container failed: {exc}") from exc
        finally:
            slot.runs += 1
            if finished and slot.runs < self.slot_runs:
                self._held[key] = slot
            elif not (finished and self.pool is not None and self.pool.defer(
                    functools.partial(self._remove_later, slot.id, slot.sock, slot.handle))):
                self._discard_warm(slot)

    def held_slots(self) -> set[str]:
        """The ids of the slots this process holds for its next runs (each finished its last
        run cleanly)."""
        return {slot.id for slot in self._held.values()} if self._held_pid == os.getpid() else set()

    def _take_held(self) -> dict[Limits, WarmContainer]:
        """The slots this process holds, handed over; a forked child's are its parent's, and
        only forgotten (closing a copy of a socket leaves the parent's connection be)."""
        held, self._held = self._held, {}
        if self._held_pid != os.getpid():
            self._held_pid = os.getpid()
            for slot in held.values():
                slot.close()
            return {}
        return held

    def _held_slot(self, key: Limits, limits: Limits) -> WarmContainer | None:
        held = self._take_held()
        slot = held.pop(key, None)
        self._held = held
        if slot is None:
            return None
        if self._usable(slot, limits):
            return slot
        self._discard_warm(slot)
        return None

    def _cold_slot(self, limits: Limits) -> WarmContainer | None:
        """A slot made now, its first jail built; None when this host cannot build one, after
        which this sandbox makes a container per submission."""
        slot = self._start_container(self.client, container_limits(limits), slot_expiry())
        if self._claim_jail(slot):
            return slot
        self._discard_warm(slot)
        if self.mode == "slot":
            raise SandboxUnavailable("a fresh sandbox slot could not take a submission")
        return None

    def _claim_jail(self, slot: WarmContainer) -> bool:
        """Read the slot's ready record: whether its waiting jail may take a Start now. A first
        jail that could not be built turns this sandbox to container mode."""
        assert slot.stream is not None
        try:
            line = slot.stream.next_line(time.monotonic() + READY_WAIT)
            ready = parse_ready(line) if line is not None else None
        except (StreamEnded, ProtocolError, ValueError, KeyError) as exc:
            log.warning("sandbox slot %s retired: %s", slot.id[:12], exc)
            return False
        if ready is None:
            log.warning("sandbox slot %s retired: no ready record in %g s", slot.id[:12],
                        READY_WAIT)
            return False
        problem = ready.problem
        if problem is None:
            return True
        if ready.jail == 1 and not ready.built and self.mode == "slot":
            self.mode = "container"
            tail = slot.stream.stderr.decode("utf-8", "replace").strip()[-300:]
            log.warning("this host cannot build sandbox jails (%s): judging with a fresh "
                        "container per submission from now on", tail or problem)
        else:
            log.warning("sandbox slot %s retired: %s", slot.id[:12], problem)
        return False

    def _take_warm(self, limits: Limits) -> WarmContainer | None:
        """A live warm container for these limits, now this run's alone; None for the cold path
        (no pool, other limits, none idle, or every idle one found dead and discarded)."""
        if self.pool is None:
            return None
        warm = self.pool.take(container_limits(limits), lambda w: self._usable(w, limits),
                              wait=WAIT_FOR_WARM)
        if warm is not None:
            self.warm_runs += 1
        return warm

    def _usable(self, warm: WarmContainer, limits: Limits) -> bool:
        # Its label must outlast this run as a cold container's would, or the sweep may take it.
        if warm.expires < time.time() + limits.time_per_submission + EXPIRY_MARGIN:
            return False
        if warm.stream is not None:  # a slot: its ready record says whether it can take a run
            return self._claim_jail(warm)
        # An open stream with nothing to read is a supervisor waiting for Start: a container
        # that died closes it. One that dies in the moment after is caught in _run. The
        # engine's view is asked only where the socket cannot tell (TLS cannot peek).
        if not waits_quietly(warm.sock):
            return False
        if not isinstance(warm.sock, ssl.SSLSocket):
            return True
        try:
            state = self.client.api.inspect_container(warm.id).get("State") or {}
        except ENGINE_ERRORS:
            return False
        return bool(state.get("Status") == "running" and not state.get("Paused"))

    def _engine_here(self) -> docker.DockerClient:
        """Each pool thread has a client of its own (docker-py's is not documented as safe to
        share between threads); a run and everything it does use the sandbox's client."""
        if self.pool is None or not self.pool.in_refill_thread():
            return self.client
        mine = self._pool_clients
        if getattr(mine, "pid", None) != os.getpid():
            mine.client, mine.pid = connect(), os.getpid()
        client: docker.DockerClient = mine.client
        return client

    def _make_warm(self, key: Limits) -> WarmContainer:
        """In the pool's thread: create, attach and start a container that waits for Start."""
        client = self._engine_here()
        assert self.pool is not None
        if self.mode == "slot":
            return self._start_container(client, key, slot_expiry())
        expires = float(int(time.time() + self.pool.max_idle + LONGEST_RUN + EXPIRY_MARGIN))
        return self._start_container(client, key, expires)

    def _start_container(self, client: docker.DockerClient, key: Limits, expires: float
                         ) -> WarmContainer:
        """Create, attach and start a container (a slot in slot mode) that waits for Start."""
        options = container_options(key, expires, self.runtime, self.deployment)
        options["labels"][WARM_LABEL] = "1"
        if self.mode == "slot":
            options = slot_options(options, key, expires - time.time())
        container = self._create(client, options)
        sock: socket.socket | None = None
        raw: Any = None
        try:
            sock, raw = attach(client, container.id)
            container.start()
        except BaseException:
            close_attachment(sock, raw)
            self.janitor.remove(client, container.id)
            raise
        stream = AttachStream(sock, container) if self.mode == "slot" else None
        return WarmContainer(container.id, sock, raw, expires, stream)

    def _create(self, client: docker.DockerClient, options: dict[str, Any]) -> Any:
        """Create a container under a name of its own. An engine that is stopping may create it
        and never answer: the name is then the only handle on it, and its removal is tried
        until it succeeds."""
        name = f"metrics-judge-{uuid.uuid4().hex}"
        try:
            return create_container(client, self.image, name, options)
        except ENGINE_ERRORS as exc:
            self.janitor.remove(client, name)
            raise SandboxUnavailable(f"could not create the sandbox container: {exc}") from exc

    def _remove(self, container_id: str) -> None:
        """Remove for sure, from the pool's thread too: its client may be the one that fails."""
        try:
            client = self._engine_here()
        except (SandboxUnavailable, *ENGINE_ERRORS):
            self.janitor.retry_later(container_id)
            return
        self.janitor.remove(client, container_id)

    def _remove_later(self, container_id: str, sock: socket.socket | None, raw: Any) -> None:
        """In the pool's thread, once the run that used it has returned."""
        close_attachment(sock, raw)
        self._remove(container_id)

    def _discard_warm(self, warm: WarmContainer) -> None:
        warm.close()
        self._remove(warm.id)


def _why_it_ended(container: Any, exc: StreamEnded, stream: AttachStream) -> str:
    """The supervisor never stops mid-run by itself: say what the engine knows."""
    try:
        container.reload()
        state = container.attrs.get("State", {})
        facts = f"exit code {state.get('ExitCode')}, OOM killed: {state.get('OOMKilled')}"
    except ENGINE_ERRORS:
        facts = "the container is gone"
    tail = stream.stderr.decode("utf-8", "replace")[-300:]
    return f"the sandbox stopped answering ({exc}; {facts})" + (f": {tail}" if tail else "")


def slot_expiry() -> float:
    """A new slot's expires label: its longest life, then the longest run and the margin. It
    is only given a run that ends before the label does (``DockerSandbox._usable``)."""
    return float(int(time.time() + MAX_AGE + LONGEST_RUN + EXPIRY_MARGIN))


def create_container(client: docker.DockerClient, image: str, name: str, options: dict[str, Any]
                     ) -> Any:
    """Create a container from ``container_options`` and return its model, unread: docker-py's
    own ``containers.create`` inspects the new container too (a second request, and a full JSON
    of it built by the engine), and nothing here needs more than its id. The options are split
    as ``containers.create`` splits them, through docker-py's public low-level API:
    ``create_host_config`` (which fills in the engine's API version) takes the limits, and
    ``create_container`` the rest; an option neither knows is a TypeError, not dropped."""
    config = {key: value for key, value in options.items() if key in CONTAINER_CONFIG}
    host_config = client.api.create_host_config(
        **{key: value for key, value in options.items()
           if key not in CONTAINER_CONFIG and key != "system_paths"})
    if options.get("system_paths") == "unconfined":  # as `--security-opt systempaths=unconfined`
        host_config["MaskedPaths"], host_config["ReadonlyPaths"] = [], []
    created = client.api.create_container(image, name=name, host_config=host_config, **config)
    return client.containers.prepare_model({"Id": created["Id"]})


def remove_container(client: docker.DockerClient, container_id: str) -> bool:
    """Force-remove, whatever state it is in; whether it is gone (removed, or already gone).
    A DockerSandbox's janitor tries again what fails here."""
    try:
        client.api.remove_container(container_id, force=True, v=True)
    except NotFound:
        return True
    except (APIError, *ENGINE_ERRORS):  # the engine is away, or removing it already (409)
        return False
    return True


def _stopped_at(client: docker.DockerClient, summary: dict[str, Any]) -> float | None:
    """When a stopped container stopped (the listing does not say); None when unknown."""
    try:
        finished = str(client.api.inspect_container(summary["Id"])["State"]["FinishedAt"])
        # RFC 3339 with nanoseconds, which datetime does not parse: the seconds are enough.
        return datetime.fromisoformat(finished[:19] + "+00:00").timestamp()
    except (*ENGINE_ERRORS, KeyError, TypeError, ValueError):  # gone meanwhile, or unreadable
        return None


def _started(pid: int) -> str | None:
    """When process ``pid`` of this host started (clock ticks after boot), or None without one."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The name (field 2) may hold spaces and parentheses: the fields after it follow the last ')'.
    return stat.rpartition(")")[2].split()[19]


def _owner_gone(labels: dict[str, str]) -> bool:
    """Whether the process that made a container (its owner labels), a process of this host (this
    container, in a stack), has ended. Unknown (another host, no start time) reads as alive: the
    container then waits for the other rules."""
    host, _, pid = labels.get(OWNER_LABEL, "").rpartition(":")
    started = labels.get(OWNER_STARTED_LABEL, "")
    if host != socket.gethostname() or not pid.isdigit() or not started:
        return False
    return _started(int(pid)) != started


def sweep_leftovers(client: docker.DockerClient, abandoned_after: float = ABANDONED_AFTER,
                    deployment: str = "default") -> int:
    """Remove sandbox containers whose deadline has passed, and this deployment's abandoned ones;
    how many. Another deployment's container (or one an older judge made without the label)
    goes only once its own deadline has: its maker's promise, whoever reads it.

    The expires label is the time by which a container must be gone: for a cold one, its run's
    wall clock and a margin; for a warm one, its longest idle time and then the longest run and a
    margin (a warm one is only taken for a run that ends before its label does). Abandoned:
    stopped for ``abandoned_after`` seconds (its worker was killed: a live one removes a finished
    container within moments), or still created that long after it was (an engine that failed
    between create and start), or stopped when the process that made it (its owner label, on this
    host) no longer runs: a worker killed and restarted sweeps its predecessor's at once. Removing
    a stopped container its worker still meant to remove costs nothing: that worker's removal then
    finds it gone.
    """
    removed = 0
    now = time.time()
    # The low-level listing: the high-level one fetches each container again and fails when
    # another worker removes one in between.
    for summary in client.api.containers(all=True, filters={"label": LABEL}):
        labels = summary.get("Labels") or {}
        expires = labels.get(EXPIRES_LABEL, "0")
        state = summary.get("State")
        since = float(summary.get("Created") or now)
        abandoned = False
        if labels.get(DEPLOYMENT_LABEL) != deployment:
            pass  # someone else's: only its deadline counts
        elif state in ("exited", "dead") and _owner_gone(labels):
            abandoned = True  # its maker, a process of this host, is dead: nobody will remove it
        elif state in ("exited", "dead") and now - since > abandoned_after:
            since = _stopped_at(client, summary) or since
            abandoned = now - since > abandoned_after
        elif state == "created":
            abandoned = now - since > abandoned_after
        if not expires.isdigit() or int(expires) < now or abandoned:
            remove_container(client, summary["Id"])
            removed += 1
    return removed
