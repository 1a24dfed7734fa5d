"""The host's end of a sandbox container's attached stdin, stdout and stderr.

The engine multiplexes the container's stdout and stderr onto one socket in frames (an 8-byte
header: the stream, then the length); ``AttachStream`` takes them apart, hands the protocol its
stdout records one line at a time against a deadline, and keeps a short stderr tail for
diagnostics. The rest here opens, checks and closes that socket. ``sandbox.docker_runner`` makes
the containers; ``sandbox.conversation`` speaks the protocol over an ``AttachStream``.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import time
from typing import Any

import docker
from docker.errors import DockerException
from requests.exceptions import RequestException

from sandbox.conversation import StreamEnded
from sandbox.inside.protocol import LINE_CAP, ProtocolError

STDERR_TAIL = 2_000
# Failures of the engine itself, whatever library layer reports them.
ENGINE_ERRORS = (DockerException, RequestException, OSError)
ATTACH_PARAMS = {"stdin": 1, "stdout": 1, "stderr": 1, "stream": 1}


def attach(client: docker.DockerClient, container_id: str) -> tuple[socket.socket, Any]:
    """Attach to a container (before it starts, so no output is missed): its socket, and the
    object docker-py returned, which holds the HTTP response behind it (see close_attachment)."""
    handle = client.api.attach_socket(container_id, params=ATTACH_PARAMS)
    return getattr(handle, "_sock", handle), handle


def close_attachment(sock: socket.socket | None, handle: Any) -> None:
    """Close the attach socket's descriptor now. The socket alone would wait for the file object
    docker-py made of it (``handle``), which an HTTP response keeps in a reference cycle, so
    only a garbage collection would close it. Never shutdown(): after a fork that would end the
    other process's connection too."""
    for closing in (sock, handle):
        if closing is not None:
            with contextlib.suppress(OSError, AttributeError):
                closing.close()


def waits_quietly(sock: socket.socket) -> bool:
    """Whether the attach socket is open with nothing to read, as before a Start message: an
    ended stream (the container died, the engine restarted) reads as end of file at once."""
    timeout = sock.gettimeout()
    try:
        sock.setblocking(False)
        try:
            sock.recv(1, socket.MSG_PEEK)
        finally:
            sock.settimeout(timeout)
    except BlockingIOError:
        return True
    except ValueError:  # a TLS socket cannot peek; the engine's state decides alone
        return True
    except OSError:
        return False
    return False  # end of file, or output before Start: either way not a waiting supervisor


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
        self.received = False  # anything at all came from the container

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
        self.received = True
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
