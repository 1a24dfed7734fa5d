"""Checkers: decide whether a returned value matches the expected one. Type-strict, host-only.

A checker is chosen by name in problem.toml. Values here were decoded from tagged trees, so they
are plain built-ins (or ``Opaque`` stand-ins); no learner object is ever compared or called.

``REGISTRY`` is the one place a checker is declared: its name, a frozen dataclass for its parameters
and its check function. Everything else derives from it: the ``[checker]`` table of problem.toml is
validated by ``parse_checker``; a ``CheckerSpec`` (name + parameters) is what a ``Problem`` carries,
and ``CheckerSpec.as_dict()`` / ``CheckerSpec.from_dict()`` are its JSON form (job payloads, the API).
To add a checker, write its parameter dataclass (fields of type bool, int, float or str, with
defaults; ``__post_init__`` raises ``CheckerError`` naming the key) and its check function, and add
one ``Checker`` to ``REGISTRY``.
"""

from __future__ import annotations

import dataclasses
import math
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from sandbox.interface import Opaque


class CheckerError(ValueError):
    """A checker table or payload is invalid; the message names where it came from and the key."""


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


@dataclass(frozen=True)
class ExactParams:
    """The exact checker takes no parameters."""


@dataclass(frozen=True)
class FloatParams:
    """Floats pass when ``|a - e| <= max(abs_tol, rel_tol * |e|)``; both finite and non-negative."""

    abs_tol: float = 0.0
    rel_tol: float = 0.0

    def __post_init__(self) -> None:
        for key in ("abs_tol", "rel_tol"):
            value = getattr(self, key)
            if not math.isfinite(value) or value < 0:
                raise CheckerError(f"{key!r} must be a finite number >= 0, got {value!r}")


def check_exact(expected: Any, actual: Any, params: ExactParams = ExactParams()) -> Mismatch | None:
    """Type-strict deep equality; NaN never equals anything."""
    return _compare(expected, actual, lambda e, a: e == a, "", None)


def check_float(expected: Any, actual: Any, params: FloatParams) -> Mismatch | None:
    """Deep comparison where floats pass when |a - e| <= max(abs_tol, rel_tol * |e|)."""

    def close(e: float, a: float) -> bool:
        if math.isnan(e) or math.isnan(a):
            return False
        if math.isinf(e) or math.isinf(a):
            return e == a
        return abs(a - e) <= max(params.abs_tol, params.rel_tol * abs(e))

    tolerance = max(params.abs_tol, params.rel_tol * abs(expected)) if type(expected) is float else (
        params.abs_tol
    )
    return _compare(expected, actual, close, "", tolerance)


P = TypeVar("P")
CheckFunction = Callable[[Any, Any, P], Mismatch | None]
"""A check: expected, actual and the checker's parameters -> the first mismatch, or None."""

_SCALARS = (bool, int, float, str)  # the types a parameter may have: what TOML and JSON both carry


@dataclass(frozen=True)
class Checker(Generic[P]):
    """One checker: its name, its parameters' frozen dataclass and its check function.

    ``compat`` lists keys the JSON form has always carried for this checker although they are not its
    parameters, each with the only value it may take (``exact`` was written as
    ``{"name": "exact", "abs_tol": 0.0, "rel_tol": 0.0}``): ``as_dict`` writes them and parsing
    accepts them at that value, so stored data, job payloads and API output keep their shape.
    """

    name: str
    params: type[P]
    check: CheckFunction[P]
    compat: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        settings = getattr(self.params, "__dataclass_params__", None)
        if not dataclasses.is_dataclass(self.params) or settings is None or not settings.frozen:
            raise TypeError(f"checker {self.name!r}: params must be a frozen dataclass")
        for key, kind in self.param_types().items():
            if kind not in _SCALARS:
                raise TypeError(f"checker {self.name!r}: parameter {key!r} must be bool, int, float or str")
        object.__setattr__(self, "compat", MappingProxyType(dict(self.compat)))

    def param_types(self) -> dict[str, type]:
        """Each parameter's name and declared type, in declaration order."""
        hints = typing.get_type_hints(self.params)
        return {f.name: hints[f.name] for f in dataclasses.fields(self.params)}  # type: ignore[arg-type]

    def keys(self) -> tuple[str, ...]:
        """The keys a ``[checker]`` table may hold for this checker: ``name`` and its parameters."""
        return ("name", *self.param_types())


REGISTRY: Mapping[str, Checker[Any]] = MappingProxyType({
    checker.name: checker
    for checker in (
        Checker("exact", ExactParams, check_exact, compat={"abs_tol": 0.0, "rel_tol": 0.0}),
        Checker("float", FloatParams, check_float),
    )
})
"""Every checker by name; problem.toml, job payloads and the API all take their names from here."""

DEFAULT_CHECKER = "exact"  # when problem.toml has no [checker] table or no checker.name


@dataclass(frozen=True)
class CheckerSpec:
    """A problem's checker: a name from ``REGISTRY`` and an instance of that checker's parameters."""

    name: str = DEFAULT_CHECKER
    params: Any = ExactParams()

    def __post_init__(self) -> None:
        if self.name not in REGISTRY:
            raise CheckerError(f"unknown checker {self.name!r}; valid checkers are {', '.join(REGISTRY)}")
        expected = REGISTRY[self.name].params
        if type(self.params) is not expected:
            raise TypeError(f"checker {self.name!r} takes {expected.__name__}, "
                            f"not {type(self.params).__name__}")

    @property
    def checker(self) -> Checker[Any]:
        return REGISTRY[self.name]

    def check(self, expected: Any, actual: Any) -> Mismatch | None:
        """The first place ``actual`` differs from ``expected`` under this checker, or None."""
        return self.checker.check(expected, actual, self.params)

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"name": ..., <parameters>...}``, e.g. ``{"name": "float", "abs_tol":
        1e-09, "rel_tol": 1e-09}``; exact is ``{"name": "exact", "abs_tol": 0.0, "rel_tol": 0.0}``."""
        return {"name": self.name, **self.checker.compat, **dataclasses.asdict(self.params)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "checker") -> CheckerSpec:
        """The spec ``as_dict`` wrote (or a ``[checker]`` table), validated as ``parse_checker`` does."""
        return parse_checker(data, where)


def parse_checker(table: Mapping[str, Any], where: str) -> CheckerSpec:
    """Validate a ``[checker]`` table (or ``as_dict`` output) into a spec.

    ``where`` opens every message (problem.toml's path), and the key is named as problem.toml's other
    errors name it (``checker.'abs_tol'``); raises ``CheckerError``.
    """
    if not isinstance(table, Mapping):
        raise CheckerError(f"{where}: 'checker' must be dict, got {table!r}")
    name = table.get("name", DEFAULT_CHECKER)
    if not isinstance(name, str):
        raise CheckerError(f"{where}: checker.'name' must be str, got {name!r}")
    if name not in REGISTRY:
        raise CheckerError(
            f"{where}: unknown checker.name {name!r}; valid checkers are {', '.join(REGISTRY)}"
        )
    checker = REGISTRY[name]
    types = checker.param_types()
    for key in sorted(set(table) - {"name", *types}):
        if key in checker.compat and _same(table[key], checker.compat[key]):
            continue
        raise CheckerError(
            f"{where}: unknown key checker.{key!r} for checker {name!r}; valid keys are "
            + ", ".join(sorted(checker.keys()))
        )
    values = {}
    for key, kind in types.items():
        if key not in table:
            continue
        value = table[key]
        if kind is float and type(value) is int:
            value = float(value)
        if not isinstance(value, kind) or (kind is not bool and type(value) is bool):
            raise CheckerError(f"{where}: checker.{key!r} must be {kind.__name__}, got {value!r}")
        values[key] = value
    try:
        params = checker.params(**values)
    except CheckerError as exc:
        raise CheckerError(f"{where}: checker.{exc}") from exc
    return CheckerSpec(name, params)


def _same(value: Any, fixed: Any) -> bool:
    """Whether a compat key holds its one allowed value (``0`` for ``0.0``, but never ``False``)."""
    if type(value) is bool or type(fixed) is bool:
        return type(value) is type(fixed) and value == fixed
    return bool(value == fixed)
