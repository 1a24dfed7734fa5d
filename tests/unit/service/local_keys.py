"""A TEST DOUBLE of the broker's Redis keys that ``service.broker_memory`` uses, for the
unit layer (no network): a dict. ``flush()`` empties it like a Redis restarted without
persistence."""

from __future__ import annotations


class LocalKeys:
    def __init__(self) -> None:
        self.values: dict[str, str] = {}

    def set(self, name: str, value: str, *, nx: bool = False) -> bool | None:
        if nx and name in self.values:
            return None  # as redis-py answers a SET NX that found the key
        self.values[name] = value
        return True

    def delete(self, *names: str) -> int:
        return sum(self.values.pop(name, None) is not None for name in names)

    def flush(self) -> None:
        self.values.clear()
