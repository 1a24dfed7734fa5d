"""Problem folders: loading, validation with messages that name the file and key, versioning."""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judge.checkers import CheckerError, CheckerSpec, parse_checker
from judge.errors import ProblemError
from judge.results import HiddenPolicy, Verdict
from judge.value_types import TypeSpec, TypeSpecError, from_json, parse_type
from sandbox.interface import (
    DEFAULT_MEMORY_MB,
    DEFAULT_TIME_PER_SUBMISSION,
    DEFAULT_TIME_PER_TEST,
    MAX_TIME_PER_SUBMISSION,
    Isolation,
)

SLUG = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
DIFFICULTIES = ("easy", "medium", "hard")
HIDDEN_POLICIES = tuple(p.value for p in HiddenPolicy)
VERDICT_LINE = re.compile(r"^#\s*verdict:\s*(\w+)\s*$")
TEST_KEYS = {"name", "args", "kwargs", "expected", "raises", "explanation"}
HINT_HEADING = re.compile(r"^ {0,3}##(?:[ \t]+(.*?))?[ \t]*$")  # an ATX level-2 heading
# "## Counting {tests: empty_list, one_item}": the public tests a hint is about, at the heading's end.
HINT_TESTS = re.compile(r"\{\s*tests\s*:([^{}]*)\}\s*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


@dataclass(frozen=True)
class Parameter:
    name: str
    type: TypeSpec
    optional: bool = False


@dataclass(frozen=True)
class ProblemLimits:
    time_per_test: float = DEFAULT_TIME_PER_TEST
    time_per_submission: float = DEFAULT_TIME_PER_SUBMISSION
    memory_mb: int = DEFAULT_MEMORY_MB


@dataclass(frozen=True)
class Rules:
    immutable_arguments: bool = True
    forbidden_imports: tuple[str, ...] = ()
    forbidden_calls: tuple[str, ...] = ()


@dataclass(frozen=True)
class TestCase:
    __test__ = False  # not a pytest test class

    name: str
    args: list[Any]
    kwargs: dict[str, Any] = field(default_factory=dict)
    expected: Any = None
    raises: str | None = None
    explanation: str | None = None
    hidden: bool = False


@dataclass(frozen=True)
class WrongSolution:
    name: str
    code: str
    verdict: Verdict


@dataclass(frozen=True)
class Problem:
    slug: str
    title: str
    difficulty: str
    tags: tuple[str, ...]
    function: str
    parameters: tuple[Parameter, ...]
    returns: TypeSpec
    limits: ProblemLimits
    checker: CheckerSpec
    rules: Rules
    hidden_policy: str
    statement: str
    hints: tuple[str, ...]  # hints.md, one Markdown body per "## " section, in order
    editorial: str | None  # editorial.md
    reference: str
    starter: str
    public_tests: tuple[TestCase, ...]
    hidden_tests: tuple[TestCase, ...]
    wrong: tuple[WrongSolution, ...]
    version: str
    # One learner process loads the module once for all the tests of a submission, or a fresh
    # process and uid per test ("per_test", which costs a fork per test).
    isolation: Isolation = Isolation.SHARED
    # For each hint, the public tests it is about (its heading's "{tests: ...}"; () for none).
    hint_tests: tuple[tuple[str, ...], ...] = ()

    @property
    def signature(self) -> str:
        params = ", ".join(
            f"{p.name}: {p.type}" + ("=..." if p.optional else "") for p in self.parameters
        )
        return f"def {self.function}({params}) -> {self.returns}"

    def tests(self, include_hidden: bool = True) -> tuple[TestCase, ...]:
        return self.public_tests + (self.hidden_tests if include_hidden else ())


class _Table:
    """A TOML table that checks keys and types, so every error names its file and key."""

    def __init__(self, data: dict[str, Any], file: str, where: str, allowed: set[str]) -> None:
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise ProblemError(
                f"{file}: unknown key {where}{unknown[0]!r}; valid keys are "
                + ", ".join(sorted(allowed))
            )
        self.data, self.file, self.where = data, file, where

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ..., ) -> Any:
        if key not in self.data:
            if default is ...:
                raise ProblemError(f"{self.file}: missing key {self.where}{key!r}")
            return default
        value = self.data[key]
        if kind is float and type(value) is int:
            value = float(value)
        if not isinstance(value, kind) or (kind is int and type(value) is bool):
            kinds = kind if isinstance(kind, tuple) else (kind,)
            names = " or ".join(k.__name__ for k in kinds)
            raise ProblemError(f"{self.file}: {self.where}{key!r} must be {names}, got {value!r}")
        return value

    def table(self, key: str, allowed: set[str]) -> _Table:
        return _Table(self.get(key, dict, {}), self.file, f"{self.where}{key}.", allowed)


def content_version(folder: Path) -> str:
    """A hash of every file in the folder (paths and bytes), ignoring caches."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder)
        if "__pycache__" in rel.parts or path.suffix == ".pyc":
            continue
        digest.update(str(rel.as_posix()).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _read_text(path: Path) -> str:
    if not path.is_file():
        raise ProblemError(f"{path}: missing file")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ProblemError(f"{path}: not valid UTF-8 ({exc.reason} at byte {exc.start})") from exc


def _parse_parameters(fn: _Table) -> tuple[Parameter, ...]:
    params = []
    raw = fn.get("parameters", list, [])
    for i, item in enumerate(raw):
        if not isinstance(item, dict):
            raise ProblemError(f"{fn.file}: function.parameters[{i}] must be a table")
        table = _Table(item, fn.file, f"function.parameters[{i}].", {"name", "type", "optional"})
        name = table.get("name", str)
        if not name.isidentifier():
            raise ProblemError(f"{fn.file}: function.parameters[{i}].name {name!r} is not a name")
        try:
            spec = parse_type(table.get("type", str))
        except TypeSpecError as exc:
            raise ProblemError(f"{fn.file}: function.parameters[{i}].type: {exc}") from exc
        params.append(Parameter(name, spec, table.get("optional", bool, False)))
    names = [p.name for p in params]
    if len(set(names)) != len(names):
        raise ProblemError(f"{fn.file}: function.parameters has a repeated name")
    return tuple(params)


def _parse_tests(
    path: Path, params: tuple[Parameter, ...], returns: TypeSpec, hidden: bool
) -> tuple[TestCase, ...]:
    try:
        raw = json.loads(_read_text(path))
    except json.JSONDecodeError as exc:
        raise ProblemError(f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}") from exc
    if not isinstance(raw, list):
        raise ProblemError(f"{path}: must hold a JSON list of test cases")
    by_name = {p.name: p for p in params}
    required = [p for p in params if not p.optional]
    cases = []
    for i, item in enumerate(raw):
        where = f"{path}: test {i}"
        if not isinstance(item, dict):
            raise ProblemError(f"{where} must be an object")
        unknown = sorted(set(item) - TEST_KEYS)
        if unknown:
            valid = ", ".join(sorted(TEST_KEYS))
            raise ProblemError(f"{where}: unknown key {unknown[0]!r}; valid keys are {valid}")
        name = item.get("name")
        if not isinstance(name, str) or not name:
            raise ProblemError(f"{where}: 'name' must be a non-empty string")
        where = f"{path}: test {name!r}"
        args, kwargs = item.get("args", []), item.get("kwargs", {})
        if not isinstance(args, list) or not isinstance(kwargs, dict):
            raise ProblemError(f"{where}: 'args' must be a list and 'kwargs' an object")
        if len(args) > len(params):
            raise ProblemError(f"{where}: {len(args)} arguments for {len(params)} parameters")
        for key in kwargs:
            if key not in by_name or [p.name for p in params].index(key) < len(args):
                raise ProblemError(f"{where}: unexpected or repeated keyword argument {key!r}")
        given = {p.name for p in params[: len(args)]} | set(kwargs)
        missing = [p.name for p in required if p.name not in given]
        if missing:
            raise ProblemError(f"{where}: missing argument {missing[0]!r}")
        if ("expected" in item) == ("raises" in item):
            raise ProblemError(f"{where}: needs exactly one of 'expected' or 'raises'")
        raises = item.get("raises")
        if raises is not None and (not isinstance(raises, str) or not raises.isidentifier()):
            raise ProblemError(f"{where}: 'raises' must name an exception class")
        try:
            typed_args = [
                from_json(v, p.type, f"argument {p.name!r}")
                for v, p in zip(args, params, strict=False)
            ]
            typed_kwargs = {
                k: from_json(v, by_name[k].type, f"argument {k!r}") for k, v in kwargs.items()
            }
            expected = from_json(item["expected"], returns, "expected") if raises is None else None
        except TypeSpecError as exc:
            raise ProblemError(f"{where}: {exc}") from exc
        explanation = item.get("explanation")
        if explanation is not None and not isinstance(explanation, str):
            raise ProblemError(f"{where}: 'explanation' must be a string")
        cases.append(
            TestCase(name, typed_args, typed_kwargs, expected, raises, explanation, hidden)
        )
    return tuple(cases)


def _parse_hints(path: Path) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The bodies of hints.md's level-2 sections, in order, and for each the test names its
    heading ends with ("## Title {tests: a, b}"); ((), ()) when the file is absent.

    A "## " line inside a fenced code block is code, not a new hint.
    """
    if not path.is_file():
        return (), ()
    sections: list[tuple[int, str, list[str]]] = []  # (heading line, heading text, body lines)
    fence: str | None = None
    for number, line in enumerate(_read_text(path).splitlines(), start=1):
        opening = FENCE.match(line)
        if fence is None and opening:
            fence = opening.group(1)
        elif fence is not None and line.strip().startswith(fence[0] * len(fence)) \
                and set(line.strip()) == {fence[0]}:
            fence = None
        heading = HINT_HEADING.match(line) if fence is None and not opening else None
        if heading:
            sections.append((number, (heading.group(1) or "").strip(), []))
        elif sections:
            sections[-1][2].append(line)
        elif line.strip():
            raise ProblemError(f"{path}: line {number}: text before the first '## ' heading; "
                               "each hint is a section that starts with a '## ' line")
    if not sections:
        raise ProblemError(f"{path}: holds no hint; start each hint with a '## ' heading line")
    hints, tests = [], []
    for number, title, body in sections:
        text = "\n".join(body).strip("\n").rstrip()
        if not text.strip():
            named = f" {title!r}" if title else ""
            raise ProblemError(f"{path}: line {number}: hint{named} is empty")
        hints.append(text + "\n")
        about = HINT_TESTS.search(title)
        names = tuple(n.strip() for n in about.group(1).split(",")) if about else ()
        if about and (not names or "" in names):
            raise ProblemError(f"{path}: line {number}: '{{tests: ...}}' names the public tests the "
                               "hint is about, separated by commas")
        tests.append(names)
    return tuple(hints), tuple(tests)


def _checked_hint_tests(path: Path, hint_tests: tuple[tuple[str, ...], ...],
                        public: tuple[TestCase, ...]) -> None:
    names = {test.name for test in public}
    for index, about in enumerate(hint_tests, start=1):
        for name in about:
            if name not in names:
                raise ProblemError(f"{path}: hint {index} is about test {name!r}, which is not a public "
                                   f"test (tests/public.json has {', '.join(sorted(names))})")


def _parse_editorial(path: Path) -> str | None:
    if not path.is_file():
        return None
    text = _read_text(path)
    if not text.strip():
        raise ProblemError(f"{path}: is empty; write the editorial or delete the file")
    return text


def _parse_wrong(folder: Path) -> tuple[WrongSolution, ...]:
    solutions = []
    for path in sorted((folder / "wrong").glob("*.py")):
        code = _read_text(path)
        first = code.splitlines()[0] if code else ""
        match = VERDICT_LINE.match(first)
        if not match:
            raise ProblemError(f"{path}: the first line must be '# verdict: <verdict>'")
        try:
            verdict = Verdict(match.group(1))
        except ValueError as exc:
            valid = ", ".join(v.value for v in Verdict if v is not Verdict.ACCEPTED)
            raise ProblemError(f"{path}: unknown verdict {match.group(1)!r}; use {valid}") from exc
        solutions.append(WrongSolution(path.stem, code, verdict))
    return tuple(solutions)


TOP_KEYS = {"slug", "title", "difficulty", "tags", "function", "limits", "checker", "rules",
            "visibility", "isolation"}
ISOLATIONS = tuple(i.value for i in Isolation)


def load_problem(folder: Path) -> Problem:
    """Load and validate one problem folder; raise ProblemError naming the file and the key."""
    toml_path = folder / "problem.toml"
    file = str(toml_path)
    try:
        data = tomllib.loads(_read_text(toml_path))
    except tomllib.TOMLDecodeError as exc:
        raise ProblemError(f"{file}: invalid TOML: {exc}") from exc
    top = _Table(data, file, "", TOP_KEYS)
    slug = top.get("slug", str)
    if not SLUG.match(slug):
        raise ProblemError(f"{file}: slug {slug!r} must match {SLUG.pattern}")
    if slug != folder.name:
        raise ProblemError(f"{file}: slug {slug!r} differs from the folder name {folder.name!r}")
    difficulty = top.get("difficulty", str)
    if difficulty not in DIFFICULTIES:
        raise ProblemError(f"{file}: difficulty must be one of {', '.join(DIFFICULTIES)}")
    tags = top.get("tags", list, [])
    if not all(isinstance(t, str) for t in tags):
        raise ProblemError(f"{file}: tags must be strings")

    fn = top.table("function", {"name", "returns", "parameters"})
    function = fn.get("name", str)
    if not function.isidentifier():
        raise ProblemError(f"{file}: function.name {function!r} is not a Python name")
    try:
        returns = parse_type(fn.get("returns", str))
    except TypeSpecError as exc:
        raise ProblemError(f"{file}: function.returns: {exc}") from exc
    parameters = _parse_parameters(fn)

    lim = top.table("limits", {"time_per_test", "time_per_submission", "memory_mb"})
    limits = ProblemLimits(
        lim.get("time_per_test", float, DEFAULT_TIME_PER_TEST),
        lim.get("time_per_submission", float, DEFAULT_TIME_PER_SUBMISSION),
        lim.get("memory_mb", int, DEFAULT_MEMORY_MB),
    )
    if not (0 < limits.time_per_test <= 30 and 0 < limits.time_per_submission <= MAX_TIME_PER_SUBMISSION):
        raise ProblemError(f"{file}: limits must be positive (time_per_test <= 30 s, "
                           f"time_per_submission <= {MAX_TIME_PER_SUBMISSION:g} s)")
    if not 32 <= limits.memory_mb <= 4096:
        raise ProblemError(f"{file}: limits.memory_mb must be between 32 and 4096")

    try:  # judge.checkers.REGISTRY knows each checker's name and parameters
        checker = parse_checker(top.get("checker", dict, {}), file)
    except CheckerError as exc:
        raise ProblemError(str(exc)) from exc

    rule = top.table("rules", {"immutable_arguments", "forbidden_imports", "forbidden_calls"})
    rules = Rules(
        rule.get("immutable_arguments", bool, True),
        tuple(rule.get("forbidden_imports", list, [])),
        tuple(rule.get("forbidden_calls", list, [])),
    )
    vis = top.table("visibility", {"hidden"})
    hidden_policy = vis.get("hidden", str, HiddenPolicy.AGGREGATE.value)
    if hidden_policy not in HIDDEN_POLICIES:
        raise ProblemError(f"{file}: visibility.hidden must be one of {', '.join(HIDDEN_POLICIES)}")

    isolation = top.get("isolation", str, Isolation.SHARED.value)
    if isolation not in ISOLATIONS:
        raise ProblemError(f"{file}: isolation must be one of {', '.join(ISOLATIONS)}, got "
                           f"{isolation[:40]!r}")

    public = _parse_tests(folder / "tests" / "public.json", parameters, returns, hidden=False)
    hidden = _parse_tests(folder / "tests" / "hidden.json", parameters, returns, hidden=True)
    names = [t.name for t in public + hidden]
    duplicate = next((n for n in names if names.count(n) > 1), None)
    if duplicate:
        raise ProblemError(f"{folder}/tests: test name {duplicate!r} is used twice")
    if not public:
        raise ProblemError(f"{folder}/tests/public.json: needs at least one test")

    hints, hint_tests = _parse_hints(folder / "hints.md")
    _checked_hint_tests(folder / "hints.md", hint_tests, public)
    return Problem(
        slug=slug,
        title=top.get("title", str),
        difficulty=difficulty,
        tags=tuple(tags),
        function=function,
        parameters=parameters,
        returns=returns,
        limits=limits,
        checker=checker,
        rules=rules,
        hidden_policy=hidden_policy,
        statement=_read_text(folder / "statement.md"),
        hints=hints,
        hint_tests=hint_tests,
        editorial=_parse_editorial(folder / "editorial.md"),
        reference=_read_text(folder / "reference.py"),
        starter=_read_text(folder / "starter.py"),
        public_tests=public,
        hidden_tests=hidden,
        wrong=_parse_wrong(folder),
        version=content_version(folder),
        isolation=Isolation(isolation),
    )


def discover(root: Path) -> list[Path]:
    """Problem folders under root: every direct child holding a problem.toml."""
    return sorted(p for p in root.iterdir() if (p / "problem.toml").is_file())


def find_problem(root: Path, slug: str) -> Problem:
    folder = root / slug
    if not SLUG.match(slug) or not (folder / "problem.toml").is_file():
        known = ", ".join(p.name for p in discover(root)) or "none"
        raise ProblemError(f"unknown problem {slug!r}; known problems: {known}")
    return load_problem(folder)
