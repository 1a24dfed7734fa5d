"""What every ``problems/<slug>/tests/generate.py`` shares, so it is written (and checked) once.

A generator rebuilds its problem's hidden.json deterministically: it makes its own cases (edge
cases, seeded random ones) and its own checks on the values. The rest was the same in every
problem, copied by hand: import reference.py from the problem folder, refuse a hidden name that a
public test already uses or that repeats, make sure the reference leaves its arguments alone, and
write the file in one byte-stable form (``indent=1``, UTF-8 unescaped, a final newline), so that
rerunning a generator reproduces hidden.json byte for byte. That part lives here.

Generators are scripts run as ``python problems/<slug>/tests/generate.py`` (and loaded by
judge.mutation for their ``fuzz_inputs``); they import this module from the installed package.
"""

from __future__ import annotations

import copy
import importlib.util
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

# (name, args) or (name, args, kwargs): the arguments exactly as the test file will hold them.
Case = tuple[str, list[Any]] | tuple[str, list[Any], dict[str, Any]]
Call = tuple[list[Any], dict[str, Any]]


class GenerationError(Exception):
    """A case that must not go into hidden.json."""


def load_reference(folder: Path) -> ModuleType:
    """The module reference.py in the problem folder ``folder``, freshly imported (not cached in
    sys.modules, so two problems' references never meet)."""
    path = folder / "reference.py"
    spec = importlib.util.spec_from_file_location(f"{folder.name}_reference", path)
    if spec is None or spec.loader is None:
        raise GenerationError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_hidden(
    folder: Path,
    cases: Iterable[Case],
    reference: Callable[..., Any],
    *,
    check: Callable[[Any], bool] | None = None,
    raises: type[Exception] | None = None,
    convert: Callable[[list[Any], dict[str, Any]], Call] | None = None,
) -> list[dict[str, Any]]:
    """Run ``reference`` on every case and write ``folder``/tests/hidden.json; returns the tests.

    ``check(value)`` is the problem's own test of each returned value (type, finiteness, range).
    ``raises``: a case where the reference raises this exception becomes a test that expects it.
    ``convert(args, kwargs)`` gives the call the judge would make when the declared types differ
    from JSON's (tuples, floats); by default the reference gets the JSON arguments themselves.
    The reference always runs on a deep copy, which must compare equal to the arguments after.
    """
    tests_folder = folder / "tests"
    public = json.loads((tests_folder / "public.json").read_text(encoding="utf-8"))
    public_names = {test["name"] for test in public}
    seen: set[str] = set()
    catch: tuple[type[Exception], ...] = () if raises is None else (raises,)
    tests: list[dict[str, Any]] = []
    for case in cases:
        name, args = case[0], case[1]
        kwargs = case[2] if len(case) == 3 else {}
        if name in public_names:
            raise GenerationError(f"{name}: public.json already has a test of that name")
        if name in seen:
            raise GenerationError(f"{name}: two hidden tests have that name")
        seen.add(name)
        call = convert(args, kwargs) if convert is not None else (args, kwargs)
        called = copy.deepcopy(call)
        test: dict[str, Any] = {"name": name, "args": args}
        if kwargs:
            test["kwargs"] = kwargs
        try:
            value = reference(*called[0], **called[1])
        except catch:
            test["raises"] = catch[0].__name__
        else:
            if check is not None and not check(value):
                raise GenerationError(f"{name}: the check refuses the reference's value {value!r:.200}")
            test["expected"] = value
        if called != call:
            raise GenerationError(f"{name}: the reference mutated its arguments")
        tests.append(test)
    data = (json.dumps(tests, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    path = tests_folder / "hidden.json"
    path.write_bytes(data)
    print(f"wrote {len(tests)} tests, {len(data)} bytes to {path}")
    return tests
