"""Proving a problem: the reference passes everything, deterministically, and each known-wrong
solution gets exactly the verdict it declares.

``check_problem`` returns the whole report an author reads (the reference's verdict and score,
whether two runs agreed, each wrong solution against its declared verdict, the test counts);
``validate_problem`` keeps only its failures in words, as the CLI and CI want them. Every
formula of the statement, the hints and the editorial must render (``check_formulas``).

A budget bounds the wall clock of the whole validation, because an upload may declare 600 s a
submission and a score of wrong solutions: each run is given at most the time left, and the
validation ends at the budget with a failure that says so, never hours later.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from judge.grading import first_failure, grade, sandbox_limits
from judge.math_text import formula_errors
from judge.problems import Problem
from judge.results import Report, TestStatus, Verdict
from sandbox.interface import Payload, Sandbox, SandboxRun

# Against a learner's container's 1024 (Docker's default): under contention a validation's
# container gets a seventeenth of a core's time beside a learner's, and all of an idle one.
VALIDATION_CPU_WEIGHT = 64


class BehindJudging:
    """A sandbox whose containers yield the CPU to learners' (a lower CPU weight, nothing else
    changed): a draft whose solutions spin the CPU for minutes takes only what judging leaves."""

    def __init__(self, inner: Sandbox) -> None:
        self.inner = inner

    def run(self, payload: Payload) -> SandboxRun:
        limits = dataclasses.replace(payload.limits, cpu_weight=VALIDATION_CPU_WEIGHT)
        return self.inner.run(dataclasses.replace(payload, limits=limits))

    def check(self) -> None:
        self.inner.check()


def _fingerprint(report: Report) -> list[tuple[str, str, str]]:
    # By name: hidden tests run in a fresh random order each time.
    return sorted((t.name, t.status.value, repr(t.actual)) for t in report.tests)


def _first_difference(first: Report, second: Report) -> str:
    """Where two runs of the reference differ, in words: a test whose outcome changed (one that
    ran out of time if any did, since the others then did not run), and, when one did, that the
    reference is too near its limit."""
    runs = dict(_by_name(first)), dict(_by_name(second))
    changed = [(name, runs[0].get(name, ("missing", "")), runs[1].get(name, ("missing", "")))
               for name in sorted(set(runs[0]) | set(runs[1]))
               if runs[0].get(name) != runs[1].get(name)]
    if not changed:
        return "the same tests in another order"
    late = [c for c in changed if TestStatus.TIME_LIMIT_EXCEEDED in (c[1][0], c[2][0])]
    name, one, two = (late or changed)[0]
    said = f"test {name!r}: {_outcome(one)} in the first, {_outcome(two)} in the second"
    if late:
        said += ("; a reference this near its time per test is judged by the machine's load, so "
                 "give it more time or make it faster")
    return said


def _by_name(report: Report) -> list[tuple[str, tuple[str, str]]]:
    return [(name, (status, actual)) for name, status, actual in _fingerprint(report)]


def _outcome(outcome: tuple[str, str]) -> str:
    """A test's status, with the value it returned where it returned one."""
    status, actual = outcome
    if status not in (TestStatus.PASSED, TestStatus.WRONG_ANSWER):
        return status
    return f"{status} ({actual if len(actual) <= 40 else actual[:37] + '...'})"


@dataclass(frozen=True)
class WrongCheck:
    """One known-wrong solution: the verdict its first line declares, the one it got, and every
    verdict another order of the hidden tests could have given it."""

    file: str  # as in the folder: wrong/<name>.py
    declared: Verdict
    got: Verdict
    # By verdict, the hidden tests that would name it if run first: filled only when the verdict
    # is luck, that is when no public test fails and the failing hidden tests disagree.
    by_order: dict[Verdict, tuple[str, ...]] = field(default_factory=dict)
    # The test whose failure named the verdict (the first to fail, in run order) and what the
    # judge said of it (the exception raised, or how the value differed); None when accepted.
    decided_by: tuple[str, str] | None = None

    @classmethod
    def of(cls, file: str, declared: Verdict, report: Report, public: int) -> WrongCheck:
        failing = first_failure(report.tests)
        decided = None if failing is None else (failing.name, _brief(failing.explanation or failing.category))
        return cls(file, declared, report.verdict, _order_verdicts(report, public), decided)

    @property
    def ok(self) -> bool:
        return self.declared is self.got and not self.by_order

    def words(self) -> str:
        if not self.by_order:
            why = f"; test {self.decided_by[0]} decided it: {self.decided_by[1]}" if self.decided_by else ""
            return f"{self.file} got {self.got.value}, declared {self.declared.value}{why}"
        ways = " or ".join(f"{verdict.value} ({_tests(names)})"
                           for verdict, names in self.by_order.items())
        return (f"{self.file} (declared {self.declared.value}) gets a verdict that depends on the "
                f"random order of the hidden tests: {ways}; make every hidden test it fails fail "
                f"the same way, or let a public test catch it first")

    def as_json(self) -> dict[str, Any]:
        return {"file": self.file, "declared": self.declared.value, "got": self.got.value,
                "ok": self.ok, "could_get": [v.value for v in self.by_order],
                "decided_by": None if self.decided_by is None else {
                    "test": self.decided_by[0], "detail": self.decided_by[1]}}


def _brief(text: str, limit: int = 300) -> str:
    """One line of at most ``limit`` characters: a report names the failure, the submission
    page holds the whole of it."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _tests(names: tuple[str, ...]) -> str:
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    return f"{len(names)} test{'s' if len(names) != 1 else ''}: {shown}"


def _order_verdicts(report: Report, public: int) -> dict[Verdict, tuple[str, ...]]:
    """Hidden tests run in a fresh random order, and the first failing test names the verdict:
    when no public test fails (they always run first, in order) and the failing hidden tests
    failed in different ways, each of those ways is a verdict some order gives."""
    passing = (TestStatus.PASSED, TestStatus.NOT_RUN)
    if any(t.status not in passing for t in report.tests[:public]):
        return {}
    ways: dict[Verdict, list[str]] = {}
    for test in report.tests[public:]:
        if test.status not in passing:
            ways.setdefault(Verdict(test.status.value), []).append(test.name)
    if len(ways) < 2:
        return {}
    return {verdict: tuple(sorted(ways[verdict])) for verdict in sorted(ways, key=lambda v: v.value)}


@dataclass(frozen=True)
class FormulaCheck:
    """A formula of the statement, a hint or the editorial that does not render, and where."""

    file: str  # statement.md, hints.md or editorial.md
    hint: int | None  # hints.md: which hint (from 1); its line counts from the hint's first line
    line: int
    formula: str
    reason: str

    def words(self) -> str:
        where = (f"{self.file}, hint {self.hint}, line {self.line} of the hint" if self.hint
                 else f"{self.file}, line {self.line}")
        return f"{where}: the formula {self.formula} cannot be rendered: {self.reason}"

    def as_json(self) -> dict[str, Any]:
        return {"file": self.file, "hint": self.hint, "line": self.line, "formula": self.formula,
                "reason": self.reason}


def check_formulas(problem: Problem) -> tuple[FormulaCheck, ...]:
    """Every formula of the statement, the hints and the editorial that does not render: learners
    would see it as escaped code with a note, so a version holding one is not valid."""
    texts: list[tuple[str, int | None, str]] = [("statement.md", None, problem.statement)]
    texts += [("hints.md", index, hint) for index, hint in enumerate(problem.hints, start=1)]
    if problem.editorial is not None:
        texts.append(("editorial.md", None, problem.editorial))
    return tuple(FormulaCheck(file, hint, e.line, e.formula, e.reason)
                 for file, hint, text in texts for e in formula_errors(text))


@dataclass(frozen=True)
class ValidationReport:
    reference_verdict: Verdict
    reference_score: float
    reference_passed: int
    reference_total: int
    deterministic: bool
    wrong: tuple[WrongCheck, ...]
    public_tests: int
    hidden_tests: int
    failures: tuple[str, ...] = field(default=())
    formulas: tuple[FormulaCheck, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.failures

    def as_json(self) -> dict[str, Any]:
        """The report as stored on a version and served to its author."""
        return {
            "reference": {"verdict": self.reference_verdict.value, "score": self.reference_score,
                          "passed": self.reference_passed, "total": self.reference_total},
            "deterministic": self.deterministic,
            "wrong": [w.as_json() for w in self.wrong],
            "public_tests": self.public_tests,
            "hidden_tests": self.hidden_tests,
            "formulas": [f.as_json() for f in self.formulas],
            "failures": list(self.failures),
        }


def _reference_failure(problem: Problem, report: Report) -> str:
    failing = [f"{t.name} ({t.status.value}: {t.explanation or t.category})"
               for t in report.tests if t.status is not TestStatus.PASSED][:5]
    return (f"{problem.slug}: the reference got {report.verdict.value} {report.message} "
            + "; ".join(failing))


class _OutOfTime(Exception):
    """The validation's budget ran out during (or before) the run named."""

    def __init__(self, step: str) -> None:
        super().__init__(step)
        self.step = step


class _Budget:
    """The wall clock left of one validation; None: no cap (the CLI, CI)."""

    def __init__(self, seconds: float | None, clock: Callable[[], float]) -> None:
        self.seconds, self.clock = seconds, clock
        self.ends = None if seconds is None else clock() + seconds

    def grade(self, problem: Problem, code: str, sandbox: Sandbox, step: str) -> Report:
        """grade(), its sandbox's wall clock cut to the time left; _OutOfTime when the budget
        ran out before or during it (a verdict the cut decided is not the solution's)."""
        if self.ends is None:
            return grade(problem, code, sandbox)
        left = self.ends - self.clock()
        if left <= 0:
            raise _OutOfTime(step)
        declared = sandbox_limits(problem, len(problem.tests())).time_per_submission
        if left < declared:
            cut = dataclasses.replace(problem.limits, time_per_submission=left,
                                      time_per_test=min(problem.limits.time_per_test, left))
            problem = dataclasses.replace(problem, limits=cut)
        report = grade(problem, code, sandbox)
        if self.clock() >= self.ends:
            raise _OutOfTime(step)
        return report


def _out_of_time(problem: Problem, seconds: float | None, step: str, checked: int) -> str:
    unchecked = len(problem.wrong) - checked
    left = f"; {unchecked} of {len(problem.wrong)} wrong solutions not checked" if unchecked else ""
    return (f"{problem.slug}: validation took over {seconds:g} s (the cap on a version's whole "
            f"validation); stopped at {step}{left}")


def check_problem(
    problem: Problem, sandbox: Sandbox, progress: Callable[[str], None] = lambda _: None,
    budget_seconds: float | None = None, clock: Callable[[], float] = time.monotonic,
) -> ValidationReport:
    """Check every formula, grade the reference twice and every wrong solution once; the full
    report. With
    ``budget_seconds``, all of it within that wall clock: a run still going when it runs out is
    ended there, and the report's one failure for it says the validation took too long."""
    budget = _Budget(budget_seconds, clock)
    formulas = check_formulas(problem)
    failures: list[str] = [f"{problem.slug}: {f.words()}" for f in formulas]
    checks: list[WrongCheck] = []
    progress(f"{problem.slug}: reference")
    first: Report | None = None
    deterministic = False
    try:
        first = budget.grade(problem, problem.reference, sandbox, "the reference's first run")
        if first.verdict is not Verdict.ACCEPTED:
            failures.append(_reference_failure(problem, first))
        second = budget.grade(problem, problem.reference, sandbox, "the reference's second run")
        deterministic = _fingerprint(first) == _fingerprint(second)
        if not deterministic:
            failures.append(f"{problem.slug}: two runs of the reference gave different results: "
                            f"{_first_difference(first, second)}")
        for wrong in problem.wrong:
            progress(f"{problem.slug}: wrong/{wrong.name}.py")
            file = f"wrong/{wrong.name}.py"
            check = WrongCheck.of(file, wrong.verdict, budget.grade(problem, wrong.code, sandbox, file),
                                  len(problem.public_tests))
            if not check.ok:
                failures.append(f"{problem.slug}: {check.words()}")
            checks.append(check)
    except _OutOfTime as out:
        failures.append(_out_of_time(problem, budget_seconds, out.step, len(checks)))
    return ValidationReport(
        # A reference cut short by the budget did not finish in time: that is its verdict here.
        reference_verdict=first.verdict if first else Verdict.TIME_LIMIT_EXCEEDED,
        reference_score=first.score if first else 0.0,
        reference_passed=first.passed if first else 0,
        reference_total=len(first.tests) if first else len(problem.tests()),
        deterministic=deterministic, wrong=tuple(checks),
        public_tests=len(problem.public_tests), hidden_tests=len(problem.hidden_tests),
        failures=tuple(failures), formulas=formulas)


def validate_problem(
    problem: Problem, sandbox: Sandbox, progress: Callable[[str], None] = lambda _: None
) -> list[str]:
    """Every failure, in words; an empty list means the problem is sound."""
    return list(check_problem(problem, sandbox, progress).failures)
