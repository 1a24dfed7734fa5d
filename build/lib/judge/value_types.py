"""Declared types of parameters and return values, written as Python annotations in problem.toml.

Test files are JSON, which has no tuples and no int/float distinction; the declared type turns a
JSON value into the Python value the function must receive or return.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any


class TypeSpecError(ValueError):
    pass


@dataclass(frozen=True)
class TypeSpec:
    """A parsed type: kind is a base name; args are element types (``...`` marks tuple[T, ...])."""

    kind: str  # int float str bool None Any list tuple dict union
    args: tuple[TypeSpec, ...] = ()
    variadic: bool = False

    def __str__(self) -> str:
        if self.kind == "union":
            return " | ".join(str(a) for a in self.args)
        if not self.args:
            return self.kind
        inner = ", ".join(str(a) for a in self.args) + (", ..." if self.variadic else "")
        return f"{self.kind}[{inner}]"


SCALARS = {"int", "float", "str", "bool", "None", "Any"}


def parse_type(text: str) -> TypeSpec:
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError as exc:
        raise TypeSpecError(f"{text!r} is not a type annotation") from exc
    return _from_node(node, text)


def _from_node(node: ast.expr, text: str) -> TypeSpec:
    if isinstance(node, ast.Constant) and node.value is None:
        return TypeSpec("None")
    if isinstance(node, ast.Name) and node.id in SCALARS:
        return TypeSpec(node.id)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = _from_node(node.left, text), _from_node(node.right, text)
        parts = (left.args if left.kind == "union" else (left,)) + (
            right.args if right.kind == "union" else (right,)
        )
        return TypeSpec("union", parts)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        name = node.value.id
        elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if name == "list" and len(elts) == 1:
            return TypeSpec("list", (_from_node(elts[0], text),))
        if name == "dict" and len(elts) == 2:
            return TypeSpec("dict", (_from_node(elts[0], text), _from_node(elts[1], text)))
        if name == "tuple":
            if len(elts) == 2 and isinstance(elts[1], ast.Constant) and elts[1].value is ...:
                return TypeSpec("tuple", (_from_node(elts[0], text),), variadic=True)
            return TypeSpec("tuple", tuple(_from_node(e, text) for e in elts))
    raise TypeSpecError(
        f"unsupported type {text!r}: use int, float, str, bool, None, Any, list[T], "
        "tuple[T, ...], tuple[T1, T2], dict[K, V] or T | None"
    )


def brief(value: Any, limit: int = 60) -> str:
    """A value's repr cut to ``limit`` characters: an error names the value, it does not echo
    a large one back (a learner's own arguments may be 64 KB)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# Scalar kinds whose JSON value is already the Python value when its type is exactly this one.
_EXACT: dict[str, type] = {"str": str, "int": int, "bool": bool, "float": float}


def from_json(value: Any, spec: TypeSpec, where: str) -> Any:
    """Convert a JSON value to the declared type, or raise TypeSpecError naming ``where``."""
    kind = spec.kind
    if kind == "Any":
        return value
    if kind == "union":
        for option in spec.args:
            try:
                return from_json(value, option, where)
            except TypeSpecError:
                continue
        raise TypeSpecError(f"{where}: {brief(value)} is none of {spec}")
    if kind == "None" and value is None:
        return None
    if kind == "bool" and type(value) is bool:
        return value
    if kind == "int" and type(value) is int:
        return value
    if kind == "float" and type(value) in (int, float):
        try:
            return float(value)
        except OverflowError:
            raise TypeSpecError(f"{where}: {brief(value)} is too large for a float") from None
    if kind == "str" and type(value) is str:
        return value
    if kind in ("list", "tuple") and type(value) is list:
        if kind == "list" or spec.variadic:
            exact = _EXACT.get(spec.args[0].kind)
            if exact is not None and all(type(v) is exact for v in value):
                items = list(value)  # a list of tokens, say: no item needs converting or naming
            else:
                items = [from_json(v, spec.args[0], f"{where}[{i}]") for i, v in enumerate(value)]
        else:
            if len(value) != len(spec.args):
                raise TypeSpecError(f"{where}: {spec} needs {len(spec.args)} items, not {len(value)}")
            items = [
                from_json(v, t, f"{where}[{i}]")
                for i, (v, t) in enumerate(zip(value, spec.args, strict=True))
            ]
        return items if kind == "list" else tuple(items)
    if kind == "dict" and type(value) is dict:
        key_spec, value_spec = spec.args
        return {
            from_json(k, key_spec, f"{where} key"): from_json(v, value_spec, f"{where}[{k!r}]")
            for k, v in value.items()
        }
    raise TypeSpecError(f"{where}: {brief(value)} is not a {spec}")
