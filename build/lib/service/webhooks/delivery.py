"""One attempt of one delivery: claim the row, check its URL again, POST the signed body to the
checked address, record what happened, and schedule the next attempt or finish.

The POST goes to the IP that ``addresses.check`` just approved (the Host header and the TLS
server name keep the URL's name, and the certificate is verified against it): a name that
resolves elsewhere a moment later changes nothing. Redirects are not followed (a 3xx is a
failed attempt); each attempt has JUDGE_WEBHOOK_TIMEOUT_SECONDS in all, connecting and reading
together, after which its socket is shut; only the first bytes of the answer are read, and a
few of them kept.

An attempt is made only while its user and its destination host are below their bounds of
attempts in flight (``claims``, ``inflight``); past them the delivery is deferred, not
attempted, and the thread is free at once for someone else's. An attempt that ends hands its
slot to its user's next waiting delivery (``sweeper.hand_off``).
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import ssl
import threading
import time
from collections.abc import Callable
from enum import StrEnum

from sqlalchemy.orm import Session

from judge.errors import InvalidInput
from judge.text_safety import safe_text
from service.db.models import User, WebhookAttempt, WebhookDelivery, utcnow
from service.settings import get_settings
from service.webhooks import addresses, signing
from service.webhooks.claims import Claim, claim
from service.webhooks.outbox import DeliveryState, next_attempt, webhook_secret
from service.webhooks.sweeper import hand_off

READ_BYTES = 1024  # of the receiver's answer, at most
SNIPPET_CHARS = 200  # of those, kept
USER_AGENT = "metrics-judge-webhooks/1"


class Outcome(StrEnum):
    DELIVERED = "delivered"
    RETRY = "retry"
    FAILED = "failed"  # given up
    DEFERRED = "deferred"  # due, but its user or its host had all the attempts it may have
    SKIPPED = "skipped"  # not due, finished, or another worker holds it


class _PinnedHTTP(http.client.HTTPConnection):
    """HTTP to a given address, whatever the name in the Host header resolves to."""

    def __init__(self, target: addresses.Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self.address = target.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to a given address; the certificate must still be the URL's name's."""

    def __init__(self, target: addresses.Target, timeout: float) -> None:
        self.tls = ssl.create_default_context()
        super().__init__(target.host, target.port, timeout=timeout, context=self.tls)
        self.address = target.address

    def connect(self) -> None:
        raw = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self.tls.wrap_socket(raw, server_hostname=self.host)


def _cut(connection: http.client.HTTPConnection, fired: threading.Event) -> None:
    """Shut the socket: a receiver that dribbles its answer (each byte within the socket's own
    timeout) cannot hold the attempt longer than its time in all."""
    fired.set()
    if connection.sock is not None:
        with contextlib.suppress(OSError):
            connection.sock.shutdown(socket.SHUT_RDWR)


def post(target: addresses.Target, body: bytes, headers: dict[str, str],
         timeout: float) -> tuple[int, str]:
    """POST body to target; the status and the start of the answer's body. TimeoutError once
    ``timeout`` seconds have passed, whatever the step."""
    kind = _PinnedHTTPS if target.scheme == "https" else _PinnedHTTP
    connection = kind(target, timeout)
    fired = threading.Event()
    watchdog = threading.Timer(timeout, _cut, args=(connection, fired))
    watchdog.daemon = True
    watchdog.start()
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        start = response.read(READ_BYTES)
        if fired.is_set():
            raise TimeoutError(f"the answer took more than {timeout:g} s")
        return response.status, safe_text(start.decode("utf-8", "replace"))[:SNIPPET_CHARS]
    except (OSError, http.client.HTTPException) as exc:
        if fired.is_set() and not isinstance(exc, TimeoutError):
            raise TimeoutError(f"the answer took more than {timeout:g} s") from exc
        raise
    finally:
        watchdog.cancel()
        connection.close()


def _describe(exc: BaseException, timeout: float) -> str:
    if isinstance(exc, TimeoutError | socket.timeout):
        return f"timed out (after at most {timeout:g} s)"
    if isinstance(exc, InvalidInput):
        return f"refused: {exc.message}"
    return safe_text(f"{type(exc).__name__}: {exc}")[:300]


Poster = Callable[[addresses.Target, bytes, dict[str, str], float], tuple[int, str]]


def deliver(session: Session, pk: int, send: Poster = post,
            clock: Callable[[], float] = time.time) -> Outcome:
    """Make one attempt of delivery pk (when it is due, no one else makes it, and its user and
    host are below their bounds); then hand the freed slot to the user's next delivery."""
    taken = claim(session, pk)
    if taken is not Claim.TAKEN:
        return Outcome.DEFERRED if taken is Claim.DEFERRED else Outcome.SKIPPED
    settings = get_settings()
    delivery = session.get(WebhookDelivery, pk, populate_existing=True)
    user = session.get(User, delivery.user_id) if delivery is not None else None
    if delivery is None or user is None:
        return Outcome.SKIPPED
    secret = webhook_secret(session, user)
    body = delivery.body.encode()
    # Nothing of the database is held while the receiver takes its time: no pooled connection,
    # and on SQLite no write lock (a first secret is a write) that every claim would wait for.
    session.commit()
    status: int | None = None
    snippet: str | None = None
    error: str | None = None
    started, attempted_at = time.monotonic(), utcnow()
    try:
        target = addresses.check(delivery.url, settings.webhook_allow_private,
                                 settings.webhook_max_url_length)
        headers = {
            "Content-Type": "application/json", "User-Agent": USER_AGENT, "Connection": "close",
            signing.SIGNATURE_HEADER: signing.header(secret, int(clock()), body),
            signing.DELIVERY_HEADER: delivery.delivery_id, signing.EVENT_HEADER: delivery.event,
        }
        status, snippet = send(target, body, headers, settings.webhook_timeout_seconds)
    except (InvalidInput, OSError, http.client.HTTPException, ValueError) as exc:
        error = _describe(exc, settings.webhook_timeout_seconds)
    duration_ms = int((time.monotonic() - started) * 1000)
    if status is not None and not 200 <= status < 300:
        error = f"answered {status}" + (" (redirects are not followed)" if 300 <= status < 400 else "")
    delivery.attempt_log.append(WebhookAttempt(attempted_at=attempted_at, duration_ms=duration_ms,
                                               status_code=status, error=error,
                                               response_snippet=snippet or None))
    delivery.attempts += 1
    delivery.lease_until = delivery.sent_at = None
    now = utcnow()
    if error is None:
        delivery.state, delivery.finished_at = DeliveryState.DELIVERED, now
        outcome = Outcome.DELIVERED
    elif (later := next_attempt(delivery.created_at, now, delivery.attempts)) is None:
        delivery.state, delivery.finished_at = DeliveryState.FAILED, now
        outcome = Outcome.FAILED
    else:
        delivery.next_attempt_at = later
        outcome = Outcome.RETRY
    session.commit()
    hand_off(session, delivery.user_id)
    return outcome
