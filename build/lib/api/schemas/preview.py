"""The author's preview of a version: the learner's page of it, with every hint and the
editorial as learners would read them once revealed or solved, and a run of the author's code
against its public tests."""

from __future__ import annotations

from pydantic import BaseModel, Field

from api.schemas import EditorialOut, ProblemDetail


class PreviewHint(BaseModel):
    index: int = Field(description="1 for the first hint")
    tests: list[str] = Field([], description="the public tests it is about")
    markdown: str
    html: str


class PreviewDetail(ProblemDetail):
    hints: list[PreviewHint] = Field([], description="every hint of the version, in order")
    editorial: EditorialOut | None = Field(None, description="the version's editorial, if it has one")


class PreviewRun(BaseModel):
    code: str = Field(description=(
        "Python source defining the problem's function, run against the version's public tests "
        "(at most JUDGE_MAX_CODE_BYTES bytes of UTF-8: 413 too_large beyond)"))
