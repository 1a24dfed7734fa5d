"""`judge backup` and `judge restore`, round trips through the documented commands: the
session's PostgreSQL database (problems with their versions, users, courses, submissions and
their test rows, written by the tests before) into a new PostgreSQL database and into a new
SQLite one, every row of every table equal; the restored judge makes new rows; and a non-empty
target, another schema revision and a damaged file are each refused, saying why, with nothing
written."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, create_engine, select
from sqlalchemy.orm import Session

from service.db.models import Base, Role
from service.db.session import get_engine
from service.settings import get_settings
from service.users import create_user
from tests.utils.service import REFERENCE, submit, wait_done
from tests.utils.service_env import _fresh_postgres_database, drop_postgres_database
from tests.utils.service_fixtures import Tokens

ROOT = Path(__file__).resolve().parents[2]


def judge(*args: str, database_url: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "JUDGE_DATABASE_URL": database_url}
    return subprocess.run([sys.executable, "-m", "service.cli", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)


def rows(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    with engine.connect() as connection:
        return {table.name: [tuple(row) for row in connection.execute(
                    select(table).order_by(*table.primary_key.columns))]
                for table in Base.metadata.sorted_tables}


@pytest.fixture
def empty_postgres() -> Iterator[str]:
    name = _fresh_postgres_database()
    if name is None:
        pytest.skip("no PostgreSQL on 127.0.0.1:5432")
    url = get_settings().resolved_database_url().rsplit("/", 1)[0] + f"/{name}"
    try:
        yield url
    finally:
        get_engine(url).dispose()
        drop_postgres_database(name)


@pytest.fixture
def backup_file(client: TestClient, tokens: Tokens, tmp_path: Path) -> Path:
    """A backup of the session's database, with at least one judged submission in it."""
    wait_done(client, tokens.learner, submit(client, tokens.learner, REFERENCE)["id"])
    file = tmp_path / "judge.backup.gz"
    made = judge("backup", str(file), database_url=get_settings().resolved_database_url())
    assert made.returncode == 0, made.stderr
    assert made.stderr.startswith("backed up ") and str(file) in made.stderr
    return file


def test_a_backup_restores_whole_into_postgresql_and_sqlite(
        backup_file: Path, empty_postgres: str, tmp_path: Path) -> None:
    source = rows(get_engine())
    assert source["submissions"] and source["test_results"] and source["problem_versions"]
    published = [c.name for c in Base.metadata.tables["problems"].columns].index("published_version_id")
    assert any(row[published] is not None for row in source["problems"])  # a cyclic foreign key

    restored = judge("restore", str(backup_file), database_url=empty_postgres)
    assert restored.returncode == 0, restored.stderr
    copied = rows(get_engine(empty_postgres))
    changed = {name for name in source if copied[name] != source[name]}
    # The session's own database may gain rows (its workers' heartbeats) after the backup.
    assert changed <= {"worker_heartbeats"}, changed

    # The restored PostgreSQL judge makes new rows past the restored ids.
    with Session(get_engine(empty_postgres)) as session:
        user, _ = create_user(session, "made-after-restore", Role.LEARNER)
        assert user.id > max(row[0] for row in source["users"])

    # And the same file moves the judge to SQLite.
    sqlite = f"sqlite:///{tmp_path / 'restored.db'}"
    assert judge("restore", str(backup_file), database_url=sqlite).returncode == 0
    lite = create_engine(sqlite)
    try:
        assert {name for name, found in rows(lite).items() if found != source[name]} <= {"worker_heartbeats"}
    finally:
        lite.dispose()


def test_a_target_with_rows_another_revision_and_a_damaged_file_are_refused(
        backup_file: Path, empty_postgres: str, tmp_path: Path) -> None:
    sqlite = f"sqlite:///{tmp_path / 'target.db'}"
    assert judge("restore", str(backup_file), database_url=sqlite).returncode == 0
    again = judge("restore", str(backup_file), database_url=sqlite)
    assert again.returncode == 2 and "the database is not empty" in again.stderr

    with gzip.open(backup_file, "rb") as source:
        lines = source.read().splitlines(keepends=True)
    header = json.loads(lines[0])
    older = tmp_path / "older.gz"
    with gzip.open(older, "wb") as out:
        out.writelines([json.dumps({**header, "revision": "0012"}).encode() + b"\n", *lines[1:]])
    cut = tmp_path / "cut.gz"
    with gzip.open(cut, "wb") as out:
        out.writelines(lines[: len(lines) // 2])
    for damaged, words in ((older, "made at schema revision '0012'"), (cut, "cut short"),
                           (tmp_path / "missing.gz", "no such file")):
        refused = judge("restore", str(damaged), database_url=empty_postgres)
        assert refused.returncode == 2 and words in refused.stderr, refused.stderr
    # All or nothing: the refused loads left the database empty (migrated, no rows).
    assert judge("restore", str(backup_file), database_url=empty_postgres).returncode == 0
