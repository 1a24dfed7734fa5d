"""Log lines as JSON objects, one a line, when ``JUDGE_LOG_FORMAT=json``: for a log collector
(Loki, Elasticsearch, CloudWatch) that reads fields instead of parsing text.

Each line has ``time`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger``, ``message`` and
``process``; ``request_id`` while the API answers a request (the id its answer carries in
X-Request-ID), ``task_id`` and ``task`` while a worker runs a task, the access log's ``client``,
``method``, ``path`` and ``status``, and ``exception`` with the traceback. Learners' text can reach
a log (a problem slug, a file name): JSON escapes every control character, so a line never
carries a terminal escape sequence to whoever reads the log.

``uvicorn_log_config`` is the API server's logging configuration (`judge api`, and the API in
`judge serve`); the workers' loggers, which Celery sets up, are reformatted from
``service.celery_app``. `judge serve`'s own lines to its terminal (its URL, restarts) stay text.
"""

from __future__ import annotations

import json
import logging
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

REQUEST_ID: ContextVar[str] = ContextVar("judge_request_id", default="")
FORMATS = ("text", "json")
ACCESS_LOGGER = "uvicorn.access"


class JsonLines(logging.Formatter):
    """One JSON object per record, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "process": record.process,
        }
        request_id = REQUEST_ID.get()
        if request_id:
            entry["request_id"] = request_id
        task = _current_task()
        if task is not None:
            entry["task_id"], entry["task"] = task
        if record.name == ACCESS_LOGGER and isinstance(record.args, tuple) and len(record.args) == 5:
            client, method, path, _, status = record.args  # uvicorn's access line, as fields
            entry.update(client=client, method=method, path=path, status=status)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str)


def _current_task() -> tuple[str, str] | None:
    """The id and name of the Celery task this thread runs, if any."""
    try:
        from celery import current_task
    except ImportError:  # pragma: no cover - Celery is a dependency of the service
        return None
    task = current_task._get_current_object() if current_task else None
    request = getattr(task, "request", None)
    task_id = getattr(request, "id", None)
    return (str(task_id), str(task.name)) if task is not None and task_id else None


def json_wanted() -> bool:
    from service.settings import get_settings

    return get_settings().log_format == "json"


def reformat(logger: logging.Logger) -> None:
    """Every handler of ``logger`` writes JSON lines (for loggers a library set up itself)."""
    if json_wanted():
        for handler in logger.handlers:
            handler.setFormatter(JsonLines())


def uvicorn_log_config(level: str) -> dict[str, Any] | None:
    """uvicorn's logging configuration for JSON lines; None keeps uvicorn's own text format."""
    if not json_wanted():
        return None
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonLines}},
        "handlers": {"default": handler},
        "root": {"handlers": ["default"], "level": level},
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": level, "propagate": False},
            "uvicorn.error": {"level": level},
            ACCESS_LOGGER: {"handlers": ["default"], "level": level, "propagate": False},
        },
    }
