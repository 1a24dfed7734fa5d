"""The small interface through which the judge uses a sandbox: run a payload, get raw output.

The judge never sees Docker; tests swap in a fake that implements ``Sandbox``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol


@dataclass(frozen=True)
class Limits:
    """Resource limits for one submission, enforced from outside the learner's process."""

    time_per_test: float = 2.0
    time_per_submission: float = 60.0
    memory_mb: int = 256
    stdout_chars: int = 8_192
    output_bytes: int = 8 * 1024 * 1024
    pids: int = 64
    cpus: float = 1.0
    tmpfs_mb: int = 16
    file_size_bytes: int = 1024 * 1024
    open_files: int = 64


@dataclass(frozen=True)
class TestInput:
    """One call to make: its id and tagged arguments (see ``sandbox.codec``). No expected value."""
    __test__ = False  # not a pytest test class

    id: str
    args: list[Any]
    kwargs: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Payload:
    code: str
    function: str
    tests: list[TestInput]
    limits: Limits


class Stop(StrEnum):
    """Why the host stopped a container before the harness finished."""

    WALL_CLOCK = "wall_clock"
    STALLED = "stalled"
    OUTPUT_CAP = "output_cap"


@dataclass
class RawRun:
    """What came out of the sandbox, unparsed: the judge parses and trusts none of it blindly."""

    lines: list[bytes]
    stopped: Stop | None = None
    oom_killed: bool = False
    exit_code: int | None = None
    seconds: float = 0.0
    stderr_tail: str = ""


class SandboxUnavailable(RuntimeError):
    """The sandbox cannot run at all (no engine, no image): never the learner's fault."""


class Sandbox(Protocol):
    def run(self, payload: Payload) -> RawRun: ...
