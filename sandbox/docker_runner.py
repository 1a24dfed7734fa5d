"""Runs a payload in one fresh, locked-down Docker container.

Every limit is set here, from outside the container: nothing inside can lift them. The protocol
itself (what is sent, how each step is timed and decided) lives in ``sandbox.conversation``.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import time
from collections import deque
from typing import Any

import docker
from docker.errors import APIError, DockerException, NotFound
from docker.types import LogConfig, Ulimit
from requests.exceptions import RequestException

from sandbox.conversation import StreamEnded, converse
from sandbox.interface import Limits, Payload, SandboxRun, SandboxUnavailable
from sandbox.protocol import LINE_CAP, ProtocolError

LABEL = "metrics-judge.sandbox"
EXPIRES_LABEL = "metrics-judge.expires"
# The supervisor's only privileges: becoming a learner uid, and killing learner processes.
SUPERVISOR_CAPS = ["SETUID", "SETGID", "KILL"]
STDERR_TAIL = 2_000
GVISOR_TASKS = 512
SWEEP_EVERY = 60.0  # seconds between sweeps of expired leftovers
ABANDONED_AFTER = 120.0  # a stopped container no worker removed in this long is a leftover
# Failures of the engine itself, whatever library layer reports them.
ENGINE_ERRORS = (DockerException, RequestException, OSError)


def connect() -> docker.DockerClient:
    """A client for the local engine, or SandboxUnavailable with the reason in one line."""
    try:
        client = docker.from_env(timeout=30)
        client.ping()
    except ENGINE_ERRORS as exc:
        raise SandboxUnavailable(
            "no Docker engine answers (" + (str(exc).splitlines() or [""])[0][:120] + "); "
            "install one (Debian: apt-get install docker.io) and start it (dockerd), or set "
            "DOCKER_HOST"
        ) from exc
    return client


def container_options(limits: Limits, expires: float, runtime: str = "runc") -> dict[str, Any]:
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
        # one outside the folders that are wiped (gVisor ignores these; see README).
        "sysctls": {"kernel.msgmni": "0", "kernel.shmmni": "0", "kernel.sem": "0 0 0 0",
                    "fs.mqueue.queues_max": "0"},
        "mem_limit": memory,
        "memswap_limit": memory,  # equal to mem_limit: no swap at all
        "nano_cpus": int(limits.cpus * 1e9),
        "ulimits": [
            Ulimit(name="fsize", soft=limits.file_size_bytes, hard=limits.file_size_bytes),
            Ulimit(name="nofile", soft=limits.open_files, hard=limits.open_files),
            Ulimit(name="core", soft=0, hard=0),
        ],
        "ipc_mode": "none",
        "log_config": LogConfig(type="none"),  # nothing the container prints reaches the disk
        "runtime": runtime,
        "labels": {LABEL: "1", EXPIRES_LABEL: str(int(expires))},
        "stdin_open": True,
        "detach": False,  # with stdin_open: stdin closes when the host's attachment ends
    }


class AttachStream:
    """The container's attach socket: frames in, stdout lines out, in linear time.

    A line longer than the protocol allows is refused as it grows, so the host holds at most one
    record at a time; stderr is kept only as a short tail for diagnostics.
    """

    def __init__(self, sock: socket.socket, container: Any) -> None:
        self.sock = sock
        self.container = container
        self.frames = bytearray()
        self.stdout = bytearray()
        self.scanned = 0  # stdout bytes already searched for a newline
        self.stderr = bytearray()
        self.ended = False

    def send(self, data: bytes) -> None:
        with contextlib.suppress(OSError):  # the container may be gone; next_line notices
            self.sock.sendall(data)

    def next_line(self, deadline: float) -> bytes | None:
        while True:
            newline = self.stdout.find(b"\n", self.scanned)
            if newline >= 0:
                line = bytes(self.stdout[:newline])
                del self.stdout[: newline + 1]
                self.scanned = 0
                return line
            self.scanned = len(self.stdout)
            if self.scanned > LINE_CAP:
                raise ProtocolError(f"a record is longer than {LINE_CAP} bytes")
            if self.ended:
                raise StreamEnded("the sandbox's output ended")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            self.sock.settimeout(remaining)
            try:
                chunk = self.sock.recv(1 << 16)
            except TimeoutError:
                return None
            except OSError as exc:
                raise StreamEnded(f"the sandbox's output broke off: {exc}") from exc
            if not chunk:
                self.ended = True
                continue
            self._demultiplex(chunk)

    def killed_for_memory(self) -> bool:
        try:
            self.container.wait(timeout=10)
            self.container.reload()
        except ENGINE_ERRORS:
            return False
        return bool(self.container.attrs.get("State", {}).get("OOMKilled"))

    def _demultiplex(self, chunk: bytes) -> None:
        self.frames += chunk
        offset = 0
        while len(self.frames) - offset >= 8:
            stream, size = struct.unpack_from(">BxxxL", self.frames, offset)
            if len(self.frames) - offset - 8 < size:
                break
            data = self.frames[offset + 8 : offset + 8 + size]
            offset += 8 + size
            if stream == 2:
                self.stderr = (self.stderr + data)[-STDERR_TAIL:]
            else:
                self.stdout += data
        del self.frames[:offset]


class DockerSandbox:
    """One container per submission; each test runs in a fresh learner process inside it."""

    def __init__(self, image: str, client: docker.DockerClient | None = None,
                 runtime: str = "runc") -> None:
        self.image = image
        self.runtime = runtime
        self._client = client
        self.recent: deque[str] = deque(maxlen=64)  # ids of the latest containers, for audits
        self.swept_at = time.monotonic()

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

    def run(self, payload: Payload) -> SandboxRun:
        self._sweep_now_and_then()
        limits = payload.limits
        started = time.monotonic()
        expires = time.time() + limits.time_per_submission + 60
        try:
            container = self.client.containers.create(
                self.image, **container_options(limits, expires, self.runtime))
        except ENGINE_ERRORS as exc:
            raise SandboxUnavailable(f"could not create the sandbox container: {exc}") from exc
        self.recent.append(container.id)
        try:
            raw = self.client.api.attach_socket(
                container.id, params={"stdin": 1, "stdout": 1, "stderr": 1, "stream": 1})
            sock: socket.socket = getattr(raw, "_sock", raw)
            container.start()
            stream = AttachStream(sock, container)
            try:
                run = converse(stream, payload, started)
            except StreamEnded as exc:
                raise SandboxUnavailable(_why_it_ended(container, exc, stream)) from exc
            finally:
                with contextlib.suppress(OSError):
                    sock.close()
            run.container = container.id
            return run
        except ENGINE_ERRORS as exc:
            raise SandboxUnavailable(f"the sandbox container failed: {exc}") from exc
        finally:
            remove_container(self.client, container.id)


    def _sweep_now_and_then(self) -> None:
        """Every worker removes expired leftovers (of a worker that died) once a minute."""
        if time.monotonic() - self.swept_at >= SWEEP_EVERY:
            self.swept_at = time.monotonic()
            with contextlib.suppress(*ENGINE_ERRORS):
                sweep_leftovers(self.client)


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


def remove_container(client: docker.DockerClient, container_id: str) -> None:
    """Force-remove, whatever state it is in; the sweep retries what fails here."""
    with contextlib.suppress(NotFound, APIError, *ENGINE_ERRORS):
        client.api.remove_container(container_id, force=True, v=True)


def sweep_leftovers(client: docker.DockerClient) -> int:
    """Remove sandbox containers whose deadline has passed (a crashed worker leaves them)."""
    removed = 0
    now = time.time()
    # The low-level listing: the high-level one fetches each container again and fails when
    # another worker removes one in between.
    for summary in client.api.containers(all=True, filters={"label": LABEL}):
        expires = (summary.get("Labels") or {}).get(EXPIRES_LABEL, "0")
        # Ended and long unclaimed (its worker died), or half-created by an engine that failed.
        abandoned = summary.get("State") in ("exited", "dead", "created") and (
            now - float(summary.get("Created") or now) > ABANDONED_AFTER)
        if not expires.isdigit() or int(expires) < now or abandoned:
            remove_container(client, summary["Id"])
            removed += 1
    return removed
