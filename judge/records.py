"""Strict parsing of what the sandbox sent back. Nothing in it is trusted.

Each stdout line must be one JSON record of a known kind; each test needs exactly one record, and a
missing or duplicated one is a failure of that test, never a pass. The exit status is ignored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sandbox.codec import CodecError, decode
from sandbox.interface import RawRun, Stop

LINE_CAP = 8 * 1024 * 1024


class Outcome(StrEnum):
    RETURNED = "returned"
    RAISED = "raised"
    TIMEOUT = "timeout"
    MEMORY = "memory"
    OUTPUT_LIMIT = "output_limit"
    CRASHED = "crashed"  # the process ended or broke without a result


@dataclass(frozen=True)
class ErrorInfo:
    type: str
    message: str
    line: int | None

    def describe(self) -> str:
        where = f" at line {self.line}" if self.line else ""
        return f"{self.type}{where}: {self.message}" if self.message else f"{self.type}{where}"


@dataclass
class CallRecord:
    outcome: Outcome
    value: Any = None
    args_after: list[Any] = field(default_factory=list)
    kwargs_after: dict[str, Any] = field(default_factory=dict)
    stdout: str = ""
    error: ErrorInfo | None = None
    detail: str = ""
    seconds: float | None = None


@dataclass
class ParsedRun:
    import_error: ErrorInfo | None
    calls: dict[str, CallRecord]


class MalformedRecord(ValueError):
    pass


def _error(raw: Any) -> ErrorInfo:
    if not isinstance(raw, dict):
        raise MalformedRecord("error must be an object")
    line = raw.get("line")
    if not (isinstance(raw.get("type"), str) and isinstance(raw.get("message"), str)
            and (line is None or type(line) is int)):
        raise MalformedRecord("error needs string type and message and an int or null line")
    return ErrorInfo(raw["type"][:100], raw["message"][:500], line)


def _call(raw: dict[str, Any]) -> CallRecord:
    try:
        outcome = Outcome(str(raw.get("outcome")))
    except ValueError as exc:
        raise MalformedRecord(f"unknown outcome {raw.get('outcome')!r}") from exc
    seconds = raw.get("seconds")
    if not isinstance(seconds, int | float) or isinstance(seconds, bool):
        seconds = None
    record = CallRecord(outcome, seconds=seconds)
    try:
        if outcome is Outcome.RETURNED:
            record.value = decode(raw["value"])
        if "args_after" in raw:
            if not isinstance(raw["args_after"], list) or not isinstance(raw["kwargs_after"], dict):
                raise MalformedRecord("args_after must be a list and kwargs_after an object")
            record.args_after = [decode(a) for a in raw["args_after"]]
            record.kwargs_after = {str(k): decode(v) for k, v in raw["kwargs_after"].items()}
    except (KeyError, CodecError) as exc:
        raise MalformedRecord(f"bad value: {exc}") from exc
    stdout = raw.get("stdout", "")
    record.stdout = stdout if isinstance(stdout, str) else ""
    if outcome is Outcome.RAISED:
        record.error = _error(raw.get("error"))
    detail = raw.get("detail", "")
    record.detail = detail[:300] if isinstance(detail, str) else ""
    return record


def _crash(detail: str) -> CallRecord:
    return CallRecord(Outcome.CRASHED, detail=detail)


def parse_run(run: RawRun, test_ids: list[str]) -> ParsedRun:
    """Map every test id to exactly one CallRecord, turning every anomaly into a failure."""
    wanted = set(test_ids)
    calls: dict[str, CallRecord] = {}
    duplicated: set[str] = set()
    import_error: ErrorInfo | None = None
    saw_import = False
    in_progress: str | None = None
    for line in run.lines:
        try:
            if len(line) > LINE_CAP:
                raise MalformedRecord("record too large")
            raw = json.loads(line)
            if not isinstance(raw, dict):
                raise MalformedRecord("a record must be an object")
            kind = raw.get("kind")
            if kind == "import" and not saw_import:
                saw_import = True
                if raw.get("ok") is not True:
                    import_error = _error(raw.get("error"))
            elif kind == "begin" and raw.get("id") in wanted:
                in_progress = raw["id"]
            elif kind == "test" and raw.get("id") in wanted:
                test_id = raw["id"]
                if test_id in calls:
                    duplicated.add(test_id)
                calls[test_id] = _call(raw)
                in_progress = None
            elif kind != "done":
                raise MalformedRecord(f"unexpected record kind {kind!r}")
        except (ValueError, MalformedRecord):
            # Junk on the result channel (a learner writing to the raw stream, say) is skipped;
            # the tests it was meant to cover then have no record and fail.
            continue
    for test_id in duplicated:
        calls[test_id] = _crash("the sandbox sent two results for this test")
    for test_id in test_ids:
        if test_id in calls:
            continue
        if test_id == in_progress and run.stopped in (Stop.WALL_CLOCK, Stop.STALLED):
            calls[test_id] = CallRecord(Outcome.TIMEOUT, detail="stopped by the host's clock")
        elif test_id == in_progress and run.stopped is Stop.OUTPUT_CAP:
            calls[test_id] = CallRecord(Outcome.OUTPUT_LIMIT, detail="the output cap was reached")
        elif test_id == in_progress and run.oom_killed:
            calls[test_id] = CallRecord(Outcome.MEMORY, detail="the container ran out of memory")
        else:
            calls[test_id] = _crash("no result: the sandbox stopped before this test finished")
    return ParsedRun(import_error, calls)
