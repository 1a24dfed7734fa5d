"""A TEST DOUBLE of ``sandbox.interface.Sandbox`` for the unit layer. Never use it outside tests/.

``ExecSandbox`` runs the submitted code with plain ``exec`` in the test process itself: no
container, no separate process, no uid, no memory wall, no isolation of any kind. It exists only
so that tests, whose own code is the only code it ever runs, can judge submissions without Docker.
The production judge must never run learner code like this (``sandbox.docker_runner`` is the
only real sandbox). Like the real host, it never trusts anything the code hands back: every value
leaves as a JSON claim and is accepted only through the host's strict ``parse_claim``.

What it does keep from the real path is the *shape* of what comes back. Each step (loading the
module, then each test) is done the way ``sandbox.learner`` does it (a fresh module per step,
arguments decoded from their tagged trees, the value and the arguments after the call encoded with
``sandbox.codec``, exceptions as ``protocol.error_claim``), the claim is serialised to JSON, and
the host's own ``sandbox.conversation.decide`` turns it into the ``CallResult`` grading sees,
exactly as for a record that came out of a container. So a returned value, ``args_after`` and
``kwargs_after``, an ``ErrorInfo`` with its line, a time-out, an output flood or a broken claim
arrive in the same types and with the same words as from ``DockerSandbox``.

Limits: time is enforced cooperatively, with a ``sys.settrace`` clock that raises inside the
learner's frames once the per-test limit has passed (enough for ``while True: pass``, not for a
C call that never returns); output is counted after the call; memory is not limited at all.
"""

from __future__ import annotations

import contextlib
import io
import json
import signal
import sys
import time
import types
from dataclasses import dataclass, field
from typing import Any

from sandbox.conversation import decide
from sandbox.inside import codec
from sandbox.inside.learner import (
    SOLUTION_FILE,
    _line_of,  # the same line the real learner side reports
)
from sandbox.inside.protocol import CallResult, Kind, Outcome, ProtocolError, Step, Stop, error_claim
from sandbox.interface import Payload, SandboxRun, SandboxUnavailable, TestInput

_HERE = __file__


class _TimeUp(BaseException):
    """Raised into the learner's frames by the clock; never caught by anything of ours but the step."""


class _Clock:
    """A cooperative per-step time limit: a trace function that raises once the deadline passed.

    Only frames that are not this module's are interrupted, so that the double's own clean-up
    (restoring the previous trace function) always runs.
    """

    def __init__(self, seconds: float) -> None:
        self.deadline = time.monotonic() + seconds
        self.expired = False
        self.previous: Any = None

    def _trace(self, frame: types.FrameType, event: str, arg: object) -> Any:
        if frame.f_code.co_filename == _HERE:
            return None
        if time.monotonic() > self.deadline:
            self.expired = True
            raise _TimeUp
        return self._trace

    def __enter__(self) -> _Clock:
        self.previous = sys.gettrace()
        sys.settrace(self._trace)
        return self

    def __exit__(self, *_: object) -> None:
        sys.settrace(self.previous)


@contextlib.contextmanager
def _solution_module() -> Any:
    """A fresh module named like the sandbox's, registered for the step only (dataclasses and
    pickling look their module up in sys.modules)."""
    module = types.ModuleType("solution")
    module.__file__ = SOLUTION_FILE
    saved = sys.modules.get("solution")
    sys.modules["solution"] = module
    try:
        yield module
    finally:
        if saved is None:
            sys.modules.pop("solution", None)
        else:
            sys.modules["solution"] = saved


def _claim(payload: Payload, kind: Kind, frame_text: str | None) -> dict[str, Any]:
    """The learner side of one step, as ``sandbox.learner._claim`` computes it."""
    with _solution_module() as module:
        try:
            exec(compile(payload.code, SOLUTION_FILE, "exec"), module.__dict__)
            if not callable(getattr(module, payload.function, None)):
                raise NameError(f"{payload.function} is not a callable function")
        except _TimeUp:
            raise
        except MemoryError:
            return {"outcome": Outcome.MEMORY.value}
        except BaseException as exc:
            return error_claim(exc, _line_of(exc))
        if kind is Kind.IMPORT:
            return {"outcome": Outcome.RETURNED.value}
        assert frame_text is not None
        test = json.loads(frame_text)  # the arguments as the container receives them
        args = [codec.decode(a) for a in test["args"]]
        kwargs = {k: codec.decode(v) for k, v in test["kwargs"].items()}
        function = getattr(module, payload.function)
        try:
            value = function(*args, **kwargs)
        except _TimeUp:
            raise
        except MemoryError:
            return {"outcome": Outcome.MEMORY.value}
        except BaseException as exc:
            return error_claim(exc, _line_of(exc))
        return {"outcome": Outcome.RETURNED.value, "value": codec.encode(value),
                "args_after": [codec.encode(a) for a in args],
                "kwargs_after": {k: codec.encode(v) for k, v in kwargs.items()}}


@dataclass
class ExecSandbox:
    """Runs payloads with ``exec`` in this process; records each one. See the module docstring.

    ``available = False`` makes it behave like a sandbox whose engine is down.
    """

    available: bool = True
    payloads: list[Payload] = field(default_factory=list)

    def check(self) -> None:
        if not self.available:
            raise SandboxUnavailable("the exec test double is switched off")

    def run(self, payload: Payload) -> SandboxRun:
        self.check()
        self.payloads.append(payload)
        started = time.monotonic()
        loaded, stop = self._step(payload, Kind.IMPORT, None, None)
        run = SandboxRun(loaded, [], container="exec-test-double")
        if loaded.outcome is Outcome.RETURNED:
            for seq, test in enumerate(payload.tests):
                result, stop = self._step(payload, Kind.TEST, seq, test)
                run.results.append(result)
                if stop:  # as the host does: the first time-out or broken record ends the run
                    break
        run.seconds = round(time.monotonic() - started, 4)
        return run

    def _step(self, payload: Payload, kind: Kind, seq: int | None, test: TestInput | None
              ) -> tuple[CallResult, bool]:
        frame_text = None
        if test is not None:
            frame_text = json.dumps({"args": test.args, "kwargs": test.kwargs}, allow_nan=False)
        printed = io.StringIO()
        stop: Stop | None = None
        claim: bytes | None = None
        sent = time.monotonic()
        try:
            with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed), \
                    _Clock(payload.limits.time_per_test):
                claimed = _claim(payload, kind, frame_text)
            try:
                claim = json.dumps(claimed).encode()
            except BaseException as exc:  # as the learner side: a claim that cannot be written
                claim = json.dumps(error_claim(exc, None)).encode()
        except _TimeUp:
            stop = Stop.TIMEOUT
        seconds = round(time.monotonic() - sent, 4)
        stdout = printed.getvalue()
        if stop is None and len(stdout.encode("utf-8", "surrogatepass")) > payload.limits.stdout_bytes:
            stop, claim = Stop.OUTPUT_LIMIT, None
        stdout = stdout[:payload.limits.stdout_bytes]
        killed = signal.SIGKILL if stop is not None else None
        step = Step(kind, seq, stop, None if killed else 0, killed, stdout, claim)
        try:
            result = decide(step, seconds, payload, test)
        except ProtocolError as exc:
            return CallResult(Outcome.CRASHED, seconds=seconds,
                              detail=f"the result could not be accepted: {exc}"), True
        return result, result.outcome is Outcome.TIMEOUT
