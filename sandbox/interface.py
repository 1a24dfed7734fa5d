"""The small interface through which the judge uses a sandbox: run a payload, get each call's
result as the host decided it.

The judge never sees Docker; tests swap in a fake that implements ``Sandbox``. This module is
the engine's one door into the sandbox package (``tests/test_layers.py`` holds it): what the engine
needs of the protocol and the value codec, it imports from here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol

from sandbox.inside.codec import Opaque, decode, encode
from sandbox.inside.protocol import AS_SENT, CallResult, Isolation, Outcome, frame

__all__ = [
    "AS_SENT",
    "DEFAULT_MEMORY_MB",
    "DEFAULT_TIME_PER_SUBMISSION",
    "DEFAULT_TIME_PER_TEST",
    "MAX_TIME_PER_SUBMISSION",
    "SANDBOX_MODES",
    "CallResult",
    "Isolation",
    "Limits",
    "Opaque",
    "Outcome",
    "Payload",
    "Sandbox",
    "SandboxRun",
    "SandboxUnavailable",
    "TestInput",
    "decode",
    "encode",
]


# A problem's limits where its problem.toml sets none (judge.problems builds its defaults from
# these), and the most wall clock it may declare for one submission (the warm pool sizes its
# containers' expiry for it): each number is written here only.
DEFAULT_TIME_PER_TEST = 2.0
DEFAULT_TIME_PER_SUBMISSION = 60.0
DEFAULT_MEMORY_MB = 256
MAX_TIME_PER_SUBMISSION = 600.0
# How a Docker sandbox runs submissions: each in a fresh jail of a long-lived slot container
# (sandbox.slots), or each in a fresh container.
SANDBOX_MODES = ("slot", "container")


@dataclass(frozen=True)
class Limits:
    """Resource limits for one submission, enforced from outside the learner's process."""

    time_per_test: float = DEFAULT_TIME_PER_TEST
    time_per_submission: float = DEFAULT_TIME_PER_SUBMISSION
    memory_mb: int = DEFAULT_MEMORY_MB
    stdout_bytes: int = 8_192  # what one call may print
    pids: int = 64
    cpus: float = 1.0
    # The container's CPU weight against the others (Docker's cpu_shares, 1024 its default): a
    # lower one only yields the CPU when others want it, and never changes what a run may use.
    cpu_weight: int = 1024
    tmpfs_mb: int = 16
    tmpfs_inodes: int = 4_096
    file_size_bytes: int = 1024 * 1024
    open_files: int = 64


@dataclass(frozen=True)
class TestInput:
    """One call to make: tagged arguments (see ``sandbox.inside.codec``). No expected value, no name."""
    __test__ = False  # not a pytest test class

    args: list[Any]
    kwargs: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def frame(self) -> bytes:
        """The frame that sends this call, made once: the engine keeps a problem's inputs
        between submissions, so no submission pays for encoding them again."""
        return frame({"args": self.args, "kwargs": self.kwargs})


@dataclass(frozen=True)
class Payload:
    code: str
    function: str
    tests: list[TestInput]
    limits: Limits
    # Called with each test's position and result as it arrives, while the next test runs: the
    # judge checks a value there, so that checking counts in the submission's wall clock. A
    # sandbox that does not call it leaves the checking to after the run.
    on_result: Callable[[int, CallResult], None] | None = field(default=None, compare=False)
    isolation: Isolation = Isolation.SHARED  # one learner process for all tests, or one per test
    # How many tests, from the first, a learner is shown (the rest are hidden); None: all. No
    # hidden test's arguments are sent before every shown test has answered, so none is in the
    # container while a test whose value a learner sees runs.
    shown: int | None = None


@dataclass
class SandboxRun:
    """What came back: loading the module, then one result per test that was sent, in order.

    Tests after a stop (a time-out, a broken protocol) have no result: never sent, or sent
    ahead and thrown away with the container or jail.
    """

    loaded: CallResult
    results: list[CallResult]
    seconds: float = 0.0
    container: str = ""  # the id of the container that ran it, for audits
    # The host sent the end of the tests: the supervisor then returns, and the container ends
    # by itself. False when the run stopped early (its last learner process may still run).
    finished: bool = False


class SandboxUnavailable(RuntimeError):
    """The sandbox could not run or finish the payload (no engine, no image, a container that
    vanished): never the learner's fault, so never a learner verdict."""


class Sandbox(Protocol):
    def run(self, payload: Payload) -> SandboxRun:
        """Run the payload; SandboxUnavailable when the sandbox could not run or finish it."""
        ...

    def check(self) -> None:
        """SandboxUnavailable when the sandbox cannot run anything right now (engine down)."""
        ...
