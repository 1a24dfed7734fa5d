"""The test tree's shape: every test module has a name of its own across the whole of tests/,
named after what it tests (never after an issue number), and the root conftest marks each test
by what it needs (``unit`` for none of Docker, the real stack or a browser), which ``-m`` then
selects. Read from the file tree and from a real ``pytest --collect-only`` in a child process.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from tests.conftest import SERVICE_MARKERS

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
# Names every package repeats by design; problem folders (a problem.toml beside them) hold the
# problem's own files (reference.py, starter.py), which are data, not test modules.
SHARED_NAMES = {"__init__.py", "conftest.py"}
ISSUE_NUMBER = re.compile(r"issue[_-]?\d", re.IGNORECASE)


def python_files(tree: Path) -> list[Path]:
    problems = {path.parent for path in tree.rglob("problem.toml")}
    return sorted(path for path in tree.rglob("*.py")
                  if "__pycache__" not in path.parts and not problems.intersection(path.parents))


def repeated_names(files: list[Path], tree: Path) -> dict[str, list[str]]:
    where: dict[str, list[str]] = defaultdict(list)
    for path in files:
        if path.name not in SHARED_NAMES:
            where[path.name].append(path.relative_to(tree).as_posix())
    return {name: paths for name, paths in where.items() if len(paths) > 1}


def named_after_an_issue(files: list[Path]) -> list[str]:
    return [path.name for path in files if ISSUE_NUMBER.search(path.stem)]


def test_no_module_name_appears_twice_under_tests() -> None:
    files = python_files(TESTS)
    assert TESTS / "unit" / "service" / "conftest.py" in files and len(files) > 100  # the walk sees the tree
    assert repeated_names(files, TESTS) == {}


def test_no_test_module_is_named_after_an_issue() -> None:
    assert named_after_an_issue(python_files(TESTS)) == []


def test_the_shape_checks_catch_what_they_forbid(tmp_path: Path) -> None:
    for relative in ["unit/test_courses.py", "stack/test_courses.py", "stack/test_authorization_issue11.py",
                     "unit/conftest.py", "stack/conftest.py", "a_problem/reference.py", "b_problem/reference.py"]:
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text("")
    (tmp_path / "a_problem" / "problem.toml").write_text("")
    (tmp_path / "b_problem" / "problem.toml").write_text("")
    files = python_files(tmp_path)
    assert repeated_names(files, tmp_path) == {"test_courses.py": ["stack/test_courses.py", "unit/test_courses.py"]}
    assert named_after_an_issue(files) == ["test_authorization_issue11.py"]


def test_every_marker_the_hook_adds_is_registered_and_fast_is_gone() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    registered = {line.split(":")[0] for line in config["tool"]["pytest"]["ini_options"]["markers"]}
    assert {"unit", "slow", *SERVICE_MARKERS} <= registered
    assert "fast" not in registered


def marks_under_m_unit(*paths: str) -> dict[str, tuple[bool, set[str]]]:
    """Each test module's (kept by ``-m unit``, its markers) from one real collection: the
    markers are those ``-m`` saw when it decided (tests/utils/marks_seen.py)."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-s", "-p", "no:cacheprovider",
                           "-p", "tests.utils.marks_seen", "-m", "unit", *paths],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode in (0, 5), done.stdout + done.stderr  # 5: everything deselected
    found: dict[str, tuple[bool, set[str]]] = {}
    for line in done.stdout.splitlines():
        verdict, _, rest = line.partition(" ")
        if verdict in ("kept", "dropped"):
            node, _, marks = rest.rpartition(" ")
            found[node] = (verdict == "kept", set(marks.split(",")) - {""})
    return found


def modules(found: dict[str, tuple[bool, set[str]]], wanted: Callable[[bool, set[str]], bool]) -> set[str]:
    return {node.split("::")[0] for node, (kept, marks) in found.items() if wanted(kept, marks)}


def test_the_root_conftest_marks_tests_by_the_fixtures_they_get() -> None:
    unit = "tests/unit/service/test_verdicts.py"  # the in-process client: nothing outside the process
    own_browser = "tests/unit/service/test_accounts_api.py"  # a fixture named `browser`, not Playwright's
    engine = "tests/unit/engine/test_grading.py"
    stack = "tests/stack/test_lifecycle.py"  # the stack's client: the session worker and Docker
    declared = "tests/stack/test_upload_safety.py"  # says `stack` itself: its app is on the session's database
    playwright = "tests/browser/test_pages.py"
    found = marks_under_m_unit(unit, own_browser, engine, stack, declared, playwright)
    assert len(modules(found, lambda kept, marks: True)) == 6
    assert modules(found, lambda kept, marks: kept) == {unit, own_browser, engine}  # what -m unit kept
    assert modules(found, lambda kept, marks: "unit" in marks) == {unit, own_browser, engine}
    assert modules(found, lambda kept, marks: {"stack", "docker"} <= marks) == {stack}
    assert modules(found, lambda kept, marks: "stack" in marks and "docker" not in marks) == {declared, playwright}
    assert modules(found, lambda kept, marks: "browser" in marks) == {playwright}


def serial_reasons() -> dict[str, list[str]]:
    """Each module's `serial` markers, as the reasons they give ("" where none is given)."""
    found: dict[str, list[str]] = {}
    for path in python_files(TESTS):
        text = path.read_text(encoding="utf-8")
        # A reason passed in a variable (an attack's `serial:` header) is checked where it is read.
        marks = re.findall(r"pytest\.mark\.serial(?!\(\s*self\.serial\))(?:\(\s*(?:\"([^\"]*)\"|'([^']*)')?)?", text)
        if marks:
            found[path.relative_to(ROOT).as_posix()] = [(a or b).strip() for a, b in marks]
    return found


def test_every_serial_test_says_why_it_cannot_run_beside_others() -> None:
    reasons = serial_reasons()
    assert reasons, "no test is marked serial: scripts/test's second run would be empty"
    assert all(why for whys in reasons.values() for why in whys), reasons
