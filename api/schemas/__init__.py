"""Request and response bodies. Test results are the judge's one results schema (TestResult)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from api.schemas.bounds import BodyId
from judge.service.submissions import Mode


class SubmissionCreate(BaseModel):
    problem: str = Field(description="the problem's slug")
    code: str = Field(description="Python source defining the problem's function")
    mode: Mode = Field(Mode.SUBMIT, description=(
        "submit: all tests; run: public tests only; try: the reference and your code on your own "
        "`arguments` (never counted for progress or statistics)"))
    arguments: list[Any] | None = Field(None, description=(
        "for mode try only: one JSON value per parameter, in order, each of the declared type "
        "(at most 64 KiB of JSON)"))
    assignment: BodyId | None = Field(None, description=(
        "the id of an assignment of one of your courses that holds the problem: the submission "
        "counts in its gradebook (mode submit only); refused before it opens (403 not_open) and "
        "after it is due when it takes no late work (403 past_due), else marked late"))


class SubmissionSummary(BaseModel):
    id: int
    problem: str
    problem_version: str
    user: str
    mode: Mode
    status: str
    verdict: str | None
    score: float | None
    assignment: int | None = Field(None, description="the assignment it was sent for")
    late: bool = Field(False, description="sent for an assignment after its due time")
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


class SubmissionOut(SubmissionSummary):
    message: str | None
    code: str
    arguments: list[Any] | None = Field(None, description="a try's arguments, as sent")
    tests: list[dict[str, Any]] = Field(
        description="public tests in full; for the problem's owner, hidden tests too")
    hidden: dict[str, Any] | None = Field(None, description=(
        "hidden tests as a learner sees them: total, passed, not_run and the category of the "
        "first failure (and per-test statuses where the problem allows them)"))


class Page(BaseModel):
    items: list[SubmissionSummary]
    total: int
    limit: int
    offset: int


class ProblemCreate(BaseModel):
    slug: str = Field(description="the problem's slug; must match problem.toml")
    files: dict[str, str] = Field(
        description="the problem folder: relative path -> text, e.g. problem.toml, tests/public.json"
    )


class ProblemUpdate(BaseModel):
    files: dict[str, str]


class PublishRequest(BaseModel):
    version: str | None = Field(
        None, description="a version hash; default: the newest version (it must have passed validation)")


class VersionOut(BaseModel):
    id: int
    problem: str = Field(description="the problem's slug (an upload without one takes problem.toml's)")
    version: str
    status: str
    published: bool
    validation: dict[str, Any] | None
    created_at: datetime


class ProblemSummary(BaseModel):
    slug: str
    title: str
    difficulty: str
    tags: list[str]
    version: str | None
    published: bool
    progress: Literal["solved", "attempted"] | None = Field(description=(
        "your own submissions (mode submit): solved once one is accepted, else attempted; "
        "null before any"))
    best_score: float | None = Field(description="your best judged score (mode submit)")
    owned: bool = Field(description="you may author it: you own it, or you are an admin")


class NewestVersion(BaseModel):
    version: str
    status: str = Field(description="draft (being validated), valid or invalid")
    created_at: datetime


class ProblemAcceptance(BaseModel):
    submissions: int = Field(description="judged submissions (mode submit)")
    accepted: int
    rate: float | None


class ProblemListItem(ProblemSummary):
    """An item of ``GET /problems``; with ``mine=true`` it also carries what the authoring page
    shows of a problem one owns, so that page needs one request, not two per problem."""

    newest_version: NewestVersion | None = Field(
        None, description="with mine=true: the newest version (a draft, often) and its status")
    acceptance: ProblemAcceptance | None = Field(
        None, description="with mine=true: judged submissions (mode submit), accepted ones, the rate")


class ProblemDetail(ProblemSummary):
    signature: str
    function: str
    parameters: list[dict[str, Any]]
    returns: str
    statement_markdown: str
    statement_html: str
    starter: str
    limits: dict[str, Any]
    checker: dict[str, Any]
    public_tests: list[dict[str, Any]]
    hidden_test_count: int
    hints_total: int
    hints_revealed: int = Field(description="how many hints you have revealed")
    has_editorial: bool
    editorial_available: bool = Field(description="there is an editorial and you may read it now")
    hidden_tests: list[dict[str, Any]] | None = None
    versions: list[VersionOut] | None = None


class Me(BaseModel):
    id: int
    name: str
    role: str


class HintOut(BaseModel):
    index: int = Field(description="1 for the first hint")
    markdown: str
    html: str
    revealed_at: datetime


class HintsOut(BaseModel):
    total: int
    revealed: list[HintOut]


class HintRevealOut(BaseModel):
    user: str
    index: int
    revealed_at: datetime


class EditorialOut(BaseModel):
    markdown: str
    html: str


class Stats(BaseModel):
    problem: str
    submissions: int
    accepted: int
    acceptance_rate: float | None
    wilson_95: tuple[float, float] | None


class Rejudged(BaseModel):
    problem: str
    version: str
    requeued: int
