"""The one results schema, end to end: CLI JSON, database rows and API responses all use it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from judge.stored_values import cut, shown, within_budget
from judge.text_safety import UNSAFE
from judge.text_safety import display_safe as display_safe  # re-exported: many modules take
from judge.text_safety import safe_text as safe_text  # these two from the results schema
from sandbox.interface import Opaque


class TestStatus(StrEnum):
    __test__ = False  # not a pytest test class

    PASSED = "passed"
    WRONG_ANSWER = "wrong_answer"
    RUNTIME_ERROR = "runtime_error"
    TIME_LIMIT_EXCEEDED = "time_limit_exceeded"
    MEMORY_LIMIT_EXCEEDED = "memory_limit_exceeded"
    OUTPUT_LIMIT_EXCEEDED = "output_limit_exceeded"
    NOT_RUN = "not_run"  # the run stopped at an earlier test (a time-out), so it was never sent


class Verdict(StrEnum):
    ACCEPTED = "accepted"
    WRONG_ANSWER = "wrong_answer"
    RUNTIME_ERROR = "runtime_error"
    TIME_LIMIT_EXCEEDED = "time_limit_exceeded"
    MEMORY_LIMIT_EXCEEDED = "memory_limit_exceeded"
    OUTPUT_LIMIT_EXCEEDED = "output_limit_exceeded"
    COMPILE_ERROR = "compile_error"
    FORBIDDEN = "forbidden"
    INTERNAL_ERROR = "internal_error"


class Visibility(StrEnum):
    PUBLIC = "public"
    HIDDEN = "hidden"
    CUSTOM = "custom"  # a learner's own arguments (a try): shown to that learner in full


class HiddenPolicy(StrEnum):
    """What a learner sees of hidden tests (``visibility.hidden`` in problem.toml)."""

    AGGREGATE = "aggregate"  # how many passed and the category of the first failure
    PER_TEST = "per_test"  # also each hidden test's status and category, unnamed, in run order


# What a hidden test may say about itself: a category, never arguments or values.
CATEGORY_MESSAGES: dict[TestStatus, str] = {
    TestStatus.PASSED: "passed",
    TestStatus.WRONG_ANSWER: "the returned value is not the expected one",
    TestStatus.RUNTIME_ERROR: "the function raised an exception or ended its process",
    TestStatus.TIME_LIMIT_EXCEEDED: "the call took longer than the time limit",
    TestStatus.MEMORY_LIMIT_EXCEEDED: "the call used more memory than the limit",
    TestStatus.OUTPUT_LIMIT_EXCEEDED: "the call printed more than the output limit",
    TestStatus.NOT_RUN: "not run: the run stopped at an earlier test",
}


def json_safe(value: Any) -> Any:
    """A JSON form of a checked value; tuples become lists, so ``*_repr`` fields keep the detail."""
    if (isinstance(value, float) and value != value) or value in (float("inf"), float("-inf")):
        return repr(value)
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    if isinstance(value, dict):
        return {k if isinstance(k, str) else repr(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, Opaque):
        return repr(value)
    return value


def _stored(value: Any) -> Any:
    """``display_safe(json_safe(value))`` in one walk: the common exact types on a short path,
    anything else through the two functions themselves."""
    kind = type(value)
    if kind is str:
        return safe_text(value) if UNSAFE.search(value) else value
    if kind is list or kind is tuple:
        return [_stored(v) for v in value]
    if kind is dict:
        return {safe_text(k if isinstance(k, str) else repr(k)): _stored(v) for k, v in value.items()}
    return display_safe(json_safe(value))


def stored_inputs(args: Any, kwargs: Any, expected: Any) -> dict[str, Any]:
    """A test's arguments and expected value as ``TestResult.as_json`` stores them. Values may be
    large: their JSON form and their safe text come from one walk."""
    return {"args": _stored(args), "kwargs": _stored(kwargs), "expected": _stored(expected),
            "expected_repr": safe_text(repr(expected)), "expected_note": None}


def _try_inputs(args: Any, kwargs: Any, expected: Any) -> dict[str, Any]:
    """A try's inputs: the learner's own arguments, and the reference's value on them stored as a
    returned value is (its text cut, its JSON form only while the text is whole), since the
    learner's arguments decide its size."""
    value = shown(expected)
    return {"args": _stored(args), "kwargs": _stored(kwargs),
            "expected": _stored(expected) if value.note is None else None,
            "expected_repr": value.text, "expected_note": value.note}


def learner_view(tests: list[dict[str, Any]], policy: HiddenPolicy) -> dict[str, Any]:
    """What a learner may see of a judged submission's tests (JSON as ``TestResult.as_json``).

    Public tests in full. Hidden tests as an aggregate: how many ran, how many passed and the
    category of the first failure, never names, arguments, values or which test failed; with
    ``per_test``, also each one's status and category in run order (which is random).
    """
    public = [t for t in tests if t.get("visibility") != Visibility.HIDDEN.value]
    hidden = [t for t in tests if t.get("visibility") == Visibility.HIDDEN.value]
    failing = next((t for t in hidden if t.get("status") not in (TestStatus.PASSED.value,
                                                                  TestStatus.NOT_RUN.value)), None)
    summary: dict[str, Any] = {
        "total": len(hidden),
        "passed": sum(t.get("status") == TestStatus.PASSED.value for t in hidden),
        "not_run": sum(t.get("status") == TestStatus.NOT_RUN.value for t in hidden),
        "first_failure": failing.get("category") if failing else None,
    }
    if policy is HiddenPolicy.PER_TEST:
        summary["tests"] = [{"status": t.get("status"), "category": t.get("category")}
                            for t in hidden]
    return {"tests": public, "hidden": summary}


@dataclass
class TestResult:
    """One test's outcome. Hidden tests carry only name, visibility, status and category."""
    __test__ = False  # not a pytest test class

    name: str
    visibility: Visibility
    status: TestStatus
    category: str = ""
    seconds: float | None = None
    # The learner process's resident high-water mark when the call ended (a process that serves
    # every test: its peak so far), in bytes; None where the sandbox kept no count.
    memory_bytes: int | None = None
    args: list[Any] | None = None
    kwargs: dict[str, Any] | None = None
    expected: Any = None
    actual: Any = None  # the returned value, or its ``Shown`` text once checked, when it is large
    stdout: str | None = None
    explanation: str | None = None
    note: str | None = None
    # ``stored_inputs(args, kwargs, expected)`` when the caller has it already (the same test is
    # judged many times): its values are large, and walking them is most of ``as_json``'s cost.
    inputs_json: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    def as_json(self) -> dict[str, Any]:
        """The test in full, as its author sees it; ``learner_view`` decides what others see, and
        ``stored_tests`` what a submission keeps of all its tests."""
        inputs = self.inputs_json or (_try_inputs if self.visibility is Visibility.CUSTOM
                                      else stored_inputs)(self.args, self.kwargs, self.expected)
        actual = shown(self.actual)
        return {
            "name": display_safe(self.name),
            "visibility": self.visibility.value,
            "status": self.status.value,
            "category": display_safe(self.category),
            "seconds": self.seconds,
            "memory_bytes": self.memory_bytes,
            "args": inputs["args"],
            "kwargs": inputs["kwargs"],
            "expected": inputs["expected"],
            "expected_repr": inputs["expected_repr"],
            "expected_note": inputs.get("expected_note"),
            "actual_repr": actual.text,
            "actual_note": actual.note,
            "stdout": display_safe(self.stdout),
            "explanation": cut(display_safe(self.explanation)),
            "note": display_safe(self.note),
            "budget_note": None,
        }


def peak_memory(tests: Iterable[dict[str, Any]]) -> int | None:
    """A submission's peak memory as one viewer may see it: the highest of the tests' JSON
    given (for a learner, the tests ``learner_view`` lists: hidden ones run last, so no count
    of theirs shows); None where none was kept."""
    counts = [t["memory_bytes"] for t in tests if isinstance(t.get("memory_bytes"), int)]
    return max(counts, default=None)


def stored_tests(tests: Iterable[TestResult]) -> list[dict[str, Any]]:
    """Every test's JSON, within the budget of what one submission may store (stored_values)."""
    return within_budget([t.as_json() for t in tests])


@dataclass
class Report:
    """A judged submission."""

    verdict: Verdict
    score: float
    problem: str
    problem_version: str
    tests: list[TestResult] = field(default_factory=list)
    message: str = ""
    seconds: float | None = None
    hidden_policy: HiddenPolicy = HiddenPolicy.AGGREGATE

    @property
    def passed(self) -> int:
        return sum(t.status is TestStatus.PASSED for t in self.tests)

    def as_json(self, full: bool = False) -> dict[str, Any]:
        """The report as a learner sees it, or with ``full`` as the problem's author does."""
        tests = stored_tests(self.tests)
        view = {"tests": tests} if full else learner_view(tests, self.hidden_policy)
        return {
            "verdict": self.verdict.value,
            "score": self.score,
            "passed": self.passed,
            "total": len(self.tests),
            "problem": self.problem,
            "problem_version": self.problem_version,
            "message": safe_text(self.message),
            "seconds": self.seconds,
            "peak_memory_bytes": peak_memory(view["tests"]),
            **view,
        }
