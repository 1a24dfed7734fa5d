"""The API's HTTP server, started as production starts it (`judge api`, the image's CMD), spoken to
over raw sockets: a request framed both by Content-Length and by Transfer-Encoding is refused and
its connection closed (nothing smuggled behind it is answered), and a client that stalls before
its request's head is complete is disconnected, however many such clients there are, and so is one
whose body comes slower than a minimum rate, while a slow but steady one is answered.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from service.http_server import BODY_GRACE, BODY_MIN_RATE, HEADER_TIMEOUT, KEEP_ALIVE
from service.settings import get_settings
from tests.utils.api_server import serving

# `judge api` in a process of its own on the session's database and broker: the real stack.
pytestmark = pytest.mark.stack

JUDGE = Path(sys.executable).with_name("judge")  # the installed entry point the image runs
SLOWLORIS = 300  # stalled connections at once: more than a default worker pool, fewer than ulimit -n
GRACE = 3.0  # seconds past HEADER_TIMEOUT for the server's timer and this machine's load


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    log = Path(get_settings().data_dir) / f"framing-api-{os.getpid()}.log"
    command = lambda port: [str(JUDGE), "api", "--host", "127.0.0.1", "--port", str(port)]  # noqa: E731
    with serving(command, log, os.environ) as base:
        yield "127.0.0.1", int(base.rsplit(":", 1)[1])


def _connect(server: tuple[str, int]) -> socket.socket:
    sock = socket.create_connection(server, timeout=10)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def _read_until_closed(sock: socket.socket, limit: float) -> tuple[bytes, bool]:
    """Everything the server sends within limit seconds, and whether it closed the connection."""
    received = b""
    deadline = time.monotonic() + limit
    while (left := deadline - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            return received, False
        except ConnectionResetError:
            return received, True
        if not chunk:
            return received, True
        received += chunk
    return received, False


def _responses(raw: bytes) -> list[tuple[int, dict[str, str], bytes]]:
    """Each HTTP/1.1 response in raw (bodies framed by Content-Length, as the API frames them)."""
    found = []
    while raw:
        head, _, rest = raw.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        length = int(headers.get("content-length", "0"))
        found.append((status, headers, rest[:length]))
        raw = rest[length:]
    return found


HIDDEN = b"GET /api/v1/problems HTTP/1.1\r\nHost: judge\r\n\r\n"  # smuggled: would answer 401 if read
TWICE_FRAMED = {
    "chunked, then a length that ends the body early": (
        b"POST /healthz HTTP/1.1\r\nHost: judge\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n"
        b"0\r\n\r\n" + HIDDEN),
    "a length first, then chunked": (
        b"POST /api/v1/auth/sign-in HTTP/1.1\r\nHost: judge\r\nContent-Length: 48\r\n"
        b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + HIDDEN),
    "names in other cases": (
        b"POST /healthz HTTP/1.1\r\nHost: judge\r\ncontent-LENGTH: 0\r\ntransfer-encoding: chunked\r\n\r\n"
        b"0\r\n\r\n" + HIDDEN),
}


@pytest.mark.parametrize("request_bytes", TWICE_FRAMED.values(), ids=TWICE_FRAMED.keys())
def test_a_request_framed_twice_is_refused_and_its_connection_closed(server: tuple[str, int],
                                                                     request_bytes: bytes) -> None:
    # What is refused is the double framing: plain requests pipelined on one connection, one of
    # them chunked, are all answered.
    chunked = b"POST /healthz HTTP/1.1\r\nHost: judge\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    with _connect(server) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: judge\r\n\r\n" + chunked + HIDDEN)
        plain, _ = _read_until_closed(sock, 3)
    assert [status for status, _, _ in _responses(plain)] == [200, 405, 401], plain[:1000]

    with _connect(server) as sock:
        sock.sendall(request_bytes)
        raw, closed = _read_until_closed(sock, 10)
    answers = _responses(raw)
    assert [status for status, _, _ in answers] == [400], raw[:1000]  # the hidden request is never answered
    _, headers, body = answers[0]
    assert headers["connection"] == "close" and headers["content-type"] == "application/json"
    error = json.loads(body)["error"]
    assert error["code"] == "bad_request" and "Content-Length or Transfer-Encoding, not both" in error["message"]
    assert closed, "the connection stayed open after the refusal"


MALFORMED = {
    "two different lengths": b"Content-Length: 3\r\nContent-Length: 40\r\n\r\nabc",
    "a coding other than chunked": b"Transfer-Encoding: identity, chunked\r\n\r\n0\r\n\r\n",
    "a space before the colon": b"Transfer-Encoding : chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n",
    "Transfer-Encoding twice": b"Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    "a folded Transfer-Encoding": b"Transfer-Encoding:\r\n chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n",
}


@pytest.mark.parametrize("framing", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_request_the_parser_refuses_is_a_400_in_the_error_shape_and_closes(server: tuple[str, int],
                                                                             framing: bytes) -> None:
    with _connect(server) as sock:
        sock.sendall(b"POST /healthz HTTP/1.1\r\nHost: judge\r\n" + framing + HIDDEN)
        raw, closed = _read_until_closed(sock, 10)
    answers = _responses(raw)
    assert [status for status, _, _ in answers] == [400], raw[:1000]
    error = json.loads(answers[0][2])["error"]
    assert error["code"] == "bad_request" and error["message"], error
    assert closed


@pytest.mark.parametrize("sent", [b"", b"GET /heal", b"GET /healthz HTTP/1.1\r\nHost: judge\r\n"],
                         ids=["nothing", "half a request line", "headers without their end"])
def test_a_client_that_stalls_before_its_head_is_complete_is_disconnected(server: tuple[str, int],
                                                                          sent: bytes) -> None:
    with _connect(server) as sock:
        sock.sendall(sent)
        started = time.monotonic()
        raw, closed = _read_until_closed(sock, HEADER_TIMEOUT + GRACE)
    assert closed and raw == b"", raw
    assert time.monotonic() - started > HEADER_TIMEOUT - 1, "closed before its time was up"


def test_a_kept_alive_connection_that_stalls_in_its_next_head_is_disconnected(server: tuple[str, int]) -> None:
    with _connect(server) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: judge\r\n\r\n")
        first, _ = _read_until_closed(sock, 1)
        assert [status for status, _, _ in _responses(first)] == [200]
        # A byte a second, each sooner than the keep-alive timeout: only the head's own deadline
        # ends it.
        closed = False
        started = time.monotonic()
        for byte in b"GET /healthz HTTP/1.1\r\nHost: ju":
            try:
                sock.sendall(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            _, closed = _read_until_closed(sock, 1)
            if closed:
                break
    assert closed and time.monotonic() - started < HEADER_TIMEOUT + GRACE


def _sign_in_head(length: int) -> bytes:
    return (b"POST /api/v1/auth/sign-in HTTP/1.1\r\nHost: judge\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(length).encode() + b"\r\n\r\n")


def _steady_upload(server: tuple[str, int], answers: list[bytes]) -> None:
    """Twice the grace at a third more than the minimum rate: past any fixed deadline, within the
    rule. Its password is over the 1,000 characters a sign-in takes, so a 422 means it was read."""
    chunk = int(BODY_MIN_RATE * 4 / 3)
    password = "p" * (chunk * int(2 * BODY_GRACE) - len('{"name": "slow", "password": ""}'))
    body = json.dumps({"name": "slow", "password": password}).encode()
    with _connect(server) as sock:
        sock.sendall(_sign_in_head(len(body)))
        for start in range(0, len(body), chunk):
            sock.sendall(body[start:start + chunk])
            time.sleep(1.0)
        answers.append(_read_until_closed(sock, 10)[0])


def test_a_body_slower_than_the_minimum_rate_is_cut_and_a_steady_one_answered(server: tuple[str, int]) -> None:
    steady: list[bytes] = []
    uploader = threading.Thread(target=_steady_upload, args=(server, steady))
    uploader.start()
    try:
        with _connect(server) as sock:
            sock.sendall(_sign_in_head(1000) + b'{"name": "x", ')
            started = time.monotonic()
            raw, closed = _read_until_closed(sock, BODY_GRACE + GRACE)
        assert closed and raw == b"", raw
        assert time.monotonic() - started > BODY_GRACE - 1, "closed before its time was up"
    finally:
        uploader.join()
    answers = _responses(steady[0])
    assert [status for status, _, _ in answers] == [422], steady[0][:500]
    assert json.loads(answers[0][2])["error"]["message"].startswith("password"), answers


def test_many_stalled_clients_do_not_keep_others_from_being_served(server: tuple[str, int]) -> None:
    stalled = [_connect(server) for _ in range(SLOWLORIS)]
    stop = threading.Event()

    def trickle() -> None:  # one byte a second on each: a timer reset by any byte would never fire
        for byte in b"GET /healthz HTTP/1.1\r\nHost: judge\r\nX-a: ":
            for sock in stalled:
                with contextlib.suppress(OSError):
                    sock.sendall(bytes([byte]))
            if stop.wait(1.0):
                return

    started = time.monotonic()
    trickler = threading.Thread(target=trickle, daemon=True)
    trickler.start()
    try:
        for _ in range(5):
            served = httpx.get(f"http://{server[0]}:{server[1]}/healthz", timeout=5)
            assert served.status_code == 200
            time.sleep(0.2)
        open_ones = list(stalled)
        while open_ones and time.monotonic() - started < HEADER_TIMEOUT + 2 * GRACE:
            open_ones = [sock for sock in open_ones if not _read_until_closed(sock, 0.01)[1]]
        assert not open_ones, f"{len(open_ones)} of {SLOWLORIS} stalled connections still open"
    finally:
        stop.set()
        trickler.join()
        for sock in stalled:
            sock.close()


def test_a_kept_alive_connection_outlives_a_clients_idle_reuse(server: tuple[str, int]) -> None:
    """A client reuses a connection idle for up to 5 s (httpx's and requests' default): the server
    keeps it longer, so the second request is answered instead of meeting a close in flight."""
    assert KEEP_ALIVE > 5 + GRACE
    request = b"GET /healthz HTTP/1.1\r\nHost: judge\r\n\r\n"
    with _connect(server) as sock:
        sock.sendall(request)
        first, closed = _read_until_closed(sock, 2.0)
        assert first.startswith(b"HTTP/1.1 200") and not closed
        time.sleep(5.5)
        sock.sendall(request)
        second, _ = _read_until_closed(sock, 2.0)
        assert second.startswith(b"HTTP/1.1 200"), second[:200]
