"""A TEST DOUBLE of the status announcements' Redis pub/sub, for the unit layer (no network).

``LocalBus`` is both sides at once: ``announcements.publisher()`` returns it, so the worker's
``announce`` (run eagerly, in a thread of this process) publishes here; and the API's watcher
opens its feed here, so each published message reaches the waiting requests as it would through
Redis. ``go_down()`` breaks both sides like a Redis that went away: publishing raises, every open
feed loses its connection and new subscriptions fail, until ``come_back()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Sequence

from service import announcements
from service.announcements import Change

_LOST = object()


class LocalFeed:
    def __init__(self, bus: LocalBus) -> None:
        self.bus = bus
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queue: asyncio.Queue[object] | None = None

    async def subscribe(self) -> None:
        if self.bus.down:
            raise ConnectionError("pub/sub is down (unit test)")
        self.loop, self.queue = asyncio.get_running_loop(), asyncio.Queue()
        with self.bus.lock:
            self.bus.feeds.add(self)

    def deliver(self, item: object) -> None:
        if self.loop is not None and self.queue is not None:
            with contextlib.suppress(RuntimeError):  # its loop is closed: nobody listens
                self.loop.call_soon_threadsafe(self.queue.put_nowait, item)

    async def next_message(self) -> bytes | str:
        assert self.queue is not None
        item = await self.queue.get()
        if item is _LOST:
            raise ConnectionError("pub/sub connection lost (unit test)")
        assert isinstance(item, str)
        return item

    async def close(self) -> None:
        with self.bus.lock:
            self.bus.feeds.discard(self)


class LocalBus:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.feeds: set[LocalFeed] = set()
        self.published: list[tuple[str, Change]] = []  # (channel, change), in order
        self.down = False

    # announcements.Publisher
    def publish(self, channel: str, messages: Sequence[str]) -> None:
        if self.down:
            raise ConnectionError("pub/sub is down (unit test)")
        with self.lock:
            for message in messages:
                change = announcements.decode(message)
                assert change is not None, message
                self.published.append((channel, change))
            feeds = list(self.feeds)
        for feed in feeds:
            for message in messages:
                feed.deliver(message)

    def open_feed(self) -> LocalFeed:
        return LocalFeed(self)

    def changes_of(self, submission_id: int) -> list[tuple[str, str | None]]:
        with self.lock:
            return [(c.status, c.verdict) for _, c in self.published if c.id == submission_id]

    def go_down(self) -> None:
        self.down = True
        with self.lock:
            feeds = list(self.feeds)
        for feed in feeds:
            feed.deliver(_LOST)

    def come_back(self) -> None:
        self.down = False
