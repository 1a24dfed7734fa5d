"""Backups: every row of the judge's database in one file, and back into an empty database.

``judge backup FILE`` writes a gzip'd JSON-lines file: a header (the format, the schema's
migration revision, when, the tables), then each table's rows in primary-key order. It reads
every table in one transaction, a snapshot (PostgreSQL: REPEATABLE READ, read only; SQLite: one
read transaction), so the file is consistent while the judge goes on working. ``judge restore
FILE`` migrates the target database to the newest revision, refuses it unless it is empty and
the file's revision is that one, loads every row in one transaction and moves PostgreSQL's id
sequences past the highest ids. The file names no database, so a judge moves from its embedded
SQLite to PostgreSQL (or back) with the two commands.

What is not in it: the broker (Redis holds only queue messages and hints, which the judge
rebuilds from the database: a restored judge re-queues its queued submissions at start-up),
and the problems folder and sandbox image, which are files of the deployment, not data.
"""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from alembic.migration import MigrationContext
from sqlalchemy import Boolean, Connection, DateTime, Engine, LargeBinary, Table, func, select, text, update
from sqlalchemy.schema import ForeignKeyConstraint, sort_tables_and_constraints

from judge.errors import InvalidInput
from service.db.models import Base, utcnow

FORMAT = "metrics-judge-backup"
VERSION = 1
BATCH = 500  # rows read or inserted at a time


@dataclass(frozen=True)
class Summary:
    revision: str
    rows: dict[str, int]


def _tables() -> tuple[list[Table], list[ForeignKeyConstraint]]:
    """The tables in an order that inserts parents first, and the foreign keys that form cycles
    (a problem's published version is a row of a table that points back at problems): their
    columns are inserted empty and set once every row is in."""
    tables: list[Table] = []
    cyclic: list[ForeignKeyConstraint] = []
    ordered = sort_tables_and_constraints(Base.metadata.tables.values())  # type: ignore[no-untyped-call]
    for table, constraints in ordered:
        if table is not None:
            tables.append(table)
        else:
            cyclic.extend(c for c in constraints if isinstance(c, ForeignKeyConstraint))
    return tables, cyclic


def _revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def _dump_value(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, bytes | memoryview):
        return base64.b64encode(bytes(value)).decode("ascii")
    return value


def _load_value(table: Table, column: str, value: Any) -> Any:
    if value is None:
        return None
    kind = table.c[column].type
    if isinstance(kind, DateTime):
        return datetime.fromisoformat(value)
    if isinstance(kind, LargeBinary):
        return base64.b64decode(value)
    if isinstance(kind, Boolean):
        return bool(value)
    return value


def _line(out: IO[bytes] | gzip.GzipFile, data: object) -> None:
    out.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n")


def backup(engine: Engine, path: Path) -> Summary:
    """Write every row to ``path`` (replaced whole only once complete)."""
    tables, _ = _tables()
    partial = path.with_name(path.name + ".partial")
    counts: dict[str, int] = {}
    with engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY"))
        revision = _revision(connection)
        if revision is None:
            raise InvalidInput("the database has no schema yet: there is nothing to back up")
        with gzip.open(partial, "wb") as out:
            _line(out, {"format": FORMAT, "version": VERSION, "revision": revision,
                        "created_at": utcnow().isoformat() + "Z", "tables": [t.name for t in tables]})
            for table in tables:
                columns = [c.name for c in table.columns]
                _line(out, {"table": table.name, "columns": columns})
                count = 0
                result = connection.execution_options(stream_results=True, yield_per=BATCH).execute(
                    select(table).order_by(*table.primary_key.columns))
                for row in result:
                    _line(out, [_dump_value(value) for value in row])
                    count += 1
                counts[table.name] = count
                _line(out, {"end": table.name, "rows": count})
    partial.replace(path)
    return Summary(revision, counts)


def _records(path: Path) -> Iterator[Any]:
    try:
        with gzip.open(path, "rb") as source:
            for number, line in enumerate(source, start=1):
                try:
                    yield json.loads(line)
                except ValueError as exc:
                    raise InvalidInput(f"{path}: line {number} is not JSON ({exc}): the file is "
                                       "damaged") from None
    except (OSError, EOFError) as exc:  # not gzip, cut short
        raise InvalidInput(f"{path}: not a whole backup file ({exc})") from None


def _header(records: Iterator[Any], path: Path) -> dict[str, Any]:
    header = next(records, None)
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise InvalidInput(f"{path}: not a backup made by `judge backup`")
    if header.get("version") != VERSION:
        raise InvalidInput(f"{path}: backup format version {header.get('version')!r}; this judge "
                           f"reads {VERSION}")
    return header


def _empty(connection: Connection, tables: list[Table]) -> None:
    for table in tables:
        if connection.execute(select(func.count()).select_from(table)).scalar():
            raise InvalidInput(f"the database is not empty (table {table.name} has rows): restore into a "
                               "new, empty database, so that nothing is mixed or lost")


def restore(engine: Engine, path: Path) -> Summary:
    """Load ``path`` into the (migrated, empty) database behind ``engine``: all or nothing."""
    tables, cyclic = _tables()
    records = _records(path)
    header = _header(records, path)
    with engine.begin() as connection:
        revision = _revision(connection)
        if header.get("revision") != revision:
            raise InvalidInput(f"{path}: made at schema revision {header.get('revision')!r}, and this "
                               f"database is at {revision!r}: restore with the judge version that made it, "
                               "then upgrade")
        _empty(connection, tables)
        loader = _Loader(connection, path, {t.name: t for t in tables},
                         {(c.table.name, e.parent.name) for c in cyclic for e in c.elements})
        for record in records:
            loader.take(record)
        loader.finish(header.get("tables", []))
        if connection.dialect.name == "postgresql":
            _move_sequences(connection, tables)
    return Summary(str(header["revision"]), loader.counts)


class _Loader:
    """Rows into their tables, a batch at a time, checking the file's shape as they come."""

    def __init__(self, connection: Connection, path: Path, tables: dict[str, Table],
                 later: set[tuple[str, str]]) -> None:
        self.connection, self.path, self.tables, self.later = connection, path, tables, later
        self.counts: dict[str, int] = {}
        self.table: Table | None = None
        self.columns: list[str] = []
        self.batch: list[dict[str, Any]] = []
        self.deferred: list[tuple[Table, dict[str, Any]]] = []  # (table, {key..., column: value})

    def fail(self, why: str) -> InvalidInput:
        return InvalidInput(f"{self.path}: {why}: the file is damaged, or not this judge's")

    def take(self, record: Any) -> None:
        if isinstance(record, dict) and "table" in record:
            self.start(str(record["table"]), record.get("columns"))
        elif isinstance(record, dict) and "end" in record:
            current = self.table
            ended = (record["end"], record.get("rows"))
            if current is None or ended != (current.name, self.counts[current.name]):
                raise self.fail(f"table {record['end']!r} ends with other rows than it began")
            self.flush()
            self.table = None
        elif isinstance(record, list) and self.table is not None and len(record) == len(self.columns):
            self.row(self.table, record)
        else:
            where = self.table.name if self.table is not None else "(none)"
            raise self.fail(f"a line out of place in table {where}")

    def start(self, name: str, columns: Any) -> None:
        table = self.tables.get(name)
        if table is None or self.table is not None:
            raise self.fail(f"table {name!r} is not one of this schema's, or starts inside another")
        if not isinstance(columns, list) or set(columns) != {c.name for c in table.columns}:
            raise self.fail(f"table {name} has other columns than this schema's")
        self.table, self.columns, self.counts[name] = table, [str(c) for c in columns], 0

    def row(self, table: Table, values: list[Any]) -> None:
        row = {name: _load_value(table, name, value)
               for name, value in zip(self.columns, values, strict=True)}
        keys = {c.name: row[c.name] for c in table.primary_key.columns}
        for name in self.columns:
            if (table.name, name) in self.later and row[name] is not None:
                self.deferred.append((table, {**keys, name: row[name]}))
                row[name] = None
        self.batch.append(row)
        self.counts[table.name] += 1
        if len(self.batch) >= BATCH:
            self.flush()

    def flush(self) -> None:
        if self.batch and self.table is not None:
            self.connection.execute(self.table.insert(), self.batch)
        self.batch = []

    def finish(self, named: list[str]) -> None:
        if self.table is not None or set(self.counts) != set(named):
            raise self.fail("it ends before its last table does (cut short)")
        for table, values in self.deferred:  # the cyclic foreign keys, now that every row is in
            keys = [c.name for c in table.primary_key.columns]
            self.connection.execute(update(table).where(*(table.c[k] == values[k] for k in keys))
                                    .values({k: v for k, v in values.items() if k not in keys}))


def _move_sequences(connection: Connection, tables: list[Table]) -> None:
    """Past the highest restored id, so the next row made gets a new one."""
    for table in tables:
        keys = list(table.primary_key.columns)
        if len(keys) != 1 or not keys[0].autoincrement or keys[0].type.python_type is not int:
            continue
        connection.execute(text(
            "SELECT setval(pg_get_serial_sequence(:table, :column), "
            f"COALESCE((SELECT MAX({keys[0].name}) FROM {table.name}), 0) + 1, false)"),
            {"table": table.name, "column": keys[0].name})
