"""Request and response bodies. Test results are the judge's one results schema (TestResult)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from api.schemas.authoring import ValidationReport
from api.schemas.bounds import BodyId, CallbackUrl, Slug
from api.schemas.common import (
    CheckerOut,
    Difficulty,
    FloatPair,
    HiddenAggregate,
    LimitsOut,
    Parameter,
    ProblemTest,
    TestResultOut,
    UtcTime,
)
from api.schemas.courses import CountsForOut
from api.schemas.tracks import TrackPlaceOut
from judge.results import Verdict
from service.db.models import Role, SubmissionStatus, VersionStatus
from service.progress import Status as Progress
from service.submissions import Mode


class SubmissionFields(BaseModel):
    """What one submission is, alone or as an item of a batch."""

    model_config = ConfigDict(json_schema_extra={"examples": [
        {"problem": "bleu", "code": "def bleu(candidate, references):\n    return 0.0\n", "mode": "submit"},
        {"problem": "bleu", "code": "def bleu(candidate, references):\n    return 0.0\n", "mode": "try",
         "arguments": ["the cat", ["the cat sat"]]}]})

    problem: str = Field(description="the problem's slug")
    code: str = Field(description=(
        "Python source defining the problem's function (at most JUDGE_MAX_CODE_BYTES bytes of "
        "UTF-8: 413 too_large beyond)"))
    mode: Mode = Field(Mode.SUBMIT, description=(
        "submit: all tests; run: public tests only; try: the reference and your code on your own "
        "`arguments` (never counted for progress or statistics)"))
    arguments: list[Any] | None = Field(None, description=(
        "for mode try only: one JSON value per parameter, in order, each of the declared type "
        "(at most 64 KiB of JSON)"))
    assignment: BodyId | None = Field(None, description=(
        "the id of an assignment of one of your courses that holds the problem: the submission "
        "counts in its gradebook (mode submit only); refused before it opens (403 not_open) and "
        "after your last accepted time (403 past_due); after your due time it is marked late and "
        "may lose part of its score (penalty)"))


class SubmissionCreate(SubmissionFields):
    callback_url: CallbackUrl | None = Field(None, description=(
        "an http(s) URL of a public address that gets a signed POST (`submission.done`) once "
        "the verdict is stored; retried for a day; see docs/webhooks.md. Refused (422, param "
        "callback_url) when its host resolves to a private, loopback or other non-public address"))


class SubmissionSummary(BaseModel):
    id: int
    problem: str
    problem_version: str
    user: str
    mode: Mode
    status: SubmissionStatus
    verdict: Verdict | None = Field(description="null until it is done")
    score: float | None = Field(description="0 to 1; null until it is done")
    assignment: int | None = Field(None, description="the assignment it was sent for")
    late: bool = Field(False, description="sent for an assignment after your due time for it")
    penalty: float = Field(0.0, description=(
        "the percent of its score lateness takes in the gradebook"))
    excused: bool = Field(False, description="a course instructor excused its lateness: no penalty")
    score_override: float | None = Field(None, description=(
        "a score a course instructor set by hand: it counts in the gradebook instead of score"))
    new_comments: int | None = Field(None, description=(
        "in listings (GET /submissions): the comments on your own submission you have not seen "
        "yet (0 on anyone else's); null elsewhere: GET /submissions/{id}/comments tells"))
    held: bool = Field(False, description=(
        "your own submission to an assignment whose instructors hold its grades until they "
        "release them: judged (status done) but verdict, score, tests, message and feedback "
        "are left out until then"))
    created_at: UtcTime
    started_at: UtcTime | None
    finished_at: UtcTime | None


class SubmissionOut(SubmissionSummary):
    message: str | None
    code: str
    arguments: list[Any] | None = Field(None, description="a try's arguments, as sent")
    tests: list[TestResultOut] = Field(
        description="public tests in full; for the problem's owner, hidden tests too")
    hidden: HiddenAggregate | None = Field(None, description=(
        "hidden tests as a learner sees them: total, passed, not_run and the category of the "
        "first failure (and per-test statuses where the problem allows them)"))
    peak_memory_bytes: int | None = Field(None, description=(
        "the highest memory_bytes of the tests listed here: the learner's process at its "
        "peak, in bytes (hidden tests run last, so for a learner no count of theirs shows)"))


class Page(BaseModel):
    items: list[SubmissionSummary]
    total: int
    limit: int
    offset: int


class ProblemCreate(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"slug": "word_count", "files": {
        "problem.toml": "slug = \"word_count\"\n...", "statement.md": "# Word count\n...",
        "reference.py": "def word_count(text):\n    return len(text.split())\n",
        "tests/public.json": "[...]", "tests/hidden.json": "[...]"}}]})

    slug: Slug = Field(description="the problem's slug; must match problem.toml")
    files: dict[str, str] = Field(
        description="the problem folder: relative path -> text, e.g. problem.toml, tests/public.json"
    )


class ProblemUpdate(BaseModel):
    files: dict[str, str]


class PublishRequest(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"version": None}]})

    version: str | None = Field(
        None, description="a version hash; default: the newest version (it must have passed validation)")


class VersionOut(BaseModel):
    id: int
    problem: str = Field(description="the problem's slug (an upload without one takes problem.toml's)")
    version: str
    status: VersionStatus
    published: bool
    validation: ValidationReport | None = Field(description="null while validation runs")
    created_at: UtcTime


class ProblemSummary(BaseModel):
    slug: str
    title: str
    difficulty: Difficulty
    tags: list[str]
    version: str | None
    published: bool
    progress: Progress | None = Field(description=(
        "your own submissions (mode submit): solved once one is accepted, else attempted; "
        "null before any"))
    best_score: float | None = Field(description="your best judged score (mode submit)")
    owned: bool = Field(description="you may author it: you own it, or you are an admin")
    shipped: bool = Field(False, description=(
        "it ships with the judge: any instructor may copy it to adapt (POST /problems/{slug}/copy)"))
    shareable: bool = Field(False, description=(
        "any instructor may copy its published version, hidden tests included (POST "
        "/problems/{slug}/copy): it ships with the judge, or its owner shares it (PATCH "
        "/problems/{slug})"))


class NewestVersion(BaseModel):
    version: str
    status: VersionStatus = Field(description="draft (being validated), valid or invalid")
    created_at: UtcTime


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
    parameters: list[Parameter]
    returns: str
    statement_markdown: str
    statement_html: str
    starter: str
    limits: LimitsOut
    checker: CheckerOut
    public_tests: list[ProblemTest]
    hidden_test_count: int
    hints_total: int
    hints_revealed: int = Field(description="how many hints you have revealed")
    hint_tests: list[list[str]] = Field([], description=(
        "for each hint, in order, the names of the public tests it is about (to offer it first "
        "when one of them fails: POST .../hints?hint=N)"))
    has_editorial: bool
    editorial_available: bool = Field(description="there is an editorial and you may read it now")
    track: TrackPlaceOut | None = Field(None, description="where it stands in its track, if it is in one")
    counts_for: list[CountsForOut] = Field([], description=(
        "the assignments of your courses (as a learner) that hold this problem, due first; a "
        "submission that names no assignment counts for the one marked counts_now, if any"))
    hidden_tests: list[ProblemTest] | None = None
    versions: list[VersionOut] | None = None


class Me(BaseModel):
    id: int
    name: str
    role: Role
    email: str | None = Field(None, description="where your notifications are e-mailed (null: nowhere)")
    email_notifications: bool = Field(True, description="whether they are e-mailed to it")
    unread_notifications: int = Field(0, description="how many of your notifications are unread")


class HintOut(BaseModel):
    index: int = Field(description="1 for the first hint")
    tests: list[str] = Field([], description="the public tests it is about")
    markdown: str
    html: str
    revealed_at: UtcTime


class HintsOut(BaseModel):
    total: int
    revealed: list[HintOut]


class HintRevealOut(BaseModel):
    user: str
    index: int
    revealed_at: UtcTime


class EditorialOut(BaseModel):
    markdown: str
    html: str


class Stats(BaseModel):
    problem: str
    submissions: int
    accepted: int
    acceptance_rate: float | None
    wilson_95: FloatPair | None


class Rejudged(BaseModel):
    problem: str
    version: str
    requeued: int
