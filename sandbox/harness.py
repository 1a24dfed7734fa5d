"""Runs a learner's function inside the sandbox container. Standard library only.

Protocol. stdin carries JSON messages, each after a line with its byte count: first
``{"code", "function", "time_limit", "memory_bytes", "stdout_cap"}``, then one test at a time,
``{"id", "args", "kwargs"}`` with arguments as tagged values (``sandbox.codec``), and ``null`` to
end. Expected outputs are never sent. stdout carries one JSON record per line: first
``{"kind": "import", ...}``, then per test a ``{"kind": "begin", "id"}`` and a
``{"kind": "test", ...}``, and finally ``{"kind": "done"}``. Records carry values, never verdicts;
the host decides everything and trusts none of this process's exit status.

The host sends a test's arguments only after the previous test's record, and public tests come
first: while a public test runs, no hidden test's input exists anywhere in this container.

The learner's module is imported once. Each test then runs in a forked child, so a test that hangs,
exhausts memory or ends its process is killed and reported alone while the others still run.
"""

from __future__ import annotations

import io
import json
import os
import resource
import select
import signal
import sys
import time
import traceback
import types
from typing import Any, BinaryIO

if __package__ in (None, ""):
    # Run as a script under ``python -I``, which keeps the script's folder off sys.path.
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sandbox import codec

SOLUTION_FILE = "solution.py"
RECORD_CAP = 4 * 1024 * 1024


class OutputLimitExceeded(BaseException):
    """Raised inside the learner's call when it prints more than the cap."""


class CappedText(io.TextIOBase):
    """A stdout replacement that keeps the first ``cap`` characters and then stops the call."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.parts: list[str] = []
        self.size = 0
        self.exceeded = False

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        room = self.cap - self.size
        self.parts.append(text[: max(room, 0)])
        self.size += len(text)
        if self.size > self.cap:
            self.exceeded = True
            raise OutputLimitExceeded
        return len(text)

    def text(self) -> str:
        return "".join(self.parts)


def emit(record: dict[str, Any]) -> None:
    sys.__stdout__.write(json.dumps(record) + "\n")  # type: ignore[union-attr]
    sys.__stdout__.flush()  # type: ignore[union-attr]


def error_info(exc: BaseException) -> dict[str, Any]:
    line = None
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        if frame.f_code.co_filename == SOLUTION_FILE:
            line = lineno
    if isinstance(exc, SyntaxError) and exc.filename == SOLUTION_FILE:
        line = exc.lineno
    try:
        message = str(exc)[:500]
    except BaseException:
        message = "<str() of the exception failed>"
    return {"type": type(exc).__name__, "message": message, "line": line}


def import_solution(code: str, cap: int) -> tuple[types.ModuleType | None, dict[str, Any]]:
    module = types.ModuleType("solution")
    module.__file__ = SOLUTION_FILE
    sys.modules["solution"] = module
    out = CappedText(cap)
    sys.stdout = sys.stderr = out
    record: dict[str, Any] = {"kind": "import", "ok": True}
    try:
        exec(compile(code, SOLUTION_FILE, "exec"), module.__dict__)
    except BaseException as exc:
        record = {"kind": "import", "ok": False, "error": error_info(exc)}
    finally:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    record["stdout"] = out.text()
    return (module if record["ok"] else None), record


def run_child(function: Any, test: dict[str, Any], payload: dict[str, Any], write_fd: int) -> None:
    """Body of the forked child: call the function once and write one result to the pipe."""
    memory = payload.get("memory_bytes")
    if memory:
        # A clean MemoryError is a better report than the cgroup's OOM kill.
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    out = CappedText(payload["stdout_cap"])
    sys.stdout = sys.stderr = out
    args = [codec.decode(a) for a in test["args"]]
    kwargs = {k: codec.decode(v) for k, v in test["kwargs"].items()}
    result: dict[str, Any] = {"kind": "test", "id": test["id"]}
    try:
        value = function(*args, **kwargs)
        result.update(outcome="returned", value=codec.encode(value))
    except OutputLimitExceeded:
        result["outcome"] = "output_limit"
    except MemoryError:
        result["outcome"] = "memory"
    except BaseException as exc:
        result.update(outcome="raised", error=error_info(exc))
    if out.exceeded:
        result = {"kind": "test", "id": test["id"], "outcome": "output_limit"}
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    try:
        result["args_after"] = [codec.encode(a) for a in args]
        result["kwargs_after"] = {k: codec.encode(v) for k, v in kwargs.items()}
        result["stdout"] = out.text()
        data = json.dumps(result).encode()
    except BaseException as exc:
        data = json.dumps({"kind": "test", "id": test["id"], "outcome": "raised",
                           "error": {"type": type(exc).__name__,
                                     "message": "the result could not be serialized",
                                     "line": None}}).encode()
    view = memoryview(data[:RECORD_CAP])
    while view:
        view = view[os.write(write_fd, view):]
    os._exit(0)


def run_test(function: Any, test: dict[str, Any], payload: dict[str, Any]) -> dict[str, Any]:
    read_fd, write_fd = os.pipe()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        try:
            run_child(function, test, payload, write_fd)
        finally:
            os._exit(70)
    os.close(write_fd)
    deadline = started + payload["time_limit"]
    chunks: list[bytes] = []
    size = 0
    killed_for_time = False
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            killed_for_time = True
            break
        ready, _, _ = select.select([read_fd], [], [], remaining)
        if not ready:
            continue
        chunk = os.read(read_fd, 65536)
        if not chunk:
            break
        size += len(chunk)
        if size > RECORD_CAP:
            break
        chunks.append(chunk)
    if killed_for_time or size > RECORD_CAP:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    os.close(read_fd)
    seconds = round(time.monotonic() - started, 4)
    base = {"kind": "test", "id": test["id"], "seconds": seconds}
    if killed_for_time:
        return {**base, "outcome": "timeout"}
    if size > RECORD_CAP:
        return {**base, "outcome": "output_limit"}
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGKILL:  # nobody here sent it: the kernel's OOM killer did
            return {**base, "outcome": "memory"}
        if sig == signal.SIGXFSZ:
            return {**base, "outcome": "output_limit"}
        return {**base, "outcome": "crashed", "detail": f"killed by signal {sig}"}
    try:
        record = json.loads(b"".join(chunks))
    except ValueError:
        code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1
        return {**base, "outcome": "crashed", "detail": f"the process exited with status {code}"
                " before returning"}
    if not isinstance(record, dict):
        return {**base, "outcome": "crashed", "detail": "the process sent a malformed result"}
    record.update(base)
    return record


def read_message(stream: BinaryIO) -> Any:
    # Length-prefixed, so the host never has to half-close the attach socket.
    size = int(stream.readline())
    return json.loads(stream.read(size))


def main() -> None:
    stdin = sys.stdin.buffer
    sys.stdin = io.StringIO()
    payload = read_message(stdin)
    module, record = import_solution(payload["code"], payload["stdout_cap"])
    emit(record)
    function = getattr(module, payload["function"], None) if module else None
    while module is not None:
        test = read_message(stdin)  # the host sends the next test only after this one's result
        if test is None:
            break
        emit({"kind": "begin", "id": test["id"]})
        if not callable(function):
            emit({"kind": "test", "id": test["id"], "outcome": "raised", "seconds": 0.0,
                  "error": {"type": "NameError", "line": None,
                            "message": f"{payload['function']} is not a callable function"}})
            continue
        emit(run_test(function, test, payload))
    emit({"kind": "done"})


if __name__ == "__main__":
    main()
