"""Recovery and the broker's memory: a broker that came back empty (a Redis restarted without
persistence, or flushed) lost the message of every queued submission, and recovery sends each
again at once, not after the requeue delay; a broker that remembers is left alone."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

import service.tasks as worker_tasks
from service import jobs
from service.db.models import SubmissionStatus
from tests.unit.service.conftest import EagerQueue, Message
from tests.unit.service.helpers import read
from tests.unit.service.local_keys import LocalKeys
from tests.utils.service import store_submission
from tests.utils.service_fixtures import Tokens


def _queued(count: int) -> list[int]:
    """Queued just now, their messages (as far as the judge knows) in the broker."""
    return [store_submission(user="test-other_learner", status=SubmissionStatus.QUEUED)
            for _ in range(count)]


def _sent(held: list[Message], ids: list[int]) -> list[int]:
    return sorted(message.args[0] for message in held if message.args and message.args[0] in ids)


def test_every_queued_submission_is_sent_again_once_the_broker_forgot(
        client: TestClient, tokens: Tokens, eager_queue: EagerQueue, local_keys: LocalKeys) -> None:
    ids = _queued(3)
    with eager_queue.hold() as held:
        worker_tasks.recover_stale()
        assert _sent(held, ids) == []  # young rows of a broker that remembers wait for their messages
        local_keys.flush()  # the broker restarts empty: their messages are gone
        assert set(ids) <= set(worker_tasks.recover_stale())
        worker_tasks.recover_stale()  # the next one finds the broker remembering again
        assert _sent(held, ids) == ids  # each once
    eager_queue.release()
    for submission_id in ids:
        assert read(client, tokens.other_learner, submission_id).json()["verdict"] == "accepted"


def test_a_recovery_that_failed_leaves_the_loss_to_the_next(
        tokens: Tokens, eager_queue: EagerQueue, local_keys: LocalKeys,
        monkeypatch: pytest.MonkeyPatch) -> None:
    ids = _queued(2)
    local_keys.flush()

    def database_away(*_: object, **__: object) -> list[int]:
        raise OperationalError("SELECT", {}, ConnectionError("the database went away"))

    with monkeypatch.context() as patch:
        patch.setattr(jobs, "recover_stale", database_away)
        with pytest.raises(OperationalError):
            worker_tasks.recover_stale()
    with eager_queue.hold() as held:
        assert set(ids) <= set(worker_tasks.recover_stale())
        assert _sent(held, ids) == ids
        held.clear()
