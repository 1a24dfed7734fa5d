"""Telling a surviving mutant from an equivalent one: fuzz it against the reference.

A mutant that passes every test is either a bug the tests miss or a rewrite that changes nothing
(``c >= r`` -> ``c > r`` where both branches agree at ``c == r``). Both run on the same inputs from the
problem's own ``fuzz_inputs`` (tests/generate.py); if they always agree the mutant is *probably
equivalent*. ``fuzz_difference`` is the parent side of a fuzz job; ``judge.mutation.child.compare``
the child side.
"""

from __future__ import annotations

import importlib.util
import json
import random
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from judge.mutation.runner import base_job, encode_case, run_child
from judge.problems import Problem
from judge.value_types import TypeSpecError, from_json

FUZZ_WALL_SECONDS = 120.0

Input = tuple[list[Any], dict[str, Any]]
"""Positional and keyword arguments for one call."""


def _typed(problem: Problem, args: Sequence[Any], kwargs: dict[str, Any]) -> Input:
    """The input as a test file would give it: through JSON, then the declared parameter types."""
    raw_args, raw_kwargs = json.loads(json.dumps([list(args), kwargs]))
    by_name = {p.name: p for p in problem.parameters}
    typed_args = [from_json(v, p.type, p.name) for v, p in zip(raw_args, problem.parameters, strict=False)]
    typed_kwargs = {k: from_json(v, by_name[k].type, k) for k, v in raw_kwargs.items()}
    return typed_args, typed_kwargs


def fuzz_inputs(problem: Problem, folder: Path, count: int) -> list[Input] | None:
    """``count`` inputs from ``fuzz_inputs(rng, count)`` in the problem's tests/generate.py, typed as
    the problem declares; None when the problem has no fuzzer. The seed depends only on the slug."""
    path = folder / "tests" / "generate.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"_mutation_fuzz_{problem.slug}", path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fuzzer = getattr(module, "fuzz_inputs", None)
    if fuzzer is None:
        return None
    rng = random.Random(zlib.crc32(problem.slug.encode()))
    inputs = []
    for args, kwargs in fuzzer(rng, count):
        try:
            inputs.append(_typed(problem, args, kwargs))
        except (TypeSpecError, TypeError, ValueError) as exc:
            raise ValueError(f"{path}: fuzz_inputs gave an input that does not fit: {exc}") from exc
    return inputs


def fuzz_difference(problem: Problem, source: str, inputs: Sequence[Input]) -> str | None:
    """The first fuzz input on which ``source`` and the reference differ, or None."""
    cases = [encode_case(f"fuzz_{i}", args, kwargs) for i, (args, kwargs) in enumerate(inputs)]
    job = {**base_job(problem, source), "kind": "fuzz", "reference": problem.reference, "cases": cases}
    return run_child(job, FUZZ_WALL_SECONDS)
