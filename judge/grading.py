"""Grading: static checks, one sandbox run, host-side checking, verdict and score."""

from __future__ import annotations

import time

from judge.checkers import CHECKERS, type_name
from judge.explanations import explain, explain_mutation
from judge.problems import Problem, TestCase
from judge.records import CallRecord, Outcome, parse_run
from judge.results import CATEGORY_MESSAGES, Report, TestResult, TestStatus, Verdict, Visibility
from judge.static_checks import check_source
from sandbox import codec
from sandbox.interface import Limits, Payload, Sandbox, SandboxUnavailable, TestInput

OUTCOME_STATUS = {
    Outcome.TIMEOUT: TestStatus.TIME_LIMIT_EXCEEDED,
    Outcome.MEMORY: TestStatus.MEMORY_LIMIT_EXCEEDED,
    Outcome.OUTPUT_LIMIT: TestStatus.OUTPUT_LIMIT_EXCEEDED,
    Outcome.CRASHED: TestStatus.RUNTIME_ERROR,
    Outcome.RAISED: TestStatus.RUNTIME_ERROR,
}


def sandbox_limits(problem: Problem, n_tests: int) -> Limits:
    per_test = problem.limits.time_per_test
    # The wall clock must cover every test at its limit plus interpreter start-up.
    wall = min(problem.limits.time_per_submission, 10 + n_tests * (per_test + 0.5))
    return Limits(time_per_test=per_test, time_per_submission=wall,
                  memory_mb=problem.limits.memory_mb)


def build_payload(problem: Problem, code: str, tests: tuple[TestCase, ...]) -> Payload:
    """Only the code, the function name and the arguments: expected values stay on the host."""
    inputs = [
        TestInput(f"t{i}", [codec.encode(a) for a in t.args],
                  {k: codec.encode(v) for k, v in t.kwargs.items()})
        for i, t in enumerate(tests)
    ]
    return Payload(code, problem.function, inputs, sandbox_limits(problem, len(tests)))


Check = tuple[TestStatus, str | None, str | None]


def _check_call(problem: Problem, test: TestCase, call: CallRecord) -> Check:
    """(status, explanation, category override) for one call."""
    if call.outcome is Outcome.RETURNED:
        if test.raises is not None:
            return (TestStatus.WRONG_ANSWER,
                    f"expected the call to raise {test.raises}, but it returned a value",
                    f"expected an exception ({test.raises})")
        mismatch = CHECKERS[problem.checker.name](test.expected, call.value, problem.checker)
        if mismatch:
            category = None
            if mismatch.kind == "type" and not mismatch.path:
                category = (f"wrong type: expected {type_name(mismatch.expected)}, "
                            f"got {type_name(mismatch.actual)}")
            return TestStatus.WRONG_ANSWER, explain(mismatch), category
        if problem.rules.immutable_arguments:
            names = [p.name for p in problem.parameters]
            arguments = list(zip(names, test.args, call.args_after, strict=False)) + [
                (name, before, call.kwargs_after.get(name)) for name, before in test.kwargs.items()
            ]
            for name, before, after in arguments:
                if CHECKERS["exact"](before, after, problem.checker):
                    return (TestStatus.WRONG_ANSWER, explain_mutation(name, before, after),
                            "the function changed one of its arguments")
        return TestStatus.PASSED, None, None
    if call.outcome is Outcome.RAISED and call.error and test.raises == call.error.type:
        return TestStatus.PASSED, None, None
    status = OUTCOME_STATUS[call.outcome]
    if call.outcome is Outcome.RAISED and call.error:
        return status, call.error.describe(), None
    detail = call.detail or CATEGORY_MESSAGES[status]
    return status, detail, None


def _result(problem: Problem, test: TestCase, call: CallRecord) -> TestResult:
    status, explanation, category = _check_call(problem, test, call)
    category = category or CATEGORY_MESSAGES[status]
    if test.hidden and problem.hidden_policy == "status":
        category = ""
    # Hidden tests keep their details for the problem's owner; TestResult.as_json redacts them.
    return TestResult(
        name=test.name,
        visibility=Visibility.HIDDEN if test.hidden else Visibility.PUBLIC,
        status=status,
        category=category,
        seconds=call.seconds,
        args=list(test.args),
        kwargs=dict(test.kwargs),
        expected=test.expected if test.raises is None else f"raises {test.raises}",
        actual=call.value if call.outcome is Outcome.RETURNED else None,
        stdout=call.stdout,
        explanation=explanation,
        note=test.explanation,
    )


def aggregate(tests: list[TestResult]) -> tuple[Verdict, float]:
    """The first failing test (public tests come first) names the verdict; score = passed/total."""
    failing = next((t for t in tests if t.status is not TestStatus.PASSED), None)
    verdict = Verdict.ACCEPTED if failing is None else Verdict(failing.status.value)
    score = sum(t.status is TestStatus.PASSED for t in tests) / len(tests) if tests else 0.0
    return verdict, score


def grade(problem: Problem, code: str, sandbox: Sandbox, include_hidden: bool = True) -> Report:
    """Judge code against the problem's tests; never raises for anything the learner sent."""
    started = time.monotonic()
    report = Report(Verdict.INTERNAL_ERROR, 0.0, problem.slug, problem.version)
    static = check_source(code, problem)
    if static:
        report.verdict, report.message = static.verdict, static.message
        return report
    tests = problem.tests(include_hidden)
    payload = build_payload(problem, code, tests)
    try:
        run = sandbox.run(payload)
    except SandboxUnavailable as exc:
        report.message = f"the judge could not run the sandbox: {exc}"
        return report
    parsed = parse_run(run, [t.id for t in payload.tests])
    calls: list[CallRecord] = []
    for test_input in payload.tests:
        call = parsed.calls[test_input.id]
        if parsed.import_error:
            call = CallRecord(Outcome.RAISED, error=parsed.import_error)
        calls.append(call)
    report.tests = [_result(problem, t, c) for t, c in zip(tests, calls, strict=True)]
    report.verdict, report.score = aggregate(report.tests)
    if parsed.import_error:
        report.message = "loading the code failed: " + parsed.import_error.describe()
    report.seconds = round(time.monotonic() - started, 3)
    return report
