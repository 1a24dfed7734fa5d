"""The error hierarchy's root and the engine's own refusals: every refusal the judge or the
service makes is a ``DomainError``.

Each kind has a stable ``code`` (clients and tests read it) and the HTTP ``status`` it is
answered with, declared side by side, so a code cannot exist without a status: a class that
sets ``code`` without ``status`` fails when it is defined. The engine refuses only input (a
problem folder, a learner's arguments); the service's refusals (who may do what, quotas, a
dependency down) are ``service.errors``'s, which also holds ``STATUS``, the one table the API
answers from. The command line prints the message. Errors of the layers below (the sandbox's
protocol and codec) never reach a caller: the engine turns them into verdicts.

The engine's part of the tree (class, code, status); ``tests/test_error_tree.py`` holds it to the
classes::

    DomainError                 bad_request           400
      InvalidInput              invalid_input         422
        ProblemError            invalid_input         422
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar


class DomainError(Exception):
    """Something the caller asked for cannot be done; ``code`` says which kind of refusal.

    ``param`` names the request field at fault when there is one; ``retry_after`` (seconds)
    says when trying again may succeed."""

    code: ClassVar[str] = "bad_request"
    status: ClassVar[int] = 400

    def __init__(self, message: str, retry_after: int | None = None,
                 param: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after
        self.param = param

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        # A new code that silently inherited its parent's status is the bug this forbids.
        if "code" in cls.__dict__ and "status" not in cls.__dict__:
            raise TypeError(f"{cls.__name__} sets code {cls.code!r} without its HTTP status")


class InvalidInput(DomainError):
    code = "invalid_input"
    status = 422


class ProblemError(InvalidInput):
    """A problem folder is invalid; the message names the file and, where it can, the key."""


def tree(root: type[DomainError] = DomainError) -> Iterator[type[DomainError]]:
    """``root`` and every class below it, parents first."""
    yield root
    for child in root.__subclasses__():
        yield from tree(child)


def status_table() -> dict[str, int]:
    """Each code of the tree with its HTTP status; a TypeError when two classes give one code
    two statuses, since the answer would then depend on which class was raised."""
    table: dict[str, int] = {}
    for cls in tree():
        if table.setdefault(cls.code, cls.status) != cls.status:
            raise TypeError(f"code {cls.code!r} has statuses {table[cls.code]} and {cls.status}")
    return table
