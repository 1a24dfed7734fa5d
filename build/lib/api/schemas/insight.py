"""Bodies of the insight routes: a problem's statistics, and submissions that look alike."""

from __future__ import annotations

from pydantic import BaseModel, Field

from api.schemas.common import FloatPair, IntPair, UtcTime
from judge.results import Verdict, Visibility


class AcceptanceOut(BaseModel):
    submissions: int = Field(description="judged submissions (mode submit)")
    accepted: int
    rate: float | None
    wilson_95: FloatPair | None


class ScoresOut(BaseModel):
    bins: list[FloatPair] = Field(description=(
        "score ranges [from, to): ten of width 0.1; the last one includes 1.0"))
    counts: list[int] = Field(description="submissions per bin, in the order of bins")


class FailingTestOut(BaseModel):
    name: str | None = Field(description=(
        "the test's name; null for every hidden test together, when you may not see their names"))
    visibility: Visibility
    failures: int


class VerdictCount(BaseModel):
    verdict: Verdict
    count: int


class CategoryCount(BaseModel):
    category: str
    count: int


class InsightOut(BaseModel):
    problem: str
    course: int | None = Field(description="the course the submissions were restricted to, if any")
    hidden_tests_by_name: bool = Field(description="false: hidden tests are counted together, unnamed")
    acceptance: AcceptanceOut
    scores: ScoresOut
    failing_tests: list[FailingTestOut] = Field(description="most failures first")
    verdicts: list[VerdictCount]
    categories: list[CategoryCount] = Field(description="categories of the failing tests, most common first")


class SideOut(BaseModel):
    submission: int
    user: str


class MatchOut(BaseModel):
    a_lines: IntPair = Field(description="first and last line in a, inclusive, from 1")
    b_lines: IntPair


class PairOut(BaseModel):
    a: SideOut
    b: SideOut
    similarity: float = Field(description="shared fingerprints over the smaller set, 0..1")
    matches: list[MatchOut]


class SimilarityOut(BaseModel):
    problem: str
    course: int | None
    threshold: float
    compared: int = Field(description="accepted submissions compared (one per learner)")
    total: int = Field(description="learners with an accepted submission")
    message: str | None = Field(description="set when not every learner could be compared")
    pairs: list[PairOut]


class CodeOut(BaseModel):
    submission: int
    user: str
    problem: str
    created_at: UtcTime
    code: str


class SideBySideOut(BaseModel):
    a: CodeOut
    b: CodeOut
    similarity: float
    matches: list[MatchOut]


class ProblemPairOut(PairOut):
    problem: str = Field(description="the problem both solutions are of")


class AssignmentSimilarityOut(BaseModel):
    assignment: int
    threshold: float
    compared: int = Field(description=(
        "accepted submissions compared, summed over the problems (one per learner each)"))
    messages: list[str] = Field(description="one per problem whose learners were not all compared")
    pairs: list[ProblemPairOut] = Field(description="over every problem of the assignment, most alike first")
