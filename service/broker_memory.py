"""Whether the broker still holds what was sent to it.

A Redis broker restarted without persistence (the embedded default's private redis-server always
is; a production Redis may be), or flushed, comes back empty: the message of every queued
submission is gone, and each learner's queue-quota slots stay held until recovery's requeue delay
(``JUDGE_REQUEUE_AFTER_SECONDS``, a minute) sends them again. A learner was refused 36 times in
that minute. So recovery keeps a sentinel key in the broker's Redis, under the broker's key
prefix and with no expiry: it vanishes with everything else, and recovery finding it missing
sends every queued submission again at once (``jobs.recover_stale``), as soon as a worker
reconnects (``celery_app.RecoverOnConnect``).

Only a Redis broker has a memory to lose this way: the file-system fallback keeps its messages
in files. A sentinel evicted under memory pressure costs one extra message per queued row, which
the claim makes harmless.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Protocol

import redis

from service.announcements import redis_url
from service.db.models import utcnow
from service.settings import get_settings

log = logging.getLogger(__name__)
SENTINEL = "judge:broker-memory"  # after the broker key prefix


class Keys(Protocol):
    """The two Redis commands the sentinel needs (a test double stands in for Redis)."""

    def set(self, name: str, value: str, *, nx: bool = False) -> object: ...

    def delete(self, *names: str) -> object: ...


def keys() -> Keys | None:
    """The broker's Redis, or None where the broker is not Redis."""
    url = redis_url(get_settings().resolved_broker_url())
    return None if url is None else _client(url)


@lru_cache(maxsize=4)
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)


def sentinel() -> str:
    return f"{get_settings().broker_key_prefix}{SENTINEL}"


def forgot() -> bool:
    """Whether the broker lost its memory since the sentinel was last set; sets it again, so of
    recoveries running at once only one hears True. False for a broker that is not Redis, and
    when Redis does not answer (the regular recovery still runs)."""
    target = keys()
    if target is None:
        return False
    try:
        return bool(target.set(sentinel(), utcnow().isoformat(), nx=True))
    except redis.RedisError as exc:
        log.warning("could not read the broker's sentinel: %s", exc)
        return False


def forget() -> None:
    """Remove the sentinel, so that the next recovery sends everything again: for a recovery
    that heard ``forgot()`` say True and then failed."""
    target = keys()
    if target is None:
        return
    try:
        target.delete(sentinel())
    except redis.RedisError as exc:
        log.warning("could not remove the broker's sentinel: %s", exc)
