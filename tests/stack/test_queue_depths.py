"""The queue depths /metrics reports, read from a real Redis through kombu's public API: each
queue's messages counted across its priority lists, under the broker's key prefix alone, and an
empty queue (which has no key at all) read as 0."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
import redis

from service.celery_app import (
    ALL_QUEUES,
    BACKGROUND_QUEUE,
    GRADE_TASK,
    RUN_QUEUE,
    celery,
    make_celery,
    prepare_folders,
)
from service.metrics import broker_queue_depths
from service.settings import Settings
from tests.utils.service_env import REDIS_URL

pytestmark = pytest.mark.stack


def test_each_queue_is_counted_under_its_own_prefix() -> None:
    prefixes = [f"depths-{uuid.uuid4().hex}:" for _ in range(2)]
    mine, neighbour = (make_celery(Settings(broker_url=REDIS_URL, broker_key_prefix=p)) for p in prefixes)
    try:
        assert broker_queue_depths(mine) == dict.fromkeys(ALL_QUEUES, 0)
        for n in range(3):  # on three priority lists of one queue
            mine.send_task(GRADE_TASK, args=[n], queue=BACKGROUND_QUEUE, priority=3 * n)
        mine.send_task(GRADE_TASK, args=[9], queue=RUN_QUEUE)
        neighbour.send_task(GRADE_TASK, args=[10], queue=RUN_QUEUE)
        assert broker_queue_depths(mine) == {**dict.fromkeys(ALL_QUEUES, 0), BACKGROUND_QUEUE: 3, RUN_QUEUE: 1}
        assert broker_queue_depths(neighbour) == {**dict.fromkeys(ALL_QUEUES, 0), RUN_QUEUE: 1}
    finally:
        for app in (mine, neighbour):
            with app.connection_for_write() as connection:
                for queue in ALL_QUEUES:
                    connection.default_channel.queue_purge(queue)
            app.close()
        celery.set_current()  # a new app makes itself the current one: give the place back
        client = redis.Redis.from_url(REDIS_URL)
        for prefix in prefixes:  # the exchanges' bindings that sending left
            for key in client.scan_iter(f"{prefix}*"):
                client.delete(key)
        client.close()


def test_the_file_system_broker_counts_its_message_files(tmp_path: Path) -> None:
    app = make_celery(Settings(broker_url="filesystem://", data_dir=tmp_path))
    try:
        prepare_folders(app)
        assert broker_queue_depths(app) == dict.fromkeys(ALL_QUEUES, 0)
        for n in range(2):
            app.send_task(GRADE_TASK, args=[n], queue=RUN_QUEUE)
        assert broker_queue_depths(app) == {**dict.fromkeys(ALL_QUEUES, 0), RUN_QUEUE: 2}
    finally:
        app.close()
        celery.set_current()
