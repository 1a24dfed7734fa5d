"""The layers hold: api -> judge.service -> judge (the engine) -> sandbox, and no import cycles.

Read from the source with ``ast`` (every import, including those inside functions), so a
violation fails here before anyone has to notice it in review.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("api", "judge", "sandbox")
# What each layer may not import: anything above it, and the service's infrastructure.
SERVICE_ONLY = ("sqlalchemy", "alembic", "celery", "kombu", "redis", "fastapi", "starlette", "psycopg")
FORBIDDEN = {
    "sandbox": ("judge", "api", *SERVICE_ONLY),
    "judge": ("judge.service", "api", *SERVICE_ONLY),
    "judge.service": ("api", "fastapi", "starlette"),
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:  # Alembic's scripts are run by Alembic, not imported
                found[module_name(path)] = path
    return found


def imports_of(name: str, path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def layer_of(name: str) -> str:
    if name.startswith("judge.service") or name == "judge.service":
        return "judge.service"
    return name.split(".")[0]


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def test_no_layer_imports_upward_or_into_infrastructure() -> None:
    found = modules()
    assert "judge.service.jobs" in found and "sandbox.protocol" in found  # the walk sees the tree
    violations = []
    for name, path in found.items():
        forbidden = FORBIDDEN.get(layer_of(name), ())
        for target in sorted(imports_of(name, path)):
            if any(within(target, banned) for banned in forbidden):
                violations.append(f"{path.relative_to(ROOT)} imports {target}")
    assert not violations, "\n".join(violations)


def test_no_import_cycles() -> None:
    found = modules()
    graph = {name: {target for target in imports_of(name, path) if target in found and target != name}
             for name, path in found.items()}
    # A package's __init__ importing its own submodules is how packages re-export; skip those edges.
    graph = {name: {t for t in targets if not within(t, name)} for name, targets in graph.items()}
    cycles = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                cycles.append(" -> ".join([*stack[stack.index(target):], target]))
            elif target not in state:
                visit(target)
        stack.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


@pytest.mark.parametrize("source, expected", [
    ("import sqlalchemy", {"sqlalchemy"}),
    ("from judge.service import jobs", {"judge.service", "judge.service.jobs"}),
    ("def f():\n    from . import x", {"judge", "judge.x"}),
])
def test_the_reader_sees_every_kind_of_import(tmp_path: Path, source: str, expected: set[str]) -> None:
    path = tmp_path / "probe.py"
    path.write_text(source)
    assert imports_of("judge.probe", path) == expected
