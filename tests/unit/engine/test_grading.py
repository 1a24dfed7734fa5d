from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

import pytest

from judge.grading import aggregate, build_payload, grade, run_order
from judge.problems import Problem, load_problem
from judge.results import TestResult, TestStatus, Verdict, Visibility
from sandbox.inside import codec
from sandbox.inside.protocol import CallResult, ErrorInfo, Outcome
from sandbox.interface import Payload, SandboxRun, SandboxUnavailable, TestInput
from tests.conftest import FIXTURES
from tests.utils.fake_sandbox import FakeSandbox, returned
from tests.utils.problem_factory import PROBLEM_TOML, make_problem

CODE = "def mean(values):\n    return 0.0\n"


@pytest.fixture
def problem(tmp_path: Path) -> Problem:
    hidden = [{"name": f"h{i}", "args": [[float(i)]], "expected": float(i)} for i in range(3)]
    return load_problem(make_problem(tmp_path, hidden=hidden))


def answer_all(value: Any) -> FakeSandbox:
    return FakeSandbox(lambda p: [returned(t, value) for t in p.tests])


def test_expected_values_and_names_never_enter_the_payload(problem: Problem) -> None:
    sandbox = answer_all(1.5)
    grade(problem, CODE, sandbox)
    sent = json.dumps([t.__dict__ for t in sandbox.payloads[0].tests])
    assert "1.5" not in sent  # the public test's expected value
    assert "expected" not in sent and "h0" not in sent


def test_hidden_tests_are_an_aggregate_to_learners(problem: Problem) -> None:
    report = grade(problem, CODE, answer_all("oops"))
    assert report.verdict is Verdict.WRONG_ANSWER
    shown = report.as_json()
    assert [t["visibility"] for t in shown["tests"]] == ["public"]
    assert shown["hidden"] == {"total": 3, "passed": 0, "not_run": 0,
                               "first_failure": "wrong type: expected float, got str"}
    assert "h0" not in json.dumps(shown)
    public = shown["tests"][0]
    assert public["expected"] == 1.5 and public["actual_repr"] == "'oops'"
    assert public["note"] == "the middle"
    full = report.as_json(full=True)
    assert [t["name"] for t in full["tests"]][1:] != [] and "hidden" not in full


def test_per_test_policy_shows_unnamed_statuses(tmp_path: Path) -> None:
    toml = PROBLEM_TOML.format(slug="mean", returns="float") + '\n[visibility]\nhidden = "per_test"\n'
    problem = load_problem(make_problem(tmp_path, toml=toml))
    shown = grade(problem, CODE, answer_all("oops")).as_json()
    assert shown["hidden"]["tests"][0] == {"status": "wrong_answer",
                                           "category": "wrong type: expected float, got str"}


def test_hidden_tests_run_in_a_fresh_random_order(tmp_path: Path) -> None:
    hidden = [{"name": f"h{i}", "args": [[float(i)]], "expected": float(i)} for i in range(12)]
    problem = load_problem(make_problem(tmp_path, hidden=hidden))
    orders = {tuple(t.name for t in run_order(problem, True)) for _ in range(5)}
    assert len(orders) > 1
    assert all(order[0] == problem.public_tests[0].name for order in orders)
    assert run_order(problem, False) == problem.public_tests


def test_correct_values_are_accepted(problem: Problem) -> None:
    sandbox = FakeSandbox(lambda p: [returned(t, statistics.fmean(codec.decode(t.args[0])))
                                     for t in p.tests])
    report = grade(problem, CODE, sandbox)
    assert report.verdict is Verdict.ACCEPTED and report.score == 1.0
    assert report.problem_version == problem.version


def test_a_changed_argument_fails_even_with_the_right_value(problem: Problem) -> None:
    sandbox = FakeSandbox(lambda p: [returned(p.tests[0], 1.5, [[2.0, 1.0]])])
    report = grade(problem, CODE, sandbox)
    assert report.tests[0].status is TestStatus.WRONG_ANSWER
    assert "changed its argument 'values': it was [1.0, 2.0] and became [2.0, 1.0]" in (
        report.tests[0].explanation or "")


def test_tests_after_a_stop_are_not_run(problem: Problem) -> None:
    timeout = CallResult(Outcome.TIMEOUT, detail="each test may take 2 s")
    report = grade(problem, CODE, FakeSandbox(lambda p: [returned(p.tests[0], 1.5), timeout]))
    assert [t.status for t in report.tests] == [
        TestStatus.PASSED, TestStatus.TIME_LIMIT_EXCEEDED, TestStatus.NOT_RUN, TestStatus.NOT_RUN]
    assert report.verdict is Verdict.TIME_LIMIT_EXCEEDED
    assert report.score == pytest.approx(1 / 4)
    assert report.as_json()["hidden"]["not_run"] == 2


def test_import_error_fails_every_test_with_its_message(problem: Problem) -> None:
    loaded = CallResult(Outcome.RAISED, error=ErrorInfo("NameError", "name 'x' is not defined", 3))
    report = grade(problem, CODE, FakeSandbox(lambda p: [], loaded=loaded))
    assert report.verdict is Verdict.RUNTIME_ERROR
    assert report.message == "loading the code failed: NameError at line 3: name 'x' is not defined"


def test_unavailable_sandbox_is_never_a_verdict(problem: Problem) -> None:
    class Broken:
        def run(self, payload: Payload) -> SandboxRun:
            raise SandboxUnavailable("engine gone")

    with pytest.raises(SandboxUnavailable, match="engine gone"):
        grade(problem, CODE, Broken())


def test_text_that_breaks_storage_is_shown_escaped(problem: Problem) -> None:
    report = grade(problem, CODE, answer_all("a\x00b\ud800"))
    public = report.as_json()["tests"][0]
    assert public["actual_repr"] == "'a\\x00b\\ud800'"
    json.dumps(public, ensure_ascii=False).encode("utf-8")  # no lone surrogate left


def test_static_failures_skip_the_sandbox(problem: Problem) -> None:
    sandbox = answer_all(1.5)
    report = grade(problem, "import openai\n" + CODE, sandbox)
    assert report.verdict is Verdict.FORBIDDEN and sandbox.payloads == []
    assert grade(problem, "def mean(:\n", sandbox).verdict is Verdict.COMPILE_ERROR


def test_expected_exception(tmp_path: Path) -> None:
    folder = make_problem(tmp_path, public=[{"name": "empty", "args": [[]], "raises": "ValueError"}],
                          hidden=[])
    problem = load_problem(folder)
    raised = CallResult(Outcome.RAISED, error=ErrorInfo("ValueError", "empty", 2))
    assert grade(problem, CODE, FakeSandbox(lambda p: [raised])).verdict is Verdict.ACCEPTED
    report = grade(problem, CODE, FakeSandbox(lambda p: [returned(p.tests[0], 0.0)]))
    assert report.verdict is Verdict.WRONG_ANSWER
    assert report.tests[0].explanation == "expected the call to raise ValueError, but it returned a value"


def _result(status: TestStatus) -> TestResult:
    return TestResult("t", Visibility.PUBLIC, status)


def test_aggregate_takes_the_first_failure_and_scores_the_share() -> None:
    tests = [_result(TestStatus.PASSED), _result(TestStatus.TIME_LIMIT_EXCEEDED),
             _result(TestStatus.WRONG_ANSWER), _result(TestStatus.PASSED)]
    assert aggregate(tests) == (Verdict.TIME_LIMIT_EXCEEDED, 0.5)
    assert aggregate([_result(TestStatus.PASSED)]) == (Verdict.ACCEPTED, 1.0)


def test_a_versions_inputs_are_encoded_once_and_never_mixed_up(secret_problem: Problem) -> None:
    """A worker judges one loaded version many times: its tests are encoded once. A version
    loaded again (another Problem object, whose tests have other ids) is encoded for itself."""
    tests = run_order(secret_problem, include_hidden=True)
    first = build_payload(secret_problem, "x", tests)
    again = build_payload(secret_problem, "y", tuple(reversed(tests)))
    assert [id(t) for t in again.tests] == [id(t) for t in reversed(first.tests)]
    assert first.tests == [TestInput([codec.encode(a) for a in t.args],
                                     {k: codec.encode(v) for k, v in t.kwargs.items()})
                           for t in tests]
    reloaded = load_problem(FIXTURES / "problems" / "secret_lookup")
    fresh = build_payload(reloaded, "x", run_order(reloaded, include_hidden=False))
    assert fresh.tests == first.tests[: len(reloaded.public_tests)]
    assert all(a is not b for a, b in zip(fresh.tests, first.tests, strict=False))


def test_a_payload_says_how_many_of_its_tests_a_learner_is_shown(secret_problem: Problem) -> None:
    """The sandbox sends no hidden test's arguments ahead of the public tests' answers
    (``Payload.shown``, sandbox.conversation)."""
    public = len(secret_problem.public_tests)
    assert secret_problem.hidden_tests
    assert build_payload(secret_problem, "x", run_order(secret_problem, include_hidden=True)).shown == public
    assert build_payload(secret_problem, "x", run_order(secret_problem, include_hidden=False)).shown == public
