"""Running a mutant against a problem's tests in a child process with limits.

A mutant may loop, eat memory or call ``os._exit``; so it runs in a child process (``judge.mutation.child``)
with ``RLIMIT_AS``, a CPU limit and a wall-clock timeout, and a crash or a timeout counts as a failure.
Children are forked by a fork server (``judge.mutation.forkserver``) that has imported the child's
modules once, so each costs milliseconds rather than an interpreter's start. ``run_child`` is the
parent side; ``judge.mutation.child`` holds the child's side of every job.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from judge.mutation import forkserver
from judge.problems import Problem
from sandbox.interface import encode

MEMORY_LIMIT_BYTES = 1 << 30  # RLIMIT_AS for every mutant process


def run_child(job: dict[str, Any], wall_seconds: float) -> str | None:
    """Run a job in a child process; a crash or a timeout counts as a difference."""
    job = {**job, "memory_bytes": MEMORY_LIMIT_BYTES, "cpu_seconds": wall_seconds + 5}
    result = forkserver.server().run(job, wall_seconds)
    if isinstance(result, str):
        return result
    return str(result["detail"]) if result["differs"] else None


def encode_case(name: str, args: Sequence[Any], kwargs: dict[str, Any], expected: Any = None,
                raises: str | None = None) -> dict[str, Any]:
    """One test or fuzz input as a job case, its values in the sandbox codec."""
    return {"name": name, "args": [encode(a) for a in args],
            "kwargs": {k: encode(v) for k, v in kwargs.items()},
            "expected": encode(expected), "raises": raises}


def base_job(problem: Problem, source: str) -> dict[str, Any]:
    """What every job needs: the code, the function's name, the checker, the rules and the time limit."""
    return {"source": source, "function": problem.function, "checker": problem.checker.as_dict(),
            "immutable": problem.rules.immutable_arguments, "seconds": problem.limits.time_per_test}


def failure_reason(problem: Problem, source: str) -> str | None:
    """Why ``source`` fails the problem's public + hidden tests, or None when it passes them all."""
    tests = problem.tests(include_hidden=True)
    cases = [encode_case(t.name, t.args, t.kwargs, t.expected, t.raises) for t in tests]
    cases.sort(key=lambda case: len(json.dumps(case)))  # cheap tests first: most mutants die early
    job = {**base_job(problem, source), "kind": "tests", "cases": cases}
    return run_child(job, problem.limits.time_per_submission + 5)
