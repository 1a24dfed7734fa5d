"""A test's stored JSON form: made safe and JSON-ready in one walk, as the two steps would."""

from __future__ import annotations

import math
import random
from typing import Any

from judge.results import (
    HiddenPolicy,
    Report,
    TestResult,
    TestStatus,
    Verdict,
    Visibility,
    display_safe,
    json_safe,
)
from sandbox.inside.codec import Opaque


class Name(str):
    """A str subclass, as a key or a value."""


def _two_steps(result: TestResult) -> dict[str, Any]:
    """The form as it was made before: json_safe on each value, then display_safe on it all."""
    return display_safe({  # type: ignore[no-any-return]
        "name": result.name, "visibility": result.visibility.value, "status": result.status.value,
        "category": result.category, "seconds": result.seconds, "memory_bytes": result.memory_bytes,
        "args": json_safe(result.args), "kwargs": json_safe(result.kwargs),
        "expected": json_safe(result.expected), "expected_repr": repr(result.expected),
        "expected_note": None, "actual_repr": repr(result.actual), "actual_note": None,
        "stdout": result.stdout, "explanation": result.explanation, "note": result.note,
        "budget_note": None})


def _value(rng: random.Random, depth: int = 0) -> Any:
    leaves = [None, True, 0, -3, 2.5, math.nan, math.inf, -math.inf, "plain", "nul\x00",
              "lone\udc80", Name("sub\x00"), Opaque("T", "r\x00"), ""]
    if depth > 3 or rng.random() < 0.4:
        return rng.choice(leaves)
    shape = rng.choice(["list", "tuple", "dict"])
    items = [_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if shape == "list":
        return items
    if shape == "tuple":
        return tuple(items)
    keys = [rng.choice(["k", "k\x00", 1, (1, "a"), None, Name("s\udc80"), 2.5]) for _ in items]
    return dict(zip(keys, items, strict=True))


def test_the_one_walk_gives_what_the_two_steps_gave() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        result = TestResult(name=rng.choice(["t1", "t\x00"]), visibility=Visibility.PUBLIC,
                            status=TestStatus.WRONG_ANSWER, category="c\udc80", seconds=0.25,
                            args=[_value(rng), _value(rng)], kwargs={"k": _value(rng)},
                            expected=_value(rng), actual=_value(rng), stdout=rng.choice([None, "o\x00"]),
                            explanation="e", note=None)
        assert repr(result.as_json()) == repr(_two_steps(result))


def test_a_test_prepared_once_is_stored_as_one_made_afresh_every_time() -> None:
    """grading works out each test's stored inputs once per loaded version; every problem's
    every test, judged twice (the second from that cache), stores what a fresh walk gives."""
    from judge.engine_settings import engine_settings
    from judge.grading import grade
    from judge.problems import discover, load_problem
    from sandbox.inside.protocol import CallResult, Outcome
    from sandbox.interface import SandboxRun

    class Returns:  # every test returns its expected value, or raises what it should
        def run(self, payload: Any) -> SandboxRun:
            return SandboxRun(CallResult(Outcome.RETURNED), [
                CallResult(Outcome.RETURNED, value=0.5, seconds=0.001) for _ in payload.tests])

    for folder in discover(engine_settings().problems_dir):
        problem = load_problem(folder)
        for _ in range(2):
            report = grade(problem, problem.reference, Returns())  # type: ignore[arg-type]
            for result in report.tests:
                assert result.inputs_json is not None
                fresh = TestResult(**{**result.__dict__, "inputs_json": None})
                assert repr(result.as_json()) == repr(fresh.as_json()), (problem.slug, result.name)


def test_a_learner_sees_the_peak_memory_of_the_tests_shown_and_the_author_of_all() -> None:
    """Hidden tests run after public ones, so the learner's peak counts only what ran before
    them: no count of a hidden test's shows."""
    def test(name: str, visibility: Visibility, memory: int | None) -> TestResult:
        return TestResult(name, visibility, TestStatus.PASSED, memory_bytes=memory)
    report = Report(Verdict.ACCEPTED, 1.0, "p", "1", tests=[
        test("a", Visibility.PUBLIC, 9_000_000), test("b", Visibility.PUBLIC, None),
        test("c", Visibility.HIDDEN, 40_000_000)], hidden_policy=HiddenPolicy.PER_TEST)
    assert report.as_json()["peak_memory_bytes"] == 9_000_000
    assert report.as_json(full=True)["peak_memory_bytes"] == 40_000_000
    assert "memory_bytes" not in report.as_json()["hidden"]["tests"][0]
    assert Report(Verdict.ACCEPTED, 1.0, "p", "1").as_json()["peak_memory_bytes"] is None
