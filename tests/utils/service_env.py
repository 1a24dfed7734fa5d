"""Points the judge's settings at throw-away services before anything reads them.

PostgreSQL and Redis when they answer (CI requires them); SQLite and the file-system broker
otherwise. Called from the root conftest at import time, before judge.engine_settings is first read.
Each run gets a database and a Redis key prefix of its own, so runs at the same time on one
machine never see each other's rows or take each other's messages.
"""

from __future__ import annotations

import os
import socket
import tempfile
import uuid
from pathlib import Path

FIXTURE_PROBLEMS = Path(__file__).resolve().parent.parent / "fixtures" / "problems"
PG_ADMIN_URL = os.environ.get("JUDGE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("JUDGE_TEST_REDIS", "redis://127.0.0.1:6379/15")


def _answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def _fresh_postgres_database() -> str | None:
    if not _answers("127.0.0.1", 5432):
        return None
    import psycopg

    name = f"judge_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return name


def drop_postgres_database(name: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def drop_broker_keys(prefix: str) -> None:
    """Remove what this run left in Redis (messages of tasks still queued, bindings)."""
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
    for start in range(0, len(keys), 500):
        client.delete(*keys[start:start + 500])


# argon2id at its deployed cost (64 MiB, 3 passes, 4 lanes) is about a third of a second of CPU
# a hash, and the suite makes hundreds of accounts and sign-ins that test anything but that
# cost. The tests of the cost itself (the hashing pool under a flood) start their servers with
# these names unset, so at the deployed values.
CHEAP_HASHING = {"JUDGE_PASSWORD_TIME_COST": "1", "JUDGE_PASSWORD_MEMORY_KIB": "8192",
                 "JUDGE_PASSWORD_PARALLELISM": "1"}


# prometheus_client's folder of per-process metric files. This test process gets one of its own
# (configure), and a server or worker it starts never inherits it (``child_env``): a `judge serve`
# judging in the background would otherwise add its verdicts to what the in-process app's
# /metrics shows a test counting the delta of its own (seen under pytest-xdist: 4 where 1).
METRICS_FOLDER_ENV = "PROMETHEUS_MULTIPROC_DIR"


def child_env(**changes: str) -> dict[str, str]:
    """The environment for a judge process a test starts: this process's with ``changes``, and
    no metrics folder unless ``changes`` names one, so the child takes its data folder's."""
    env = {k: v for k, v in os.environ.items() if k != METRICS_FOLDER_ENV}
    env.update(changes)
    return env


def configure() -> dict[str, str]:
    """Set JUDGE_* variables for this test session; return what was chosen."""
    in_ci = os.environ.get("CI", "").lower() == "true"
    data_dir = Path(tempfile.mkdtemp(prefix="judge-test-"))
    chosen = {"JUDGE_DATA_DIR": str(data_dir), "JUDGE_PROBLEMS_DIR": str(FIXTURE_PROBLEMS),
              METRICS_FOLDER_ENV: str(data_dir / "metrics-of-pytest")}
    database = _fresh_postgres_database()
    if database:
        chosen["JUDGE_DATABASE_URL"] = PG_ADMIN_URL.rsplit("/", 1)[0].replace(
            "postgresql://", "postgresql+psycopg://") + f"/{database}"
        chosen["JUDGE_TEST_PG_DATABASE"] = database
    elif in_ci:
        raise RuntimeError("CI needs PostgreSQL on 127.0.0.1:5432")
    if _answers("127.0.0.1", 6379):
        chosen["JUDGE_BROKER_URL"] = REDIS_URL
        # Every key and channel of this run's queues: no other run's, nor an earlier one's.
        chosen["JUDGE_BROKER_KEY_PREFIX"] = f"judge-test-{uuid.uuid4().hex[:12]}:"
    elif in_ci:
        raise RuntimeError("CI needs Redis on 127.0.0.1:6379")
    # Longer than the fault suite's 60 s engine outage: the session worker (with a live engine)
    # must not take over rows that a cut-off worker is rightly holding back.
    chosen["JUDGE_REQUEUE_AFTER_SECONDS"] = "300"
    chosen["JUDGE_RECOVERY_INTERVAL_SECONDS"] = "1"
    chosen["JUDGE_HEARTBEAT_INTERVAL_SECONDS"] = "1"
    # An app run in this process (TestClient) must leave the test process's priority alone;
    # servers started as processes of their own get the default back (tests/faults/test_load.py).
    chosen["JUDGE_API_NICENESS"] = "0"
    # The tests' LTI platforms (tests/lti/platform.py) serve plain http on 127.0.0.1.
    chosen["JUDGE_LTI_ALLOW_HTTP"] = "true"
    chosen["JUDGE_LTI_ALLOW_PRIVATE"] = "true"
    chosen.update(CHEAP_HASHING)
    os.environ.update(chosen)
    return chosen
