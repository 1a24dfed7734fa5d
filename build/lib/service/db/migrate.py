"""Run Alembic migrations to the newest revision; called on every start."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

from service.settings import get_settings

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


def alembic_config(url: str | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url or get_settings().resolved_database_url())
    return config


def upgrade(url: str | None = None) -> None:
    url = url or get_settings().resolved_database_url()
    if url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    command.upgrade(alembic_config(url), "head")
