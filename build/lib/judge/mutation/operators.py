"""The mutation operators: which small bug can be planted at an ``ast`` node, and how.

Each operator models a slip a learner makes: a flipped comparison, a dropped ``min``/``max`` clamp, a
constant off by one, swapped arguments, a shifted ``range`` bound, ``and`` for ``or``, ``+`` for
``-``, a lost ``not``. ``mutations`` yields them in a fixed order, so mutant numbers are stable.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from enum import StrEnum

Replace = Callable[[ast.AST], ast.AST]
"""Mutates a node of a copied tree in place, or returns the node that replaces it."""

_COMPARE_FLIPS: dict[type[ast.cmpop], tuple[type[ast.cmpop], ...]] = {
    ast.Lt: (ast.LtE, ast.GtE),
    ast.LtE: (ast.Lt, ast.Gt),
    ast.Gt: (ast.GtE, ast.LtE),
    ast.GtE: (ast.Gt, ast.Lt),
    ast.Eq: (ast.NotEq,),
    ast.NotEq: (ast.Eq,),
    ast.In: (ast.NotIn,),
    ast.NotIn: (ast.In,),
    ast.Is: (ast.IsNot,),
    ast.IsNot: (ast.Is,),
}


class Operator(StrEnum):
    """The mutation operators, named as the report shows them."""

    FLIP_COMPARISON = "flip comparison"
    DROP_MIN_MAX = "drop min/max"
    CHANGE_CONSTANT = "change constant"
    SWAP_ARGUMENTS = "swap arguments"
    RANGE_OFF_BY_ONE = "range off-by-one"
    SWAP_AND_OR = "swap and/or"
    SWAP_PLUS_MINUS = "swap +/-"
    DROP_NOT = "drop not"


def _set_compare_op(position: int, new_op: type[ast.cmpop]) -> Replace:
    def apply(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Compare)
        node.ops[position] = new_op()
        return node

    return apply


def _set_constant(value: int | float) -> Replace:
    def apply(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Constant)
        node.value = value
        return node

    return apply


def _pick_argument(position: int) -> Replace:
    def apply(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Call)
        return node.args[position]

    return apply


def _swap_arguments(node: ast.AST) -> ast.AST:
    assert isinstance(node, ast.Call)
    node.args[0], node.args[1] = node.args[1], node.args[0]
    return node


def _shift_argument(position: int, delta: int) -> Replace:
    def apply(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Call)
        arg = node.args[position]
        if isinstance(arg, ast.Constant) and type(arg.value) is int:
            node.args[position] = ast.Constant(arg.value + delta)
        else:
            op: ast.operator = ast.Add() if delta > 0 else ast.Sub()
            node.args[position] = ast.BinOp(arg, op, ast.Constant(abs(delta)))
        return node

    return apply


def _set_bool_op(new_op: type[ast.boolop]) -> Replace:
    def apply(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.BoolOp)
        node.op = new_op()
        return node

    return apply


def _set_bin_op(new_op: type[ast.operator]) -> Replace:
    def apply(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.BinOp | ast.AugAssign)
        node.op = new_op()
        return node

    return apply


def _drop_not(node: ast.AST) -> ast.AST:
    assert isinstance(node, ast.UnaryOp)
    return node.operand


def mutations(node: ast.AST) -> Iterator[tuple[Operator, Replace]]:
    """Every mutation that applies to this node, in a fixed order."""
    if isinstance(node, ast.Compare):
        for position, op in enumerate(node.ops):
            for new_op in _COMPARE_FLIPS.get(type(op), ()):
                yield Operator.FLIP_COMPARISON, _set_compare_op(position, new_op)
    elif isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        if type(node.value) is not bool:  # True and False are ints, not numeric constants
            # n -> n+1 and n -> n-1; this includes 0 -> 1 and 1 -> 0.
            for delta in (1, -1):
                yield Operator.CHANGE_CONSTANT, _set_constant(node.value + delta)
    elif isinstance(node, ast.Call):
        positional = not any(isinstance(arg, ast.Starred) for arg in node.args)
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if positional and name in ("min", "max") and len(node.args) >= 2:
            for position in range(len(node.args)):
                yield Operator.DROP_MIN_MAX, _pick_argument(position)
        if positional and len(node.args) == 2:
            yield Operator.SWAP_ARGUMENTS, _swap_arguments
        if positional and name == "range":
            for position in range(len(node.args)):
                for delta in (1, -1):
                    yield Operator.RANGE_OFF_BY_ONE, _shift_argument(position, delta)
    elif isinstance(node, ast.BoolOp):
        yield Operator.SWAP_AND_OR, _set_bool_op(ast.Or if isinstance(node.op, ast.And) else ast.And)
    elif isinstance(node, ast.BinOp | ast.AugAssign) and isinstance(node.op, ast.Add | ast.Sub):
        yield Operator.SWAP_PLUS_MINUS, _set_bin_op(ast.Sub if isinstance(node.op, ast.Add) else ast.Add)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield Operator.DROP_NOT, _drop_not
