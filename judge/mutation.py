"""Mutation testing of problem references: do the hidden tests notice small bugs?

Each reference solution is mutated with ``ast`` (flip a comparison, drop a ``min``/``max``, change a
numeric constant, swap two call arguments, shift a ``range`` bound, swap ``and``/``or`` and ``+``/``-``,
drop a ``not``). Each mutant runs against the problem's public and hidden tests in a subprocess with a
memory limit and timeouts, checked with the judge's own checker. A mutant that passes every test is
fuzzed against the reference on many generated inputs: if they agree it is *probably equivalent*,
otherwise it is a surviving bug the tests miss.

Run ``python -m judge.mutation [SLUG ...]`` for a report per problem.
"""

from __future__ import annotations

import argparse
import ast
import copy
import importlib.util
import io
import json
import os
import random
import resource
import signal
import subprocess
import sys
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from types import FrameType
from typing import Any

from judge.checkers import CHECKERS
from judge.problems import CheckerSpec, Problem, TestCase, discover, load_problem
from judge.value_types import TypeSpecError, from_json
from sandbox import codec

KILL_SHARE_REQUIRED = 0.9
DEFAULT_MAX_MUTANTS = 60
DEFAULT_FUZZ_COUNT = 1500
DEFAULT_WORKERS = 2
MEMORY_LIMIT_BYTES = 1 << 30  # RLIMIT_AS for every mutant process
FUZZ_WALL_SECONDS = 120.0
SNIPPET_CHARS = 60
SNIPPET_CONTEXT = 15

# ---------------------------------------------------------------------------------------------------
# Generating mutants
# ---------------------------------------------------------------------------------------------------

Replace = Callable[[ast.AST], ast.AST]
"""Mutates a node of a copied tree in place, or returns the node that replaces it."""

_COMPARE_FLIPS: dict[type[ast.cmpop], tuple[type[ast.cmpop], ...]] = {
    ast.Lt: (ast.LtE, ast.GtE),
    ast.LtE: (ast.Lt, ast.Gt),
    ast.Gt: (ast.GtE, ast.LtE),
    ast.GtE: (ast.Gt, ast.Lt),
    ast.Eq: (ast.NotEq,),
    ast.NotEq: (ast.Eq,),
    ast.In: (ast.NotIn,),
    ast.NotIn: (ast.In,),
    ast.Is: (ast.IsNot,),
    ast.IsNot: (ast.Is,),
}


class Operator(StrEnum):
    """The mutation operators, named as the report shows them."""

    FLIP_COMPARISON = "flip comparison"
    DROP_MIN_MAX = "drop min/max"
    CHANGE_CONSTANT = "change constant"
    SWAP_ARGUMENTS = "swap arguments"
    RANGE_OFF_BY_ONE = "range off-by-one"
    SWAP_AND_OR = "swap and/or"
    SWAP_PLUS_MINUS = "swap +/-"
    DROP_NOT = "drop not"


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


def _set_compare_op(position: int, new_op: type[ast.cmpop]) -> Replace:
    def apply(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Compare)
        node.ops[position] = new_op()
        return node

    return apply


def _set_constant(value: int | float) -> Replace:
    def apply(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Constant)
        node.value = value
        return node

    return apply


def _pick_argument(position: int) -> Replace:
    def apply(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Call)
        return node.args[position]

    return apply


def _swap_arguments(node: ast.AST) -> ast.AST:
    assert isinstance(node, ast.Call)
    node.args[0], node.args[1] = node.args[1], node.args[0]
    return node


def _shift_argument(position: int, delta: int) -> Replace:
    def apply(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Call)
        arg = node.args[position]
        if isinstance(arg, ast.Constant) and type(arg.value) is int:
            node.args[position] = ast.Constant(arg.value + delta)
        else:
            op: ast.operator = ast.Add() if delta > 0 else ast.Sub()
            node.args[position] = ast.BinOp(arg, op, ast.Constant(abs(delta)))
        return node

    return apply


def _set_bool_op(new_op: type[ast.boolop]) -> Replace:
    def apply(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.BoolOp)
        node.op = new_op()
        return node

    return apply


def _set_bin_op(new_op: type[ast.operator]) -> Replace:
    def apply(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.BinOp | ast.AugAssign)
        node.op = new_op()
        return node

    return apply


def _drop_not(node: ast.AST) -> ast.AST:
    assert isinstance(node, ast.UnaryOp)
    return node.operand


def _mutations(node: ast.AST) -> Iterator[tuple[Operator, Replace]]:
    """Every mutation that applies to this node, in a fixed order."""
    if isinstance(node, ast.Compare):
        for position, op in enumerate(node.ops):
            for new_op in _COMPARE_FLIPS.get(type(op), ()):
                yield Operator.FLIP_COMPARISON, _set_compare_op(position, new_op)
    elif isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        if type(node.value) is not bool:  # True and False are ints, not numeric constants
            # n -> n+1 and n -> n-1; this includes 0 -> 1 and 1 -> 0.
            for delta in (1, -1):
                yield Operator.CHANGE_CONSTANT, _set_constant(node.value + delta)
    elif isinstance(node, ast.Call):
        positional = not any(isinstance(arg, ast.Starred) for arg in node.args)
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if positional and name in ("min", "max") and len(node.args) >= 2:
            for position in range(len(node.args)):
                yield Operator.DROP_MIN_MAX, _pick_argument(position)
        if positional and len(node.args) == 2:
            yield Operator.SWAP_ARGUMENTS, _swap_arguments
        if positional and name == "range":
            for position in range(len(node.args)):
                for delta in (1, -1):
                    yield Operator.RANGE_OFF_BY_ONE, _shift_argument(position, delta)
    elif isinstance(node, ast.BoolOp):
        yield Operator.SWAP_AND_OR, _set_bool_op(ast.Or if isinstance(node.op, ast.And) else ast.And)
    elif isinstance(node, ast.BinOp | ast.AugAssign) and isinstance(node.op, ast.Add | ast.Sub):
        yield Operator.SWAP_PLUS_MINUS, _set_bin_op(ast.Sub if isinstance(node.op, ast.Add) else ast.Add)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield Operator.DROP_NOT, _drop_not


def _parents(tree: ast.AST) -> dict[int, ast.AST]:
    return {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _sites(tree: ast.Module) -> list[_Site]:
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
        for operator, apply in _mutations(node):
            key = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0), i)
            found.append((key, _Site(i, shown, operator, apply)))
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


# ---------------------------------------------------------------------------------------------------
# Running code in a child process
# ---------------------------------------------------------------------------------------------------


class _CallTimeout(BaseException):
    """Raised by the interval timer; a BaseException so that ``except Exception`` cannot hide it."""


@dataclass(frozen=True)
class _Call:
    """What one call did; values are codec round-tripped, as the judge sees them."""

    value: Any = None
    error: str | None = None  # the exception class name
    message: str = ""
    timed_out: bool = False
    args_after: tuple[list[Any], dict[str, Any]] | None = None


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise _CallTimeout


def _roundtrip(value: Any) -> Any:
    return codec.decode(codec.encode(value))


def _call(function: Callable[..., Any], args: list[Any], kwargs: dict[str, Any], seconds: float) -> _Call:
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            value = function(*args, **kwargs)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _CallTimeout:
        return _Call(timed_out=True)
    except BaseException as exc:  # the mutant's bug, whatever it is
        return _Call(error=type(exc).__name__, message=str(exc)[:200])
    after = ([_roundtrip(a) for a in args], {k: _roundtrip(v) for k, v in kwargs.items()})
    return _Call(value=_roundtrip(value), args_after=after)


def _load_function(source: str, name: str, seconds: float) -> Callable[..., Any]:
    """Run the module's code (under the timer too: it may loop) and return the named function."""
    namespace: dict[str, Any] = {"__name__": "solution"}
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        exec(compile(source, "solution.py", "exec"), namespace)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    function = namespace[name]
    if not callable(function):
        raise TypeError(f"{name} is not callable")
    return function  # type: ignore[no-any-return]


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _mutated_argument(call: _Call, args: list[Any], kwargs: dict[str, Any], spec: CheckerSpec) -> bool:
    if call.args_after is None:
        return False
    after_args, after_kwargs = call.args_after
    return any(CHECKERS["exact"](b, a, spec) for b, a in zip(args, after_args, strict=False)) or any(
        CHECKERS["exact"](v, after_kwargs.get(k), spec) for k, v in kwargs.items()
    )


def _run_tests(job: dict[str, Any]) -> str | None:
    """The first test the mutant fails, in words; None when it passes them all."""
    spec = CheckerSpec(**job["checker"])
    check = CHECKERS[spec.name]
    function = _load_function(job["source"], job["function"], job["seconds"])
    for case in job["cases"]:
        args = [codec.decode(a) for a in case["args"]]
        kwargs = {k: codec.decode(v) for k, v in case["kwargs"].items()}
        before_args, before_kwargs = copy.deepcopy(args), copy.deepcopy(kwargs)
        call = _call(function, args, kwargs, job["seconds"])
        where = f"test {case['name']!r}"
        if call.timed_out:
            return f"{where}: timed out"
        if call.error is not None:
            if call.error == case["raises"]:
                continue
            return f"{where}: raised {call.error}: {call.message}"
        if case["raises"] is not None:
            return f"{where}: returned {_short(call.value)} instead of raising {case['raises']}"
        expected = codec.decode(case["expected"])
        if check(expected, call.value, spec):
            return f"{where}: expected {_short(expected)}, got {_short(call.value)}"
        if job["immutable"] and _mutated_argument(call, before_args, before_kwargs, spec):
            return f"{where}: changed an argument"
    return None


def _describe(call: _Call) -> str:
    if call.timed_out:
        return "timed out"
    if call.error is not None:
        return f"raised {call.error}"
    return f"returned {_short(call.value)}"


def _run_fuzz(job: dict[str, Any]) -> str | None:
    """The first input where the mutant and the reference differ, in words; None if none does."""
    spec = CheckerSpec(**job["checker"])
    check = CHECKERS[spec.name]
    reference = _load_function(job["reference"], job["function"], job["seconds"])
    mutant = _load_function(job["source"], job["function"], job["seconds"])
    for number, case in enumerate(job["cases"]):
        args = [codec.decode(a) for a in case["args"]]
        kwargs = {k: codec.decode(v) for k, v in case["kwargs"].items()}
        want = _call(reference, copy.deepcopy(args), copy.deepcopy(kwargs), job["seconds"])
        if want.timed_out:
            continue  # no verdict without the reference's answer
        got_args, got_kwargs = copy.deepcopy(args), copy.deepcopy(kwargs)
        got = _call(mutant, got_args, got_kwargs, job["seconds"])
        if want.error is not None or got.error is not None or got.timed_out:
            agree = want.error == got.error and not got.timed_out
        else:
            agree = repr(want.value) == repr(got.value) or check(want.value, got.value, spec) is None
        if agree and job["immutable"] and _mutated_argument(got, args, kwargs, spec):
            agree = False
        if not agree:
            shown = ", ".join([_short(a) for a in args] + [f"{k}={_short(v)}" for k, v in kwargs.items()])
            return f"fuzz input {number} ({shown}): reference {_describe(want)}, mutant {_describe(got)}"
    return None


def child_main() -> None:
    """Entry point of a child process: read a job (JSON) on stdin, print one JSON result line."""
    job = json.loads(sys.stdin.read())
    limit = job["memory_bytes"]
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    cpu = int(job["cpu_seconds"])
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    sys.setrecursionlimit(10_000)
    signal.signal(signal.SIGALRM, _on_alarm)
    real_stdout = sys.stdout
    sys.stdout = sys.stderr = io.StringIO()  # whatever the code prints is not the result
    try:
        runner = _run_fuzz if job["kind"] == "fuzz" else _run_tests
        detail = runner(job)
    except _CallTimeout:
        detail = "timed out while loading the module"
    except BaseException as exc:  # the mutant failed to load, or broke the runner itself
        detail = f"crashed: {type(exc).__name__}: {str(exc)[:200]}"
    real_stdout.write(json.dumps({"differs": detail is not None, "detail": detail or ""}) + "\n")
    real_stdout.flush()


# -S skips site-packages (a faster start); the child needs only the standard library, judge and sandbox.
_CHILD_COMMAND = [sys.executable, "-S", "-c", "import judge.mutation as m; m.child_main()"]
_CHILD_PATH = str(Path(__file__).resolve().parent.parent)


def _run_child(job: dict[str, Any], wall_seconds: float) -> str | None:
    """Run a job in a fresh interpreter; a crash or a timeout counts as a difference."""
    job = {**job, "memory_bytes": MEMORY_LIMIT_BYTES, "cpu_seconds": wall_seconds + 5}
    path = os.pathsep.join(filter(None, [_CHILD_PATH, os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path}
    try:
        done = subprocess.run(_CHILD_COMMAND, input=json.dumps(job), capture_output=True, text=True,
                              timeout=wall_seconds, check=False, env=env)
    except subprocess.TimeoutExpired:
        return f"timed out after {wall_seconds:.0f} s"
    lines = done.stdout.strip().splitlines()
    try:
        result = json.loads(lines[-1]) if lines else None
    except json.JSONDecodeError:
        result = None
    if not isinstance(result, dict):
        tail = done.stderr.strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
        return f"crashed: {tail[0][:200]}"
    return str(result["detail"]) if result.get("differs") else None


def _encode_case(name: str, args: Sequence[Any], kwargs: dict[str, Any], expected: Any = None,
                 raises: str | None = None) -> dict[str, Any]:
    return {"name": name, "args": [codec.encode(a) for a in args],
            "kwargs": {k: codec.encode(v) for k, v in kwargs.items()},
            "expected": codec.encode(expected), "raises": raises}


def _base_job(problem: Problem, source: str) -> dict[str, Any]:
    checker = problem.checker
    return {"source": source, "function": problem.function,
            "checker": {"name": checker.name, "abs_tol": checker.abs_tol, "rel_tol": checker.rel_tol},
            "immutable": problem.rules.immutable_arguments, "seconds": problem.limits.time_per_test}


def failure_reason(problem: Problem, source: str) -> str | None:
    """Why ``source`` fails the problem's public + hidden tests, or None when it passes them all."""
    tests: tuple[TestCase, ...] = problem.tests(include_hidden=True)
    cases = [_encode_case(t.name, t.args, t.kwargs, t.expected, t.raises) for t in tests]
    cases.sort(key=lambda case: len(json.dumps(case)))  # cheap tests first: most mutants die early
    job = {**_base_job(problem, source), "kind": "tests", "cases": cases}
    return _run_child(job, problem.limits.time_per_submission + 5)


def fuzz_difference(problem: Problem, source: str, inputs: Sequence[tuple[list[Any], dict[str, Any]]]
                    ) -> str | None:
    """The first fuzz input on which ``source`` and the reference differ, or None."""
    cases = [_encode_case(f"fuzz_{i}", args, kwargs) for i, (args, kwargs) in enumerate(inputs)]
    job = {**_base_job(problem, source), "kind": "fuzz", "reference": problem.reference, "cases": cases}
    return _run_child(job, FUZZ_WALL_SECONDS)


# ---------------------------------------------------------------------------------------------------
# Fuzz inputs
# ---------------------------------------------------------------------------------------------------


def _typed(problem: Problem, args: Sequence[Any], kwargs: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    """The input as a test file would give it: through JSON, then the declared parameter types."""
    raw_args, raw_kwargs = json.loads(json.dumps([list(args), kwargs]))
    by_name = {p.name: p for p in problem.parameters}
    typed_args = [from_json(v, p.type, p.name) for v, p in zip(raw_args, problem.parameters, strict=False)]
    typed_kwargs = {k: from_json(v, by_name[k].type, k) for k, v in raw_kwargs.items()}
    return typed_args, typed_kwargs


def fuzz_inputs(problem: Problem, folder: Path, count: int) -> list[tuple[list[Any], dict[str, Any]]] | None:
    """``count`` inputs from ``fuzz_inputs(rng, count)`` in the problem's tests/generate.py, typed as
    the problem declares; None when the problem has no fuzzer. The seed depends only on the slug."""
    path = folder / "tests" / "generate.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"_mutation_fuzz_{problem.slug}", path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fuzzer = getattr(module, "fuzz_inputs", None)
    if fuzzer is None:
        return None
    rng = random.Random(zlib.crc32(problem.slug.encode()))
    inputs = []
    for args, kwargs in fuzzer(rng, count):
        try:
            inputs.append(_typed(problem, args, kwargs))
        except (TypeSpecError, TypeError, ValueError) as exc:
            raise ValueError(f"{path}: fuzz_inputs gave an input that does not fit: {exc}") from exc
    return inputs


# ---------------------------------------------------------------------------------------------------
# Reports
# ---------------------------------------------------------------------------------------------------


class Status(StrEnum):
    KILLED = "killed"
    EQUIVALENT = "probably equivalent"
    SURVIVED = "survived"


@dataclass(frozen=True)
class MutantResult:
    mutant: Mutant
    status: Status
    detail: str  # why it was killed, or where the fuzz told it apart; empty when equivalent


@dataclass(frozen=True)
class ProblemReport:
    slug: str
    generated: int  # distinct mutants before the cap
    results: tuple[MutantResult, ...]
    fuzz_inputs: int | None  # None: no fuzzing (no fuzzer, or no survivor to fuzz)

    def _count(self, status: Status) -> int:
        return sum(1 for r in self.results if r.status is status)

    @property
    def killed(self) -> int:
        return self._count(Status.KILLED)

    @property
    def equivalent(self) -> int:
        return self._count(Status.EQUIVALENT)

    @property
    def survivors(self) -> list[MutantResult]:
        return [r for r in self.results if r.status is Status.SURVIVED]

    @property
    def kill_share(self) -> float:
        """Killed mutants over non-equivalent ones (1.0 when every mutant is equivalent)."""
        relevant = self.killed + len(self.survivors)
        return self.killed / relevant if relevant else 1.0

    def summary(self) -> str:
        lines = [f"{self.slug}: {len(self.results)} mutants (of {self.generated}), {self.killed} killed, "
                 f"{self.equivalent} probably equivalent, {len(self.survivors)} surviving non-equivalent, "
                 f"kill share {self.kill_share:.1%}"]
        for result in self.survivors:
            lines.append(f"  survivor #{result.mutant.number} {result.mutant.description}")
            lines.append(f"    {result.detail}")
        return "\n".join(lines)


@dataclass
class _Plan:
    """One problem on its way through the pool: mutants, then test runs, then fuzzing."""

    problem: Problem
    folder: Path
    generated: int
    mutants: list[Mutant]
    runs: list[Future[str | None]] = field(default_factory=list)
    fuzzes: list[Future[str | None] | None] = field(default_factory=list)
    fuzz_inputs: int | None = None

    def report(self) -> ProblemReport:
        results = []
        for mutant, run, fuzz in zip(self.mutants, self.runs, self.fuzzes, strict=True):
            failure = run.result()
            if failure is not None:
                results.append(MutantResult(mutant, Status.KILLED, failure))
                continue
            difference = fuzz.result() if fuzz is not None else "no fuzzer for this problem"
            status = Status.EQUIVALENT if difference is None else Status.SURVIVED
            results.append(MutantResult(mutant, status, difference or ""))
        return ProblemReport(self.problem.slug, self.generated, tuple(results), self.fuzz_inputs)


def analyze(
    folders: Sequence[Path],
    *,
    workers: int = DEFAULT_WORKERS,
    max_mutants: int = DEFAULT_MAX_MUTANTS,
    fuzz_count: int = DEFAULT_FUZZ_COUNT,
    progress: Callable[[str], None] = lambda _: None,
) -> list[ProblemReport]:
    """Mutate each problem's reference, run the mutants (``workers`` at a time) and fuzz survivors."""
    plans = []
    for folder in folders:
        problem = load_problem(folder)
        mutants = generate_mutants(problem.reference)
        plans.append(_Plan(problem, folder, len(mutants), select_mutants(mutants, max_mutants)))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for plan in plans:  # queue every test run first: the pool stays busy while survivors are fuzzed
            plan.runs = [pool.submit(failure_reason, plan.problem, m.source) for m in plan.mutants]
        for plan in plans:
            alive = [run.result() is None for run in plan.runs]
            slug = plan.problem.slug
            progress(f"{slug}: the tests kill {len(alive) - sum(alive)} of {len(alive)} mutants")
            inputs = fuzz_inputs(plan.problem, plan.folder, fuzz_count) if any(alive) else None
            plan.fuzz_inputs = None if inputs is None else len(inputs)
            plan.fuzzes = [
                pool.submit(fuzz_difference, plan.problem, m.source, inputs)
                if ok and inputs is not None else None
                for m, ok in zip(plan.mutants, alive, strict=True)
            ]
        return [plan.report() for plan in plans]


def analyze_problem(folder: Path, **options: Any) -> ProblemReport:
    """The report for one problem folder; options as for ``analyze``."""
    return analyze([folder], **options)[0]


def _default_root() -> Path:
    from judge.settings import get_settings

    return get_settings().problems_dir


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m judge.mutation [SLUG ...]``: exit status 1 when a problem is under the bar."""
    parser = argparse.ArgumentParser(prog="python -m judge.mutation", description=__doc__.split("\n")[0])
    parser.add_argument("slugs", nargs="*", help="problems to mutate (default: all)")
    parser.add_argument("--problems-dir", type=Path, default=None, help="the folder of problem folders")
    parser.add_argument("--workers", type=int, default=DEFAULT_WORKERS, help="mutants run at a time")
    parser.add_argument("--max-mutants", type=int, default=DEFAULT_MAX_MUTANTS,
                        help="mutants per problem, chosen evenly over the source (0: all)")
    parser.add_argument("--fuzz", type=int, default=DEFAULT_FUZZ_COUNT, help="fuzz inputs per survivor")
    parser.add_argument("--show-equivalent", action="store_true",
                        help="also list the probably-equivalent mutants")
    options = parser.parse_args(argv)
    root: Path = options.problems_dir or _default_root()
    folders = [root / slug for slug in options.slugs] if options.slugs else discover(root)
    missing = [f.name for f in folders if not (f / "problem.toml").is_file()]
    if missing:
        parser.error(f"unknown problem(s): {', '.join(missing)}")
    started = time.monotonic()
    reports = analyze(folders, workers=options.workers, max_mutants=options.max_mutants,
                      fuzz_count=options.fuzz, progress=lambda m: print(m, file=sys.stderr, flush=True))
    header = f"{'problem':<24} {'mutants':>7} {'killed':>6} {'equiv':>5} {'surv':>4} {'kill share':>10}"
    print(header)
    print("-" * len(header))
    for r in reports:
        print(f"{r.slug:<24} {len(r.results):>7} {r.killed:>6} {r.equivalent:>5} {len(r.survivors):>4} "
              f"{r.kill_share:>10.1%}")
    below = [r for r in reports if r.kill_share < KILL_SHARE_REQUIRED]
    for r in reports:
        if r.survivors or (options.show_equivalent and r.equivalent):
            print()
            print(r.summary())
            if options.show_equivalent:
                for result in r.results:
                    if result.status is Status.EQUIVALENT:
                        print(f"  equivalent #{result.mutant.number} {result.mutant.description}")
    print()
    print(f"{len(reports) - len(below)} of {len(reports)} problems kill at least "
          f"{KILL_SHARE_REQUIRED:.0%} of their non-equivalent mutants ({time.monotonic() - started:.0f} s)")
    return 1 if below else 0


if __name__ == "__main__":
    sys.exit(main())
