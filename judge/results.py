"""The one results schema, end to end: CLI JSON, database rows and API responses all use it."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sandbox.codec import Opaque


class TestStatus(StrEnum):
    __test__ = False  # not a pytest test class

    PASSED = "passed"
    WRONG_ANSWER = "wrong_answer"
    RUNTIME_ERROR = "runtime_error"
    TIME_LIMIT_EXCEEDED = "time_limit_exceeded"
    MEMORY_LIMIT_EXCEEDED = "memory_limit_exceeded"
    OUTPUT_LIMIT_EXCEEDED = "output_limit_exceeded"


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


# What a hidden test may say about itself: a category, never arguments or values.
CATEGORY_MESSAGES: dict[TestStatus, str] = {
    TestStatus.PASSED: "passed",
    TestStatus.WRONG_ANSWER: "the returned value is not the expected one",
    TestStatus.RUNTIME_ERROR: "the function raised an exception or ended its process",
    TestStatus.TIME_LIMIT_EXCEEDED: "the call took longer than the time limit",
    TestStatus.MEMORY_LIMIT_EXCEEDED: "the call used more memory than the limit",
    TestStatus.OUTPUT_LIMIT_EXCEEDED: "the call printed more than the output limit",
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


HIDDEN_TEST_FIELDS = ("name", "visibility", "status", "category", "seconds")


def redact(test: dict[str, Any]) -> dict[str, Any]:
    """What anyone but the problem's owner may see of a test: all of a public one, and of a
    hidden one only its name, status and category, never arguments or values."""
    if test.get("visibility") != Visibility.HIDDEN.value:
        return test
    return {k: test.get(k) for k in HIDDEN_TEST_FIELDS}


@dataclass
class TestResult:
    """One test's outcome. Hidden tests carry only name, visibility, status and category."""
    __test__ = False  # not a pytest test class

    name: str
    visibility: Visibility
    status: TestStatus
    category: str = ""
    seconds: float | None = None
    args: list[Any] | None = None
    kwargs: dict[str, Any] | None = None
    expected: Any = None
    actual: Any = None
    stdout: str | None = None
    explanation: str | None = None
    note: str | None = None

    def as_json(self, reveal_hidden: bool = False) -> dict[str, Any]:
        """The test as JSON; a hidden test is redacted unless its owner asks (reveal_hidden)."""
        data: dict[str, Any] = {
            "name": self.name,
            "visibility": self.visibility.value,
            "status": self.status.value,
            "category": self.category,
            "seconds": self.seconds,
        }
        data.update(
            args=json_safe(self.args),
            kwargs=json_safe(self.kwargs),
            expected=json_safe(self.expected),
            actual=json_safe(self.actual),
            expected_repr=repr(self.expected),
            actual_repr=repr(self.actual),
            stdout=self.stdout,
            explanation=self.explanation,
            note=self.note,
        )
        return data if reveal_hidden else redact(data)


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

    @property
    def passed(self) -> int:
        return sum(t.status is TestStatus.PASSED for t in self.tests)

    def as_json(self, reveal_hidden: bool = False) -> dict[str, Any]:
        return {
            "verdict": self.verdict.value,
            "score": self.score,
            "passed": self.passed,
            "total": len(self.tests),
            "problem": self.problem,
            "problem_version": self.problem_version,
            "message": self.message,
            "seconds": self.seconds,
            "tests": [t.as_json(reveal_hidden) for t in self.tests],
        }
