"""Engines and sessions, created once per process from the settings."""

from __future__ import annotations

import re
import select
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import ExecutionContext
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import Session, sessionmaker

from judge.errors import InvalidInput
from service.settings import get_settings

_BIND_SUFFIX = re.compile(r"_m?\d+$")  # SQLAlchemy numbers the binds of one column: slug_1, label_m1


def _named(parameters: Any, names: list[str]) -> Iterator[tuple[str, object]]:
    """Each bound value with the name of its bind: a mapping's keys, or for positional binds the
    compiled statement's names, which a batch of rows (executemany, or the flat list of one
    multi-row INSERT) repeats row after row."""
    if isinstance(parameters, Mapping):
        yield from parameters.items()
        return
    for index, value in enumerate(parameters if isinstance(parameters, (list, tuple)) else [parameters]):
        if isinstance(value, (Mapping, list, tuple)):
            yield from _named(value, names)
        else:
            yield (names[index % len(names)] if names else "a value"), value


def refuse_nul(_connection: Any, _cursor: Any, _statement: str, parameters: Any,
               context: ExecutionContext | None, _executemany: bool) -> None:
    """No text with a NUL character reaches the database, from any caller: PostgreSQL refuses it
    (psycopg's DataError, which would read as a failed database), SQLite would keep it, so the
    two answer alike. Raised as the caller's bad input, named after the column's bind."""
    names = list(getattr(getattr(context, "compiled", None), "positiontup", None) or [])
    for name, value in _named(parameters, names):
        if isinstance(value, str) and "\x00" in value:
            raise InvalidInput(f"{_BIND_SUFFIX.sub('', name)}: must not contain a NUL character (U+0000)")


def still_open(dbapi_connection: Any, _record: Any = None, _proxy: Any = None) -> None:
    """At each check-out from the pool: DisconnectionError (the pool then connects afresh) for a
    connection the server has closed while it sat idle (a restart, an administrator's
    termination, an idle timeout). The server's goodbye, its error message or the socket's end,
    makes an idle connection's socket readable, which a poll sees without a round trip; the
    pool's own pre-ping, a query, cost one at every check-out (0.5 to 1 ms at a learner's pace,
    five times on a verdict's path). A connection has nothing to read while idle otherwise: the
    service never LISTENs on a pooled one."""
    if dbapi_connection.closed or dbapi_connection.broken:
        raise DisconnectionError("the connection was closed")
    poll = select.poll()
    poll.register(dbapi_connection.fileno(), select.POLLIN | select.POLLERR | select.POLLHUP)
    if poll.poll(0):
        raise DisconnectionError("the database closed the connection while it was idle")


def get_engine(url: str | None = None) -> Engine:
    """The process's engine for url (default: the settings' database). Resolved before the
    cache, so that ``get_engine()`` and ``get_engine(None)`` are one engine: a pool process
    disposing of it after the fork must drop the very pool its sessions use."""
    return _engine(url or get_settings().resolved_database_url())


@lru_cache
def _engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(connection, _record):  # type: ignore[no-untyped-def]
            # WAL lets the API read while a worker writes; foreign keys are off by default.
            # synchronous=NORMAL: in WAL mode a commit then survives the process's death and
            # skips an fsync (most of a commit's time); only losing power can drop the last.
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        event.listen(engine, "before_cursor_execute", refuse_nul)
        return engine
    settings = get_settings()
    # Requests hold a connection only for their own queries (never while waiting), so a small
    # pool serves many clients; one that stays exhausted answers 503 after pool_timeout.
    engine = create_engine(url, pool_size=settings.db_pool_size,
                           max_overflow=settings.db_max_overflow,
                           pool_timeout=settings.db_pool_timeout)
    event.listen(engine, "checkout", still_open)
    event.listen(engine, "before_cursor_execute", refuse_nul)
    return engine


@lru_cache
def _factory(url: str | None = None) -> sessionmaker[Session]:
    return sessionmaker(get_engine(url), expire_on_commit=False)


@lru_cache
def _reading_factory(url: str | None = None) -> sessionmaker[Session]:
    return sessionmaker(get_engine(url).execution_options(isolation_level="AUTOCOMMIT"),
                        expire_on_commit=False)


def forget_engines() -> None:
    """Drop the cached engines and session factories (for tests that switch databases)."""
    _engine.cache_clear()
    _factory.cache_clear()
    _reading_factory.cache_clear()


def new_session() -> Session:
    return _factory()()


def read_session() -> Session:
    """A session for a short read (and at most a write that stands alone), whose statements
    each commit on their own: no BEGIN before the first, no COMMIT or ROLLBACK after the last,
    two round trips fewer (1 to 2 ms of a request at a learner's pace). It gives up nothing a
    read had: under PostgreSQL's READ COMMITTED each statement of a transaction saw a snapshot
    of its own anyway. It shares the engine's pool."""
    return _reading_factory()()


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
