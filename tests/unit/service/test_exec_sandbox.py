"""The exec test double answers in the real sandbox's types and words (see tests/sandbox for the
same cases through Docker): what grading sees must not depend on which one ran the code."""

from __future__ import annotations

import pytest

from judge.grading import build_payload, grade
from judge.problems import Problem
from judge.results import TestStatus, Verdict
from sandbox.inside import codec
from sandbox.inside.codec import Opaque
from sandbox.inside.protocol import AS_SENT, CallResult, ErrorInfo, Outcome
from sandbox.interface import Limits, Payload, SandboxUnavailable, TestInput
from tests.unit.service.exec_sandbox import ExecSandbox


def payload(code: str, *tests: tuple[list[object], dict[str, object]], function: str = "f",
            **limits: float) -> Payload:
    inputs = [TestInput([codec.encode(a) for a in args], {k: codec.encode(v) for k, v in kwargs.items()})
              for args, kwargs in tests]
    return Payload(code, function, inputs, Limits(**limits))  # type: ignore[arg-type]


def test_returned_values_and_arguments_come_back_decoded() -> None:
    code = "def f(items, *, by=1):\n    items.append(by)\n    return (len(items), 2.5, None, {'k': [True]})\n"
    run = ExecSandbox().run(payload(code, ([[1, 2]], {"by": 7})))
    assert run.loaded == CallResult(Outcome.RETURNED, seconds=run.loaded.seconds)
    [result] = run.results
    assert result.outcome is Outcome.RETURNED and result.error is None
    assert result.value == (3, 2.5, None, {"k": [True]}) and isinstance(result.value, tuple)
    # The changed list comes back decoded; the untouched keyword as AS_SENT (same tree, not redone).
    assert result.args_after == [[1, 2, 7]] and result.kwargs_after == {"by": AS_SENT}
    assert isinstance(result.seconds, float) and result.stdout == ""


def test_values_of_other_types_arrive_opaque() -> None:
    code = "class Score(float):\n    pass\ndef f():\n    return Score(1.0)\n"
    [result] = ExecSandbox().run(payload(code, ([], {}))).results
    assert result.value == Opaque("solution.Score", "1.0")


def test_an_exception_is_raised_with_type_message_and_line() -> None:
    code = "def f(x):\n    if x:\n        raise ValueError('no ' + str(x))\n    return 1 / x\n"
    results = ExecSandbox().run(payload(code, ([3], {}), ([0], {}))).results
    assert [r.outcome for r in results] == [Outcome.RAISED, Outcome.RAISED]
    assert results[0].error == ErrorInfo("ValueError", "no 3", 3)
    assert results[1].error == ErrorInfo("ZeroDivisionError", "division by zero", 4)
    assert results[0].value is None and results[0].args_after is None


def test_loading_failures_stand_for_every_test() -> None:
    run = ExecSandbox().run(payload("x = 1\n", ([1], {})))
    assert run.loaded.outcome is Outcome.RAISED and run.results == []
    assert run.loaded.error == ErrorInfo("NameError", "f is not a callable function", None)
    run = ExecSandbox().run(payload("import no_such_module_here\ndef f():\n    pass\n", ([], {})))
    assert run.loaded.error is not None and run.loaded.error.type == "ModuleNotFoundError"
    assert run.loaded.error.line == 1


def test_printing_is_captured_and_capped() -> None:
    code = "import sys\ndef f(n):\n    print('x' * n)\n    print('err', file=sys.stderr)\n    return n\n"
    run = ExecSandbox().run(payload(code, ([3], {}), ([100], {}), ([1], {}), stdout_bytes=50))
    assert run.results[0].stdout == "xxx\nerr\n" and run.results[0].outcome is Outcome.RETURNED
    assert run.results[1].outcome is Outcome.OUTPUT_LIMIT
    assert run.results[1].detail == "the call printed more than 50 bytes"
    assert run.results[2].outcome is Outcome.RETURNED  # an output flood does not stop the run


def test_an_endless_call_times_out_and_ends_the_run() -> None:
    code = "def f(spin):\n    while spin:\n        try:\n            pass\n        except BaseException:\n            pass\n    return 0\n"
    run = ExecSandbox().run(payload(code, ([False], {}), ([True], {}), ([False], {}), time_per_test=0.2))
    assert [r.outcome for r in run.results] == [Outcome.RETURNED, Outcome.TIMEOUT]  # the third never sent
    assert run.results[1].detail.startswith("stopped after 0.2")
    assert run.results[1].detail.endswith("each test may take 0.2 s")


def test_each_step_gets_a_fresh_module() -> None:
    code = "calls = []\ndef f():\n    calls.append(1)\n    return len(calls)\n"
    results = ExecSandbox().run(payload(code, ([], {}), ([], {}))).results
    assert [r.value for r in results] == [1, 1]


def test_a_switched_off_double_is_unavailable() -> None:
    sandbox = ExecSandbox(available=False)
    with pytest.raises(SandboxUnavailable):
        sandbox.check()
    with pytest.raises(SandboxUnavailable):
        sandbox.run(payload("def f():\n    pass\n"))


def test_grading_through_the_double(secret_problem: Problem) -> None:
    sandbox = ExecSandbox()
    assert grade(secret_problem, secret_problem.reference, sandbox).verdict is Verdict.ACCEPTED
    reports = {wrong.name: grade(secret_problem, wrong.code, sandbox) for wrong in secret_problem.wrong}
    for wrong in secret_problem.wrong:
        assert reports[wrong.name].verdict is wrong.verdict, wrong.name
    statuses = [t.status for t in reports["spin"].tests]
    assert statuses == [TestStatus.TIME_LIMIT_EXCEEDED] + [TestStatus.NOT_RUN] * 4
    # The payload holds arguments only: names and expected values never leave the host.
    sent = build_payload(secret_problem, "x", secret_problem.public_tests)
    assert "zq-secret" not in repr(sent)
