from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from judge.grading import aggregate, grade
from judge.problems import Problem, load_problem
from judge.results import TestResult, TestStatus, Verdict, Visibility
from sandbox import codec
from sandbox.interface import Payload, RawRun, SandboxUnavailable, Stop
from tests.utils.fake_sandbox import FakeSandbox, returned
from tests.utils.problem_factory import PROBLEM_TOML, make_problem

CODE = "def mean(values):\n    return 0.0\n"


@pytest.fixture
def problem(tmp_path: Path) -> Problem:
    hidden = [{"name": f"h{i}", "args": [[float(i)]], "expected": float(i)} for i in range(3)]
    return load_problem(make_problem(tmp_path, hidden=hidden))


def answer_all(value: Any) -> FakeSandbox:
    return FakeSandbox(lambda p: [returned(t.id, value, [[1.0]]) for t in p.tests])


def test_expected_values_never_enter_the_payload(problem: Problem) -> None:
    sandbox = answer_all(1.5)
    grade(problem, CODE, sandbox)
    sent = json.dumps([t.__dict__ for t in sandbox.payloads[0].tests])
    assert "1.5" not in sent  # the public test's expected value
    assert "expected" not in sent


def test_hidden_tests_reveal_only_status_and_category(problem: Problem) -> None:
    report = grade(problem, CODE, answer_all("oops"))
    assert report.verdict is Verdict.WRONG_ANSWER
    hidden = [t.as_json() for t in report.tests if t.visibility is Visibility.HIDDEN]
    assert hidden and all(set(h) == {"name", "visibility", "status", "category", "seconds"}
                          for h in hidden)
    assert hidden[0]["category"] == "wrong type: expected float, got str"
    public = report.tests[0].as_json()
    assert public["expected"] == 1.5 and public["actual"] == "oops"
    assert public["note"] == "the middle"


def test_status_only_policy_hides_the_category(tmp_path: Path) -> None:
    toml = PROBLEM_TOML.format(slug="mean", returns="float") + '\n[visibility]\nhidden = "status"\n'
    problem = load_problem(make_problem(tmp_path, toml=toml))
    report = grade(problem, CODE, answer_all("oops"))
    assert report.tests[-1].as_json()["category"] == ""


def _unchanged_args(payload: Payload, values: list[float]) -> list[dict[str, Any]]:
    return [returned(t.id, v, [codec.decode(a) for a in t.args])
            for t, v in zip(payload.tests, values, strict=True)]


def test_correct_values_are_accepted(problem: Problem) -> None:
    sandbox = FakeSandbox(lambda p: _unchanged_args(p, [1.5, 0.0, 1.0, 2.0]))
    report = grade(problem, CODE, sandbox)
    assert report.verdict is Verdict.ACCEPTED and report.score == 1.0
    assert report.problem_version == problem.version


def test_a_changed_argument_fails_even_with_the_right_value(problem: Problem) -> None:
    sandbox = FakeSandbox(lambda p: [returned(t.id, 1.5, [[2.0, 1.0]]) for t in p.tests[:1]])
    report = grade(problem, CODE, sandbox)
    assert report.tests[0].status is TestStatus.WRONG_ANSWER
    assert "changed its argument 'values': it was [1.0, 2.0] and became [2.0, 1.0]" in (
        report.tests[0].explanation or "")


def test_missing_and_duplicate_records_fail(problem: Problem) -> None:
    def responder(payload: Payload) -> list[dict[str, Any]]:
        first, second, *_ = payload.tests
        return [returned(first.id, 1.5, [[1.0, 2.0]]), returned(second.id, 0.0, [[0.0]]),
                returned(second.id, 0.0, [[0.0]])]

    report = grade(problem, CODE, FakeSandbox(responder))
    assert report.tests[0].status is TestStatus.PASSED
    assert report.tests[1].status is TestStatus.RUNTIME_ERROR  # duplicated
    assert all(t.status is TestStatus.RUNTIME_ERROR for t in report.tests[2:])  # missing
    assert report.score == pytest.approx(1 / 4)


class ScriptedSandbox:
    def __init__(self, run: RawRun) -> None:
        self.result = run

    def run(self, payload: Payload) -> RawRun:
        return self.result


def test_junk_lines_are_skipped_not_trusted(problem: Problem) -> None:
    lines = [b'{"kind": "import", "ok": true}', b"not json", b'{"kind": "test", "id": "t0", '
             b'"outcome": "returned", "value": {"t": "float"}}', b"[1, 2]"]
    report = grade(problem, CODE, ScriptedSandbox(RawRun(lines)))
    assert report.verdict is Verdict.RUNTIME_ERROR
    assert report.score == 0.0


def test_a_stopped_run_times_out_the_test_in_progress(problem: Problem) -> None:
    lines = [b'{"kind": "import", "ok": true}', b'{"kind": "begin", "id": "t0"}']
    report = grade(problem, CODE, ScriptedSandbox(RawRun(lines, stopped=Stop.STALLED)))
    assert report.tests[0].status is TestStatus.TIME_LIMIT_EXCEEDED
    assert {t.status for t in report.tests[1:]} == {TestStatus.RUNTIME_ERROR}


def test_import_error_fails_every_test_with_its_message(problem: Problem) -> None:
    lines = [b'{"kind": "import", "ok": false, "error": {"type": "NameError", '
             b'"message": "name \'x\' is not defined", "line": 3}}', b'{"kind": "done"}']
    report = grade(problem, CODE, ScriptedSandbox(RawRun(lines)))
    assert report.verdict is Verdict.RUNTIME_ERROR
    assert report.message == "loading the code failed: NameError at line 3: name 'x' is not defined"


def test_unavailable_sandbox_is_an_internal_error(problem: Problem) -> None:
    class Broken:
        def run(self, payload: Payload) -> RawRun:
            raise SandboxUnavailable("engine gone")

    report = grade(problem, CODE, Broken())
    assert report.verdict is Verdict.INTERNAL_ERROR and "engine gone" in report.message


def test_static_failures_skip_the_sandbox(problem: Problem) -> None:
    sandbox = answer_all(1.5)
    report = grade(problem, "import openai\n" + CODE, sandbox)
    assert report.verdict is Verdict.FORBIDDEN and sandbox.payloads == []
    assert grade(problem, "def mean(:\n", sandbox).verdict is Verdict.COMPILE_ERROR


def test_expected_exception(tmp_path: Path) -> None:
    folder = make_problem(tmp_path, public=[{"name": "empty", "args": [[]], "raises": "ValueError"}],
                          hidden=[])
    problem = load_problem(folder)
    raised = {"kind": "test", "id": "t0", "outcome": "raised", "args_after": [], "kwargs_after": {},
              "error": {"type": "ValueError", "message": "empty", "line": 2}}
    assert grade(problem, CODE, FakeSandbox(lambda p: [raised])).verdict is Verdict.ACCEPTED
    report = grade(problem, CODE, FakeSandbox(lambda p: [returned("t0", 0.0, [[]])]))
    assert report.verdict is Verdict.WRONG_ANSWER
    assert report.tests[0].explanation == "expected the call to raise ValueError, but it returned a value"


def _result(status: TestStatus) -> TestResult:
    return TestResult("t", Visibility.PUBLIC, status)


def test_aggregate_takes_the_first_failure_and_scores_the_share() -> None:
    tests = [_result(TestStatus.PASSED), _result(TestStatus.TIME_LIMIT_EXCEEDED),
             _result(TestStatus.WRONG_ANSWER), _result(TestStatus.PASSED)]
    assert aggregate(tests) == (Verdict.TIME_LIMIT_EXCEEDED, 0.5)
    assert aggregate([_result(TestStatus.PASSED)]) == (Verdict.ACCEPTED, 1.0)
