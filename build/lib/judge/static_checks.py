"""Checks on the source text with ``ast``, before any container starts.

Learner code is parsed here, never compiled to bytecode, imported or executed.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from judge.problems import Problem
from judge.results import Verdict

# Seed 004: an answer that hands the work to another model fails, whatever else it does.
LLM_SDK_MODULES = ("openai", "anthropic", "groq", "google.generativeai", "google.genai")
DYNAMIC_IMPORTERS = ("__import__", "importlib.import_module", "import_module")


@dataclass(frozen=True)
class StaticFailure:
    verdict: Verdict
    message: str
    line: int | None = None
    column: int | None = None


def _banned(module: str, banned: tuple[str, ...]) -> str | None:
    for name in banned:
        if module == name or module.startswith(name + "."):
            return name
    return None


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _call_matches(called: str, forbidden: str) -> bool:
    # "eval" bans eval(...) and builtins.eval(...); "difflib.SequenceMatcher" also bans the
    # bare name after `from difflib import SequenceMatcher`.
    return (
        called == forbidden
        or called.endswith("." + forbidden)
        or called == forbidden.rsplit(".", 1)[-1]
    )


def _imported_modules(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        # `from google import generativeai` imports google.generativeai.
        return [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    if isinstance(node, ast.Call):
        called = _dotted(node.func)
        if called in DYNAMIC_IMPORTERS and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                return [first.value]
    return []


def forbidden_constructs(tree: ast.AST, problem: Problem) -> StaticFailure | None:
    banned_modules = LLM_SDK_MODULES + problem.rules.forbidden_imports
    for node in ast.walk(tree):
        for module in _imported_modules(node):
            hit = _banned(module, banned_modules)
            if hit:
                line = getattr(node, "lineno", None)
                why = "an LLM SDK" if hit in LLM_SDK_MODULES else "forbidden in this problem"
                message = f"line {line}: importing {module!r} is not allowed ({why})"
                return StaticFailure(Verdict.FORBIDDEN, message, line)
        if isinstance(node, ast.Call):
            called = _dotted(node.func)
            for name in problem.rules.forbidden_calls:
                if called and _call_matches(called, name):
                    return StaticFailure(
                        Verdict.FORBIDDEN,
                        f"line {node.lineno}: calling {called}() is not allowed in this problem",
                        node.lineno,
                    )
    return None


def _check_signature(tree: ast.Module, problem: Problem) -> StaticFailure | None:
    defs = [
        n for n in tree.body
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == problem.function
    ]
    if not defs:
        return StaticFailure(
            Verdict.COMPILE_ERROR,
            f"no top-level function named {problem.function!r}; expected {problem.signature}",
        )
    fn = defs[-1]  # the last definition is the one Python keeps
    if isinstance(fn, ast.AsyncFunctionDef):
        return StaticFailure(
            Verdict.COMPILE_ERROR, f"line {fn.lineno}: {fn.name} must be a plain def, not async",
            fn.lineno,
        )
    a = fn.args
    positional = [p.arg for p in a.posonlyargs + a.args]
    wanted = [p.name for p in problem.parameters]
    required = len([p for p in problem.parameters if not p.optional])
    takes = f"takes {len(positional)} parameter{'s' if len(positional) != 1 else ''}"
    if a.vararg is None and len(positional) < len(wanted):
        return StaticFailure(
            Verdict.COMPILE_ERROR,
            f"line {fn.lineno}: {fn.name} {takes}; expected {len(wanted)}: {problem.signature}",
            fn.lineno,
        )
    learner_required = len(positional) - len(a.defaults)
    if learner_required > required or any(d is None for d in a.kw_defaults):
        return StaticFailure(
            Verdict.COMPILE_ERROR,
            f"line {fn.lineno}: {fn.name} requires more arguments than the tests pass "
            f"({required}); expected {problem.signature}",
            fn.lineno,
        )
    if a.kwarg is None:
        # Tests may pass optional parameters by keyword, so their names must match.
        for index, name in enumerate(wanted[required:], start=required):
            if index < len(positional) and positional[index] != name:
                return StaticFailure(
                    Verdict.COMPILE_ERROR,
                    f"line {fn.lineno}: parameter {index + 1} of {fn.name} must be named "
                    f"{name!r}: {problem.signature}",
                    fn.lineno,
                )
    return None


def check_source(code: str, problem: Problem) -> StaticFailure | None:
    """The first static problem with the code, or None when it may run."""
    if "\x00" in code:
        return StaticFailure(Verdict.COMPILE_ERROR, "the source contains a NUL character")
    try:
        tree = ast.parse(code, filename="solution.py")
    except SyntaxError as exc:
        return StaticFailure(
            Verdict.COMPILE_ERROR,
            f"line {exc.lineno}, column {exc.offset}: syntax error: {exc.msg}",
            exc.lineno,
            exc.offset,
        )
    except (ValueError, RecursionError, MemoryError) as exc:
        return StaticFailure(Verdict.COMPILE_ERROR, f"the source cannot be parsed: {exc}")
    return forbidden_constructs(tree, problem) or _check_signature(tree, problem)
