"""Bodies of the authoring routes: copying a problem, a version's files and validation report,
the progress of a rejudge."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from api.schemas.bounds import Slug
from api.schemas.common import UtcTime
from judge.results import Verdict
from service.db.models import VersionStatus


class CopyRequest(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"new_slug": "bleu_copy", "version": None}]})

    new_slug: Slug = Field(description="the copy's slug ([a-z][a-z0-9_]*); problem.toml is rewritten to it")
    version: str | None = Field(None, description=(
        "the version to copy (a hash); default: the published one, else the newest"))


class ProblemSettings(BaseModel):
    """What the owner (or an admin) changes on a problem itself, beside its versions."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"shareable": True}]})

    shareable: bool | None = Field(None, strict=True, description=(
        "let other instructors copy its published version, hidden tests, reference and wrong "
        "solutions included (true), or stop them (false; copies already made stay); a shipped "
        "problem is always shareable (false: 409). Left out: unchanged"))


class VersionFiles(BaseModel):
    version: str
    files: dict[str, str] = Field(
        description="the problem folder: relative path -> text, hidden tests included")


class ReferenceResult(BaseModel):
    verdict: Verdict
    score: float
    passed: int | None = None
    total: int | None = None


class DecidedBy(BaseModel):
    test: str = Field(description="the test that failed first, in run order: it named the verdict")
    detail: str = Field(description=(
        "what the judge said of it: the exception raised, or how the value differed"))


class WrongResult(BaseModel):
    file: str = Field(description="wrong/<name>.py")
    declared: Verdict = Field(description="the verdict its first line declares")
    got: Verdict
    ok: bool
    could_get: list[Verdict] = Field(
        default_factory=list,
        description="when its verdict depends on the random order of the hidden tests: every "
                    "verdict an order can give (then ok is false); empty otherwise")
    decided_by: DecidedBy | None = Field(None, description=(
        "which test gave the verdict it got, and why; null when it was accepted (or in a report "
        "made before 2026-12)"))


class FormulaResult(BaseModel):
    file: str = Field(description="statement.md, hints.md or editorial.md")
    hint: int | None = Field(None, description="in hints.md: which hint (1 for the first)")
    line: int = Field(description="the line, from 1 (in hints.md: of that hint)")
    formula: str = Field(description="the formula as written, with its dollars")
    reason: str = Field(description="why it cannot be rendered")


class ValidationReport(BaseModel):
    reference: ReferenceResult | None = Field(None, description=(
        "the reference's verdict and score (null when validation did not get that far)"))
    deterministic: bool | None = Field(None, description="two runs of the reference gave the same results")
    wrong: list[WrongResult] = Field(default_factory=list)
    public_tests: int | None = None
    hidden_tests: int | None = None
    formulas: list[FormulaResult] = Field(default_factory=list, description=(
        "every formula of the statement, hints and editorial that cannot be rendered (each is a "
        "failure too)"))
    failures: list[str] = Field(
        default_factory=list, description="every problem found, in words; empty: valid")
    validated_at: UtcTime | None = None
    source: str | None = Field(None, description='"problems folder" for a shipped problem (proven in CI)')


class VersionDetail(BaseModel):
    id: int
    version: str
    status: VersionStatus = Field(description="draft (being validated), valid or invalid")
    published: bool
    created_at: UtcTime
    validation: ValidationReport | None = Field(None, description="null while validation runs")


class RejudgePlan(BaseModel):
    problem: str
    version: str = Field(description="the published version a rejudge would judge against")
    submissions: int = Field(description="how many submissions it would judge again (tries excepted)")


class VerdictCountOut(BaseModel):
    verdict: Verdict | None = Field(description="null: no verdict (not judged before, or not yet again)")
    before: int = Field(description="the rejudge's submissions that had it before")
    after: int = Field(description="those that have it now")


class VerdictChangeOut(BaseModel):
    id: int = Field(description="the submission")
    user: str = Field(description="its learner")
    before: Verdict | None
    after: Verdict | None


class RejudgeProgress(BaseModel):
    problem: str
    version: str = Field(description="the version the submissions are judged against")
    requested_at: UtcTime
    requested_by: str | None
    total: int = Field(description="submissions put back in the queue")
    done: int
    queued: int
    running: int
    verdicts: list[VerdictCountOut] = Field(default_factory=list, description=(
        "per verdict, how many of its submissions had it before the rejudge and have it now "
        "(empty for a rejudge asked for before verdicts were kept)"))
    changed: list[VerdictChangeOut] = Field(default_factory=list, description=(
        "the submissions judged again to another verdict, by id (at most 200)"))
    changed_total: int = Field(0, description="how many changed, listed or not")
