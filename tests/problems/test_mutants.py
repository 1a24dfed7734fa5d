"""Mutation testing: each problem's hidden tests must reject most small bugs in its reference.

judge/mutation/ mutates every reference (flip a comparison, drop a min/max, change a constant,
swap arguments, shift a range bound, ...), runs each mutant against the public and hidden tests in a
subprocess, and fuzzes the survivors against the reference with the problem's own
``fuzz_inputs`` (tests/generate.py). At least 90% of the non-equivalent mutants must be killed.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from judge.mutation import (
    KILL_SHARE_REQUIRED,
    Operator,
    analyze_problem,
    failure_reason,
    fuzz_difference,
    fuzz_inputs,
    generate_mutants,
    select_mutants,
)
from judge.problems import discover, load_problem

PROBLEMS = Path(__file__).resolve().parents[2] / "problems"
SLUGS = [folder.name for folder in discover(PROBLEMS)]

TINY = """\
def f(xs, k):
    total = 0
    for i in range(1, len(xs)):
        if xs[i] < k and not xs[i] in (3, 4):
            total += min(xs[i], k)
    return max(total, 1) - 2
"""


def _sources(operator: Operator) -> list[str]:
    return [m.source for m in generate_mutants(TINY) if m.operator is operator]


def _body(source: str) -> str:
    return ast.unparse(ast.parse(source))


def test_every_operator_applies_to_the_tiny_function() -> None:
    assert {m.operator for m in generate_mutants(TINY)} == set(Operator)


def test_comparison_flips() -> None:
    sources = _sources(Operator.FLIP_COMPARISON)
    for variant in ("xs[i] <= k", "xs[i] >= k", "xs[i] not in (3, 4)"):
        assert any(variant in s for s in sources), variant
    assert len(sources) == 3


def test_min_max_dropped_constants_changed_and_arguments_swapped() -> None:
    dropped = _sources(Operator.DROP_MIN_MAX)
    assert any("total += xs[i]\n" in s for s in dropped) and any("total += k\n" in s for s in dropped)
    assert any("return total - 2" in s for s in dropped) and any("return 1 - 2" in s for s in dropped)
    constants = _sources(Operator.CHANGE_CONSTANT)
    assert any("total = 1\n" in s for s in constants) and any("total = -1\n" in s for s in constants)
    assert any("max(total, 1) - 3" in s for s in constants)
    swapped = _sources(Operator.SWAP_ARGUMENTS)
    assert any("min(k, xs[i])" in s for s in swapped) and any("max(1, total)" in s for s in swapped)
    assert any("range(len(xs), 1)" in s for s in swapped)


def test_range_bounds_boolean_and_arithmetic_operators() -> None:
    ranges = _sources(Operator.RANGE_OFF_BY_ONE)
    for bounds in ("range(0, len(xs))", "range(1, len(xs) + 1)", "range(1, len(xs) - 1)"):
        assert any(bounds in s for s in ranges), bounds
    assert any(" or not xs[i] in" in s for s in _sources(Operator.SWAP_AND_OR))
    arithmetic = _sources(Operator.SWAP_PLUS_MINUS)
    assert any("total -= min" in s for s in arithmetic) and any("max(total, 1) + 2" in s for s in arithmetic)
    assert any("and xs[i] in (3, 4)" in s for s in _sources(Operator.DROP_NOT))


def test_mutants_are_distinct_valid_and_described() -> None:
    mutants = generate_mutants(TINY)
    sources = [m.source for m in mutants]
    assert len(set(sources)) == len(sources)
    assert _body(TINY) not in sources
    # range(1, ...) -> range(2, ...) comes from both the constant and the range operator: kept once.
    assert sum("range(2, len(xs))" in s for s in sources) == 1
    for number, mutant in enumerate(mutants, start=1):
        compile(mutant.source, "mutant.py", "exec")
        assert mutant.number == number
        assert mutant.description.startswith(f"line {mutant.line}: {mutant.operator}: ")
        assert "\n" not in mutant.description
    assert [m.line for m in mutants] == sorted(m.line for m in mutants)


def test_selection_is_deterministic_and_spread() -> None:
    mutants = generate_mutants(TINY)
    chosen = select_mutants(mutants, 5)
    assert chosen == select_mutants(mutants, 5) and len(chosen) == 5
    assert chosen[0] is mutants[0] and chosen[-1].line >= mutants[len(mutants) // 2].line
    assert select_mutants(mutants, 0) == mutants


def test_runner_kills_wrong_slow_and_greedy_code() -> None:
    problem = load_problem(PROBLEMS / "brevity_penalty")
    assert failure_reason(problem, problem.reference) is None
    reason = failure_reason(problem, problem.reference.replace("0.0", "0"))
    assert reason is not None and "expected 0.0, got 0" in reason
    loops = "def brevity_penalty(c, r):\n    while True:\n        pass\n"
    assert "timed out" in (failure_reason(problem, loops) or "")
    greedy = "def brevity_penalty(c, r):\n    return float(len([0] * 10**10))\n"
    assert "MemoryError" in (failure_reason(problem, greedy) or "")
    crash = "import os\n\ndef brevity_penalty(c, r):\n    os._exit(3)\n"
    assert "crashed" in (failure_reason(problem, crash) or "")


def test_fuzz_tells_a_bug_from_an_equivalent_rewrite() -> None:
    folder = PROBLEMS / "brevity_penalty"
    problem = load_problem(folder)
    inputs = fuzz_inputs(problem, folder, 300)
    assert inputs is not None and len(inputs) == 300
    equivalent = problem.reference.replace(
        "candidate_length >= reference_length", "candidate_length > reference_length")
    assert fuzz_difference(problem, equivalent, inputs) is None
    buggy = problem.reference.replace("1 - reference_length", "2 - reference_length")
    assert "fuzz input" in (fuzz_difference(problem, buggy, inputs) or "")


@pytest.mark.parametrize("slug", SLUGS)
def test_every_problem_has_a_fuzzer(slug: str) -> None:
    folder = PROBLEMS / slug
    problem = load_problem(folder)
    inputs = fuzz_inputs(problem, folder, 50)
    assert inputs is not None, f"{slug}: tests/generate.py needs fuzz_inputs(rng, count)"
    assert len(inputs) == 50 and inputs == fuzz_inputs(problem, folder, 50)


@pytest.mark.parametrize("slug", SLUGS)
def test_hidden_tests_kill_mutants(slug: str) -> None:
    report = analyze_problem(PROBLEMS / slug)
    assert report.results, f"{slug}: no mutants"
    survivors = "\n".join(f"  #{r.mutant.number} {r.mutant.description}\n      {r.detail}"
                          for r in report.survivors)
    assert report.kill_share >= KILL_SHARE_REQUIRED, (
        f"{slug}: the tests kill {report.killed} of {report.killed + len(report.survivors)} "
        f"non-equivalent mutants ({report.kill_share:.1%}, need {KILL_SHARE_REQUIRED:.0%}); "
        f"survivors:\n{survivors}"
    )
