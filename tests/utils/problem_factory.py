"""Builds problem folders in a temporary directory for loader and grading tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PROBLEM_TOML = """\
slug = "{slug}"
title = "Mean of a list"
difficulty = "easy"
tags = ["fixture"]

[function]
name = "mean"
returns = "{returns}"

[[function.parameters]]
name = "values"
type = "list[float]"

[checker]
name = "float"
abs_tol = 1e-9
rel_tol = 1e-9
"""

REFERENCE = "def mean(values):\n    return sum(values) / len(values)\n"


def make_problem(
    root: Path,
    slug: str = "mean",
    toml: str | None = None,
    public: list[dict[str, Any]] | None = None,
    hidden: list[dict[str, Any]] | None = None,
    returns: str = "float",
    wrong: dict[str, str] | None = None,
) -> Path:
    folder = root / slug
    (folder / "tests").mkdir(parents=True)
    (folder / "wrong").mkdir()
    (folder / "problem.toml").write_text(toml or PROBLEM_TOML.format(slug=slug, returns=returns))
    (folder / "statement.md").write_text("Return the mean.\n")
    (folder / "reference.py").write_text(REFERENCE)
    (folder / "starter.py").write_text("def mean(values):\n    raise NotImplementedError\n")
    public = public if public is not None else [
        {"name": "two", "args": [[1.0, 2.0]], "expected": 1.5, "explanation": "the middle"}
    ]
    hidden = hidden if hidden is not None else [{"name": "one", "args": [[4]], "expected": 4}]
    (folder / "tests" / "public.json").write_text(json.dumps(public))
    (folder / "tests" / "hidden.json").write_text(json.dumps(hidden))
    for name, code in (wrong or {"halves": "# verdict: wrong_answer\ndef mean(v):\n    return 0.5\n"}).items():
        (folder / "wrong" / f"{name}.py").write_text(code)
    return folder
