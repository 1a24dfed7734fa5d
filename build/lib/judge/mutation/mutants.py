"""Mutants of a source text: every operator at every node, deduplicated and described.

Each mutant is made on a deep copy of the parsed tree and unparsed, so two mutations that give the same
program (``range(1, n)`` -> ``range(2, n)`` by the constant and by the range operator) count once. The
description quotes only the part of the line that changed, so the report stays one line per mutant.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Sequence
from dataclasses import dataclass

from judge.mutation.operators import Operator, Replace, mutations

SNIPPET_CHARS = 60
SNIPPET_CONTEXT = 15


@dataclass(frozen=True)
class Mutant:
    """One mutated copy of a source text."""

    number: int  # 1-based, in source order, after deduplication
    line: int
    operator: Operator
    description: str  # one line, starting with the line number
    source: str


@dataclass(frozen=True)
class _Site:
    index: int  # the node's position in ast.walk order (the same in a deep copy)
    shown: int  # the node whose source the description quotes
    operator: Operator
    apply: Replace


def _parents(tree: ast.AST) -> dict[int, ast.AST]:
    return {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _sites(tree: ast.Module) -> list[_Site]:
    """Every (node, mutation) pair, sorted by where the node starts in the source."""
    nodes = list(ast.walk(tree))
    position = {id(node): i for i, node in enumerate(nodes)}
    parents = _parents(tree)
    found: list[tuple[tuple[int, int, int], _Site]] = []
    for i, node in enumerate(nodes):
        shown = i
        if isinstance(node, ast.Constant):
            parent = parents.get(id(node))
            if isinstance(parent, ast.expr):
                shown = position[id(parent)]  # a bare "1" says little; quote the expression around it
        key = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0), i)
        found.extend((key, _Site(i, shown, operator, apply)) for operator, apply in mutations(node))
    found.sort(key=lambda item: item[0])
    return [site for _, site in found]


def _replace_in_parent(tree: ast.AST, old: ast.AST, new: ast.AST) -> None:
    parent = _parents(tree)[id(old)]
    for name, value in ast.iter_fields(parent):
        if value is old:
            setattr(parent, name, new)
            return
        if isinstance(value, list):
            for k, item in enumerate(value):
                if item is old:
                    value[k] = new
                    return
    raise ValueError("node not found in its parent")  # pragma: no cover - ast invariants


def _snippet(node: ast.AST) -> str:
    return " ".join(ast.unparse(node).split())


def _common_prefix(a: str, b: str) -> int:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return min(len(a), len(b))


def _contrast(before: str, after: str) -> tuple[str, str]:
    """Both texts cut down to the part that differs, with a little context either side."""
    if len(before) <= SNIPPET_CHARS and len(after) <= SNIPPET_CHARS:
        return before, after
    prefix = _common_prefix(before, after)
    suffix = _common_prefix(before[prefix:][::-1], after[prefix:][::-1])
    start = max(0, prefix - SNIPPET_CONTEXT)

    def cut(text: str) -> str:
        end = min(len(text), len(text) - suffix + SNIPPET_CONTEXT)
        piece = text[start:end]
        if len(piece) > SNIPPET_CHARS:
            piece, end = piece[: SNIPPET_CHARS - 3], -1
        return ("..." if start else "") + piece + ("..." if end != len(text) else "")

    return cut(before), cut(after)


def generate_mutants(source: str) -> list[Mutant]:
    """Every distinct mutant of ``source``, in source order.

    A mutant whose unparsed source equals the original's or an earlier mutant's is dropped.
    """
    tree = ast.parse(source)
    seen = {ast.unparse(tree)}
    mutants: list[Mutant] = []
    for site in _sites(tree):
        mutated = copy.deepcopy(tree)
        nodes = list(ast.walk(mutated))
        target, shown = nodes[site.index], nodes[site.shown]
        before = _snippet(shown)
        line = getattr(target, "lineno", 0)
        replacement = site.apply(target)
        if replacement is not target:
            _replace_in_parent(mutated, target, replacement)
            if shown is target:
                shown = replacement
        ast.fix_missing_locations(mutated)
        text = ast.unparse(mutated)
        if text in seen:
            continue
        seen.add(text)
        old, new = _contrast(before, _snippet(shown))
        description = f"line {line}: {site.operator}: `{old}` -> `{new}`"
        mutants.append(Mutant(len(mutants) + 1, line, site.operator, description, text))
    return mutants


def select_mutants(mutants: Sequence[Mutant], limit: int) -> list[Mutant]:
    """At most ``limit`` mutants, spread evenly over the source (deterministic)."""
    if limit <= 0 or len(mutants) <= limit:
        return list(mutants)
    return [mutants[(k * len(mutants)) // limit] for k in range(limit)]
