from __future__ import annotations

import math

import pytest

from judge.checkers import ExactParams, FloatParams, check_exact, check_float
from sandbox.inside.codec import Opaque

EXACT = ExactParams()
FLOAT = FloatParams(abs_tol=1e-9, rel_tol=1e-6)


@pytest.mark.parametrize(
    ("expected", "actual"),
    [(1, True), (1.0, 1), (True, 1), ([1, 2], (1, 2)), ((1,), [1]), ("a", b"a"), (None, 0),
     ({"a": 1}, {"a": 1.0}), (1.5, Opaque("numpy.float64", "1.5"))],
)
def test_exact_is_type_strict(expected: object, actual: object) -> None:
    mismatch = check_exact(expected, actual, EXACT)
    assert mismatch is not None and mismatch.kind == "type"


def test_exact_deep_equality_and_nan() -> None:
    assert check_exact({"a": [1, (2.5, "x")]}, {"a": [1, (2.5, "x")]}, EXACT) is None
    assert check_exact(math.nan, math.nan, EXACT) is not None
    found = check_exact([1, 2, 3], [1, 2, 4], EXACT)
    assert found is not None and found.path == "[2]" and found.kind == "value"
    assert check_exact([1, 2], [1], EXACT).kind == "length"  # type: ignore[union-attr]
    assert check_exact({"a": 1}, {}, EXACT).kind == "missing_key"  # type: ignore[union-attr]
    assert check_exact({}, {"b": 1}, EXACT).kind == "extra_key"  # type: ignore[union-attr]


def test_float_tolerance_boundaries() -> None:
    assert check_float(1.0, 1.0 + 1e-9, FLOAT) is None  # within max(abs, rel*|e|) = 1e-6
    assert check_float(1.0, 1.0 + 2e-6, FLOAT) is not None
    assert check_float(0.0, 1e-9, FLOAT) is None  # abs_tol covers zero
    assert check_float(0.0, 2e-9, FLOAT) is not None
    assert check_float(1e6, 1e6 + 0.9, FLOAT) is None  # relative part dominates
    assert check_float(math.inf, math.inf, FLOAT) is None
    assert check_float(math.inf, 1e308, FLOAT) is not None
    assert check_float(1.0, math.nan, FLOAT) is not None


def test_float_checker_is_element_wise_and_still_type_strict() -> None:
    assert check_float((0.1, 0.2), (0.1 + 1e-12, 0.2), FLOAT) is None
    assert check_float({"p": 0.5, "r": [0.25]}, {"p": 0.5000000001, "r": [0.25]}, FLOAT) is None
    found = check_float([0.5, 0.5], [0.5, 0.6], FLOAT)
    assert found is not None and found.path == "[1]"
    int_for_float = check_float(1.0, 1, FLOAT)
    assert int_for_float is not None and int_for_float.kind == "type"
    assert check_float((0.1, 0.2), [0.1, 0.2], FLOAT) is not None  # list is not tuple
