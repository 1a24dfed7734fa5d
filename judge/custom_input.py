"""A try: the learner's own arguments, run through the reference and then the learner's code.

The reference's value is what the learner's must equal; both runs happen in the sandbox, one
fresh container each, exactly as a test would run (the reference is never run on the host, and
its source never leaves it). The learner sees one result named ``your input``.

When the reference itself fails on the arguments (it raises, runs out of time or memory), there
is nothing to compare against: the try ends ``Rejected``, with no verdict and a message saying
so, and the learner's code is not run. That is the arguments' doing, never the learner's code's
and never the judge's failure.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from judge.errors import InvalidInput
from judge.grading import OUTCOME_STATUS, aggregate, build_payload, first_call, judge_call, load_message
from judge.problems import Problem, TestCase
from judge.results import (
    CATEGORY_MESSAGES,
    HiddenPolicy,
    Report,
    TestResult,
    TestStatus,
    Verdict,
    Visibility,
)
from judge.static_checks import check_source
from judge.value_types import TypeSpecError, from_json
from sandbox.interface import CallResult, Outcome, Sandbox

TRY_NAME = "your input"
MAX_ARGUMENT_BYTES = 64 * 1024  # of the arguments' JSON: a try is one call, not a data set
MAX_ARGUMENT_DEPTH = 32  # under the codec's nesting cap, with room for its own tags
REJECTED = "the reference rejects these arguments"


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in a JSON value (without recursion: it may be deep)."""
    deepest, todo = 0, [(value, 0)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, list | dict):
            level += 1
            deepest = max(deepest, level)
            todo.extend((child, level) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def typed_arguments(problem: Problem, values: Any) -> list[Any]:
    """The learner's JSON arguments converted to the declared parameter types, positionally.

    InvalidInput names what is wrong: the count, the size, a number JSON cannot hold, or the
    parameter whose value is not of its declared type (with the path inside it).
    """
    params = problem.parameters
    names = ", ".join(p.name for p in params) or "no parameters"
    if not isinstance(values, list):
        raise InvalidInput(f"arguments: send a JSON list with one value per parameter ({names})")
    required = sum(not p.optional for p in params)
    if not required <= len(values) <= len(params):
        wanted = f"{len(params)}" if required == len(params) else f"{required} to {len(params)}"
        raise InvalidInput(f"arguments: {len(values)} given, but {problem.function} takes {wanted} "
                           f"({names})")
    if _depth(values) > MAX_ARGUMENT_DEPTH:
        raise InvalidInput(f"arguments: nested more than {MAX_ARGUMENT_DEPTH} levels deep")
    try:
        size = len(json.dumps(values, allow_nan=False, ensure_ascii=False).encode("utf-8"))
    except UnicodeEncodeError as exc:  # before ValueError, which it is a kind of
        raise InvalidInput(f"arguments: a string holds a lone surrogate "
                           f"({exc.object[exc.start:exc.end]!r})") from None
    except ValueError:
        raise InvalidInput("arguments: NaN and infinity are not allowed (JSON has no such "
                           "numbers)") from None
    if size > MAX_ARGUMENT_BYTES:
        raise InvalidInput(f"arguments: {size} bytes of JSON; at most {MAX_ARGUMENT_BYTES}")
    typed = []
    for position, (value, param) in enumerate(zip(values, params, strict=False)):
        try:
            typed.append(from_json(value, param.type, f"parameter {param.name!r}"))
        except TypeSpecError as exc:
            raise InvalidInput(f"arguments[{position}]: {exc} (expected {param.type})") from None
    return typed


@dataclass
class Rejected:
    """A try the reference would not answer: no verdict, no score, the reason as the message."""

    problem: str
    problem_version: str
    message: str
    tests: list[TestResult] = field(default_factory=list)
    seconds: float | None = None


def _reference_failure(call: CallResult) -> str:
    if call.outcome is Outcome.RAISED and call.error:
        # The exception's type and message only: its line would point into the reference.
        error = f"{call.error.type}: {call.error.message}" if call.error.message else call.error.type
        return f"{REJECTED}: it raises {error}"
    status = OUTCOME_STATUS.get(call.outcome, TestStatus.RUNTIME_ERROR)
    return f"{REJECTED}: {call.detail or CATEGORY_MESSAGES[status]}"


def _result(case: TestCase, status: TestStatus, explanation: str | None, category: str | None,
            call: CallResult | None) -> TestResult:
    returned = call is not None and call.outcome is Outcome.RETURNED
    return TestResult(
        name=TRY_NAME, visibility=Visibility.CUSTOM, status=status,
        category=category or CATEGORY_MESSAGES[status],
        seconds=call.seconds if call else None, memory_bytes=call.memory if call else None,
        args=list(case.args), kwargs={},
        expected=case.expected if case.raises is None else None,
        actual=call.value if returned and call else None,
        stdout=call.stdout if call else None, explanation=explanation,
    )


def run_try(problem: Problem, code: str, arguments: list[Any], sandbox: Sandbox) -> Report | Rejected:
    """Run the reference, then the learner's code, on ``arguments`` (already typed).

    Never raises for anything the learner sent; SandboxUnavailable (the judge's own failure)
    propagates, as in ``judge.grading.grade``.
    """
    started = time.monotonic()
    report = Report(Verdict.INTERNAL_ERROR, 0.0, problem.slug, problem.version,
                    hidden_policy=HiddenPolicy(problem.hidden_policy))
    static = check_source(code, problem)
    if static:
        report.verdict, report.message = static.verdict, static.message
        return report
    probe = TestCase(TRY_NAME, list(arguments))
    reference = first_call(sandbox.run(build_payload(problem, problem.reference, (probe,))))
    if reference.outcome is not Outcome.RETURNED:
        message = _reference_failure(reference)
        test = _result(probe, TestStatus.NOT_RUN, f"{message}; your function was not run on them",
                       f"not run: {REJECTED}", None)
        return Rejected(problem.slug, problem.version, message, [test],
                        round(time.monotonic() - started, 3))
    case = TestCase(TRY_NAME, list(arguments), expected=reference.value)
    run = sandbox.run(build_payload(problem, code, (case,)))
    call = first_call(run)
    status, explanation, category = judge_call(problem, case, call)
    report.tests = [_result(case, status, explanation, category, call)]
    report.verdict, report.score = aggregate(report.tests)
    report.message = load_message(run.loaded)
    report.seconds = round(time.monotonic() - started, 3)
    return report
