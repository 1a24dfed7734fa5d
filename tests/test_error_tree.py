"""The error tree holds: every ``DomainError`` lives in ``judge/errors.py`` (the root and the
engine's refusals) or ``service/errors.py`` (the service's), every code has one HTTP status, the
framework's codes agree with the tree, and the trees drawn in the two modules' docstrings are the
tree of classes (the service's drawing: all of it; the engine's: its own classes).

The classes are found by walking ``__subclasses__`` after importing every module of ``judge``,
``service`` and ``api``, so a class defined anywhere else is found too.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import subprocess
import sys
from collections.abc import Iterable, Mapping
from typing import TypeVar

import api
import judge
import service
from api.errors import HTTP_CODES
from judge import errors as engine_errors
from judge.errors import DomainError
from service import errors as service_errors
from service.errors import STATUS

HOMES = ("judge.errors", "service.errors")
E = TypeVar("E", bound=BaseException)
TREE_LINE = re.compile(r"^( {4}(?: {2})*)(\w+) +(\w+) +(\d{3})$")


def import_everything() -> None:
    for package in (judge, service, api):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            # Alembic runs the migrations itself; a __main__ runs its program when imported.
            if ".migrations" not in module.name and not module.name.endswith("__main__"):
                importlib.import_module(module.name)


def every_class(root: type[E]) -> list[type[E]]:
    found = [root]
    for child in root.__subclasses__():
        found += every_class(child)
    return found


def faults(classes: Iterable[type], table: Mapping[str, int], homes: tuple[str, ...]) -> list[str]:
    """What is wrong with a tree of error classes: a code the table has no status for, a class
    that sets a code without a status, one code given two statuses, a class defined elsewhere."""
    found: list[str] = []
    seen: dict[str, tuple[str, int]] = {}
    for cls in classes:
        code, status = getattr(cls, "code", None), getattr(cls, "status", None)
        if not isinstance(code, str) or code not in table:
            found.append(f"{cls.__qualname__}: code {code!r} has no status in the table")
        elif table[code] != status:
            found.append(f"{cls.__qualname__}: status {status}, the table says {table[code]}")
        if "code" in vars(cls) and "status" not in vars(cls):
            found.append(f"{cls.__qualname__}: sets code {code!r} without a status")
        if not (isinstance(status, int) and 400 <= status <= 599):
            found.append(f"{cls.__qualname__}: {status!r} is not an HTTP error status")
        if isinstance(code, str) and isinstance(status, int):
            other = seen.setdefault(code, (cls.__qualname__, status))
            if other[1] != status:
                found.append(f"code {code!r}: {other[0]} says {other[1]}, {cls.__qualname__} {status}")
        if cls.__module__ not in homes:
            found.append(f"{cls.__qualname__}: defined in {cls.__module__}, not in {' or '.join(homes)}")
    return found


def drawn_tree(docstring: str) -> dict[str, tuple[str | None, str, int]]:
    """The docstring's tree: each class name -> (its parent's name, code, status)."""
    drawn: dict[str, tuple[str | None, str, int]] = {}
    parents: list[str] = []
    for line in docstring.splitlines():
        match = TREE_LINE.match(line)
        if match:
            indent, name, code, status = match.groups()
            depth = (len(indent) - 4) // 2
            assert depth <= len(parents), f"the tree skips a level at {name}"
            del parents[depth:]
            assert name not in drawn, f"{name} is drawn twice"
            drawn[name] = (parents[-1] if parents else None, code, int(status))
            parents.append(name)
    return drawn


def class_tree(module: str | None = None) -> dict[str, tuple[str | None, str, int]]:
    """Each class (of ``module`` alone when given) -> (its parent's name, code, status)."""
    tree: dict[str, tuple[str | None, str, int]] = {}
    for cls in every_class(DomainError):
        if module is not None and cls.__module__ != module:
            continue
        parent = next((base.__name__ for base in cls.__bases__ if issubclass(base, DomainError)), None)
        tree[cls.__name__] = (parent, cls.code, cls.status)
    return tree


def test_every_domain_error_lives_in_an_errors_module_with_one_status() -> None:
    import_everything()
    classes = every_class(DomainError)
    assert len(classes) > 10  # the walk found the tree, not just its root
    assert faults(classes, STATUS, HOMES) == []


def test_the_fault_finder_names_each_kind_of_fault() -> None:
    # Stand-ins, not DomainError subclasses, so the real tree stays as it is.
    home = HOMES[1]
    good = type("Good", (Exception,), {"code": "good", "status": 409, "__module__": home})
    unmapped = type("Unmapped", (good,), {"code": "nowhere", "status": 409, "__module__": home})
    silent = type("Silent", (good,), {"code": "good", "__module__": home})
    twice = type("Twice", (good,), {"code": "good", "status": 403, "__module__": home})
    stray = type("Stray", (good,), {"__module__": "service.elsewhere"})
    table = {"good": 409}
    assert faults([good], table, HOMES) == []
    assert faults([unmapped], table, HOMES) == ["Unmapped: code 'nowhere' has no status in the table"]
    assert faults([silent], table, HOMES) == ["Silent: sets code 'good' without a status"]
    assert faults([good, twice], table, HOMES) == [
        "Twice: status 403, the table says 409", "code 'good': Good says 409, Twice 403"]
    assert faults([stray], table, HOMES) == [
        "Stray: defined in service.elsewhere, not in judge.errors or service.errors"]


def test_a_code_without_a_status_fails_where_it_is_defined() -> None:
    # In a process of its own: the refused class would otherwise stay among the subclasses.
    script = "from judge.errors import DomainError\nclass Gone(DomainError):\n    code = 'gone'\n"
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert run.returncode != 0
    assert "TypeError: Gone sets code 'gone' without its HTTP status" in run.stderr


def test_the_service_docstring_draws_the_whole_tree_of_classes() -> None:
    import_everything()
    assert service_errors.__doc__ is not None
    drawn = drawn_tree(service_errors.__doc__)
    assert drawn["DomainError"] == (None, "bad_request", 400)  # the drawing was found and read
    assert drawn == class_tree()


def test_the_engine_docstring_draws_the_engines_classes() -> None:
    assert engine_errors.__doc__ is not None
    drawn = drawn_tree(engine_errors.__doc__)
    assert drawn["DomainError"] == (None, "bad_request", 400)  # the drawing was found and read
    assert drawn == class_tree("judge.errors")


def test_the_framework_codes_agree_with_the_tree() -> None:
    for status, code in HTTP_CODES.items():
        # A domain code keeps its status; a status the tree answers gets one of the tree's codes.
        assert STATUS.get(code, status) == status, (code, status)
        assert code in STATUS or status not in STATUS.values(), (status, code)
