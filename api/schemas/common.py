"""The types many response bodies share: times in UTC, the enums, the error body, and the judge's
one results schema (``judge.results``) as pydantic models.

The enums are the engine's and the service's own (``judge.results``, ``service.db.models``,
...), so the OpenAPI document lists exactly the values the code can store. ``TestResultOut``
mirrors ``judge.results.TestResult.as_json`` key for key and ``HiddenAggregate`` mirrors the
``hidden`` part of ``judge.results.learner_view``: they describe that one schema, they are not a
second one (``tests/unit/service/test_response_models.py`` validates a real report against them).
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, WithJsonSchema

from judge.problems import DIFFICULTIES
from judge.results import TestStatus, Visibility
from service.errors import STATUS


def _zulu(moment: datetime) -> str:
    """A time as ISO 8601 in UTC with a ``Z``. The database keeps naive UTC (SQLite hands back no
    offset at all), so a naive time is UTC; an aware one is converted."""
    naive = moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment
    return naive.isoformat() + "Z"


# Every time a response carries: always with its offset, as `Z`, whatever the database returned.
UtcTime = Annotated[datetime, PlainSerializer(_zulu, return_type=str),
                    WithJsonSchema({"type": "string", "format": "date-time",
                                    "examples": ["2026-03-01T09:00:00Z"]}, mode="serialization")]

# A pair of numbers (an interval, a range of lines): a JSON array of two.
# (Described as such: pydantic's prefixItems form of a tuple is one not every OpenAPI tool reads.)
FloatPair = Annotated[tuple[float, float], WithJsonSchema(
    {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2})]
IntPair = Annotated[tuple[int, int], WithJsonSchema(
    {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2})]

class Difficulty(StrEnum):
    """problem.toml's difficulties (``judge.problems.DIFFICULTIES``), as an enum for the schema."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


# A difficulty added to problem.toml's list must be added here: refused at import otherwise.
if tuple(Difficulty) != DIFFICULTIES:
    raise TypeError("api.schemas.common.Difficulty differs from judge.problems.DIFFICULTIES")


# ---------------------------------------------------------------------------------------------
# The error body


def _codes() -> dict[str, str]:
    # Every code an error body can carry: the domain tree's (judge.errors.STATUS), the ones
    # api.errors gives the framework's own statuses, and the two of an unhandled failure.
    from api.errors import HTTP_CODES  # api.errors imports nothing of the schemas

    names = [*STATUS, *HTTP_CODES.values(), "internal", "unavailable", "error"]
    return {name.upper(): name for name in dict.fromkeys(names)}


ErrorCode = StrEnum("ErrorCode", _codes())  # type: ignore[misc]


class ErrorDetail(BaseModel):
    code: ErrorCode = Field(description=(
        "stable: clients branch on it (judge/errors.py lists each code with its status)"))
    message: str = Field(description="for a person; its wording may change")
    param: str | None = Field(description=(
        "the request field at fault, dotted (e.g. `tests.3.args`, `wait`); null when no one field is"))
    request_id: str = Field(description="also in the X-Request-Id header and the server's log")


class ErrorBody(BaseModel):
    """What every error answers, whatever its status."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"error": {
        "code": "not_found", "message": "no submission 12", "param": None,
        "request_id": "6f1c2a9e0b7d4c3e"}}]})

    error: ErrorDetail


# ---------------------------------------------------------------------------------------------
# The results schema (judge.results)


class TestResultOut(BaseModel):
    """One test's result: ``judge.results.TestResult.as_json``. For a learner, hidden tests are
    never listed here (see ``HiddenAggregate``); for the problem's owner they are, in full."""

    __test__ = False  # not a pytest test class
    model_config = ConfigDict(extra="forbid")

    name: str
    visibility: Visibility
    status: TestStatus
    category: str = Field(description="the kind of failure in words; `passed` once passed")
    seconds: float | None = Field(description="the call's duration")
    memory_bytes: int | None = Field(default=None, description=(
        "the learner process's resident memory high-water mark when the call ended, in bytes (a "
        "process that serves every test: its peak so far); null where none was kept"))
    args: list[Any] | None = Field(description="the arguments, as JSON")
    kwargs: dict[str, Any] | None
    expected: Any = Field(description="the expected value as JSON (null when only its text is kept)")
    expected_repr: str | None = Field(description="the expected value's Python text")
    expected_note: str | None = Field(description="set when expected_repr is cut")
    actual_repr: str | None = Field(description="the returned value's Python text")
    actual_note: str | None = Field(description="set when actual_repr is cut")
    stdout: str | None
    explanation: str | None = Field(description="why the value is wrong, or the test's own explanation")
    note: str | None
    budget_note: str | None = Field(description=(
        "set when the submission's storage budget ran out before this test: only its status is kept"))


class HiddenTestOut(BaseModel):
    """A hidden test as a learner may see it (``per_test`` problems): status and category, in run
    order, unnamed."""

    status: TestStatus
    category: str | None


class HiddenAggregate(BaseModel):
    """``judge.results.learner_view``'s ``hidden``: what a learner sees of the hidden tests."""

    total: int
    passed: int
    not_run: int
    first_failure: str | None = Field(description="the category of the first hidden test that failed")
    # Left out (not null) where the problem does not show them, as learner_view leaves it out.
    tests: list[HiddenTestOut] | None = Field(None, exclude_if=lambda tests: tests is None, description=(
        "only where the problem shows hidden tests per test (visibility.hidden = per_test)"))


# ---------------------------------------------------------------------------------------------
# A problem's parts


class Parameter(BaseModel):
    name: str
    type: str = Field(description="the declared type, e.g. `list[str]`")
    optional: bool


class LimitsOut(BaseModel):
    time_per_test: float = Field(description="seconds")
    time_per_submission: float = Field(description="seconds")
    memory_mb: int


class CheckerOut(BaseModel):
    """How a returned value is compared with the expected one (``CheckerSpec.as_dict``): the name,
    then the checker's own parameters (e.g. abs_tol and rel_tol)."""

    model_config = ConfigDict(extra="allow", json_schema_extra={
        "examples": [{"name": "float", "abs_tol": 1e-09, "rel_tol": 1e-09}]})

    name: str


class ProblemTest(BaseModel):
    """A test as problem.toml's tests files write it: the expected value, or the exception it raises."""

    name: str
    args: list[Any]
    kwargs: dict[str, Any]
    expected: Any = None
    raises: str | None = Field(None, description="the exception's name, when the test expects one")
    explanation: str | None
