"""A judge that answers what a test scripts, on 127.0.0.1: the hostile or impersonated server
that judge-client must not trust. Each route writes its answer itself, so a test can send what
no honest server would: a body that never ends, a byte at a time, text made to take over a
terminal. ``run_client`` runs `judge-client` in-process against it, so a test can time the
command and measure its memory."""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from typer.testing import CliRunner, Result

from judge_client.cli import app
from judge_client.terminal_text import unsafe

Route = Callable[["Exchange"], None]
# What Rich itself writes to a terminal: colours and weights (SGR), and the live display's cursor
# hiding, line erasing and moving up. Nothing else that a terminal acts on may reach it.
RICH_OWN = re.compile(r"\x1b\[[0-9;]*m|\x1b\[\?25[lh]|\r(?=\x1b\[)|\x1b\[2K|\x1b\[1A")


class Exchange(BaseHTTPRequestHandler):
    """One request to the hostile judge; its route writes the answer."""

    server: HostileServer

    def _answer(self) -> None:
        path = urlsplit(self.path).path
        self.server.asked.append(f"{self.command} {path}")
        length = int(self.headers.get("Content-Length") or 0)
        self.server.bodies.append(self.rfile.read(length))
        route = self.server.routes.get(path)
        if route is None:
            self.send_error(404)
            return
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client stopped reading
            route(self)

    do_GET = do_POST = _answer

    def send(self, chunk: bytes) -> None:
        self.wfile.write(chunk)
        self.wfile.flush()
        self.server.sent[urlsplit(self.path).path] += len(chunk)

    def log_message(self, format: str, *args: Any) -> None:
        pass


class HostileServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, routes: dict[str, Route]) -> None:
        super().__init__(("127.0.0.1", 0), Exchange)
        self.routes = routes
        self.asked: list[str] = []
        self.bodies: list[bytes] = []  # each request's body, in order
        self.sent: Counter[str] = Counter()  # body bytes written, per path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that hangs up mid-answer is what these tests make happen


@contextmanager
def hostile_judge(routes: dict[str, Route]) -> Iterator[HostileServer]:
    server = HostileServer(routes)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def answer(body: object, status: int = 200) -> Route:
    """A JSON answer, sent at once with its length."""
    data = json.dumps(body).encode()

    def route(exchange: Exchange) -> None:
        exchange.send_response(status)
        exchange.send_header("Content-Type", "application/json")
        exchange.send_header("Content-Length", str(len(data)))
        exchange.end_headers()
        exchange.send(data)
    return route


def streamed(chunks: Iterable[bytes], content_type: str = "application/json", every: float = 0.0,
             headers: dict[str, str] | None = None) -> Route:
    """A body of no stated length (it ends when the connection closes), one chunk every
    ``every`` seconds, until the chunks or the client's patience run out."""
    def route(exchange: Exchange) -> None:
        exchange.send_response(200)
        exchange.send_header("Content-Type", content_type)
        for name, value in (headers or {}).items():
            exchange.send_header(name, value)
        exchange.end_headers()
        for chunk in chunks:
            exchange.send(chunk)
            time.sleep(every)
    return route


def event(kind: str, data: object) -> bytes:
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n".encode()


def run_client(judge: HostileServer, *args: str, home: Path, terminal: bool = False) -> Result:
    """`judge-client ARGS` in this process against ``judge``; with ``terminal``, Rich writes as
    to a terminal (colours, and whatever else it would emit there)."""
    env = {"XDG_CONFIG_HOME": str(home), "JUDGE_CLIENT_URL": judge.url, "JUDGE_CLIENT_TOKEN": "jt_test",
           "COLUMNS": "400", "NO_COLOR": None, "TTY_COMPATIBLE": None,
           "FORCE_COLOR": "1" if terminal else None}
    return CliRunner().invoke(app, list(args), env=env)


def emitted_controls(output: str) -> list[str]:
    """What a terminal would act on in ``output`` besides newlines and what Rich writes itself:
    the characters that should have been shown as escapes."""
    return [char for char in RICH_OWN.sub("", output) if char != "\n" and unsafe(char)]
