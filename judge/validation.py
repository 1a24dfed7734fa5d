"""Proving a problem: the reference passes everything, deterministically, and each known-wrong
solution gets exactly the verdict it declares.

``check_problem`` returns the whole report an author reads (the reference's verdict and score,
whether two runs agreed, each wrong solution against its declared verdict, the test counts);
``validate_problem`` keeps only its failures in words, as the CLI and CI want them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from judge.grading import grade
from judge.problems import Problem
from judge.results import Report, TestStatus, Verdict
from sandbox.interface import Sandbox


def _fingerprint(report: Report) -> list[tuple[str, str, object]]:
    # By name: hidden tests run in a fresh random order each time.
    return sorted((t.name, t.status.value, repr(t.actual)) for t in report.tests)


@dataclass(frozen=True)
class WrongCheck:
    """One known-wrong solution: the verdict its first line declares and the one it got."""

    file: str  # as in the folder: wrong/<name>.py
    declared: Verdict
    got: Verdict

    @property
    def ok(self) -> bool:
        return self.declared is self.got

    def as_json(self) -> dict[str, Any]:
        return {"file": self.file, "declared": self.declared.value, "got": self.got.value, "ok": self.ok}


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
            "failures": list(self.failures),
        }


def _reference_failure(problem: Problem, report: Report) -> str:
    failing = [f"{t.name} ({t.status.value}: {t.explanation or t.category})"
               for t in report.tests if t.status is not TestStatus.PASSED][:5]
    return (f"{problem.slug}: the reference got {report.verdict.value} {report.message} "
            + "; ".join(failing))


def check_problem(
    problem: Problem, sandbox: Sandbox, progress: Callable[[str], None] = lambda _: None
) -> ValidationReport:
    """Grade the reference twice and every wrong solution once; the full report."""
    failures: list[str] = []
    progress(f"{problem.slug}: reference")
    first = grade(problem, problem.reference, sandbox)
    if first.verdict is not Verdict.ACCEPTED:
        failures.append(_reference_failure(problem, first))
    second = grade(problem, problem.reference, sandbox)
    deterministic = _fingerprint(first) == _fingerprint(second)
    if not deterministic:
        failures.append(f"{problem.slug}: two runs of the reference gave different results")
    checks = []
    for wrong in problem.wrong:
        progress(f"{problem.slug}: wrong/{wrong.name}.py")
        check = WrongCheck(f"wrong/{wrong.name}.py", wrong.verdict,
                           grade(problem, wrong.code, sandbox).verdict)
        if not check.ok:
            failures.append(f"{problem.slug}: {check.file} got {check.got.value}, "
                            f"declared {check.declared.value}")
        checks.append(check)
    return ValidationReport(
        reference_verdict=first.verdict, reference_score=first.score,
        reference_passed=first.passed, reference_total=len(first.tests),
        deterministic=deterministic, wrong=tuple(checks),
        public_tests=len(problem.public_tests), hidden_tests=len(problem.hidden_tests),
        failures=tuple(failures))


def validate_problem(
    problem: Problem, sandbox: Sandbox, progress: Callable[[str], None] = lambda _: None
) -> list[str]:
    """Every failure, in words; an empty list means the problem is sound."""
    return list(check_problem(problem, sandbox, progress).failures)
