"""judge.generation: the shared part of every problems/<slug>/tests/generate.py."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from judge.generation import GenerationError, load_reference, write_hidden

ROOT = Path(__file__).resolve().parents[3]
GENERATORS = sorted(ROOT.glob("problems/*/tests/generate.py"))

REFERENCE = '''
def halve(x: float, *, strict: bool = False) -> float:
    if strict and x < 0:
        raise ValueError("negative")
    return x / 2


def sort_in_place(items: list[int]) -> list[int]:
    items.sort()
    return items
'''


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    problem = tmp_path / "demo"
    (problem / "tests").mkdir(parents=True)
    (problem / "reference.py").write_text(REFERENCE, encoding="utf-8")
    public = [{"name": "public_one", "args": [2.0], "expected": 1.0}]
    (problem / "tests" / "public.json").write_text(json.dumps(public), encoding="utf-8")
    return problem


def hidden(folder: Path) -> Path:
    return folder / "tests" / "hidden.json"


def test_load_reference_imports_the_problem_module(folder: Path) -> None:
    module = load_reference(folder)
    assert module.__name__ == "demo_reference"
    assert module.halve(3.0) == 1.5


def test_writes_tests_in_the_stable_form(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    halve = load_reference(folder).halve
    cases: list[Any] = [("plain", [3.0]), ("keyword", [-1.0], {"strict": False}),
                        ("refused", [-1.0], {"strict": True}), ("caf\u00e9", [0.5], {})]
    tests = write_hidden(folder, cases, halve, raises=ValueError)
    assert tests == [
        {"name": "plain", "args": [3.0], "expected": 1.5},
        {"name": "keyword", "args": [-1.0], "kwargs": {"strict": False}, "expected": -0.5},
        {"name": "refused", "args": [-1.0], "kwargs": {"strict": True}, "raises": "ValueError"},
        {"name": "caf\u00e9", "args": [0.5], "expected": 0.25},
    ]
    data = hidden(folder).read_bytes()
    assert data == (json.dumps(tests, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    assert "café".encode() in data  # not escaped
    assert f"wrote 4 tests, {len(data)} bytes" in capsys.readouterr().out


def test_an_exception_not_declared_is_not_a_test(folder: Path) -> None:
    halve = load_reference(folder).halve
    with pytest.raises(ValueError, match="negative"):
        write_hidden(folder, [("refused", [-1.0], {"strict": True})], halve)
    assert not hidden(folder).exists()


def test_a_reference_that_mutates_its_arguments_is_refused(folder: Path) -> None:
    sort_in_place = load_reference(folder).sort_in_place
    with pytest.raises(GenerationError, match="unsorted: the reference mutated its arguments"):
        write_hidden(folder, [("sorted", [[1, 2, 3]]), ("unsorted", [[3, 1, 2]])], sort_in_place)
    assert not hidden(folder).exists()


def test_the_reference_runs_on_a_copy_of_the_converted_call(folder: Path) -> None:
    seen: list[Any] = []

    def reference(items: tuple[int, ...]) -> int:
        seen.append(items)
        return len(items)

    args = [[1, 2]]
    tests = write_hidden(folder, [("converted", args)], reference, convert=lambda a, k: ([tuple(a[0])], k))
    assert seen == [(1, 2)] and tests[0] == {"name": "converted", "args": [[1, 2]], "expected": 2}
    assert tests[0]["args"] is args


def test_a_hidden_name_equal_to_a_public_one_is_refused(folder: Path) -> None:
    halve = load_reference(folder).halve
    with pytest.raises(GenerationError, match="public_one: public.json already has a test of that name"):
        write_hidden(folder, [("fine", [1.0]), ("public_one", [4.0])], halve)
    assert not hidden(folder).exists()


def test_duplicate_hidden_names_are_refused(folder: Path) -> None:
    halve = load_reference(folder).halve
    with pytest.raises(GenerationError, match="twice: two hidden tests have that name"):
        write_hidden(folder, [("twice", [1.0]), ("other", [2.0]), ("twice", [3.0])], halve)
    assert not hidden(folder).exists()


def test_the_problem_check_refuses_a_bad_value(folder: Path) -> None:
    def check(value: Any) -> bool:
        return type(value) is float and math.isfinite(value)

    halve = load_reference(folder).halve
    write_hidden(folder, [("finite", [1.0])], halve, check=check)
    with pytest.raises(GenerationError, match=r"infinite: the check refuses the reference's value inf"):
        write_hidden(folder, [("finite", [1.0]), ("infinite", [math.inf])], halve, check=check)


@pytest.mark.parametrize("generator", GENERATORS, ids=lambda path: path.parents[1].name)
def test_every_shipped_generator_reproduces_its_hidden_tests(generator: Path, tmp_path: Path) -> None:
    """Run as a script, from another directory, on a copy of the problem without its hidden.json."""
    shipped = generator.parent / "hidden.json"
    copy = tmp_path / generator.parents[1].name
    shutil.copytree(generator.parents[1], copy, ignore=shutil.ignore_patterns("hidden.json", "__pycache__"))
    subprocess.run([sys.executable, str(copy / "tests" / "generate.py")], cwd=tmp_path, check=True,
                   capture_output=True, timeout=120)
    assert (copy / "tests" / "hidden.json").read_bytes() == shipped.read_bytes()
