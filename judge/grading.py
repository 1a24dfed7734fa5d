"""Grading: static checks, one sandbox run, host-side checking, verdict and score."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from judge.checkers import check_exact, type_name
from judge.explanations import explain, explain_changed_argument
from judge.problems import Problem, TestCase
from judge.results import (
    CATEGORY_MESSAGES,
    HiddenPolicy,
    Report,
    TestResult,
    TestStatus,
    Verdict,
    Visibility,
    stored_inputs,
)
from judge.static_checks import check_source
from judge.stored_values import shown
from sandbox.interface import (
    AS_SENT,
    CallResult,
    Limits,
    Outcome,
    Payload,
    Sandbox,
    SandboxRun,
    TestInput,
    encode,
)

OUTCOME_STATUS = {
    Outcome.TIMEOUT: TestStatus.TIME_LIMIT_EXCEEDED,
    Outcome.MEMORY: TestStatus.MEMORY_LIMIT_EXCEEDED,
    Outcome.OUTPUT_LIMIT: TestStatus.OUTPUT_LIMIT_EXCEEDED,
    Outcome.CRASHED: TestStatus.RUNTIME_ERROR,
    Outcome.RAISED: TestStatus.RUNTIME_ERROR,
    Outcome.NOT_RUN: TestStatus.NOT_RUN,
}
NOT_RUN = CallResult(Outcome.NOT_RUN)


def sandbox_limits(problem: Problem, n_tests: int) -> Limits:
    per_test = problem.limits.time_per_test
    # The wall clock must cover every test at its limit plus interpreter start-up.
    wall = min(problem.limits.time_per_submission, 10 + n_tests * (per_test + 0.5))
    return Limits(time_per_test=per_test, time_per_submission=wall,
                  memory_mb=problem.limits.memory_mb)


def run_order(problem: Problem, include_hidden: bool, rng: random.Random | None = None
              ) -> tuple[TestCase, ...]:
    """Public tests first, in their order; hidden tests after them in a fresh random order, so
    that what a learner learns of hidden tests can never be replayed as a lookup table."""
    if not include_hidden:
        return problem.public_tests
    hidden = list(problem.hidden_tests)
    (rng or random.SystemRandom()).shuffle(hidden)
    return problem.public_tests + tuple(hidden)


def _encode(test: TestCase) -> TestInput:
    return TestInput([encode(a) for a in test.args],
                     {k: encode(v) for k, v in test.kwargs.items()})


def _expected(test: TestCase) -> Any:
    return test.expected if test.raises is None else f"raises {test.raises}"


@dataclass(frozen=True)
class _Prepared:
    """What judging a test needs of its fixed parts, worked out once per loaded version (a
    worker judges one version many times): its input as sent, and its values as stored."""

    sent: TestInput
    stored: dict[str, Any]


def _prepare(test: TestCase) -> _Prepared:
    return _Prepared(_encode(test), stored_inputs(list(test.args), dict(test.kwargs),
                                                  _expected(test)))


# (the Problem, {id(test): prepared}) per (slug, version); the Problem is kept so that no id is
# reused while its entry lives.
_PREPARED: dict[tuple[str, str], tuple[Problem, dict[int, _Prepared]]] = {}
PREPARED_VERSIONS = 64


def _prepared(problem: Problem, test: TestCase) -> _Prepared:
    key = (problem.slug, problem.version)
    found = _PREPARED.get(key)
    if found is None or found[0] is not problem:
        if len(_PREPARED) >= PREPARED_VERSIONS:
            _PREPARED.clear()
        found = _PREPARED[key] = (problem, {id(t): _prepare(t) for t in problem.tests()})
    return found[1].get(id(test)) or _prepare(test)


def build_payload(problem: Problem, code: str, tests: tuple[TestCase, ...],
                  on_result: Callable[[int, CallResult], None] | None = None) -> Payload:
    """Only the code, the function name and the arguments: names and expected values stay here."""
    inputs = [_prepared(problem, t).sent for t in tests]
    shown = next((n for n, t in enumerate(tests) if t.hidden), len(tests))  # run_order's public first
    return Payload(code, problem.function, inputs, sandbox_limits(problem, len(tests)), on_result,
                   problem.isolation, shown)


# A category is seen for hidden tests too, so it may name only types the judge knows: a learner
# chooses its own classes' names and could spell a hidden input into one.
KNOWN_TYPES = frozenset({"bool", "int", "float", "str", "list", "tuple", "dict", "None"})


def known_type(value: object) -> str:
    name = type_name(value)
    return name if name in KNOWN_TYPES else "an object of another type"


Judgement = tuple[TestStatus, str | None, str | None]  # status, explanation, category


def _changed_argument(problem: Problem, test: TestCase, call: CallResult) -> Judgement | None:
    names = [p.name for p in problem.parameters]
    after_args = call.args_after or []
    after_kwargs = call.kwargs_after or {}
    arguments = list(zip(names, test.args, after_args, strict=False)) + [
        (name, before, after_kwargs.get(name)) for name, before in test.kwargs.items()]
    for name, before, after in arguments:
        if after is not AS_SENT and check_exact(before, after):
            return (TestStatus.WRONG_ANSWER, explain_changed_argument(name, before, after),
                    "the function changed one of its arguments")
    return None


def judge_call(problem: Problem, test: TestCase, call: CallResult) -> Judgement:
    """The status of one call, with an explanation and, where the default will not do, a category."""
    if call.outcome is Outcome.RETURNED:
        if test.raises is not None:
            return (TestStatus.WRONG_ANSWER,
                    f"expected the call to raise {test.raises}, but it returned a value",
                    f"expected an exception ({test.raises})")
        mismatch = problem.checker.check(test.expected, call.value)
        if mismatch:
            category = None
            if mismatch.kind == "type" and not mismatch.path:
                category = (f"wrong type: expected {type_name(mismatch.expected)}, "
                            f"got {known_type(mismatch.actual)}")
            return TestStatus.WRONG_ANSWER, explain(mismatch), category
        if problem.rules.immutable_arguments:
            changed = _changed_argument(problem, test, call)
            if changed:
                return changed
        return TestStatus.PASSED, None, None
    if call.outcome is Outcome.RAISED and call.error and test.raises == call.error.type:
        return TestStatus.PASSED, None, None
    status = OUTCOME_STATUS[call.outcome]
    if call.outcome is Outcome.RAISED and call.error:
        return status, call.error.describe(), None
    return status, call.detail or CATEGORY_MESSAGES[status], None


def _result(problem: Problem, test: TestCase, call: CallResult) -> TestResult:
    status, explanation, category = judge_call(problem, test, call)
    actual = call.value if call.outcome is Outcome.RETURNED else None
    text = shown(actual)
    if text.note is not None:
        actual = text  # checked: its text is all that is kept of a large value
    # Hidden tests keep every detail for the problem's author; results.learner_view decides
    # what a learner sees of them.
    return TestResult(
        name=test.name,
        visibility=Visibility.HIDDEN if test.hidden else Visibility.PUBLIC,
        status=status,
        category=category or CATEGORY_MESSAGES[status],
        seconds=call.seconds,
        memory_bytes=call.memory,
        args=list(test.args),
        kwargs=dict(test.kwargs),
        expected=_expected(test),
        actual=actual,
        stdout=call.stdout,
        explanation=explanation,
        note=test.explanation,
        inputs_json=_prepared(problem, test).stored,
    )


def first_failure(tests: list[TestResult]) -> TestResult | None:
    """The first test (in run order) that failed: the one that names the verdict."""
    return next((t for t in tests if t.status not in (TestStatus.PASSED, TestStatus.NOT_RUN)), None)


def aggregate(tests: list[TestResult]) -> tuple[Verdict, float]:
    """The first failing test (in run order) names the verdict; score = passed/total."""
    failing = first_failure(tests)
    verdict = Verdict.ACCEPTED if failing is None else Verdict(failing.status.value)
    score = sum(t.status is TestStatus.PASSED for t in tests) / len(tests) if tests else 0.0
    return verdict, score


def _calls(run: SandboxRun, count: int) -> list[CallResult]:
    """One result per test: a failed load stands for every test; tests never sent are not run."""
    if run.loaded.outcome is not Outcome.RETURNED:
        return [run.loaded] * count
    return run.results[:count] + [NOT_RUN] * (count - len(run.results))


def first_call(run: SandboxRun) -> CallResult:
    """The result of a run of one test (a failed load stands for it)."""
    return _calls(run, 1)[0]


def load_message(loaded: CallResult) -> str:
    if loaded.outcome is Outcome.RETURNED:
        return ""
    what = loaded.error.describe() if loaded.error else loaded.detail
    return f"loading the code failed: {what}"


def grade(problem: Problem, code: str, sandbox: Sandbox, include_hidden: bool = True,
          rng: random.Random | None = None) -> Report:
    """Judge code against the problem's tests; never raises for anything the learner sent.

    SandboxUnavailable (the judge's own failure) propagates: it is never a learner verdict.
    """
    started = time.monotonic()
    report = Report(Verdict.INTERNAL_ERROR, 0.0, problem.slug, problem.version,
                    hidden_policy=HiddenPolicy(problem.hidden_policy))
    static = check_source(code, problem)
    if static:
        report.verdict, report.message = static.verdict, static.message
        return report
    tests = run_order(problem, include_hidden, rng)
    checked: dict[int, TestResult] = {}

    def check(position: int, call: CallResult) -> None:
        # Inside the run, so that checking a huge value counts in the submission's wall clock;
        # the value is then dropped from the run, which would otherwise hold every test's at once.
        checked[position] = _result(problem, tests[position], call)
        call.value = call.args_after = call.kwargs_after = None

    run = sandbox.run(build_payload(problem, code, tests, check))
    calls = _calls(run, len(tests))
    report.tests = [checked.get(i) or _result(problem, t, c)
                    for i, (t, c) in enumerate(zip(tests, calls, strict=True))]
    report.verdict, report.score = aggregate(report.tests)
    report.message = load_message(run.loaded)
    report.seconds = round(time.monotonic() - started, 3)
    return report

