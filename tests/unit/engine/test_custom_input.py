"""A try: the learner's own arguments through the reference, then through the learner's code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.custom_input import MAX_ARGUMENT_BYTES, TRY_NAME, Rejected, run_try, typed_arguments
from judge.errors import InvalidInput
from judge.problems import Problem, load_problem
from judge.results import Report, TestStatus, Verdict
from sandbox.inside import codec
from tests.unit.service.exec_sandbox import ExecSandbox
from tests.utils.problem_factory import REFERENCE, make_problem

RIGHT = "def mean(values):\n    return sum(values) / len(values)\n"
HALF = "def mean(values):\n    return 0.5\n"
TOML = """\
slug = "pair"
title = "Pairs"
difficulty = "easy"
tags = ["fixture"]

[function]
name = "pair"
returns = "float"

[[function.parameters]]
name = "weights"
type = "dict[str, float]"

[[function.parameters]]
name = "tokens"
type = "list[tuple[str, int]]"

[[function.parameters]]
name = "scale"
type = "float"
optional = true

[checker]
name = "float"
"""


@pytest.fixture
def problem(tmp_path: Path) -> Problem:
    return load_problem(make_problem(tmp_path))


@pytest.fixture
def pair(tmp_path: Path) -> Problem:
    public = [{"name": "empty", "args": [{}, []], "expected": 0.0}]
    folder = make_problem(tmp_path, slug="pair", toml=TOML, public=public, hidden=[], wrong={})
    (folder / "reference.py").write_text("def pair(weights, tokens, scale=1.0):\n    return 0.0\n")
    return load_problem(folder)


def test_a_right_answer_is_accepted_with_the_reference_value_as_expected(problem: Problem) -> None:
    sandbox = ExecSandbox()
    report = run_try(problem, RIGHT, typed_arguments(problem, [[1, 2.5]]), sandbox)
    assert isinstance(report, Report) and report.verdict is Verdict.ACCEPTED and report.score == 1.0
    [test] = [t.as_json() for t in report.tests]
    assert test["name"] == TRY_NAME == "your input" and test["visibility"] == "custom"
    assert test["args"] == [[1.0, 2.5]] and test["expected"] == 1.75 and test["actual_repr"] == "1.75"
    assert test["status"] == "passed"
    # The reference ran first, in the sandbox; then the learner's code; no expected value went in.
    assert [p.code for p in sandbox.payloads] == [REFERENCE, RIGHT]
    assert "1.75" not in json.dumps([t.__dict__ for t in sandbox.payloads[1].tests])


def test_a_wrong_answer_is_explained(problem: Problem) -> None:
    report = run_try(problem, HALF, typed_arguments(problem, [[1.0, 3.0]]), ExecSandbox())
    assert isinstance(report, Report) and report.verdict is Verdict.WRONG_ANSWER
    test = report.tests[0].as_json()
    assert test["expected"] == 2.0 and test["actual_repr"] == "0.5"
    assert test["explanation"].startswith("expected 2.0, got 0.5: off by 1.5")


def test_the_learners_exception_and_mutation_are_the_learners(problem: Problem) -> None:
    raising = "def mean(values):\n    raise ValueError('mine')\n"
    report = run_try(problem, raising, [[1.0]], ExecSandbox())
    assert isinstance(report, Report) and report.verdict is Verdict.RUNTIME_ERROR
    assert "ValueError" in (report.tests[0].explanation or "") and "mine" in (report.tests[0].explanation or "")
    mutating = "def mean(values):\n    m = sum(values) / len(values)\n    values.clear()\n    return m\n"
    report = run_try(problem, mutating, [[1.0]], ExecSandbox())
    assert isinstance(report, Report) and report.verdict is Verdict.WRONG_ANSWER
    assert "values" in (report.tests[0].explanation or "")


def test_arguments_the_reference_rejects_are_not_the_learners_fault(problem: Problem) -> None:
    sandbox = ExecSandbox()
    tried = run_try(problem, RIGHT, typed_arguments(problem, [[]]), sandbox)
    assert isinstance(tried, Rejected)
    assert tried.message == ("the reference rejects these arguments: it raises ZeroDivisionError: "
                             "division by zero")
    [test] = [t.as_json() for t in tried.tests]
    assert test["status"] == TestStatus.NOT_RUN.value and test["visibility"] == "custom"
    assert test["explanation"].startswith(tried.message) and "not run" in test["explanation"]
    assert test["args"] == [[]] and test["actual_repr"] == "None"
    assert len(sandbox.payloads) == 1  # the learner's code was not run at all
    # Only the exception's type and message leave: no line of the reference, no source.
    assert "line" not in json.dumps(test) and "sum(values)" not in json.dumps(test)


def test_a_reference_that_runs_out_of_time_rejects_too(tmp_path: Path) -> None:
    folder = make_problem(tmp_path)
    (folder / "reference.py").write_text("def mean(values):\n    while values:\n        pass\n    return 0.0\n")
    tried = run_try(load_problem(folder), RIGHT, [[1.0]], ExecSandbox())
    assert isinstance(tried, Rejected)
    assert tried.message.startswith("the reference rejects these arguments: stopped after")


def test_code_that_fails_the_static_checks_never_reaches_the_sandbox(problem: Problem) -> None:
    sandbox = ExecSandbox()
    report = run_try(problem, "def mean(values:\n", [[1.0]], sandbox)
    assert isinstance(report, Report) and report.verdict is Verdict.COMPILE_ERROR and report.tests == []
    assert sandbox.payloads == []


def test_arguments_are_typed_as_declared(pair: Problem) -> None:
    typed = typed_arguments(pair, [{"a": 1}, [["x", 2]]])
    assert typed == [{"a": 1.0}, [("x", 2)]] and type(typed[0]["a"]) is float
    assert typed_arguments(pair, [{}, [], 2]) == [{}, [], 2.0]  # the optional one given too
    payload_args = [codec.decode(codec.encode(a)) for a in typed]
    assert payload_args[1] == [("x", 2)]  # a tuple reaches the function as a tuple


@pytest.mark.parametrize(("arguments", "message"), [
    ({"weights": {}}, "arguments: send a JSON list with one value per parameter (weights, tokens, scale)"),
    ([{}], "arguments: 1 given, but pair takes 2 to 3 (weights, tokens, scale)"),
    ([{}, [], 1.0, 2], "arguments: 4 given, but pair takes 2 to 3"),
    ([{"a": "x"}, []], "arguments[0]: parameter 'weights'['a']: 'x' is not a float (expected dict[str, float])"),
    ([{}, [["x", 1.5]]], "arguments[1]: parameter 'tokens'[0][1]: 1.5 is not a int"),
    ([{}, [["x"]]], "arguments[1]: parameter 'tokens'[0]: tuple[str, int] needs 2 items, not 1"),
    ([{}, [], True], "arguments[2]: parameter 'scale': True is not a float"),
    ([{}, [], float("nan")], "arguments: NaN and infinity are not allowed"),
    ([{}, [], float("inf")], "arguments: NaN and infinity are not allowed"),
    ([{}, [["\ud800", 1]]], "arguments: a string holds a lone surrogate"),
    ([{}, [], 10**400], "arguments[2]: parameter 'scale': 1000000000"),
])
def test_bad_arguments_name_what_is_wrong(pair: Problem, arguments: object, message: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        typed_arguments(pair, arguments)
    assert str(refused.value).startswith(message)


def test_arguments_are_capped_in_size_and_depth(pair: Problem) -> None:
    big = [{}, [["x" * 1000, 1]] * 70]
    with pytest.raises(InvalidInput, match=rf"bytes of JSON; at most {MAX_ARGUMENT_BYTES}"):
        typed_arguments(pair, big)
    deep: object = 1
    for _ in range(40):
        deep = [deep]
    with pytest.raises(InvalidInput, match="nested more than 32 levels deep"):
        typed_arguments(pair, [{}, [], deep])


def test_a_long_value_is_not_echoed_back_whole(pair: Problem) -> None:
    with pytest.raises(InvalidInput) as refused:
        typed_arguments(pair, [{}, [], "y" * 5000])
    assert len(str(refused.value)) < 200 and "..." in str(refused.value)
