"""Proving a problem: the reference passes everything, deterministically, and each known-wrong
solution gets exactly the verdict it declares."""

from __future__ import annotations

from collections.abc import Callable

from judge.grading import grade
from judge.problems import Problem
from judge.results import Report, Verdict
from sandbox.interface import Sandbox


def _fingerprint(report: Report) -> list[tuple[str, str, object]]:
    # By name: hidden tests run in a fresh random order each time.
    return sorted((t.name, t.status.value, repr(t.actual)) for t in report.tests)


def validate_problem(
    problem: Problem, sandbox: Sandbox, progress: Callable[[str], None] = lambda _: None
) -> list[str]:
    """Every failure, in words; an empty list means the problem is sound."""
    failures: list[str] = []
    progress(f"{problem.slug}: reference")
    first = grade(problem, problem.reference, sandbox)
    if first.verdict is not Verdict.ACCEPTED:
        failing = [f"{t.name} ({t.status.value}: {t.explanation or t.category})"
                   for t in first.tests if t.status.value != "passed"][:5]
        failures.append(
            f"{problem.slug}: the reference got {first.verdict.value} {first.message} "
            + "; ".join(failing)
        )
    second = grade(problem, problem.reference, sandbox)
    if _fingerprint(first) != _fingerprint(second):
        failures.append(f"{problem.slug}: two runs of the reference gave different results")
    for wrong in problem.wrong:
        progress(f"{problem.slug}: wrong/{wrong.name}.py")
        report = grade(problem, wrong.code, sandbox)
        if report.verdict is not wrong.verdict:
            failures.append(
                f"{problem.slug}: wrong/{wrong.name}.py got {report.verdict.value}, "
                f"declared {wrong.verdict.value}"
            )
    return failures
