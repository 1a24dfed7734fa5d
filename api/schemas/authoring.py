"""Bodies of the authoring routes: copying a problem, a version's files and validation report,
the progress of a rejudge."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from api.schemas.bounds import Slug
from api.schemas.common import UtcTime
from judge.results import Verdict
from judge.service.db.models import VersionStatus


class CopyRequest(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"new_slug": "bleu_copy", "version": None}]})

    new_slug: Slug = Field(description="the copy's slug ([a-z][a-z0-9_]*); problem.toml is rewritten to it")
    version: str | None = Field(None, description=(
        "the version to copy (a hash); default: the published one, else the newest"))


class VersionFiles(BaseModel):
    version: str
    files: dict[str, str] = Field(
        description="the problem folder: relative path -> text, hidden tests included")


class ReferenceResult(BaseModel):
    verdict: Verdict
    score: float
    passed: int | None = None
    total: int | None = None


class WrongResult(BaseModel):
    file: str = Field(description="wrong/<name>.py")
    declared: Verdict = Field(description="the verdict its first line declares")
    got: Verdict
    ok: bool


class ValidationReport(BaseModel):
    reference: ReferenceResult | None = Field(None, description=(
        "the reference's verdict and score (null when validation did not get that far)"))
    deterministic: bool | None = Field(None, description="two runs of the reference gave the same results")
    wrong: list[WrongResult] = Field(default_factory=list)
    public_tests: int | None = None
    hidden_tests: int | None = None
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


class RejudgeProgress(BaseModel):
    problem: str
    version: str = Field(description="the version the submissions are judged against")
    requested_at: UtcTime
    requested_by: str | None
    total: int = Field(description="submissions put back in the queue")
    done: int
    queued: int
    running: int
