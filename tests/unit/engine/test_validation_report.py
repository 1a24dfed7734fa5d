"""The validation report an author reads: the reference's verdict and score, whether two runs of
it agree, each known-wrong solution against the verdict it declares, and the test counts."""

from __future__ import annotations

import itertools
from pathlib import Path

from judge.problems import load_problem
from judge.results import Verdict
from judge.validation import check_problem, validate_problem
from sandbox.inside import codec
from sandbox.inside.protocol import CallResult, Outcome
from sandbox.interface import Payload, TestInput
from tests.unit.service.exec_sandbox import ExecSandbox
from tests.utils.fake_sandbox import FakeSandbox, returned
from tests.utils.problem_factory import make_problem

HIDDEN = [{"name": f"h{i}", "args": [[float(i), float(i)]], "expected": float(i)} for i in range(3)]
WRONG = {"halves": "# verdict: wrong_answer\ndef mean(v):\n    return 0.5\n",
         "raises": "# verdict: runtime_error\ndef mean(v):\n    return v[10]\n"}


def test_a_sound_problem_reports_every_part(tmp_path: Path) -> None:
    problem = load_problem(make_problem(tmp_path, hidden=HIDDEN, wrong=WRONG))
    report = check_problem(problem, ExecSandbox())
    assert report.ok and report.failures == ()
    assert report.as_json() == {
        "reference": {"verdict": "accepted", "score": 1.0, "passed": 4, "total": 4},
        "deterministic": True,
        "wrong": [{"file": "wrong/halves.py", "declared": "wrong_answer", "got": "wrong_answer", "ok": True,
                   "could_get": [],
                   "decided_by": {"test": "two", "detail": "expected 1.5, got 0.5: off by 1 (allowed 1.5e-09)"}},
                  {"file": "wrong/raises.py", "declared": "runtime_error", "got": "runtime_error",
                   "ok": True, "could_get": [],
                   "decided_by": {"test": "two", "detail": "IndexError at line 3: list index out of range"}}],
        "public_tests": 1,
        "hidden_tests": 3,
        "formulas": [],
        "failures": [],
    }
    assert validate_problem(problem, ExecSandbox()) == []


def test_a_formula_that_does_not_render_is_a_failure_naming_file_formula_and_why(tmp_path: Path) -> None:
    folder = make_problem(tmp_path, hidden=HIDDEN, wrong=WRONG)
    (folder / "statement.md").write_text("Return the mean, $\\bar{x}$.\n\nIt is $\\frac{1}{n}$ of\n$\\sum x_i$.\n")
    (folder / "hints.md").write_text("## Sum\n\nAdd them: $\\sum x$.\n\n## Divide\n\nThen $\\frac{s}$.\n")
    (folder / "editorial.md").write_text("# Idea\n\n$$\n\\mean{x}\n$$\n")
    report = check_problem(load_problem(folder), ExecSandbox())
    assert [f.as_json() for f in report.formulas] == [
        {"file": "hints.md", "hint": 2, "line": 1, "formula": "$\\frac{s}$",
         "reason": "a command is missing an argument (<mfrac> needs 2)"},
        {"file": "editorial.md", "hint": None, "line": 4, "formula": "$$\\mean{x}$$",
         "reason": "unknown command \\mean"}]
    assert report.failures[:2] == (
        "mean: hints.md, hint 2, line 1 of the hint: the formula $\\frac{s}$ cannot be rendered: "
        "a command is missing an argument (<mfrac> needs 2)",
        "mean: editorial.md, line 4: the formula $$\\mean{x}$$ cannot be rendered: unknown command \\mean")
    assert not report.ok and report.reference_verdict is Verdict.ACCEPTED  # the rest still ran


def test_a_wrong_solution_that_gets_another_verdict_is_named(tmp_path: Path) -> None:
    wrong = {"slow": "# verdict: time_limit_exceeded\ndef mean(v):\n    return 0.5\n"}
    problem = load_problem(make_problem(tmp_path, hidden=HIDDEN, wrong=wrong))
    report = check_problem(problem, ExecSandbox())
    assert not report.ok
    assert [w.as_json() for w in report.wrong] == [
        {"file": "wrong/slow.py", "declared": "time_limit_exceeded", "got": "wrong_answer", "ok": False,
         "could_get": [], "decided_by": {"test": "two", "detail": "expected 1.5, got 0.5: off by 1 (allowed 1.5e-09)"}}]
    # Which test gave the other verdict, and what the judge said of it.
    assert report.failures == ("mean: wrong/slow.py got wrong_answer, declared time_limit_exceeded; test two "
                               "decided it: expected 1.5, got 0.5: off by 1 (allowed 1.5e-09)",)
    assert report.reference_verdict is Verdict.ACCEPTED and report.deterministic


# Passes the public test (1.0, 2.0); of the hidden ones, raises on h0 (0.0, 0.0), answers h1
# right and h2 wrong: which comes first among h0 and h2 decides its verdict.
TWO_WAYS = ("def mean(v):\n    if v[0] == 0.0:\n        return 1 / v[0]\n"
            "    return sum(v) / len(v) if v[0] < 2 else 0.5\n")


def test_a_wrong_solution_whose_verdict_depends_on_the_hidden_order_is_named(tmp_path: Path) -> None:
    # Whatever verdict the shuffle gave this time, the check fails the same way: an author never
    # learns of it from a validation that failed once in four.
    problem = load_problem(make_problem(tmp_path, hidden=HIDDEN,
                                        wrong={"luck": "# verdict: runtime_error\n" + TWO_WAYS}))
    for _ in range(4):
        report = check_problem(problem, ExecSandbox())
        assert [w.as_json()["could_get"] for w in report.wrong] == [["runtime_error", "wrong_answer"]]
        assert not report.ok and not report.wrong[0].ok
        assert report.failures == (
            "mean: wrong/luck.py (declared runtime_error) gets a verdict that depends on the random "
            "order of the hidden tests: runtime_error (1 test: h0) or wrong_answer (1 test: h2); "
            "make every hidden test it fails fail the same way, or let a public test catch it first",)


def test_a_public_test_that_catches_the_mistake_first_makes_the_verdict_certain(tmp_path: Path) -> None:
    # Public tests run first and in order: the hidden tests' mixed failures never name it.
    public = [{"name": "wide", "args": [[2.0, 4.0]], "expected": 3.0}]
    problem = load_problem(make_problem(tmp_path, public=public, hidden=HIDDEN,
                                        wrong={"caught": "# verdict: wrong_answer\n" + TWO_WAYS}))
    report = check_problem(problem, ExecSandbox())
    assert report.ok and [w.as_json()["could_get"] for w in report.wrong] == [[]]


def test_a_failing_reference_reports_its_verdict_and_score(tmp_path: Path) -> None:
    # Expected 9.0 where the mean is 1.0: the reference fails one hidden test of three.
    hidden = [*HIDDEN[:2], {"name": "bad", "args": [[1.0]], "expected": 9.0}]
    problem = load_problem(make_problem(tmp_path, hidden=hidden, wrong={}))
    report = check_problem(problem, ExecSandbox())
    assert report.reference_verdict is Verdict.WRONG_ANSWER
    assert report.reference_score == 0.75 and report.reference_passed == 3
    assert len(report.failures) == 1 and "the reference got wrong_answer" in report.failures[0]
    assert "bad (wrong_answer" in report.failures[0]


def test_a_reference_that_answers_differently_twice_is_not_deterministic(tmp_path: Path) -> None:
    problem = load_problem(make_problem(tmp_path, hidden=HIDDEN))
    runs = itertools.count()

    def answer(payload: Payload) -> list[CallResult]:
        # Accepted both times, but the second run's floats differ within the checker's
        # tolerance: the same results are wanted, not only the same verdict.
        if "return 0.5" in payload.code:  # the known-wrong solution
            return [returned(t, 0.5) for t in payload.tests]
        run = next(runs)
        return [returned(t, _mean(t) + run * 1e-12) for t in payload.tests]

    report = check_problem(problem, FakeSandbox(answer))
    assert report.reference_verdict is Verdict.ACCEPTED
    assert report.deterministic is False
    [failure] = report.failures
    assert failure.startswith("mean: two runs of the reference gave different results: test ")
    assert "passed (" in failure and "in the first, passed (" in failure and "time" not in failure


def test_a_reference_out_of_time_in_one_run_is_told_to_be_too_near_its_limit(tmp_path: Path) -> None:
    problem = load_problem(make_problem(tmp_path, hidden=HIDDEN))
    runs = itertools.count()
    slow = problem.public_tests[0].name  # public tests run first, in their order

    def answer(payload: Payload) -> list[CallResult]:
        if "return 0.5" in payload.code:
            return [returned(t, 0.5) for t in payload.tests]
        late = next(runs) == 1  # the second run meets a loaded machine on one test
        return [CallResult(Outcome.TIMEOUT, seconds=2.5) if late and n == 0 else returned(t, _mean(t))
                for n, t in enumerate(payload.tests)]

    [failure] = check_problem(problem, FakeSandbox(answer)).failures
    assert f"test {slow!r}: passed (" in failure and "in the first, time_limit_exceeded in the second" in failure
    assert failure.endswith("judged by the machine's load, so give it more time or make it faster")


def _mean(test: TestInput) -> float:
    values = codec.decode(test.args[0])
    return float(sum(values) / len(values))
