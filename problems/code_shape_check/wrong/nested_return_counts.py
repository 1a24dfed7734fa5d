# verdict: wrong_answer
# Mistake: walks the whole function with ast.walk, so a return inside a nested helper function
# counts as the outer function returning.
import ast

SDK_MODULES = ("anthropic", "openai", "groq", "google.generativeai")
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _banned(module):
    return any(module == root or module.startswith(root + ".") for root in SDK_MODULES)


def _param_count(node):
    args = node.args
    return len(args.posonlyargs) + len(args.args) + len(args.kwonlyargs)


def _returns_or_yields(func):
    """A return with a value, or any yield, in func's own body (not in nested scopes)."""
    stack = list(func.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return) and node.value is not None:
            return True
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        stack.extend(ast.iter_child_nodes(node))
    return False


def _sdk_imports(tree):
    statements = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    statements.sort(key=lambda n: (n.lineno, n.col_offset))
    found = []
    for node in statements:
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names if _banned(alias.name)]
        elif node.level == 0 and node.module:
            if _banned(node.module):
                names = [node.module]
            else:
                names = [f"{node.module}.{alias.name}" for alias in node.names]
                names = [name for name in names if _banned(name)]
        else:
            names = []
        for name in names:
            if name not in found:
                found.append(name)
    return found


def _unique(items):
    out = []
    for item in items:
        if item not in out:
            out.append(item)
    return out


def code_shape_check(
    source: str, fn: str, arity: int, require: list[str] = [], forbid: list[str] = []  # noqa: B006
) -> dict:
    """Check the shape of a code answer without running it."""
    missing = _unique(s for s in require if s and s not in source)
    forbidden = _unique(s for s in forbid if s and s in source)
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        tree = None
    signature = returns = False
    sdk = []
    if tree is not None:
        matching = [
            node
            for node in ast.walk(tree)
            if isinstance(node, FUNCTIONS) and node.name == fn and _param_count(node) == arity
        ]
        signature = bool(matching)
        returns = any(_returns_or_yields(node) for node in matching)
        sdk = _sdk_imports(tree)
    return {
        "parses": tree is not None,
        "signature": signature,
        "returns": returns,
        "missing": missing,
        "forbidden": forbidden,
        "sdk_imports": sdk,
        "passed": tree is not None
        and signature
        and returns
        and not missing
        and not forbidden
        and not sdk,
    }
