"""Mutation testing of many problems at once, on one pool of worker threads.

Every mutant's test run is queued before any survivor is fuzzed, so the pool stays busy while the
first problems' survivors wait for their fuzz inputs. The threads only wait on child processes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from judge.mutation.equivalence import fuzz_difference, fuzz_inputs
from judge.mutation.mutants import Mutant, generate_mutants, select_mutants
from judge.mutation.report import MutantResult, ProblemReport, Status
from judge.mutation.runner import failure_reason
from judge.problems import Problem, load_problem

DEFAULT_MAX_MUTANTS = 60
DEFAULT_FUZZ_COUNT = 1500
DEFAULT_WORKERS = 2


@dataclass
class _Plan:
    """One problem on its way through the pool: mutants, then test runs, then fuzzing."""

    problem: Problem
    folder: Path
    generated: int
    mutants: list[Mutant]
    runs: list[Future[str | None]] = field(default_factory=list)
    fuzzes: list[Future[str | None] | None] = field(default_factory=list)

    def report(self) -> ProblemReport:
        results = []
        for mutant, run, fuzz in zip(self.mutants, self.runs, self.fuzzes, strict=True):
            failure = run.result()
            if failure is not None:
                results.append(MutantResult(mutant, Status.KILLED, failure))
                continue
            difference = fuzz.result() if fuzz is not None else "no fuzzer for this problem"
            status = Status.EQUIVALENT if difference is None else Status.SURVIVED
            results.append(MutantResult(mutant, status, difference or ""))
        return ProblemReport(self.problem.slug, self.generated, tuple(results))


def analyze(
    folders: Sequence[Path],
    *,
    workers: int = DEFAULT_WORKERS,
    max_mutants: int = DEFAULT_MAX_MUTANTS,
    fuzz_count: int = DEFAULT_FUZZ_COUNT,
    progress: Callable[[str], None] = lambda _: None,
) -> list[ProblemReport]:
    """Mutate each problem's reference, run the mutants (``workers`` at a time) and fuzz survivors."""
    plans = []
    for folder in folders:
        problem = load_problem(folder)
        mutants = generate_mutants(problem.reference)
        plans.append(_Plan(problem, folder, len(mutants), select_mutants(mutants, max_mutants)))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for plan in plans:  # queue every test run first: the pool stays busy while survivors are fuzzed
            plan.runs = [pool.submit(failure_reason, plan.problem, m.source) for m in plan.mutants]
        for plan in plans:
            alive = [run.result() is None for run in plan.runs]
            slug = plan.problem.slug
            progress(f"{slug}: the tests kill {len(alive) - sum(alive)} of {len(alive)} mutants")
            inputs = fuzz_inputs(plan.problem, plan.folder, fuzz_count) if any(alive) else None
            plan.fuzzes = [
                pool.submit(fuzz_difference, plan.problem, m.source, inputs)
                if ok and inputs is not None else None
                for m, ok in zip(plan.mutants, alive, strict=True)
            ]
        return [plan.report() for plan in plans]


def analyze_problem(
    folder: Path,
    *,
    workers: int = DEFAULT_WORKERS,
    max_mutants: int = DEFAULT_MAX_MUTANTS,
    fuzz_count: int = DEFAULT_FUZZ_COUNT,
    progress: Callable[[str], None] = lambda _: None,
) -> ProblemReport:
    """The report for one problem folder; options as for ``analyze``."""
    return analyze([folder], workers=workers, max_mutants=max_mutants, fuzz_count=fuzz_count,
                   progress=progress)[0]
