"""The learner's queue quota holds under concurrent submissions: on PostgreSQL (a row lock on the
user) and on SQLite (the embedded default, serialised in the process)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, sessionmaker

from service.catalog import sync_folders
from service.db.migrate import upgrade
from service.db.models import Role, Submission, SubmissionStatus, User
from service.db.session import get_engine
from service.errors import QuotaExceeded
from service.settings import get_settings
from service.submissions import Mode, create_submission
from service.users import create_user
from tests.utils.service import REFERENCE
from tests.utils.service_env import FIXTURE_PROBLEMS

PARALLEL = 30


@pytest.fixture(params=["postgresql", "sqlite"])
def sessions(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[sessionmaker[Session]]:
    """Sessions on a migrated database holding the fixture problems, one per backend."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'judge.db'}"
        engine = get_engine(url)  # the production engine: WAL and a 30 s busy timeout
    else:
        url = get_settings().resolved_database_url()
        if not url.startswith("postgresql"):
            pytest.skip("PostgreSQL on 127.0.0.1:5432 is not reachable")
        from sqlalchemy import create_engine

        # One connection per thread, so all 30 really are in flight at once.
        engine = create_engine(url, pool_size=PARALLEL + 2)
    upgrade(url)
    factory = sessionmaker(engine, expire_on_commit=False)
    with factory.begin() as session:
        sync_folders(session, FIXTURE_PROBLEMS)
    yield factory
    engine.dispose()


def _learner(factory: sessionmaker[Session], name: str) -> int:
    with factory.begin() as session:
        return create_user(session, name, Role.LEARNER)[0].id


def _race(factory: sessionmaker[Session], user_id: int, key: str | None = None) -> tuple[list[int], int]:
    """PARALLEL threads submit at once, each with its own session: (ids created or returned, refusals)."""
    start = threading.Barrier(PARALLEL, timeout=60)
    ids: list[int] = []
    refused: list[QuotaExceeded] = []
    failed: list[BaseException] = []

    def one() -> None:
        # Line up before taking a connection: where the pool has fewer than PARALLEL (SQLite), a
        # thread holding one at the barrier would wait for threads waiting for its connection.
        start.wait()
        with factory() as session:
            try:
                user = session.get(User, user_id)
                assert user is not None
                submission, _ = create_submission(session, user, "secret_lookup", REFERENCE, Mode.RUN, key)
                ids.append(submission.id)
            except QuotaExceeded as exc:
                refused.append(exc)
            except BaseException as exc:
                failed.append(exc)

    threads = [threading.Thread(target=one) for _ in range(PARALLEL)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not failed, failed
    return ids, len(refused)


def _stored(factory: sessionmaker[Session], user_id: int) -> int:
    with factory.begin() as session:
        count = session.scalar(select(func.count()).select_from(Submission).where(Submission.user_id == user_id))
        # Leave nothing queued for a worker's recovery beat to pick up from the shared database.
        session.execute(update(Submission).where(Submission.user_id == user_id)
                        .values(status=SubmissionStatus.DONE))
        return count or 0


def test_parallel_submissions_stop_exactly_at_the_quota(sessions: sessionmaker[Session]) -> None:
    quota = get_settings().learner_queue_quota
    learner = _learner(sessions, "test-quota-race")
    ids, refused = _race(sessions, learner)
    assert (len(ids), refused) == (quota, PARALLEL - quota)
    assert _stored(sessions, learner) == quota


def test_parallel_replays_of_one_idempotency_key_store_one_submission(sessions: sessionmaker[Session]) -> None:
    learner = _learner(sessions, "test-quota-replay")
    ids, refused = _race(sessions, learner, key="same-key")
    assert refused == 0 and len(ids) == PARALLEL and len(set(ids)) == 1
    assert _stored(sessions, learner) == 1
