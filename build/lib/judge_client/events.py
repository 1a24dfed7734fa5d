"""The judge's server-sent event stream, read as it arrives and within caps: one line, and one
event's data, may be at most ``EVENT_CAP`` bytes, so a stream that never sends a newline is
refused at the cap instead of being held in memory whole."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from judge_client.answers import TooLarge

Json = dict[str, Any]

# A line ends at CRLF, LF or CR (the event stream format allows all three).
_LINE_END = re.compile(rb"\r\n?|\n")


class BadEvent(ValueError):
    """A status or done event whose data is not a JSON object."""


def lines(chunks: Iterable[bytes], cap: int) -> Iterator[str]:
    """The stream's lines as they complete, without their ends; ``TooLarge`` once one line
    passes ``cap`` bytes. An unfinished last line is dropped, as an unfinished event is."""
    pending = bytearray()
    for chunk in chunks:
        # What is pending holds no line end, but for a CR at its very end, whose LF may come next.
        scan_from = max(0, len(pending) - 1)
        pending += chunk
        start = 0
        while (end := _LINE_END.search(pending, scan_from)) is not None:
            if end.group() == b"\r" and end.end() == len(pending):
                break
            if end.start() - start > cap:
                raise TooLarge(cap)
            yield pending[start:end.start()].decode("utf-8", errors="replace")
            start = scan_from = end.end()
        del pending[:start]
        if len(pending) > cap:
            raise TooLarge(cap)


def events(lines: Iterable[str], cap: int) -> Iterator[Json | None]:
    """The ``status`` and ``done`` events as they arrive, and None for each comment (a
    keep-alive), so that the reader can look at the clock."""
    kind, data, size = "message", list[str](), 0
    for line in lines:
        if line == "":
            if data and kind in ("status", "done"):  # done: the whole submission
                try:
                    event = json.loads("\n".join(data))
                except (ValueError, RecursionError) as exc:
                    raise BadEvent("an event that is not JSON") from exc
                if not isinstance(event, dict):
                    raise BadEvent("an event that is not a JSON object")
                yield event
            kind, data, size = "message", [], 0
        elif line.startswith(":"):
            yield None  # a keep-alive, or the server's note that the stream is over
        else:
            field, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if field == "event":
                kind = value
            elif field == "data":
                size += len(value) + 1
                if size > cap:
                    raise TooLarge(cap)
                data.append(value)
