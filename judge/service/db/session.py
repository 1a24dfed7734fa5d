"""Engines and sessions, created once per process from the settings."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

from judge.settings import get_settings


@lru_cache
def get_engine(url: str | None = None) -> Engine:
    url = url or get_settings().resolved_database_url()
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(connection, _record):  # type: ignore[no-untyped-def]
            # WAL lets the API read while a worker writes; foreign keys are off by default.
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    settings = get_settings()
    # Requests hold a connection only for their own queries (never while waiting), so a small
    # pool serves many clients; one that stays exhausted answers 503 after pool_timeout.
    return create_engine(url, pool_pre_ping=True, pool_size=settings.db_pool_size,
                         max_overflow=settings.db_max_overflow,
                         pool_timeout=settings.db_pool_timeout)


@lru_cache
def _factory(url: str | None = None) -> sessionmaker[Session]:
    return sessionmaker(get_engine(url), expire_on_commit=False)


def new_session() -> Session:
    return _factory()()


@contextmanager
def session_scope() -> Iterator[Session]:
    """A session that commits on success and rolls back on error."""
    session = new_session()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()
