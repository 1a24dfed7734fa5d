"""Run Alembic migrations to the newest revision; called on every start."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine

from service.settings import get_settings

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


def alembic_config(url: str | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    # Doubled: the option goes through configparser's interpolation, which reads a "%" of the
    # URL's escapes (a quoted password, a query's path) as its own and stops.
    url = url or get_settings().resolved_database_url()
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


class NewerSchema(RuntimeError):
    """The database was migrated by a newer version of the judge than this one."""


def upgrade(url: str | None = None) -> None:
    """Migrate to this version's newest revision. A database at a revision this version does not
    know (a newer judge migrated it: an API upgraded before this worker host) is refused, with
    what to do, before anything is touched: this version's code would misread its tables."""
    url = url or get_settings().resolved_database_url()
    if url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    config = alembic_config(url)
    script = ScriptDirectory.from_config(config)
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            current = MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()
    known = {revision.revision for revision in script.walk_revisions()}
    if current is not None and current not in known:
        raise NewerSchema(
            f"the database is at schema revision {current}, which this judge does not know (its newest "
            f"is {script.get_current_head()}): a newer version migrated it. Upgrade this judge to the "
            "version the API runs; never run an older one against it")
    command.upgrade(config, "head")
