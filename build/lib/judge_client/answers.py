"""Reading the judge's answers without trusting their size or their pace.

A body is read as it arrives, a chunk at a time, and never past a cap: a server that sends
200 MiB, or never stops, costs the client the cap at most, in memory and on disk. Where a
deadline is given, reading also ends at it whatever the server sends. httpx's read timeout alone
cannot promise that: it bounds one read, and a server that trickles a byte every second starts
a new read every second. So the clock is looked at after each chunk, and a ``Watchdog`` shuts
the connection's socket at the deadline, which ends a read that is still waiting (on the
headers, the TLS handshake or the body) at once rather than after its read timeout.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx

# A JSON answer: a finished submission with all its tests is far smaller (the judge keeps at
# most 256 KiB of results a submission), and so is a problem with its public tests.
ANSWER_CAP = 16 * 2**20
# One event of an event stream: a `done` event carries the whole submission, as an answer does.
EVENT_CAP = ANSWER_CAP
# An error answer: only the start of its message is ever shown.
ERROR_CAP = 64 * 2**10


def size_words(size: int) -> str:
    return f"{size / 2**20:g} MiB" if size >= 2**20 else f"{size / 2**10:g} KiB"


class TooLarge(Exception):
    """An answer (or one line or event of it) went past ``cap`` bytes; reading stopped there."""

    def __init__(self, cap: int) -> None:
        super().__init__(f"more than {size_words(cap)}")
        self.cap = cap


class Overdue(Exception):
    """The deadline passed before the answer was read to its end."""


class Encoded(Exception):
    """The answer is compressed although the client asked for none (``Accept-Encoding:
    identity``): decompressing it could turn a capped body into gigabytes."""


def chunks(response: httpx.Response, deadline: float | None = None) -> Iterator[bytes]:
    """The body's bytes as they arrive (at most 64 KiB a chunk from a socket); ``Overdue`` at
    the first chunk after ``deadline``."""
    encoding = response.headers.get("content-encoding", "").strip().lower()
    if encoding not in ("", "identity"):
        raise Encoded(encoding)
    # iter_bytes rather than iter_raw: with no content encoding they are the same bytes, and
    # iter_bytes also serves a body read already (as a test's MockTransport gives).
    for chunk in response.iter_bytes():
        if deadline is not None and time.monotonic() >= deadline:
            raise Overdue
        yield chunk


def body(response: httpx.Response, cap: int, deadline: float | None = None) -> bytearray:
    """The whole body, or ``TooLarge`` as soon as it is known to exceed ``cap`` (from its
    Content-Length, before reading any of it, or while reading)."""
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > cap:
        raise TooLarge(cap)
    read = bytearray()
    for chunk in chunks(response, deadline):
        if len(read) + len(chunk) > cap:
            raise TooLarge(cap)
        read += chunk
    if deadline is not None and time.monotonic() >= deadline:
        raise Overdue  # the watchdog's shutdown ends a body of no stated length as if complete
    return read


def head(response: httpx.Response, cap: int, deadline: float | None = None) -> bytes:
    """The body's first ``cap`` bytes at most; the rest is not read."""
    read = bytearray()
    for chunk in chunks(response, deadline):
        read += chunk[:cap - len(read)]
        if len(read) >= cap:
            break
    return bytes(read)


class Watchdog:
    """Shuts every connection one request opens once ``deadline`` passes.

    Given to the request as httpx's ``trace`` extension, which reports each new connection's
    stream. A connection taken from the pool is not reported, so the client keeps none (see
    ``JudgeClient``). Without a socket (a test's MockTransport) the clock checks in ``chunks``
    still hold."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self._timers: list[threading.Timer] = []

    def trace(self, event: str, info: dict[str, Any]) -> None:
        if event not in ("connection.connect_tcp.complete", "connection.connect_unix_socket.complete"):
            return
        stream = info.get("return_value")
        sock = stream.get_extra_info("socket") if stream is not None else None
        if isinstance(sock, socket.socket):
            timer = threading.Timer(max(0.0, self.deadline - time.monotonic()), _shut, (sock,))
            timer.daemon = True
            timer.start()
            self._timers.append(timer)

    def __enter__(self) -> Watchdog:
        return self

    def __exit__(self, *_: object) -> None:
        for timer in self._timers:
            timer.cancel()


def _shut(sock: socket.socket) -> None:
    # shutdown, not close: a recv blocked in another thread returns at once on a socket shut
    # down, and may go on waiting on one merely closed.
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
