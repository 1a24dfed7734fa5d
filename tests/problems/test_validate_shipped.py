"""Every shipped problem proves itself in the real sandbox, as `judge problems validate` does:
the reference is accepted, two runs agree, each wrong solution gets its declared verdict."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.problems import discover, load_problem
from judge.engine_settings import ROOT
from judge.validation import validate_problem
from sandbox.docker_runner import DockerSandbox

SHIPPED = discover(ROOT / "problems")

pytestmark = pytest.mark.docker


@pytest.mark.parametrize("folder", SHIPPED, ids=[f.name for f in SHIPPED])
def test_problem_validates(folder: Path, docker_sandbox: DockerSandbox) -> None:
    problem = load_problem(folder)
    assert validate_problem(problem, docker_sandbox) == []
