# verdict: wrong_answer
# Mistake: finds SDK imports with a regular expression on the text instead of the syntax tree: it
# misses "from google import generativeai", reports only the top-level package name, and flags an
# import statement that sits inside a string literal.
import ast
import re

SDK_MODULES = ("anthropic", "openai", "groq", "google.generativeai")


def _count(node):
    a = node.args
    return len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs)


def _returns(func):
    stack = list(func.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return) and node.value is not None:
            return True
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return False


def code_shape_check(source, fn, arity, require=[], forbid=[]):
    missing = []
    for s in require:
        if s and s not in source and s not in missing:
            missing.append(s)
    forbidden = []
    for s in forbid:
        if s and s in source and s not in forbidden:
            forbidden.append(s)
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        tree = None
    signature = returns = False
    sdk = []
    if tree is not None:
        defs = [n for n in ast.walk(tree)
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                and n.name == fn and _count(n) == arity]
        signature = bool(defs)
        returns = any(_returns(n) for n in defs)
        for match in re.finditer(r"\b(?:import|from)\s+([\w.]+)", source):
            name = match.group(1)
            for root in SDK_MODULES:
                if (name == root or name.startswith(root + ".")) and root not in sdk:
                    sdk.append(root)
    return {
        "parses": tree is not None,
        "signature": signature,
        "returns": returns,
        "missing": missing,
        "forbidden": forbidden,
        "sdk_imports": sdk,
        "passed": tree is not None and signature and returns and not missing
        and not forbidden and not sdk,
    }
