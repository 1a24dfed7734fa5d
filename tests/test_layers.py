"""The layers hold: api -> service -> judge (the engine) -> sandbox, and no import cycles
(the engine without pydantic, which only the service needs);
the engine uses the sandbox only through ``sandbox.interface`` (so a fake can stand in for it),
except where it builds the configured sandbox and its command line;
and what runs inside the sandbox container (sandbox.inside) imports only the standard library
and itself, since the image holds nothing else.

Read from the source with ``ast`` (every import, including those inside functions), so a
violation fails here before anyone has to notice it in review, not only once it is in the image.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("api", "service", "judge", "sandbox")
# What each layer may not import: anything above it, and the service's infrastructure.
SERVICE_ONLY = ("sqlalchemy", "alembic", "celery", "kombu", "redis", "fastapi", "starlette", "psycopg")
# The engine's commands start in a quarter of a second: pydantic's import alone took 110 ms of it.
ENGINE_SLOW = ("pydantic", "pydantic_settings")
FORBIDDEN = {
    "sandbox": ("judge", "service", "api", *SERVICE_ONLY, *ENGINE_SLOW),
    "judge": ("service", "api", *SERVICE_ONLY, *ENGINE_SLOW),
    "service": ("api", "fastapi", "starlette"),
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
    return name.split(".")[0]


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


# The engine's one door into the sandbox package, and the two engine modules that see past it:
# the one that builds the configured (Docker) sandbox, and the engine's command line (which
# builds the image and checks the engine).
SANDBOX_DOOR = "sandbox.interface"
PAST_THE_DOOR = ("judge.sandboxes", "judge.engine_commands")


def past_the_door(name: str, path: Path) -> list[str]:
    """What an engine module imports from the sandbox package other than its interface."""
    if layer_of(name) != "judge" or name in PAST_THE_DOOR:
        return []
    # ``from sandbox import interface`` names the package itself as well: that is not past the door.
    return [f"{name} imports {target}" for target in sorted(imports_of(name, path))
            if within(target, "sandbox") and target != "sandbox" and not within(target, SANDBOX_DOOR)]


def test_the_engine_uses_the_sandbox_only_through_its_interface() -> None:
    found = modules()
    assert "judge.grading" in found and "judge.mutation.calls" in found
    violations = [line for name, path in found.items() for line in past_the_door(name, path)]
    assert not violations, "\n".join(violations)


@pytest.mark.parametrize("name", ["judge.probe", "judge.mutation.probe"])
def test_an_engine_import_past_the_sandbox_interface_is_caught(tmp_path: Path, name: str) -> None:
    path = tmp_path / "probe.py"
    path.write_text("from sandbox.interface import Opaque, Sandbox\nfrom sandbox import interface\n"
                    "from sandbox.inside import codec\nimport sandbox.docker_runner\n")
    assert past_the_door(name, path) == [
        f"{name} imports sandbox.docker_runner",
        f"{name} imports sandbox.inside", f"{name} imports sandbox.inside.codec",
    ]
    assert past_the_door("judge.sandboxes", path) == past_the_door("judge.engine_commands", path) == []
    assert past_the_door("service.probe", path) == []


INSIDE = "sandbox.inside"


def outside_imports(name: str, path: Path, host: set[str]) -> list[str]:
    """What an in-container module imports beyond the standard library and sandbox.inside."""
    wrong = []
    for target in sorted(imports_of(name, path)):
        if within(target, INSIDE):
            continue
        if target in host or target.split(".")[0] in ("sandbox", "judge", "service", "api"):
            wrong.append(f"{name} imports the host module {target}")
        elif target.split(".")[0] not in sys.stdlib_module_names:
            wrong.append(f"{name} imports {target}, not in the standard library")
    return wrong


def test_no_layer_imports_upward_or_into_infrastructure() -> None:
    found = modules()
    assert "service.jobs" in found and "sandbox.inside.protocol" in found  # the walk sees the tree
    violations = []
    for name, path in found.items():
        forbidden = FORBIDDEN.get(layer_of(name), ())
        for target in sorted(imports_of(name, path)):
            if any(within(target, banned) for banned in forbidden):
                violations.append(f"{path.relative_to(ROOT)} imports {target}")
    assert not violations, "\n".join(violations)


def test_the_container_side_imports_only_the_standard_library_and_itself() -> None:
    found = modules()
    inside = {name: path for name, path in found.items() if within(name, INSIDE)}
    assert {"sandbox.inside.harness", "sandbox.inside.protocol"} <= set(inside)
    host = set(found) - set(inside)
    violations = [line for name, path in inside.items() for line in outside_imports(name, path, host)]
    assert not violations, "\n".join(violations)


def test_the_container_side_loads_from_a_copy_of_its_folder_alone(tmp_path: Path) -> None:
    """As in the image: sandbox/inside copied alone, every module imported under ``python -I``;
    -S too, since the virtualenv's site hooks (the editable install's finder) would find the
    repository's sandbox package instead of the copy."""
    shutil.copytree(ROOT / "sandbox" / "inside", tmp_path / "sandbox" / "inside",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "sandbox" / "__init__.py").write_text("")
    names = sorted(name for name in modules() if within(name, INSIDE))
    probe = (f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import {', '.join(names)}; "
             "print(sandbox.inside.__file__)")
    done = subprocess.run([sys.executable, "-I", "-S", "-B", "-c", probe], capture_output=True,
                          text=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(tmp_path / "sandbox" / "inside" / "__init__.py")


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


def test_a_host_or_third_party_import_inside_is_caught(tmp_path: Path) -> None:
    path = tmp_path / "probe.py"
    path.write_text("import json\nimport sandbox.docker_runner\nimport docker\n"
                    "from . import codec\nfrom sandbox.inside.protocol import Kind\n")
    assert outside_imports("sandbox.inside.probe", path, set(modules())) == [
        "sandbox.inside.probe imports docker, not in the standard library",
        "sandbox.inside.probe imports the host module sandbox.docker_runner",
    ]


@pytest.mark.parametrize("source, expected", [
    ("import sqlalchemy", {"sqlalchemy"}),
    ("from service import jobs", {"service", "service.jobs"}),
    ("def f():\n    from . import x", {"judge", "judge.x"}),
])
def test_the_reader_sees_every_kind_of_import(tmp_path: Path, source: str, expected: set[str]) -> None:
    path = tmp_path / "probe.py"
    path.write_text(source)
    assert imports_of("judge.probe", path) == expected



CLIENT_LIBRARIES = ("judge_client", "httpx", "typer", "rich")


def client_imports_beyond(name: str, path: Path) -> list[str]:
    """What a judge_client module imports besides itself, its three libraries and the standard
    library: it speaks to the judge over HTTP only, so it runs where the service is not installed."""
    return [f"{name} imports {target}" for target in sorted(imports_of(name, path))
            if target.split(".")[0] not in (*CLIENT_LIBRARIES, *sys.stdlib_module_names)]


def test_the_client_uses_only_the_http_api(tmp_path: Path) -> None:
    files = sorted((ROOT / "judge_client").rglob("*.py"))
    assert ROOT / "judge_client" / "cli.py" in files
    assert [line for path in files for line in client_imports_beyond(module_name(path), path)] == []
    probe = tmp_path / "probe.py"
    probe.write_text("import json\nfrom service import jobs\nimport rich.table\nimport sqlalchemy\n")
    assert client_imports_beyond("judge_client.probe", probe) == [
        "judge_client.probe imports service", "judge_client.probe imports service.jobs",
        "judge_client.probe imports sqlalchemy"]
