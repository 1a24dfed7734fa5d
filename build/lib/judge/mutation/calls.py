"""Calling untrusted code inside the child process: under a timer, with its result as the judge sees it.

Only ``child.main`` installs the ``SIGALRM`` handler these rely on; the parent never calls them. Values
are round-tripped through the sandbox codec, so a mutant is compared exactly as a submission would be.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Any

from judge.checkers import CheckerSpec, check_exact
from sandbox.interface import decode, encode


class CallTimeout(BaseException):
    """Raised by the interval timer; a BaseException so that ``except Exception`` cannot hide it."""


@dataclass(frozen=True)
class Call:
    """What one call did; values are codec round-tripped, as the judge sees them."""

    value: Any = None
    error: str | None = None  # the exception class name
    message: str = ""
    timed_out: bool = False
    args_after: tuple[list[Any], dict[str, Any]] | None = None


def on_alarm(signum: int, frame: FrameType | None) -> None:
    """The ``SIGALRM`` handler: turn the timer's expiry into ``CallTimeout`` in the running code."""
    raise CallTimeout


def _roundtrip(value: Any) -> Any:
    return decode(encode(value))


def call(function: Callable[..., Any], args: list[Any], kwargs: dict[str, Any], seconds: float) -> Call:
    """Call ``function`` for at most ``seconds``; whatever it raises is its result, not ours."""
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            value = function(*args, **kwargs)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except CallTimeout:
        return Call(timed_out=True)
    except BaseException as exc:  # the mutant's bug, whatever it is
        return Call(error=type(exc).__name__, message=str(exc)[:200])
    after = ([_roundtrip(a) for a in args], {k: _roundtrip(v) for k, v in kwargs.items()})
    return Call(value=_roundtrip(value), args_after=after)


def load_function(source: str, name: str, seconds: float) -> Callable[..., Any]:
    """Run the module's code (under the timer too: it may loop) and return the named function."""
    namespace: dict[str, Any] = {"__name__": "solution"}
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        exec(compile(source, "solution.py", "exec"), namespace)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    function = namespace[name]
    if not callable(function):
        raise TypeError(f"{name} is not callable")
    return function  # type: ignore[no-any-return]


def checker(job: dict[str, Any]) -> CheckerSpec:
    """The job's checker, from the ``CheckerSpec.as_dict()`` form the parent wrote."""
    return CheckerSpec.from_dict(job["checker"], "job checker")


def decode_arguments(case: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    """A job case's positional and keyword arguments, decoded from the codec."""
    return [decode(a) for a in case["args"]], {k: decode(v) for k, v in case["kwargs"].items()}


def short(value: Any) -> str:
    """``repr`` cut to 80 characters, so one report line stays one line."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def changed_arguments(done: Call, args: list[Any], kwargs: dict[str, Any]) -> bool:
    """Whether the call left any argument different from ``args``/``kwargs`` (its inputs before),
    compared exactly whatever the problem's checker: a float argument nudged within tolerance changed."""
    if done.args_after is None:
        return False
    after_args, after_kwargs = done.args_after
    return any(check_exact(b, a) for b, a in zip(args, after_args, strict=False)) or any(
        check_exact(v, after_kwargs.get(k)) for k, v in kwargs.items()
    )
