from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.engine_settings import ROOT
from judge.errors import ProblemError
from judge.problems import discover, find_problem, load_problem
from judge.results import Verdict
from sandbox.interface import Isolation
from tests.utils.problem_factory import PROBLEM_TOML, make_problem


def test_a_valid_folder_loads_with_typed_values(tmp_path: Path) -> None:
    problem = load_problem(make_problem(tmp_path))
    assert problem.function == "mean"
    assert problem.signature == "def mean(values: list[float]) -> float"
    # JSON 4 becomes 4.0 because the declared types are float.
    assert problem.hidden_tests[0].args == [[4.0]] and type(problem.hidden_tests[0].expected) is float
    assert problem.public_tests[0].explanation == "the middle"
    assert problem.wrong[0].verdict is Verdict.WRONG_ANSWER


def test_unknown_key_names_the_file_and_lists_the_valid_keys(tmp_path: Path) -> None:
    folder = make_problem(tmp_path, toml=PROBLEM_TOML.format(slug="mean", returns="float")
                          + "\n[limits]\ntime_limit = 3\n")
    with pytest.raises(ProblemError) as info:
        load_problem(folder)
    message = str(info.value)
    assert str(folder / "problem.toml") in message
    assert "unknown key limits.'time_limit'" in message
    assert "valid keys are memory_mb, time_per_submission, time_per_test" in message


def test_unknown_top_level_key(tmp_path: Path) -> None:
    toml = PROBLEM_TOML.format(slug="mean", returns="float").replace("tags", "labels")
    with pytest.raises(ProblemError, match=r"unknown key 'labels'; valid keys are checker, "):
        load_problem(make_problem(tmp_path, toml=toml))


def test_isolation_defaults_to_one_process_and_may_ask_for_one_per_test(tmp_path: Path) -> None:
    toml = PROBLEM_TOML.format(slug="mean", returns="float")
    assert load_problem(make_problem(tmp_path / "a", toml=toml)).isolation is Isolation.SHARED
    per_test = load_problem(make_problem(tmp_path / "b", toml='isolation = "per_test"\n' + toml))
    assert per_test.isolation is Isolation.PER_TEST
    with pytest.raises(ProblemError, match=r"isolation must be one of shared, per_test, got 'fork'"):
        load_problem(make_problem(tmp_path / "c", toml='isolation = "fork"\n' + toml))
    with pytest.raises(ProblemError, match=r"unknown key 'isolate'; valid keys are .*isolation"):
        load_problem(make_problem(tmp_path / "d", toml='isolate = "per_test"\n' + toml))


def test_unknown_checker_fails_at_load(tmp_path: Path) -> None:
    toml = PROBLEM_TOML.format(slug="mean", returns="float").replace('"float"\nabs', '"fuzzy"\nabs')
    with pytest.raises(ProblemError, match="unknown checker.name 'fuzzy'; valid checkers are exact, float"):
        load_problem(make_problem(tmp_path, toml=toml))


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ({"name": "x", "args": [[1.0]]}, "needs exactly one of 'expected' or 'raises'"),
        ({"name": "x", "args": [[1.0]], "expected": "1"}, "expected: '1' is not a float"),
        ({"name": "x", "args": [["a"]], "expected": 1.0}, r"argument 'values'\[0\]: 'a' is not a float"),
        ({"name": "x", "args": [], "expected": 1.0}, "missing argument 'values'"),
        ({"name": "x", "args": [[1.0]], "expected": 1.0, "hint": "h"}, "unknown key 'hint'"),
        ({"args": [[1.0]], "expected": 1.0}, "'name' must be a non-empty string"),
        ({"name": "x", "args": [[1.0]], "kwargs": {"other": 1}, "expected": 1.0},
         "unexpected or repeated keyword argument 'other'"),
    ],
)
def test_bad_test_cases_name_file_and_test(tmp_path: Path, case: dict[str, object], message: str) -> None:
    folder = make_problem(tmp_path, hidden=[case])
    with pytest.raises(ProblemError, match=message) as info:
        load_problem(folder)
    assert "hidden.json" in str(info.value)


def test_invalid_json_gives_line_and_column(tmp_path: Path) -> None:
    folder = make_problem(tmp_path)
    (folder / "tests" / "public.json").write_text('[{"name": "x",\n "args": }]')
    with pytest.raises(ProblemError, match=r"public.json: invalid JSON at line 2 column 10"):
        load_problem(folder)


def test_missing_file_is_named(tmp_path: Path) -> None:
    folder = make_problem(tmp_path)
    (folder / "reference.py").unlink()
    with pytest.raises(ProblemError, match=r"reference.py: missing file"):
        load_problem(folder)


def test_duplicate_test_names_are_rejected(tmp_path: Path) -> None:
    folder = make_problem(tmp_path, hidden=[{"name": "two", "args": [[1]], "expected": 1}])
    with pytest.raises(ProblemError, match="test name 'two' is used twice"):
        load_problem(folder)


def test_wrong_solution_must_declare_a_known_verdict(tmp_path: Path) -> None:
    folder = make_problem(tmp_path, wrong={"w": "# verdict: wrong\ndef mean(v): return 0.0\n"})
    with pytest.raises(ProblemError, match="w.py: unknown verdict 'wrong'; use wrong_answer"):
        load_problem(folder)
    (folder / "wrong" / "w.py").write_text("def mean(v): return 0.0\n")
    with pytest.raises(ProblemError, match="first line must be '# verdict: <verdict>'"):
        load_problem(folder)


def test_slug_must_match_folder(tmp_path: Path) -> None:
    folder = make_problem(tmp_path, toml=PROBLEM_TOML.format(slug="average", returns="float"))
    with pytest.raises(ProblemError, match="differs from the folder name 'mean'"):
        load_problem(folder)


def test_unsupported_type_is_reported(tmp_path: Path) -> None:
    with pytest.raises(ProblemError, match="function.returns: unsupported type 'set"):
        load_problem(make_problem(tmp_path, returns="set[int]"))


def test_version_is_a_content_hash(tmp_path: Path) -> None:
    folder = make_problem(tmp_path)
    first = load_problem(folder).version
    assert load_problem(folder).version == first
    (folder / "statement.md").write_text("Return the arithmetic mean.\n")
    assert load_problem(folder).version != first


def test_raises_and_tuple_types(tmp_path: Path) -> None:
    toml = PROBLEM_TOML.format(slug="mean", returns="tuple[float, float]")
    folder = make_problem(tmp_path, toml=toml, public=[
        {"name": "pair", "args": [[1.0]], "expected": [1, 2.5]},
        {"name": "empty", "args": [[]], "raises": "ValueError"},
    ], hidden=[])
    problem = load_problem(folder)
    assert problem.public_tests[0].expected == (1.0, 2.5)
    assert problem.public_tests[1].raises == "ValueError"


def test_unknown_problem_lists_known_ones(tmp_path: Path) -> None:
    make_problem(tmp_path)
    with pytest.raises(ProblemError, match="unknown problem 'nope'; known problems: mean"):
        find_problem(tmp_path, "nope")
    with pytest.raises(ProblemError, match="unknown problem '../etc'"):
        find_problem(tmp_path, "../etc")


SHIPPED = discover(ROOT / "problems")


@pytest.mark.parametrize("folder", SHIPPED, ids=[f.name for f in SHIPPED])
def test_every_shipped_problem_loads(folder: Path) -> None:
    problem = load_problem(folder)
    assert len(problem.public_tests) >= 3
    assert len(problem.hidden_tests) >= 30
    assert len(problem.wrong) >= 3
    assert all(t.explanation for t in problem.public_tests)
    json.dumps(problem.tags)
