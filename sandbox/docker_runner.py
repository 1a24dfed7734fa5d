"""Runs a payload in one fresh, locked-down Docker container and returns its raw output.

Every limit is set here, from outside the learner's process: the container cannot lift them.
"""

from __future__ import annotations

import contextlib
import json
import socket
import struct
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import docker
from docker.errors import DockerException, NotFound
from docker.types import Ulimit

from sandbox.interface import Limits, Payload, RawRun, SandboxUnavailable, Stop

LABEL = "metrics-judge.sandbox"
EXPIRES_LABEL = "metrics-judge.expires"
SANDBOX_USER = "65534:65534"
# Time allowed for the interpreter to start and import on top of the per-test limit.
STARTUP_GRACE = 5.0
STDERR_CAP = 16_384

def connect() -> docker.DockerClient:
    """A client for the local engine, or SandboxUnavailable with the reason in one line."""
    try:
        client = docker.from_env(timeout=30)
        client.ping()
    except DockerException as exc:
        raise SandboxUnavailable(
            "no Docker engine answers (" + str(exc).splitlines()[0][:120] + "); install one "
            "(Debian: apt-get install docker.io) and start it (dockerd), or set DOCKER_HOST"
        ) from exc
    return client

def container_options(limits: Limits, expires: float) -> dict[str, Any]:
    """The docker create options that enforce DESIGN.md's invariant 4; every limit explicit."""
    memory = f"{limits.memory_mb}m"
    return {
        "network_disabled": True,
        "network_mode": "none",
        "read_only": True,
        "tmpfs": {"/tmp": f"rw,noexec,nosuid,nodev,size={limits.tmpfs_mb}m,mode=1777"},
        "user": SANDBOX_USER,
        "cap_drop": ["ALL"],
        "security_opt": ["no-new-privileges"],
        "pids_limit": limits.pids,
        "mem_limit": memory,
        "memswap_limit": memory,  # equal to mem_limit: no swap at all
        "nano_cpus": int(limits.cpus * 1e9),
        "ulimits": [
            Ulimit(name="fsize", soft=limits.file_size_bytes, hard=limits.file_size_bytes),
            Ulimit(name="nofile", soft=limits.open_files, hard=limits.open_files),
            Ulimit(name="core", soft=0, hard=0),
        ],
        "ipc_mode": "none",
        "labels": {LABEL: "1", EXPIRES_LABEL: str(int(expires))},
        "stdin_open": True,
        "detach": True,
    }

def frame(message: object) -> bytes:
    """One stdin message for the harness: its byte count on a line, then the JSON."""
    body = json.dumps(message).encode()
    return str(len(body)).encode() + b"\n" + body


class Feeder:
    """Sends the tests one at a time, each only after the container answered the previous one.

    Public tests come first, so while a public test runs (the only kind whose output a learner
    sees) no hidden test's input exists in the container, whatever the learner's code does there.
    """

    def __init__(self, sock: socket.socket, payload: Payload) -> None:
        self.sock = sock
        self.tests = payload.tests
        self.sent = 0
        self.waiting_for: tuple[str, str | None] = ("import", None)
        self._send({
            "code": payload.code,
            "function": payload.function,
            "time_limit": payload.limits.time_per_test,
            "memory_bytes": payload.limits.memory_mb * 1024 * 1024,
            "stdout_cap": payload.limits.stdout_chars,
        })

    def on_line(self, line: bytes) -> None:
        try:
            record = json.loads(line)
        except ValueError:
            return
        kind, wanted = self.waiting_for
        if not isinstance(record, dict) or record.get("kind") != kind or record.get("id") != wanted:
            return
        if (kind == "import" and record.get("ok") is not True) or self.sent == len(self.tests):
            self.waiting_for = ("", None)  # nothing more is expected
            self._send(None)
            return
        test = self.tests[self.sent]
        self.sent += 1
        self.waiting_for = ("test", test.id)
        self._send({"id": test.id, "args": test.args, "kwargs": test.kwargs})

    def _send(self, message: object) -> None:
        with contextlib.suppress(OSError):  # the container may be gone; the reader notices
            self.sock.sendall(frame(message))


class DockerSandbox:
    """One container per submission; all its tests run inside, the code imported once."""

    def __init__(self, image: str, client: docker.DockerClient | None = None) -> None:
        self.image = image
        self._client = client
        self.recent: deque[str] = deque(maxlen=64)  # ids of the latest containers, for audits

    @property
    def client(self) -> docker.DockerClient:
        if self._client is None:
            self._client = connect()
        return self._client

    def run(self, payload: Payload) -> RawRun:
        limits = payload.limits
        started = time.monotonic()
        expires = time.time() + limits.time_per_submission + 60
        try:
            container = self.client.containers.create(
                self.image, **container_options(limits, expires)
            )
        except DockerException as exc:
            raise SandboxUnavailable(f"could not create the sandbox container: {exc}") from exc
        self.recent.append(container.id)
        try:
            raw = self.client.api.attach_socket(
                container.id, params={"stdin": 1, "stdout": 1, "stderr": 1, "stream": 1}
            )
            sock: socket.socket = getattr(raw, "_sock", raw)
            container.start()
            result = _read_until_done(sock, limits, started, Feeder(sock, payload).on_line)
            if result.stopped is not None:
                container.kill()
            state = _final_state(container)
            result.oom_killed = bool(state.get("OOMKilled"))
            result.exit_code = state.get("ExitCode")
            result.seconds = round(time.monotonic() - started, 4)
            return result
        except DockerException as exc:
            raise SandboxUnavailable(f"the sandbox container failed: {exc}") from exc
        finally:
            _remove(container)

def _final_state(container: Any) -> dict[str, Any]:
    try:
        container.wait(timeout=10)
    except Exception:  # the engine's wait can time out on a wedged container; kill it
        container.kill()
    container.reload()
    state: dict[str, Any] = container.attrs.get("State", {})
    return state

def _remove(container: Any) -> None:
    with contextlib.suppress(NotFound):
        container.remove(force=True, v=True)

def _read_until_done(
    sock: socket.socket, limits: Limits, started: float, on_line: Callable[[bytes], None]
) -> RawRun:
    """Demultiplex the attach stream into stdout lines, enforcing the host-side clocks and cap.

    The harness writes a line at least once per test, so silence longer than the per-test limit
    (plus start-up grace) means it is wedged, whatever it says about itself.
    """
    wall_deadline = started + limits.time_per_submission
    stall_after = limits.time_per_test + STARTUP_GRACE
    last_line = time.monotonic()
    buffer = b""
    stdout = b""
    stderr = b""
    total = 0
    lines: list[bytes] = []
    while True:
        now = time.monotonic()
        if now >= wall_deadline:
            return RawRun(lines, stopped=Stop.WALL_CLOCK, stderr_tail=_tail(stderr))
        if now - last_line >= stall_after:
            return RawRun(lines, stopped=Stop.STALLED, stderr_tail=_tail(stderr))
        sock.settimeout(max(0.05, min(wall_deadline, last_line + stall_after) - now))
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        if not chunk:
            if stdout:
                lines.append(stdout)
            return RawRun(lines, stderr_tail=_tail(stderr))
        buffer += chunk
        while len(buffer) >= 8:
            stream, size = struct.unpack(">BxxxL", buffer[:8])
            if len(buffer) < 8 + size:
                break
            data, buffer = buffer[8 : 8 + size], buffer[8 + size :]
            if stream == 2:
                stderr = (stderr + data)[-STDERR_CAP:]
                continue
            total += len(data)
            if total > limits.output_bytes:
                return RawRun(lines, stopped=Stop.OUTPUT_CAP, stderr_tail=_tail(stderr))
            stdout += data
            *complete, stdout = stdout.split(b"\n")
            for line in complete:
                lines.append(line)
                on_line(line)
                last_line = time.monotonic()

def _tail(data: bytes) -> str:
    return data.decode("utf-8", "replace")[-2000:]

def sweep_leftovers(client: docker.DockerClient) -> int:
    """Remove sandbox containers whose deadline has passed (a crashed worker leaves them)."""
    removed = 0
    now = time.time()
    # The low-level listing: the high-level one fetches each container again and fails when
    # another worker removes one in between.
    for summary in client.api.containers(all=True, filters={"label": LABEL}):
        expires = (summary.get("Labels") or {}).get(EXPIRES_LABEL, "0")
        if not expires.isdigit() or int(expires) < now:
            with contextlib.suppress(NotFound):
                client.api.remove_container(summary["Id"], force=True, v=True)
            removed += 1
    return removed
