"""The checker registry: one entry per checker, its parameters typed and validated from problem.toml."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import judge.checkers
import judge.problems
from judge.checkers import (
    REGISTRY,
    Checker,
    CheckerError,
    CheckerSpec,
    ExactParams,
    FloatParams,
    check_exact,
    parse_checker,
)
from judge.engine_settings import ROOT
from judge.errors import ProblemError
from judge.mutation.calls import checker as job_checker
from judge.mutation.runner import base_job
from judge.problems import discover, load_problem
from tests.utils.problem_factory import PROBLEM_TOML, make_problem

WHERE = "problems/p/problem.toml"


def toml_with_checker(table: str) -> str:
    """The factory's problem.toml with its [checker] table replaced by ``table``."""
    base = PROBLEM_TOML.format(slug="mean", returns="float")
    return base[: base.index("[checker]")] + table


# --- the registry is the only place names come from ---------------------------------------------


def test_each_entry_is_filed_under_its_own_name() -> None:
    assert list(REGISTRY) == ["exact", "float"]
    assert all(name == entry.name for name, entry in REGISTRY.items())
    assert REGISTRY["exact"].params is ExactParams and REGISTRY["float"].params is FloatParams
    with pytest.raises(TypeError):
        REGISTRY["fuzzy"] = REGISTRY["exact"]  # type: ignore[index]


def test_no_second_list_of_checker_names() -> None:
    assert not hasattr(judge.problems, "CHECKERS")
    assert not hasattr(judge.checkers, "CHECKERS")


def test_unknown_checker_lists_the_registry(tmp_path: Path) -> None:
    with pytest.raises(CheckerError) as info:
        parse_checker({"name": "fuzzy"}, WHERE)
    assert str(info.value) == (
        f"{WHERE}: unknown checker.name 'fuzzy'; valid checkers are {', '.join(REGISTRY)}"
    )
    folder = make_problem(tmp_path, toml=toml_with_checker('[checker]\nname = "fuzzy"\n'))
    with pytest.raises(ProblemError, match="unknown checker.name 'fuzzy'; valid checkers are exact, float"):
        load_problem(folder)


def test_a_spec_must_name_a_registered_checker_with_its_own_params() -> None:
    with pytest.raises(CheckerError, match="unknown checker 'fuzzy'"):
        CheckerSpec("fuzzy")
    with pytest.raises(TypeError, match="checker 'float' takes FloatParams, not ExactParams"):
        CheckerSpec("float", ExactParams())


def test_params_must_be_a_frozen_dataclass_of_scalars() -> None:
    @dataclass
    class Loose:
        x: float = 0.0

    @dataclass(frozen=True)
    class Listy:
        x: list[int] | None = None

    with pytest.raises(TypeError, match="frozen dataclass"):
        Checker("loose", Loose, lambda e, a, p: None)
    with pytest.raises(TypeError, match="parameter 'x' must be bool, int, float or str"):
        Checker("listy", Listy, lambda e, a, p: None)


# --- parsing the [checker] table ----------------------------------------------------------------


def test_defaults_are_the_exact_checker(tmp_path: Path) -> None:
    assert parse_checker({}, WHERE) == CheckerSpec("exact", ExactParams()) == CheckerSpec()
    problem = load_problem(make_problem(tmp_path, toml=toml_with_checker("")))
    assert problem.checker == CheckerSpec()


def test_float_parameters_are_typed() -> None:
    spec = parse_checker({"name": "float", "abs_tol": 0, "rel_tol": 1e-6}, WHERE)
    assert spec == CheckerSpec("float", FloatParams(abs_tol=0.0, rel_tol=1e-6))
    assert type(spec.params.abs_tol) is float  # a TOML integer is a float here, as elsewhere
    assert parse_checker({"name": "float"}, WHERE).params == FloatParams(0.0, 0.0)


@pytest.mark.parametrize("table", [
    {"name": "exact", "tolerance": 1e-9},
    {"name": "exact", "abs_tol": 1e-9},  # exact has no tolerance: refused rather than ignored
    {"name": "exact", "rel_tol": False},
    {"tolerance": 1e-9},  # the default checker is exact
])
def test_exact_refuses_a_parameter_naming_the_key(table: dict[str, Any]) -> None:
    key = next(k for k in table if k != "name")
    with pytest.raises(CheckerError) as info:
        parse_checker(table, WHERE)
    assert str(info.value) == (
        f"{WHERE}: unknown key checker.{key!r} for checker 'exact'; valid keys are name"
    )


def test_exact_refuses_a_tolerance_in_problem_toml(tmp_path: Path) -> None:
    folder = make_problem(tmp_path, toml=toml_with_checker('[checker]\nname = "exact"\nabs_tol = 1e-6\n'))
    with pytest.raises(ProblemError) as info:
        load_problem(folder)
    assert str(info.value) == (
        f"{folder / 'problem.toml'}: unknown key checker.'abs_tol' for checker 'exact'; "
        "valid keys are name"
    )


def test_exact_still_accepts_its_json_form() -> None:
    # {"name": "exact", "abs_tol": 0.0, "rel_tol": 0.0} is what jobs and the API have always carried.
    assert parse_checker({"name": "exact", "abs_tol": 0.0, "rel_tol": 0}, WHERE) == CheckerSpec()


def test_float_refuses_an_unknown_key_listing_its_own_keys() -> None:
    with pytest.raises(CheckerError) as info:
        parse_checker({"name": "float", "abs_tol": 1e-9, "ulps": 4}, WHERE)
    assert str(info.value) == (
        f"{WHERE}: unknown key checker.'ulps' for checker 'float'; valid keys are abs_tol, name, rel_tol"
    )


@pytest.mark.parametrize(("table", "message"), [
    ({"name": "float", "abs_tol": "small"}, "checker.'abs_tol' must be float, got 'small'"),
    ({"name": "float", "rel_tol": True}, "checker.'rel_tol' must be float, got True"),
    ({"name": 3}, "checker.'name' must be str, got 3"),
])
def test_a_wrong_type_names_the_key_and_the_type(table: dict[str, Any], message: str) -> None:
    with pytest.raises(CheckerError) as info:
        parse_checker(table, WHERE)
    assert str(info.value) == f"{WHERE}: {message}"


@pytest.mark.parametrize(("key", "value"), [
    ("abs_tol", -1e-9), ("rel_tol", -1.0), ("abs_tol", math.nan), ("rel_tol", math.inf),
])
def test_a_negative_or_non_finite_tolerance_is_refused(key: str, value: float) -> None:
    with pytest.raises(CheckerError) as info:
        parse_checker({"name": "float", key: value}, WHERE)
    assert str(info.value) == f"{WHERE}: checker.{key!r} must be a finite number >= 0, got {value!r}"
    with pytest.raises(CheckerError, match=f"{key!r} must be a finite number >= 0"):
        FloatParams(**{key: value})


@pytest.mark.parametrize("value", ["-1e-9", "nan", "inf"])
def test_problem_toml_with_a_bad_tolerance_fails_at_load(tmp_path: Path, value: str) -> None:
    folder = make_problem(tmp_path, toml=toml_with_checker(f'[checker]\nname = "float"\nabs_tol = {value}\n'))
    with pytest.raises(ProblemError) as info:
        load_problem(folder)
    assert str(info.value).startswith(f"{folder / 'problem.toml'}: checker.'abs_tol' must be a finite")


def test_checker_must_be_a_table(tmp_path: Path) -> None:
    toml = toml_with_checker("").replace('tags = ["fixture"]', 'tags = ["fixture"]\nchecker = "float"')
    with pytest.raises(ProblemError, match="'checker' must be dict, got 'float'"):
        load_problem(make_problem(tmp_path, toml=toml))


# --- the JSON form -------------------------------------------------------------------------------


@pytest.mark.parametrize(("spec", "data"), [
    (CheckerSpec(), {"name": "exact", "abs_tol": 0.0, "rel_tol": 0.0}),
    (CheckerSpec("float", FloatParams(abs_tol=1e-9, rel_tol=1e-6)),
     {"name": "float", "abs_tol": 1e-9, "rel_tol": 1e-6}),
    (CheckerSpec("float", FloatParams()), {"name": "float", "abs_tol": 0.0, "rel_tol": 0.0}),
])
def test_as_dict_keeps_its_json_form_and_round_trips(spec: CheckerSpec, data: dict[str, Any]) -> None:
    assert spec.as_dict() == data and list(spec.as_dict()) == ["name", "abs_tol", "rel_tol"]
    assert all(type(v) is float for k, v in spec.as_dict().items() if k != "name")
    through_json = json.loads(json.dumps(spec.as_dict()))
    assert parse_checker(through_json, WHERE) == spec
    assert CheckerSpec.from_dict(through_json) == spec


def test_every_shipped_problem_round_trips_and_its_jobs_carry_the_same_checker() -> None:
    folders = discover(ROOT / "problems")
    assert folders
    for folder in folders:
        problem = load_problem(folder)
        data = problem.checker.as_dict()
        assert set(data) == {"name", "abs_tol", "rel_tol"}, folder
        assert parse_checker(data, str(folder)) == problem.checker
        job = base_job(problem, problem.reference)
        assert job["checker"] == data
        assert job_checker(json.loads(json.dumps(job))) == problem.checker


def test_a_spec_checks_with_its_own_params() -> None:
    loose = CheckerSpec("float", FloatParams(abs_tol=0.1))
    assert loose.check(1.0, 1.05) is None
    mismatch = CheckerSpec("float", FloatParams(abs_tol=0.01)).check(1.0, 1.05)
    assert mismatch is not None and mismatch.tolerance == 0.01
    assert CheckerSpec().check(1.0, 1.05) is not None
    assert check_exact([1.0], [1.0]) is None  # exact needs no params
