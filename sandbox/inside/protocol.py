"""The one protocol between the host and the sandbox. Standard library only: it is baked into the
sandbox image (the supervisor and the learner side use it) and imported by the host.

Three parties speak it:

- the **host** sends frames on the container's stdin: a ``Start`` message, then one test's
  arguments at a time, each only after the previous test's record arrived, then ``null``; before
  a test it may send ``FRESH``: the learner process must be replaced (its last claim was refused);
- the **supervisor** (``sandbox.inside.harness``, PID 1 of the container, never runs learner code)
  answers each step with exactly one ``step`` record on its stdout, a line of JSON that states
  what it saw from outside the learner's process: how it ended, what it printed, and the
  learner's *claim*, passed on unread in base64;
- the **learner process** (``sandbox.inside.learner``) writes its claim, one JSON object, on a pipe:
  for each test, framed by its byte count on a line, where one process serves every test
  (``Isolation.SHARED``); alone, before it exits, where each test has its own (``PER_TEST``).

The host trusts nothing in a claim: ``parse_step`` and ``parse_claim`` accept exactly the shapes
below and raise ``ProtocolError`` for anything else (unknown or missing keys, wrong types, NaN or
infinity, duplicated keys, too deep, too large). Records carry values, never verdicts, and never
times: the host measures each test itself.
"""

from __future__ import annotations

import base64
import binascii
import json
from enum import StrEnum

from sandbox.inside import codec
from sandbox.inside.records import Frozen, Record, set_fields

# No typing, collections.abc or dataclasses at run time: see sandbox.inside.records.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

CLAIM_CAP = 4 * 1024 * 1024  # bytes of one learner claim
# One supervisor record: the claim in base64 (4/3 of its size, whatever it holds, where JSON
# escaping could inflate text six-fold), printed text and the envelope.
LINE_CAP = CLAIM_CAP * 4 // 3 + 256 * 1024
MESSAGE_CAP = 500
TYPE_NAME_CAP = 100


class Kind(StrEnum):
    """What a supervisor record answers: loading the module, or one test."""

    IMPORT = "import"
    TEST = "test"


class Outcome(StrEnum):
    """How one call ended, as the host decides it. The single list of per-test outcomes."""

    RETURNED = "returned"
    RAISED = "raised"
    TIMEOUT = "timeout"
    MEMORY = "memory"
    OUTPUT_LIMIT = "output_limit"
    CRASHED = "crashed"  # ended without a result, or sent one that breaks this protocol
    NOT_RUN = "not_run"  # never sent: an earlier test stopped the run


class Stop(StrEnum):
    """Why the supervisor ended a learner process itself, or saw the kernel end it."""

    TIMEOUT = "timeout"
    OUTPUT_LIMIT = "output_limit"
    MEMORY = "memory"  # the container's OOM killer took it (memory.events)
    CLAIM_TOO_LARGE = "claim_too_large"
    CLAIM_MALFORMED = "claim_malformed"  # a claim's frame (its length line) is broken


class Isolation(StrEnum):
    """How a submission's tests share learner processes (``isolation`` in problem.toml).

    ``shared``: one learner process loads the module once and is called for each test in turn,
    as in every function judge; a test that ends it gets its verdict and a fresh process (and
    uid) takes the remaining tests. ``per_test``: a fresh process and uid for every test, and the
    writable places emptied between tests.
    """

    SHARED = "shared"
    PER_TEST = "per_test"


# What a learner process may claim about itself; everything else is the supervisor's to say.
CLAIMABLE = (Outcome.RETURNED, Outcome.RAISED, Outcome.MEMORY)


class _AsSent:
    """Stands for an argument that came back exactly as the host sent it."""

    def __repr__(self) -> str:
        return "<as sent>"


# In ``CallResult.args_after``/``kwargs_after``: the argument's tree came back identical, to the
# byte, to the one the host sent, so it was not changed and need not be decoded or compared.
AS_SENT: Any = _AsSent()


class ProtocolError(ValueError):
    """A message breaks the protocol; the text says how, in words a learner can read."""


class ErrorInfo(Frozen):
    """An exception the learner's code raised, as its process described it."""

    __slots__ = ("line", "message", "type")
    type: str
    message: str
    line: int | None

    def __init__(self, type: str, message: str, line: int | None) -> None:
        set_fields(self, type=type, message=message, line=line)

    def describe(self) -> str:
        where = f" at line {self.line}" if self.line else ""
        return f"{self.type}{where}: {self.message}" if self.message else f"{self.type}{where}"


class CallResult(Record):
    """One step (loading the module, or one test) as the host decided it."""

    __slots__ = (
        "args_after",
        "detail",
        "error",
        "kwargs_after",
        "memory",
        "outcome",
        "seconds",
        "stdout",
        "value",
    )
    outcome: Outcome
    value: Any
    args_after: list[Any] | None
    kwargs_after: dict[str, Any] | None
    error: ErrorInfo | None
    stdout: str
    detail: str
    seconds: float | None  # measured on the host, from sending the step to its record
    # The learner process's resident high-water mark in bytes once the step ended, as the
    # supervisor read it (a shared process's peak so far); None where no count was kept.
    memory: int | None

    def __init__(self, outcome: Outcome, value: Any = None, args_after: list[Any] | None = None,
                 kwargs_after: dict[str, Any] | None = None, error: ErrorInfo | None = None,
                 stdout: str = "", detail: str = "", seconds: float | None = None,
                 memory: int | None = None) -> None:
        self.outcome, self.value, self.error = outcome, value, error
        self.args_after, self.kwargs_after = args_after, kwargs_after
        self.stdout, self.detail, self.seconds, self.memory = stdout, detail, seconds, memory


class Start(Frozen):
    """The first frame: what the supervisor needs for every step. No test data."""

    __slots__ = (
        "code",
        "function",
        "isolation",
        "lifetime",
        "memory_bytes",
        "stdout_cap",
        "time_limit",
    )
    code: str
    function: str
    time_limit: float
    memory_bytes: int
    stdout_cap: int
    lifetime: float  # the supervisor ends the container after this, should the host vanish
    isolation: Isolation

    def __init__(self, code: str, function: str, time_limit: float, memory_bytes: int,
                 stdout_cap: int, lifetime: float, isolation: Isolation = Isolation.SHARED) -> None:
        set_fields(self, code=code, function=function, time_limit=time_limit,
                   memory_bytes=memory_bytes, stdout_cap=stdout_cap, lifetime=lifetime,
                   isolation=isolation)

    def as_json(self) -> dict[str, Any]:
        return {"code": self.code, "function": self.function, "time_limit": self.time_limit,
                "memory_bytes": self.memory_bytes, "stdout_cap": self.stdout_cap,
                "lifetime": self.lifetime, "isolation": self.isolation.value}

    @classmethod
    def from_json(cls, raw: bytes) -> Start:
        """The Start the host framed (``as_json``)."""
        data = json.loads(raw)
        return cls(str(data["code"]), str(data["function"]), float(data["time_limit"]),
                   int(data["memory_bytes"]), int(data["stdout_cap"]), float(data["lifetime"]),
                   Isolation(data.get("isolation", Isolation.SHARED.value)))


class Step(Frozen):
    """A supervisor record: what it observed of one learner process."""

    __slots__ = ("claim", "exit_code", "kind", "memory", "seq", "signal", "stdout", "stop")
    kind: Kind
    seq: int | None
    stop: Stop | None
    exit_code: int | None
    signal: int | None
    stdout: str
    claim: bytes | None
    memory: int | None  # bytes: see CallResult.memory

    def __init__(self, kind: Kind, seq: int | None, stop: Stop | None, exit_code: int | None,
                 signal: int | None, stdout: str, claim: bytes | None,
                 memory: int | None = None) -> None:
        set_fields(self, kind=kind, seq=seq, stop=stop, exit_code=exit_code, signal=signal,
                   stdout=stdout, claim=claim, memory=memory)


# A host frame that is no test: the learner process that ran the last test must be replaced by a
# fresh one before the next (its claim broke this protocol, which only the host can tell).
FRESH = "fresh"


def frame(message: object) -> bytes:
    """A host-to-sandbox message: its byte count on a line, then the JSON."""
    body = json.dumps(message, allow_nan=False).encode()
    return str(len(body)).encode() + b"\n" + body


def _no_constant(name: str) -> Any:
    raise ProtocolError(f"{name} is not allowed")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):  # rare: find the first key seen twice, to name it
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ProtocolError(f"the key {key[:40]!r} appears twice")
            seen.add(key)
    return result


def _noting(numbers: list[str], parse: Callable[[str], Any]) -> Callable[[str], Any]:
    def parse_noted(text: str) -> Any:
        numbers.append(text)
        return parse(text)
    return parse_noted


def strict_json(text: str | bytes, cap: int, numbers: list[str] | None = None) -> Any:
    """JSON with no NaN or infinity, no duplicated keys, bounded size and depth. Every number's
    text is appended to ``numbers`` when it is given."""
    if len(text) > cap:
        raise ProtocolError(f"the message has {len(text)} bytes; at most {cap} are allowed")
    hooks: dict[str, Any] = {}
    if numbers is not None:
        hooks["parse_int"] = _noting(numbers, int)
        hooks["parse_float"] = _noting(numbers, float)
    try:
        return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_unique_keys, **hooks)
    except RecursionError as exc:
        raise ProtocolError("the message is nested too deeply") from exc
    except ProtocolError:
        raise
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
        raise ProtocolError(f"the message is not valid JSON ({str(exc)[:80]})") from exc


def _exact_keys(record: dict[str, Any], required: set[str], what: str) -> None:
    if set(record) != required:
        extra = sorted(set(record) - required)
        missing = sorted(required - set(record))
        raise ProtocolError(f"{what} has unexpected keys {extra} or lacks {missing}")


def _optional_int(value: Any, what: str) -> int | None:
    if value is None or type(value) is int:
        return value
    raise ProtocolError(f"{what} must be an integer or null")


def parse_step(line: bytes, kind: Kind, seq: int | None) -> Step:
    """The supervisor's record for the step the host is waiting for, or ProtocolError."""
    record = strict_json(line, LINE_CAP)
    if not isinstance(record, dict):
        raise ProtocolError("a record must be a JSON object")
    _exact_keys(record, {"kind", "seq", "stop", "exit", "signal", "stdout", "claim", "memory"},
                "the record")
    if record["kind"] != kind.value:
        raise ProtocolError(f"expected a {kind.value!r} record, got {str(record['kind'])[:20]!r}")
    if type(record["seq"]) is not type(seq) or record["seq"] != seq:
        raise ProtocolError(f"expected the record of step {seq}, got {str(record['seq'])[:20]}")
    stop = record["stop"]
    if stop is not None and stop not in Stop.__members__.values():
        raise ProtocolError(f"unknown stop reason {str(stop)[:20]!r}")
    if not isinstance(record["stdout"], str):
        raise ProtocolError("stdout must be a string")
    claim = record["claim"]
    if claim is not None and not isinstance(claim, str):
        raise ProtocolError("claim must be a string or null")
    try:
        raw = base64.b64decode(claim, validate=True) if claim is not None else None
    except binascii.Error as exc:
        raise ProtocolError("claim is not base64") from exc
    memory = _optional_int(record["memory"], "memory")
    if memory is not None and memory < 0:
        raise ProtocolError("memory must not be negative")
    return Step(kind, seq, Stop(stop) if stop else None,
                _optional_int(record["exit"], "exit"), _optional_int(record["signal"], "signal"),
                record["stdout"], raw, memory)


def _error(raw: Any) -> ErrorInfo:
    if not isinstance(raw, dict):
        raise ProtocolError("error must be an object")
    _exact_keys(raw, {"type", "message", "line"}, "error")
    kind, message, line = raw["type"], raw["message"], raw["line"]
    if not (isinstance(kind, str) and isinstance(message, str)):
        raise ProtocolError("error needs a string type and a string message")
    return ErrorInfo(kind[:TYPE_NAME_CAP], message[:MESSAGE_CAP], _optional_int(line, "error line"))


def _after(tree: Any, sent: Any) -> Any:
    """An argument after the call, decoded; AS_SENT when the claim says so (null: the learner
    side found the tree unchanged) or its tree is the one the host sent.

    Python's == on two trees is type-strict but for one case, a number against a bool (1 ==
    True), and the caller passes ``sent`` only for a claim that holds no number at all (no tree
    ever does). So equal trees are identical, and decoding this one would give the value the
    host sent. A null is no tree, so it cannot be mistaken for one; trusting it gives a learner
    nothing, who could as well send the tree it was given."""
    if tree is None or (sent is not _NOTHING_SENT and tree == sent):
        return AS_SENT
    return codec.decode(tree)


_NOTHING_SENT: Any = object()


def _values(raw: Any, count: int, sent: list[Any] | None) -> list[Any]:
    if not isinstance(raw, list) or len(raw) != count:
        raise ProtocolError(f"args_after must be a list of {count} values")
    if sent is None or len(sent) != count:
        return [_after(item, _NOTHING_SENT) for item in raw]
    return [_after(item, before) for item, before in zip(raw, sent, strict=True)]


def _named_values(raw: Any, names: set[str], sent: dict[str, Any] | None) -> dict[str, Any]:
    if not isinstance(raw, dict) or set(raw) != names:
        raise ProtocolError(f"kwargs_after must hold exactly the arguments {sorted(names)}")
    known = sent if sent is not None else {}
    return {name: _after(tree, known.get(name, _NOTHING_SENT)) for name, tree in raw.items()}


def parse_claim(text: str | bytes, kind: Kind, n_args: int = 0, kwarg_names: frozenset[str] = frozenset(),
                sent_args: list[Any] | None = None, sent_kwargs: dict[str, Any] | None = None
                ) -> CallResult:
    """A learner process's claim about its call, checked against the exact schema.

    A returned value must come with every argument as it was after the call, so that a changed
    argument can never be hidden by leaving the field out. Given the trees the host sent
    (``sent_args``, ``sent_kwargs``), an argument that came back as sent is ``AS_SENT``.
    """
    numbers: list[str] = []
    record = strict_json(text, CLAIM_CAP, numbers)
    if numbers:  # no tree holds a number: such a claim is decoded, and refused, in full
        sent_args = sent_kwargs = None
    if not isinstance(record, dict) or not isinstance(record.get("outcome"), str):
        raise ProtocolError("the result must be an object with a string 'outcome'")
    outcome = record["outcome"]
    try:
        if kind is Kind.IMPORT:
            if outcome == Outcome.RETURNED:
                _exact_keys(record, {"outcome"}, "the result")
                return CallResult(Outcome.RETURNED)
            if outcome == Outcome.RAISED:
                _exact_keys(record, {"outcome", "error"}, "the result")
                return CallResult(Outcome.RAISED, error=_error(record["error"]))
        elif outcome == Outcome.RETURNED:
            _exact_keys(record, {"outcome", "value", "args_after", "kwargs_after"}, "the result")
            return CallResult(Outcome.RETURNED, value=codec.decode(record["value"]),
                              args_after=_values(record["args_after"], n_args, sent_args),
                              kwargs_after=_named_values(record["kwargs_after"], set(kwarg_names),
                                                         sent_kwargs))
        elif outcome == Outcome.RAISED:
            _exact_keys(record, {"outcome", "error"}, "the result")
            return CallResult(Outcome.RAISED, error=_error(record["error"]))
        if outcome == Outcome.MEMORY:
            _exact_keys(record, {"outcome"}, "the result")
            return CallResult(Outcome.MEMORY)
    except codec.CodecError as exc:
        raise ProtocolError(f"a value breaks the schema: {exc}") from exc
    raise ProtocolError(f"{outcome[:20]!r} is not an outcome a {kind.value} result may claim")


def error_claim(exc: BaseException, line: int | None) -> dict[str, Any]:
    """The claim for an exception; used by the learner side."""
    try:
        message = str(exc)[:MESSAGE_CAP]
    except BaseException:
        message = "<str() of the exception failed>"
    return {"outcome": Outcome.RAISED.value,
            "error": {"type": type(exc).__name__[:TYPE_NAME_CAP], "message": message, "line": line}}
