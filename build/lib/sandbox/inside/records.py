"""Plain value classes for the modules baked into the sandbox image. Standard library only.

They stand in for ``dataclasses``, whose import (``inspect``, ``ast``, ``dis`` and ``tokenize``
with it) cost every container about 35 ms of CPU at its start, once per submission. A subclass
lists its fields in ``__slots__`` and writes its own ``__init__``; equality and repr go by the
fields, as a dataclass's do. A ``Frozen`` one refuses assignment after ``__init__`` (which sets
its fields with ``object.__setattr__``) and hashes by its fields.
"""

from __future__ import annotations


class Record:
    __slots__: tuple[str, ...] = ()

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable: unhashable, as a dataclass

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"


class Frozen(Record):
    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot assign to {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot delete {name}")

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(self._fields())


def set_fields(record: Frozen, **values: object) -> None:
    """In a Frozen record's ``__init__``: set its fields."""
    for name, value in values.items():
        object.__setattr__(record, name, value)
