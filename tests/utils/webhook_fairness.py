"""For the test and the benchmark of webhook fairness: receivers on loopback, one that accepts
every connection and never answers (a stalled receiver) and one that answers 200 at once and
notes when each delivery arrived, each on an address of its own so that the judge counts them
as two hosts (any 127.x.y.z reaches the loopback interface on Linux); and deliveries written
straight into the outbox, as verdicts would write them."""

from __future__ import annotations

import contextlib
import selectors
import socket
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from service.db.models import Role, WebhookDelivery, utcnow
from service.db.session import session_scope
from service.users import create_user


class Stalled:
    """Accepts each connection, reads what comes, and never answers; counts the connections
    open at once (the attempts in flight to it) until the judge gives up and closes them."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.listener = socket.create_server((host, 0), backlog=256)
        self.listener.setblocking(False)
        self.lock = threading.Lock()
        self.accepted = self.open_now = self.most_open = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True, name="stalled-receiver")
        self.thread.start()

    @property
    def url(self) -> str:
        host, port = self.listener.getsockname()[:2]
        return f"http://{host}:{port}/stalled"

    def reset(self) -> None:
        """Count the most open at once from now (those open now included)."""
        with self.lock:
            self.most_open = self.open_now

    def _serve(self) -> None:
        with selectors.DefaultSelector() as selector:
            selector.register(self.listener, selectors.EVENT_READ)
            while not self.stopped.is_set():
                for key, _ in selector.select(timeout=0.1):
                    sock = key.fileobj
                    assert isinstance(sock, socket.socket)
                    if sock is self.listener:
                        connection, _ = self.listener.accept()
                        connection.setblocking(False)
                        selector.register(connection, selectors.EVENT_READ)
                        with self.lock:
                            self.accepted += 1
                            self.open_now += 1
                            self.most_open = max(self.most_open, self.open_now)
                        continue
                    try:
                        data = sock.recv(65536)
                    except OSError:
                        data = b""
                    if not data:  # the judge gave up on the attempt
                        selector.unregister(sock)
                        sock.close()
                        with self.lock:
                            self.open_now -= 1
            for key in list(selector.get_map().values()):
                with contextlib.suppress(OSError):
                    key.fileobj.close()  # type: ignore[union-attr]

    def close(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=10)


class Prompt:
    """Answers 200 at once; ``arrived`` maps each Judge-Delivery to when it came (monotonic)."""

    def __init__(self, host: str = "127.0.0.2") -> None:
        self.host = host
        self.arrived: dict[str, float] = {}
        self.condition = threading.Condition()
        self.server = ThreadingHTTPServer((host, 0), self._handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.server.server_address[1]}/prompt"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # the name http.server calls
                self.rfile.read(int(self.headers["Content-Length"]))
                with receiver.condition:
                    receiver.arrived.setdefault(self.headers["Judge-Delivery"], time.monotonic())
                    receiver.condition.notify_all()
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *_: object) -> None:
                return

        return Handler

    def wait_for(self, delivery_id: str, timeout: float) -> float | None:
        """When delivery_id arrived (monotonic), or None if it did not within timeout."""
        with self.condition:
            self.condition.wait_for(lambda: delivery_id in self.arrived, timeout)
            return self.arrived.get(delivery_id)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def new_user(prefix: str) -> int:
    with session_scope() as session:
        return create_user(session, f"{prefix}-{uuid.uuid4().hex[:8]}", Role.LEARNER)[0].id


def write_deliveries(user_id: int, url: str, count: int) -> list[tuple[int, str]]:
    """count deliveries of user_id to url, due now, committed as a verdict's are (each with a
    message about to be sent): their ids and Judge-Delivery ids, to enqueue."""
    now = utcnow()
    rows = [WebhookDelivery(delivery_id=uuid.uuid4().hex, user_id=user_id, event="submission.done",
                            url=url, body='{"event":"submission.done"}', state="pending",
                            created_at=now, next_attempt_at=now, sent_at=now)
            for _ in range(count)]
    with session_scope() as session:
        session.add_all(rows)
        session.flush()
        return [(row.id, row.delivery_id) for row in rows]
