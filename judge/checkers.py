"""Checkers: decide whether a returned value matches the expected one. Type-strict, host-only.

A checker is chosen by name in problem.toml. Values here were decoded from tagged trees, so they
are plain built-ins (or ``Opaque`` stand-ins); no learner object is ever compared or called.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from judge.problems import CheckerSpec
from sandbox.codec import Opaque


@dataclass(frozen=True)
class Mismatch:
    """The first place where actual differs from expected, for the explanation to describe."""

    kind: str  # "type" | "value" | "length" | "missing_key" | "extra_key"
    path: str  # "" for the whole value, else like "[2]" or "['f1']"
    expected: Any
    actual: Any
    tolerance: float | None = None


FloatEqual = Callable[[float, float], bool]


def type_name(value: Any) -> str:
    if isinstance(value, Opaque):
        return value.type_name
    return "None" if value is None else type(value).__name__


def _compare(expected: Any, actual: Any, floats_equal: FloatEqual, path: str,
             tolerance: float | None) -> Mismatch | None:
    # bool is not int is not float, and a list is not a tuple: compare exact types first.
    if isinstance(actual, Opaque) or type(actual) is not type(expected):
        return Mismatch("type", path, expected, actual)
    if type(expected) is float:
        ok = floats_equal(expected, actual)
        return None if ok else Mismatch("value", path, expected, actual, tolerance)
    if type(expected) in (list, tuple):
        if len(expected) != len(actual):
            return Mismatch("length", path, expected, actual)
        for index, (e, a) in enumerate(zip(expected, actual, strict=True)):
            found = _compare(e, a, floats_equal, f"{path}[{index}]", tolerance)
            if found:
                return found
        return None
    if type(expected) is dict:
        for key in expected:
            if key not in actual:
                return Mismatch("missing_key", f"{path}[{key!r}]", expected[key], None)
        for key in actual:
            if key not in expected:
                return Mismatch("extra_key", f"{path}[{key!r}]", None, actual[key])
        for key, e in expected.items():
            found = _compare(e, actual[key], floats_equal, f"{path}[{key!r}]", tolerance)
            if found:
                return found
        return None
    return None if expected == actual else Mismatch("value", path, expected, actual)


def check_exact(expected: Any, actual: Any, spec: CheckerSpec) -> Mismatch | None:
    """Type-strict deep equality; NaN never equals anything."""
    return _compare(expected, actual, lambda e, a: e == a, "", None)


def check_float(expected: Any, actual: Any, spec: CheckerSpec) -> Mismatch | None:
    """Deep comparison where floats pass when |a - e| <= max(abs_tol, rel_tol * |e|)."""

    def close(e: float, a: float) -> bool:
        if math.isnan(e) or math.isnan(a):
            return False
        if math.isinf(e) or math.isinf(a):
            return e == a
        return abs(a - e) <= max(spec.abs_tol, spec.rel_tol * abs(e))

    tolerance = max(spec.abs_tol, spec.rel_tol * abs(expected)) if type(expected) is float else (
        spec.abs_tol
    )
    return _compare(expected, actual, close, "", tolerance)


CHECKERS: dict[str, Callable[[Any, Any, CheckerSpec], Mismatch | None]] = {
    "exact": check_exact,
    "float": check_float,
}
