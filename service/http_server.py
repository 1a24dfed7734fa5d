"""The API's HTTP server: uvicorn on h11, with three rules it does not keep alone.

Both `judge serve` and `judge api` (production's API container) start the API through ``run``.

- A request with both Content-Length and Transfer-Encoding is a smuggling attempt when a proxy
  in front reads the one and this server the other (RFC 9112 6.1): it gets a 400 and the
  connection is closed, so bytes hidden behind it are never read as a request of their own.
  h11 alone takes Transfer-Encoding, keeps the connection and answers what follows.
- A request's head (request line and headers) must arrive within ``HEADER_TIMEOUT`` seconds of
  its first byte, or of the connection's opening. uvicorn has no such timeout, so a client that
  sends half a request line and stalls (slowloris) held its connection for ever.
- Its body then gets ``BODY_GRACE`` seconds and one more for every ``BODY_MIN_RATE`` bytes that
  arrive (Apache's mod_reqtimeout rule), so a body sent a byte now and then cannot hold the
  connection either, while a slow but steady upload goes through. Time the API itself spends not
  reading (uvicorn pauses reading while the app is behind) is not held against the client.

h11 already caps what it holds of an unfinished head at 16 KiB (``h11_max_incomplete_event_size``);
uvicorn's keep-alive timeout closes a connection idle between requests, after ``KEEP_ALIVE``
seconds: longer than clients keep an idle connection for reuse (httpx and requests: 5 s, uvicorn's
own default too), so that the server never closes one just as its client sends a request on it,
which the client sees as a disconnect with no answer.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import h11
from h11._connection import DEFAULT_MAX_INCOMPLETE_EVENT_SIZE  # as uvicorn's own protocol does
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

HEADER_TIMEOUT = 5.0  # seconds for a request's head: one packet for any client, a stall for none
BODY_GRACE = 10.0  # seconds for a request's body, plus one for every BODY_MIN_RATE bytes received
BODY_MIN_RATE = 500  # bytes a second: a 20 MiB archive at this rate would take 12 hours
KEEP_ALIVE = 30  # seconds an idle kept-alive connection stays open (see the module's docstring)
log = logging.getLogger(__name__)


FRAMINGS = {b"content-length", b"transfer-encoding"}


def _names(headers: Any) -> set[bytes]:
    return {name.lower() for name, _ in headers}


class StrictConnection(h11.Connection):
    """h11's server side, refusing a request framed twice; ``refusal`` says why it refused."""

    refusal = ""

    def next_event(self) -> Any:
        try:
            event = super().next_event()
        except h11.RemoteProtocolError as exc:
            self.refusal = str(exc)
            raise
        if isinstance(event, h11.Request) and _names(event.headers) >= FRAMINGS:
            self.refusal = ("a request may carry Content-Length or Transfer-Encoding, not both "
                            "(RFC 9112 6.1); the connection is closed")
            raise h11.RemoteProtocolError(self.refusal, 400)
        return event


class StrictH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the rules above."""

    def __init__(self, config: Config, server_state: ServerState, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        limit = config.h11_max_incomplete_event_size
        self.conn: StrictConnection = StrictConnection(
            h11.SERVER, DEFAULT_MAX_INCOMPLETE_EVENT_SIZE if limit is None else limit)
        self.head_timer: asyncio.TimerHandle | None = None
        self.body_timer: asyncio.TimerHandle | None = None
        self.body_started = 0.0  # loop time the current body began; body_bytes received since
        self.body_bytes = 0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_head_timer()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE:
            self._arm_head_timer()  # the first byte of the next request on a kept-alive connection
        in_body = self.conn.their_state is h11.SEND_BODY
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._cancel_head_timer()
        self._pace_body(len(data) if in_body else 0)

    def on_response_complete(self) -> None:
        super().on_response_complete()  # may parse a pipelined request's head already received
        if self.conn.their_state is not h11.IDLE:
            self._cancel_head_timer()
        elif self.conn.trailing_data[0] and not self.transport.is_closing():
            self._arm_head_timer()  # part of the next head came while this request was answered
        self._pace_body(0)

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        self._cancel_body_timer()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        """The 400 in the service's error shape, naming what was wrong; the connection closes."""
        message = self.conn.refusal or msg
        body = json.dumps({"error": {"code": "bad_request", "message": message}}).encode()
        log.debug("refused a request from %s: %s", self.client, message)  # uvicorn has warned already
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                   (b"connection", b"close")]
        try:
            self.transport.write(self.conn.send(h11.Response(status_code=400, headers=headers)) or b"")
            self.transport.write(self.conn.send(h11.Data(data=body)) or b"")
            self.transport.write(self.conn.send(h11.EndOfMessage()) or b"")
        except h11.LocalProtocolError:  # a response was already under way: closing is all that is left
            pass
        self.transport.close()

    def _arm_head_timer(self) -> None:
        if self.head_timer is None:
            self.head_timer = self.loop.call_later(HEADER_TIMEOUT, self._head_timed_out)

    def _cancel_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _head_timed_out(self) -> None:
        self.head_timer = None
        if not self.transport.is_closing():
            # No 408: h11 answers nothing before a request's head. Debug only, so that a flood of
            # stalled connections does not flood the log as well.
            log.debug("closed a connection from %s: no request head within %s s", self.client, HEADER_TIMEOUT)
            self.transport.close()


    def _pace_body(self, received: int) -> None:
        """Move the body's deadline on by what arrived, or drop it once no body is being read."""
        if self.conn.their_state is not h11.SEND_BODY or self.transport.is_closing():
            self._cancel_body_timer()
            return
        if self.body_timer is None:
            self.body_started, self.body_bytes = self.loop.time(), 0
        self.body_bytes += received
        self._cancel_body_timer()
        deadline = self.body_started + BODY_GRACE + self.body_bytes / BODY_MIN_RATE
        self.body_timer = self.loop.call_at(deadline, self._body_timed_out)

    def _cancel_body_timer(self) -> None:
        if self.body_timer is not None:
            self.body_timer.cancel()
            self.body_timer = None

    def _body_timed_out(self) -> None:
        self.body_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.SEND_BODY:
            return
        if self.flow.read_paused:  # the app has not taken what came: it is behind, not the client
            self.body_started += BODY_GRACE
            self.body_timer = self.loop.call_later(BODY_GRACE, self._body_timed_out)
            return
        log.debug("closed a connection from %s: its body came slower than %s bytes/s", self.client,
                  BODY_MIN_RATE)
        self.transport.close()


def run(host: str, port: int, log_level: str = "INFO", forwarded_allow_ips: str | None = None) -> None:
    """Serve the API (``api.main:app``, named by string: the service does not import the API).
    ``log_level`` is uvicorn's (INFO logs each request; WARNING only what went wrong);
    ``forwarded_allow_ips`` the proxies whose forwarded headers count (default: the setting)."""
    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    from service.log_format import uvicorn_log_config
    from service.settings import get_settings

    logging_config = uvicorn_log_config(log_level.upper()) or LOGGING_CONFIG
    trusted = forwarded_allow_ips or get_settings().forwarded_allow_ips
    uvicorn.run("api.main:app", host=host, port=port, http=StrictH11Protocol, log_level=log_level.lower(),
                timeout_keep_alive=KEEP_ALIVE, log_config=logging_config, proxy_headers=True,
                forwarded_allow_ips=[part.strip() for part in trusted.split(",") if part.strip()])
