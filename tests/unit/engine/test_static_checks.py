from __future__ import annotations

from pathlib import Path

import pytest

from judge.problems import Problem, load_problem
from judge.results import Verdict
from judge.static_checks import check_source
from tests.utils.problem_factory import PROBLEM_TOML, make_problem


@pytest.fixture
def problem(tmp_path: Path) -> Problem:
    toml = PROBLEM_TOML.format(slug="mean", returns="float") + (
        '\n[rules]\nforbidden_imports = ["statistics"]\nforbidden_calls = ["eval", "sum"]\n'
    )
    return load_problem(make_problem(tmp_path, toml=toml))


def test_valid_code_passes(problem: Problem) -> None:
    assert check_source("def mean(values):\n    return 1.0\n", problem) is None


def test_syntax_error_has_line_and_column(problem: Problem) -> None:
    failure = check_source("def mean(values):\n    return (1 +\n", problem)
    assert failure is not None and failure.verdict is Verdict.COMPILE_ERROR
    assert failure.line == 2 and failure.column is not None
    assert failure.message.startswith("line 2, column")


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("def average(values):\n    return 1.0\n", "no top-level function named 'mean'"),
        ("class A:\n    def mean(self, values):\n        return 1.0\n", "no top-level function"),
        ("def mean():\n    return 1.0\n", "mean takes 0 parameters; expected 1"),
        ("def mean(a, b):\n    return 1.0\n", "requires more arguments than the tests pass (1)"),
        ("async def mean(values):\n    return 1.0\n", "must be a plain def"),
        ("def mean(values, *, scale):\n    return 1.0\n", "requires more arguments"),
    ],
)
def test_signature_problems_are_compile_errors(problem: Problem, code: str, message: str) -> None:
    failure = check_source(code, problem)
    assert failure is not None and failure.verdict is Verdict.COMPILE_ERROR
    assert message in failure.message


@pytest.mark.parametrize(
    "code",
    [
        "def mean(values, scale=1):\n    return 1.0\n",
        "def mean(*args):\n    return 1.0\n",
        "def mean(values, /):\n    return 1.0\n",
    ],
)
def test_compatible_signatures_pass(problem: Problem, code: str) -> None:
    assert check_source(code, problem) is None


@pytest.mark.parametrize(
    ("code", "line", "what"),
    [
        ("import openai\n", 1, "'openai'"),
        ("x = 1\nimport anthropic.types as t\n", 2, "'anthropic.types'"),
        ("from groq import Groq\n", 1, "'groq'"),
        ("from google import generativeai\n", 1, "'google.generativeai'"),
        ("import google.generativeai as genai\n", 1, "'google.generativeai'"),
        ("def f():\n    return __import__('openai')\n", 2, "'openai'"),
        ("import importlib\nm = importlib.import_module('anthropic')\n", 2, "'anthropic'"),
    ],
)
def test_llm_sdk_imports_are_forbidden_with_line(problem: Problem, code: str, line: int,
                                                 what: str) -> None:
    failure = check_source(code + "def mean(values):\n    return 1.0\n", problem)
    assert failure is not None and failure.verdict is Verdict.FORBIDDEN
    assert failure.line == line
    assert f"line {line}: importing {what}" in failure.message and "LLM SDK" in failure.message


def test_google_itself_is_not_banned(problem: Problem) -> None:
    code = "import googleapis_like\nfrom google import protobuf\ndef mean(values):\n    return 1.0\n"
    assert check_source(code, problem) is None


def test_problem_specific_imports_and_calls(problem: Problem) -> None:
    failure = check_source("from statistics import fmean\ndef mean(values):\n    return 1.0\n", problem)
    assert failure is not None and failure.verdict is Verdict.FORBIDDEN
    assert "forbidden in this problem" in failure.message
    failure = check_source("def mean(values):\n    return sum(values) / len(values)\n", problem)
    assert failure is not None and failure.message == "line 2: calling sum() is not allowed in this problem"
    failure = check_source("import builtins\ndef mean(values):\n    return builtins.eval('1')\n", problem)
    assert failure is not None and "calling builtins.eval()" in failure.message


def test_nul_bytes_are_rejected(problem: Problem) -> None:
    failure = check_source("def mean(values):\x00\n", problem)
    assert failure is not None and failure.verdict is Verdict.COMPILE_ERROR
