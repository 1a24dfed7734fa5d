"""The learner side of the sandbox: the body of one learner process. Standard library only.

The spawner forks such a process and calls ``main`` in it: one that loads the module and then
serves every test of the submission (``Isolation.SHARED``, the default; a fresh one takes over
after a test that ended it), or one per step (``PER_TEST``: loading the module, then each test).
Everything before ``_drop_privileges`` returns is trusted code running as root; from then on the
process belongs to the learner: a uid of its own, no capabilities, and only its own file
descriptors (/dev/null on 0, after a per-test process has read its arguments there; stdout and
stderr on a pipe the supervisor counts; the claim pipe on 3; a shared process's tests on 4).
Whatever this process writes is a claim about its own call; the host checks it and decides.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import resource
import sys
import types

from sandbox.inside import codec, step_jail, syscall_filter
from sandbox.inside.protocol import Isolation, Kind, Outcome, Start, error_claim
from sandbox.inside.records import Frozen, set_fields

# No typing or dataclasses at run time: see sandbox.inside.records.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SOLUTION_FILE = "solution.py"
CLAIM_FD = 3
ARGS_FD = 4  # where a process that serves every test reads them (stdin stays /dev/null)


class Ready(Frozen):
    """What the spawner prepared once, before forking, so that no learner process pays for it:
    the seccomp filter, built, and the learner's module compiled (None until the spawner has
    compiled it, or when it would not compile there: each process then compiles it itself).
    Compiling parses the source and runs none of it; nothing here comes from a test."""

    __slots__ = ("code", "learner_filter")
    learner_filter: syscall_filter.Filter
    code: types.CodeType | None

    def __init__(self, learner_filter: syscall_filter.Filter, code: types.CodeType | None = None) -> None:
        set_fields(self, learner_filter=learner_filter, code=code)


# Standard-library modules a spawner may import before forking, when the learner's module imports
# them, so that no test's process loads them again (``unicodedata`` alone costs a test about a
# millisecond). Only modules whose import runs no code that differs between processes and does
# nothing outside the interpreter; ``random`` reseeds itself in every forked child.
PRELOADABLE = frozenset({
    "array", "bisect", "cmath", "collections", "collections.abc", "copy", "dataclasses",
    "decimal", "difflib", "enum", "fractions", "functools", "heapq", "itertools", "json", "math",
    "numbers", "operator", "random", "re", "statistics", "string", "textwrap", "typing",
    "unicodedata",
})


def preloadable_imports(source: str) -> list[str]:
    """The PRELOADABLE modules that the source names in an absolute import, in source order.
    Read from the syntax tree: nothing of the learner's runs."""
    import ast  # here: only a problem with a process per test calls this (5 ms of CPU to import)

    names: list[str] = []
    for node in ast.walk(ast.parse(source, SOLUTION_FILE)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return [name for name in dict.fromkeys(names) if name in PRELOADABLE]


def compile_solution(source: str) -> types.CodeType:
    """The learner's module, compiled; the one place it is compiled, so that the spawner's
    compile and a learner process's own get the same flags (this module's future imports)."""
    return compile(source, SOLUTION_FILE, "exec")


def _drop_privileges(uid: int, start: Start, ready: Ready) -> None:
    """Set the limits, then become the learner's uid: every capability is lost with uid 0."""
    try:
        adj = os.open("/proc/self/oom_score_adj", os.O_WRONLY)
        try:
            os.write(adj, b"1000")  # the kernel's OOM killer takes a learner process, never PID 1
        finally:
            os.close(adj)
    except OSError:
        pass
    resource.setrlimit(resource.RLIMIT_AS, (start.memory_bytes, start.memory_bytes))
    cpu = math.ceil(start.time_limit) + 1  # a backstop: the supervisor's clock kills first
    # A process that serves every test gets its share per call (``_allow_cpu``) within the
    # whole submission's time.
    hard = cpu + 1 if start.isolation is Isolation.PER_TEST else math.ceil(start.lifetime) + cpu
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, hard))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    os.nice(5)  # the supervisor keeps its share of the CPU however busy the learner is
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)
    if os.geteuid() == 0 or os.getegid() == 0:
        os._exit(71)  # never run learner code with privileges
    if start.isolation is Isolation.PER_TEST and step_jail.TMPFS_OPTIONS is not None:
        try:
            step_jail.enter(uid, step_jail.TMPFS_OPTIONS)  # returns in the step's own jail
        except OSError:
            os._exit(73)  # never run a step without the jail a slot promises it
    try:
        ready.learner_filter.install()
    except OSError:
        os._exit(72)  # never run learner code with a door to the next test open
    os.chdir("/tmp")


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


def _take_streams(args_fd: int | None, out_fd: int, claim_fd: int,
                  tests_fd: int | None = None) -> bytes:
    """Read the arguments, then leave exactly stdin (/dev/null), stdout, stderr and the claim,
    and, for a process that serves every test, the pipe its tests come on (on ARGS_FD)."""
    data = _read_all(args_fd) if args_fd is not None else b""
    if tests_fd is not None:  # above every number taken below, then to its own
        tests_fd = os.dup2(tests_fd, max(tests_fd, out_fd, claim_fd, ARGS_FD) + 1)
    # stdout and stderr first: out_fd may have the number the claim pipe is about to take.
    os.dup2(out_fd, 1)
    os.dup2(out_fd, 2)
    os.dup2(claim_fd, CLAIM_FD)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    last = CLAIM_FD
    if tests_fd is not None:
        os.dup2(tests_fd, ARGS_FD)
        last = ARGS_FD
    os.closerange(last + 1, resource.getrlimit(resource.RLIMIT_NOFILE)[1])
    return data


def _line_of(exc: BaseException) -> int | None:
    """The line of the learner's module the exception last passed through (traceback.walk_tb's
    walk, without importing traceback: linecache and tokenize come with it)."""
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == SOLUTION_FILE:
            line = tb.tb_lineno
        tb = tb.tb_next
    if isinstance(exc, SyntaxError) and exc.filename == SOLUTION_FILE:
        line = exc.lineno
    return line


def _call(start: Start, module: types.ModuleType, data: bytes) -> dict[str, Any]:
    test = json.loads(data)
    args = [codec.decode(a) for a in test["args"]]
    kwargs = {k: codec.decode(v) for k, v in test["kwargs"].items()}
    function = getattr(module, start.function)
    try:
        value = function(*args, **kwargs)
    except MemoryError:
        return {"outcome": Outcome.MEMORY.value}
    except BaseException as exc:
        return error_claim(exc, _line_of(exc))
    return {"outcome": Outcome.RETURNED.value, "value": codec.encode(value),
            "args_after": [_unless_as_sent(a, tree) for a, tree in zip(args, test["args"], strict=True)],
            "kwargs_after": {k: _unless_as_sent(v, test["kwargs"][k]) for k, v in kwargs.items()}}


def _unless_as_sent(value: object, sent: object) -> object:
    """An argument's tree after the call, or None (``AS_SENT``) when it is the tree that came:
    the host then neither parses nor compares it. Trees hold no JSON numbers, so == on them is
    exact. Claiming None for a changed argument gains nothing a forged tree did not already."""
    return None if codec.same_tree(value, sent) else codec.encode(value)


def _claim(kind: Kind, start: Start, ready: Ready, data: bytes) -> dict[str, Any]:
    loaded = _load(start, ready)
    if not isinstance(loaded, types.ModuleType):
        return loaded
    if kind is Kind.IMPORT:
        return {"outcome": Outcome.RETURNED.value}
    return _call(start, loaded, data)


def _encoded(claim: dict[str, Any]) -> bytes:
    try:
        text = json.dumps(claim)
    except MemoryError:
        text = json.dumps({"outcome": Outcome.MEMORY.value})
    except BaseException as exc:  # a value that cannot be encoded, say
        text = json.dumps(error_claim(exc, None))
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        pass
    return text.encode()


def _write(data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(CLAIM_FD, view):]


def _send(claim: dict[str, Any]) -> None:
    """One claim in a frame: its byte count on a line, then the JSON (the process goes on)."""
    body = _encoded(claim)
    _write(str(len(body)).encode() + b"\n" + body)


class _Tests:
    """The tests as the supervisor frames them on ARGS_FD (a byte count on a line, then the
    arguments), read in large chunks: it sends one only after the claim for the one before."""

    def __init__(self) -> None:
        self.buffer = bytearray()

    def _fill(self, want: int) -> bool:
        chunk = os.read(ARGS_FD, max(1 << 16, want))
        self.buffer += chunk
        return bool(chunk)

    def next(self) -> bytes | None:
        """The next test's arguments; None at the end of the tests."""
        while (newline := self.buffer.find(b"\n")) < 0:
            if not self._fill(0):
                return None
        end = newline + 1 + int(self.buffer[:newline])
        while len(self.buffer) < end:
            if not self._fill(end - len(self.buffer)):
                return None
        data = bytes(self.buffer[newline + 1:end])
        del self.buffer[:end]
        return data


def _load(start: Start, ready: Ready) -> types.ModuleType | dict[str, Any]:
    """The learner's module, executed; or the claim that loading it failed."""
    module = types.ModuleType("solution")
    module.__file__ = SOLUTION_FILE
    sys.modules["solution"] = module
    try:
        code = ready.code if ready.code is not None else compile_solution(start.code)
        exec(code, module.__dict__)
        if not callable(getattr(module, start.function, None)):
            raise NameError(f"{start.function} is not a callable function")
    except MemoryError:
        return {"outcome": Outcome.MEMORY.value}
    except BaseException as exc:
        return error_claim(exc, _line_of(exc))
    return module


def _allow_cpu(start: Start, soft: int) -> int:
    """The CPU backstop for the next call: at least its share on top of what the process used
    so far (the hard limit, set before the privileges went, bounds the whole submission). The
    soft limit in force is passed and returned, so that it is raised only when short."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    share = math.ceil(start.time_limit) + 1
    if soft - (used.ru_utime + used.ru_stime) >= share:
        return soft
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = min(math.ceil(used.ru_utime + used.ru_stime) + share, hard)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
    return soft


def _serve(kind: Kind, start: Start, ready: Ready) -> None:
    """One process for every test (``Isolation.SHARED``): load the module once, then answer each
    test the supervisor sends on ARGS_FD with a framed claim, until the tests end. A call that
    raises is that test's claim and the process goes on; MemoryError ends it, since an
    interpreter that ran out of memory is not fit to go on."""
    loaded = _load(start, ready)
    if kind is Kind.IMPORT:
        _send({"outcome": Outcome.RETURNED.value} if isinstance(loaded, types.ModuleType)
              else loaded)
    tests = _Tests()
    cpu = resource.getrlimit(resource.RLIMIT_CPU)[0]
    while isinstance(loaded, types.ModuleType):
        data = tests.next()
        if data is None:
            return
        cpu = _allow_cpu(start, cpu)
        try:
            claim = _call(start, loaded, data)
        except MemoryError:
            claim = {"outcome": Outcome.MEMORY.value}
        _send(claim)
        if claim["outcome"] == Outcome.MEMORY.value:
            return
    if kind is Kind.TEST and _Tests().next() is not None:  # the module failed to load
        _send(loaded)


def main(kind: Kind, start: Start, ready: Ready, uid: int, args_fd: int | None, out_fd: int,
         claim_fd: int) -> None:
    """Run one step (``Isolation.PER_TEST``), or every test the supervisor sends (shared), as
    uid, and exit; never returns."""
    _drop_privileges(uid, start, ready)
    if start.isolation is Isolation.SHARED:
        _take_streams(None, out_fd, claim_fd, args_fd)
        with contextlib.suppress(BaseException):  # a claim that could not be sent ends it
            _serve(kind, start, ready)
        os._exit(0)
    data = _take_streams(args_fd, out_fd, claim_fd)
    try:
        claim = _claim(kind, start, ready, data)
    except MemoryError:
        claim = {"outcome": Outcome.MEMORY.value}
    _write(_encoded(claim))
    os._exit(0)
