"""The attack suite (tests/sandbox/attacks/): reading the attack files and checking one run.

Each attack is a learner's program with a header of comment lines::

    # problem: bleu_1gram
    # verdict: wrong_answer
    # attack: what the program tries, in one sentence
    # max-seconds: 6        (optional: the whole grading must end within this many seconds)
    # under-shared: accepted; why (optional: the verdict where the tests share one learner
    #                              process, and why it differs from a fresh process per test)
    # gvisor-isolations: shared, per_test (optional: the isolations it runs in under gVisor)
    # serial: why (optional: it runs in the serial phase of a parallel run, alone; see testing.md)

Under runc each attack runs under both isolations (``Isolation``): once on its problem as it is
(one learner process for the submission) and once on a ``per_test`` copy of it. Under gVisor, the
slowest part of the suite, it runs once, in ``shared`` (the default isolation of a problem), and
in ``per_test`` too only where its header says so: an attack whose verdict differs between the
isolations (``under-shared``) must say it, since the pair is what it tests; for the others the
isolation changes nothing that the runtime could, and runc already runs both.

``check_attack`` grades it against a real sandbox and asserts what must hold whatever the attack
does: the declared verdict, no hidden test's name or distinctive value in what a learner sees,
text fit for storage, the time bound, and no container left behind.
"""

from __future__ import annotations

import dataclasses
import json
import re
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from judge.engine_settings import ROOT
from judge.grading import KNOWN_TYPES, grade, known_type
from judge.problems import Problem, find_problem
from judge.results import CATEGORY_MESSAGES, Report, Verdict
from sandbox.docker_runner import LABEL, DockerSandbox
from sandbox.interface import Isolation, SandboxUnavailable

ATTACKS_DIR = Path(__file__).resolve().parent.parent / "sandbox" / "attacks"
PROBLEM_ROOTS = (Path(__file__).resolve().parent.parent / "fixtures" / "problems", ROOT / "problems")
HEADER_LINE = re.compile(r"^#\s*([a-z-]+):\s*(.*?)\s*$")
REQUIRED_KEYS = {"problem", "verdict", "attack"}
# under-runsc: the verdict under gVisor where it differs (gVisor counts its own kernel's memory
# against the limit, so process-heavy attacks run out of memory first), or "skip: why".
KNOWN_KEYS = REQUIRED_KEYS | {"max-seconds", "under-runsc", "under-shared", "gvisor-isolations", "serial"}
DISTINCTIVE = 6  # hidden strings longer than this are searched for in the learner's view


@dataclass(frozen=True)
class Attack:
    name: str
    problem: str
    verdict: Verdict
    description: str
    max_seconds: float | None
    code: str
    under_runsc: str | None = None
    under_shared: tuple[set[Verdict], str] | None = None  # (verdicts, why)
    gvisor_isolations: tuple[Isolation, ...] = (Isolation.SHARED,)
    serial: str | None = None  # why it cannot run beside other tests, if it cannot

    def param(self, *values: Any, id: str) -> Any:
        """``pytest.param`` of this attack (and ``values``), marked ``serial`` where it says so."""
        marks = [pytest.mark.serial(self.serial)] if self.serial else []
        return pytest.param(self, *values, marks=marks, id=id)

    def expected(self, runtime: str, isolation: Isolation = Isolation.PER_TEST) -> set[Verdict]:
        """The verdicts declared for this container runtime; skips where it does not apply.

        Under gVisor a process-heavy attack may meet either wall first (its memory, or the time
        the user-space kernel takes to start its processes): "under-runsc: a | b" lists both.
        """
        if isolation is Isolation.SHARED and self.under_shared is not None:
            return self.under_shared[0]
        if runtime != "runsc" or not self.under_runsc:
            return {self.verdict}
        if self.under_runsc.startswith("skip"):
            pytest.skip(f"{self.name} under gVisor: {self.under_runsc}")
        return {Verdict(v.strip()) for v in self.under_runsc.split("|")}


def parse_attack(path: Path) -> Attack:
    """An attack file's header and code; ValueError naming the file when the header is wrong."""
    code = path.read_text(encoding="utf-8")
    header: dict[str, str] = {}
    for line in code.splitlines():
        if not line.startswith("#"):
            break
        match = HEADER_LINE.match(line)
        if match and match[1] in KNOWN_KEYS:
            header[match[1]] = match[2]
    missing = REQUIRED_KEYS - set(header)
    if missing:
        raise ValueError(f"{path.name}: the header lacks {sorted(missing)}")
    try:
        verdict = Verdict(header["verdict"])
    except ValueError as exc:
        raise ValueError(f"{path.name}: unknown verdict {header['verdict']!r}") from exc
    seconds = float(header["max-seconds"]) if "max-seconds" in header else None
    under_shared = _under_shared(path, header.get("under-shared"))
    gvisor = _isolations(path, header.get("gvisor-isolations", Isolation.SHARED.value))
    if under_shared is not None and len(gvisor) < len(Isolation):
        raise ValueError(f"{path.name}: its verdict differs between the isolations (under-shared), "
                         "so it runs in both under gVisor too: add 'gvisor-isolations: shared, per_test'")
    serial = header.get("serial")
    if serial is not None and not serial:
        raise ValueError(f"{path.name}: 'serial:' needs the reason it cannot run beside other tests")
    return Attack(path.stem, header["problem"], verdict, header["attack"], seconds, code,
                  header.get("under-runsc"), under_shared, gvisor, serial)


def _isolations(path: Path, text: str) -> tuple[Isolation, ...]:
    try:
        return tuple(Isolation(name.strip()) for name in text.split(","))
    except ValueError as exc:
        raise ValueError(f"{path.name}: gvisor-isolations takes {[i.value for i in Isolation]}, "
                         f"not {text!r}") from exc


def _under_shared(path: Path, text: str | None) -> tuple[set[Verdict], str] | None:
    """``verdict | verdict; why``: a differing verdict must say why."""
    if text is None:
        return None
    verdicts, _, why = text.partition(";")
    if not why.strip():
        raise ValueError(f"{path.name}: under-shared needs '<verdict>; <why it differs>'")
    try:
        return {Verdict(v.strip()) for v in verdicts.split("|")}, why.strip()
    except ValueError as exc:
        raise ValueError(f"{path.name}: unknown verdict in under-shared {verdicts!r}") from exc


def load_attacks() -> list[Attack]:
    return [parse_attack(path) for path in sorted(ATTACKS_DIR.glob("*.py"))]


@cache
def attack_problem(slug: str) -> Problem:
    """The fixture problems first (secret_lookup), then the shipped ones."""
    for root in PROBLEM_ROOTS:
        if (root / slug / "problem.toml").is_file():
            return find_problem(root, slug)
    raise ValueError(f"no problem {slug!r} under {[str(r) for r in PROBLEM_ROOTS]}")


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in _strings(k) + _strings(v)]
    if isinstance(value, list | tuple):
        return [s for item in value for s in _strings(item)]
    return []


@cache
def _public_corpus(slug: str) -> str:
    """Every string a learner may legitimately see of the problem, one per line: public tests in
    full, the judge's category texts and the problem's names."""
    problem = attack_problem(slug)
    parts: list[Any] = [problem.slug, problem.title, problem.function, list(CATEGORY_MESSAGES.values()),
                        sorted(KNOWN_TYPES), known_type(object())]
    for test in problem.public_tests:
        parts += [test.name, test.args, test.kwargs, test.expected, test.raises or "", test.explanation or ""]
    return "\n".join(_strings(parts))


def hidden_markers(problem: Problem, code: str) -> tuple[set[str], set[str]]:
    """(short hidden names, searched as JSON strings; distinctive hidden strings, searched as
    substrings). Anything that also occurs in the public tests or the learner's own code is left
    out: the learner may show it without having learned it."""
    corpus = _public_corpus(problem.slug) + "\n" + code
    names: set[str] = set()
    strings: set[str] = set()
    for test in problem.hidden_tests:
        if len(test.name) > DISTINCTIVE:
            strings.add(test.name)
        elif json.dumps(test.name) not in corpus:
            names.add(test.name)
        values = _strings(test.args) + _strings(test.kwargs)
        if test.raises is None:
            values += _strings(test.expected)
        strings.update(s for s in values if len(s) > DISTINCTIVE)
    return names, {s for s in strings if s not in corpus}


def leaks(problem: Problem, code: str, view: dict[str, Any]) -> list[str]:
    """Hidden names and strings found in a learner's view of a report."""
    short_names, strings = hidden_markers(problem, code)
    ascii_text = json.dumps(view)
    unicode_text = json.dumps(view, ensure_ascii=False)
    found = sorted(s for s in strings if s in unicode_text or json.dumps(s)[1:-1] in ascii_text)
    found += sorted(n for n in short_names if json.dumps(n) in ascii_text)
    return found


def unsafe_text(value: Any, path: str = "$") -> list[str]:
    """Places in a JSON tree whose text no database would store: NUL or lone surrogates."""
    if isinstance(value, str):
        if "\x00" in value or re.search("[\ud800-\udfff]", value):
            return [path]
        return []
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in unsafe_text(k, f"{path}[key]") + unsafe_text(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in unsafe_text(v, f"{path}[{i}]")]
    return []


def describe(report: Report) -> str:
    """The verdict, the first tests and every test that did not pass or was not run (the one a
    failure is about may come late in the run)."""
    lines = [f"verdict {report.verdict.value}, score {report.score:.3f}, message {report.message[:200]!r}"]
    counts: dict[str, int] = {}
    for index, test in enumerate(report.tests):
        unusual = test.status.value not in ("passed", "not_run")
        if index < 12 or unusual:
            lines.append(f"  {test.visibility.value} {test.name}: {test.status.value} in {test.seconds}s; "
                         f"{(test.explanation or '')[:200]!r}")
        else:
            counts[test.status.value] = counts.get(test.status.value, 0) + 1
    if counts:
        lines.append(f"  ... and {counts}")
    return "\n".join(lines)


def check_attack(attack: Attack, sandbox: DockerSandbox, time_factor: float = 1.0,
                 isolation: Isolation | None = None) -> Report:
    """Grade the attack for real and assert everything a hostile submission must not change.
    ``isolation``: run it on a copy of its problem with that isolation; ``time_factor``: how much
    slower the runtime is (its problem's time limits and the attack's max-seconds are scaled)."""
    problem = attack_problem(attack.problem)
    if isolation is not None and isolation is not problem.isolation:
        problem = dataclasses.replace(problem, isolation=isolation)
    if time_factor != 1.0:
        # A slower runtime (gVisor's ptrace platform) gets its time limits scaled as its wall bound
        # is: one honest test stalled past the problem's own limit by a busy host is no finding.
        limits = problem.limits
        problem = dataclasses.replace(problem, limits=dataclasses.replace(
            limits, time_per_test=limits.time_per_test * time_factor,
            time_per_submission=limits.time_per_submission * time_factor))
    verdicts = attack.expected(sandbox.runtime, problem.isolation)
    wanted = " or ".join(sorted(v.value for v in verdicts))
    sandbox.recent.clear()
    started = time.monotonic()
    try:
        report = grade(problem, attack.code, sandbox)
    except SandboxUnavailable as exc:
        failure: SandboxUnavailable | None = exc
    else:
        failure = None
    elapsed = time.monotonic() - started
    remaining = {c["Id"] for c in sandbox.client.api.containers(all=True, filters={"label": LABEL})}
    # A slot that finished its run cleanly is held for the next one: the attack after this one
    # runs in its next jail, and must find nothing this one left.
    left = remaining & set(sandbox.recent) - sandbox.held_slots()
    assert not left, f"{attack.name}: a sandbox container was left behind"
    if failure is not None:
        pytest.fail(f"{attack.name}: learner code made the judge fail (SandboxUnavailable, an internal "
                    f"error) after {elapsed:.1f} s instead of giving {wanted}: {failure}")
    assert report.verdict in verdicts, (
        f"{attack.name} ({attack.description}): expected {wanted}, got\n" + describe(report))
    view = report.as_json()
    leaked = leaks(problem, attack.code, view)
    assert not leaked, (f"{attack.name}: the learner's view shows hidden data {leaked[:5]}: "
                        + json.dumps(view.get("hidden"))[:500])
    for full in (False, True):
        unsafe = unsafe_text(report.as_json(full=full))
        assert not unsafe, f"{attack.name}: text no database stores (NUL, lone surrogates) at {unsafe[:5]}"
    if attack.max_seconds is not None:
        bound = attack.max_seconds * time_factor
        assert elapsed <= bound, (
            f"{attack.name}: grading took {elapsed:.1f} s, more than {bound:.1f} s\n" + describe(report))
    return report
