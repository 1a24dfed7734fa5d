"""The Alembic migrations build exactly the schema the models describe, and 0003 and 0011 go
both ways."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text

from service.db.migrate import alembic_config
from service.db.models import Base


def test_head_matches_the_models_and_0003_downgrades(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    config = alembic_config(url)
    command.upgrade(config, "head")
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        assert differences == []
        command.downgrade(config, "0002")
        assert "hint_reveals" not in inspect(engine).get_table_names()
        assert "arguments" not in {c["name"] for c in inspect(engine).get_columns("submissions")}
        command.upgrade(config, "head")
        assert "hint_reveals" in inspect(engine).get_table_names()
    finally:
        engine.dispose()


def test_0011_leaves_every_problem_already_authored_unshared(tmp_path: Path) -> None:
    """Nobody consented to copies before the switch existed."""
    url = f"sqlite:///{tmp_path / 'authored.db'}"
    config = alembic_config(url)
    command.upgrade(config, "0010")
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(text("INSERT INTO problems (slug, created_at) VALUES ('older', '2026-01-01')"))
        command.upgrade(config, "0011")
        with engine.connect() as connection:
            assert connection.execute(text("SELECT slug, shareable FROM problems")).all() == [("older", False)]
        command.downgrade(config, "0010")
        assert "shareable" not in {c["name"] for c in inspect(engine).get_columns("problems")}
    finally:
        engine.dispose()


def test_a_database_a_newer_judge_migrated_is_refused_clearly(tmp_path: Path) -> None:
    """An older worker host against a database the upgraded API migrated: one clear line, and
    nothing touched (alembic alone would stop on an unknown revision with a traceback)."""
    from service.db.migrate import NewerSchema, upgrade

    url = f"sqlite:///{tmp_path / 'newer.db'}"
    upgrade(url)
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(text("UPDATE alembic_version SET version_num = '0099'"))
        with pytest.raises(NewerSchema, match=r"schema revision 0099, which this judge does not know"):
            upgrade(url)
        with engine.connect() as connection:
            assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0099"
    finally:
        engine.dispose()
    done = subprocess.run([sys.executable, "-m", "service.cli", "users", "create", "late"], capture_output=True,
                          text=True, env={**os.environ, "JUDGE_DATABASE_URL": url}, timeout=120)
    assert done.returncode == 2 and done.stderr.startswith("error: the database is at schema revision 0099")
    assert "Traceback" not in done.stderr


def test_a_url_with_escapes_migrates(tmp_path: Path) -> None:
    """A quoted password or a query holding a path ("%2F") must reach alembic as it is: its
    configparser took "%" for its own interpolation and stopped."""
    from service.db.migrate import upgrade

    folder = tmp_path / "100% sure"
    folder.mkdir()
    upgrade(f"sqlite:///{folder / 'judge.db'}")
    assert (folder / "judge.db").exists()
    assert alembic_config(f"sqlite:///{folder / 'judge.db'}").get_main_option("sqlalchemy.url").endswith(
        "100% sure/judge.db")
