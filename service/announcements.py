"""Status changes, announced the moment they are committed.

Whoever commits a change of a submission's status (``service.lifecycle``, and the callers
of ``requeue_lost`` and ``reset_for_rejudge``) calls ``announce`` after the commit. The
announcement is a small JSON message, ``{"id", "status", "verdict"}``, published on the Redis
channel ``{broker_key_prefix}judge:submissions`` of the broker's own Redis; every API process
subscribes to it once (``api.waits``) and wakes the requests that wait for that submission.

An announcement is a hint, like a queue message: the database stays the source of truth.
Publishing never fails the job that changed the row (it logs and goes on), and the subscriber
looks at the database whenever it may have missed something (while disconnected, and once
after every subscription). Where the broker is not Redis (kombu's file-system fallback) nothing
is published and the API polls the database instead.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import redis
import redis.asyncio as aioredis

from service.db.models import SubmissionStatus
from service.settings import get_settings

log = logging.getLogger(__name__)

CHANNEL = "judge:submissions"  # after the broker key prefix
QUIET_AFTER_FAILURE = 5.0  # seconds without publishing after a failed attempt
PING_EVERY = 10.0  # a subscriber pings a silent connection this often...
PONG_WITHIN = 5.0  # ...and gives it up when no answer comes within this
SUBSCRIBE_WITHIN = 5.0
STATUSES = frozenset(SubmissionStatus)


@dataclass(frozen=True)
class Change:
    """A submission's new status (and verdict, once done)."""

    id: int
    status: str
    verdict: str | None = None


def channel() -> str:
    return f"{get_settings().broker_key_prefix}{CHANNEL}"


def redis_url(broker_url: str) -> str | None:
    """The broker URL as redis-py reads it, or None where the broker is not Redis.

    kombu spells a Unix socket ``redis+socket:///path``; redis-py ``unix:///path``. A list of
    fail-over brokers (``a;b``) publishes on the first."""
    first = broker_url.split(";", 1)[0].strip()
    scheme, _, rest = first.partition("://")
    if scheme in ("redis", "rediss"):
        return first
    if scheme == "redis+socket":
        return f"unix://{rest}"
    return None


def encode(change: Change) -> str:
    return json.dumps({"id": change.id, "status": str(change.status),
                       "verdict": None if change.verdict is None else str(change.verdict)},
                      separators=(",", ":"))


def decode(data: bytes | str) -> Change | None:
    """The change a message announces; None for anything that is not one (never raises)."""
    try:
        body: Any = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(body, dict):
        return None
    ident, status, verdict = body.get("id"), body.get("status"), body.get("verdict")
    if type(ident) is not int or status not in STATUSES or not (verdict is None or isinstance(verdict, str)):
        return None
    return Change(ident, status, verdict)


# ---------------------------------------------------------------------------------------------
# Publishing (the worker, and the API for rejudges)


class Publisher(Protocol):
    def publish(self, channel: str, messages: Sequence[str]) -> None: ...


class RedisPublisher:
    def __init__(self, url: str) -> None:
        # Short timeouts: a missing Redis costs a job a second, once (then QUIET_AFTER_FAILURE).
        self.client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2)

    def publish(self, channel: str, messages: Sequence[str]) -> None:
        if len(messages) == 1:
            self.client.publish(channel, messages[0])
            return
        with self.client.pipeline(transaction=False) as pipe:  # one round trip for a rejudge
            for message in messages:
                pipe.publish(channel, message)
            pipe.execute()


_publishers: dict[str, RedisPublisher] = {}
_lock = threading.Lock()
_quiet_until = 0.0


def publisher() -> Publisher | None:
    """The publisher for the configured broker (one per process), or None without Redis."""
    url = redis_url(get_settings().resolved_broker_url())
    if url is None:
        return None
    with _lock:
        found = _publishers.get(url)
        if found is None:
            found = _publishers[url] = RedisPublisher(url)
        return found


def announce(submission_id: int, status: str, verdict: str | None = None) -> None:
    """Announce that a submission's status changed; call it after the commit. Never raises."""
    announce_all([Change(submission_id, status, verdict)])


def announce_all(changes: Iterable[Change]) -> None:
    """Announce several changes at once (one round trip). Never raises: a failure is logged,
    and for a few seconds after one nothing is tried, so an absent Redis does not slow every
    job down. Waiting clients then learn the change from the database."""
    global _quiet_until
    messages = [encode(change) for change in changes]
    if not messages or time.monotonic() < _quiet_until:
        return
    try:
        target = publisher()
        if target is not None:
            target.publish(channel(), messages)
    except Exception as exc:
        _quiet_until = time.monotonic() + QUIET_AFTER_FAILURE
        log.warning("could not announce %d status change(s), waiting clients will find them in the "
                    "database: %s: %s", len(messages), type(exc).__name__, str(exc)[:200])


# ---------------------------------------------------------------------------------------------
# Subscribing (one feed per API process, see api.waits)


class Feed(Protocol):
    """One subscription to the announcements. Any exception means the subscription is lost."""

    async def subscribe(self) -> None:
        """Return once subscribed; raise when the broker cannot be reached."""

    async def next_message(self) -> bytes | str:
        """The next message; raise when the connection is lost."""

    async def close(self) -> None: ...


class RedisFeed:
    def __init__(self, url: str, channel: str) -> None:
        self.channel = channel
        # No retries inside redis-py: a silent reconnection would hide the messages lost in
        # between. The watcher reconnects itself and then looks at the database.
        # Keep-alive is a TCP option: a Unix socket's connection (the embedded default's
        # private redis-server) refuses it, and the feed would never subscribe.
        tcp = {} if url.startswith("unix://") else {"socket_keepalive": True}
        self.client = aioredis.Redis.from_url(url, socket_connect_timeout=2, retry=None, **tcp)
        self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        self.pinged: float | None = None

    async def subscribe(self) -> None:
        await asyncio.wait_for(self.pubsub.subscribe(self.channel), SUBSCRIBE_WITHIN)

    async def next_message(self) -> bytes | str:
        while True:
            wait = PING_EVERY if self.pinged is None else PONG_WITHIN
            message = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=wait)
            if message is None:  # silence: is the connection alive?
                if self.pinged is not None:
                    raise ConnectionError(f"no answer to a ping within {PONG_WITHIN:g} s")
                self.pinged = time.monotonic()
                await asyncio.wait_for(self.pubsub.ping(), PONG_WITHIN)
                continue
            self.pinged = None  # anything that arrives shows the connection lives
            if message.get("type") == "message":
                data: bytes | str = message["data"]
                return data

    async def close(self) -> None:
        try:
            await self.pubsub.aclose()  # type: ignore[no-untyped-call]
        finally:
            await self.client.aclose()


def open_feed() -> Feed | None:
    """A feed on the configured broker's Redis, or None where the broker is not Redis."""
    url = redis_url(get_settings().resolved_broker_url())
    return None if url is None else RedisFeed(url, channel())
