"""The shipped problems' prose renders cleanly: every formula converts, hints and editorials
follow the format problems/README.md describes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from api.rendering import render_markdown
from judge.problems import discover, load_problem
from judge.engine_settings import ROOT

SHIPPED = discover(ROOT / "problems")
EDITORIAL_SECTIONS = ("## Idea", "## Pitfalls the hidden tests probe", "## Complexity")


def _texts(folder: Path) -> dict[str, str]:
    problem = load_problem(folder)
    texts = {"statement.md": problem.statement}
    texts.update({f"hints.md hint {i}": hint for i, hint in enumerate(problem.hints, start=1)})
    if problem.editorial is not None:
        texts["editorial.md"] = problem.editorial
    return texts


@pytest.mark.parametrize("folder", SHIPPED, ids=[f.name for f in SHIPPED])
def test_every_formula_renders(folder: Path) -> None:
    for where, text in _texts(folder).items():
        html = render_markdown(text)
        assert 'class="math-error"' not in html, f"{folder.name}/{where}: {html}"
        assert not re.search(r"\sstyle=", html), f"{folder.name}/{where}"  # mstyle elements are fine


@pytest.mark.parametrize("folder", SHIPPED, ids=[f.name for f in SHIPPED])
def test_hints_and_editorial_follow_the_format(folder: Path) -> None:
    problem = load_problem(folder)
    if problem.hints:
        assert 2 <= len(problem.hints) <= 4, f"{folder.name}: {len(problem.hints)} hints"
    if problem.editorial is not None:
        lines = problem.editorial.splitlines()
        at = [lines.index(section) if section in lines else -1 for section in EDITORIAL_SECTIONS]
        assert -1 not in at and at == sorted(at), (
            f"{folder.name}/editorial.md needs the sections {', '.join(EDITORIAL_SECTIONS)} in order")
