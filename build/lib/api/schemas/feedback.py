"""Request and response bodies of a submission's feedback: comments, scores set by hand and
regrade requests."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from api.schemas.common import UtcTime
from service.db.models import RegradeOutcome
from service.feedback import MAX_COMMENT, MAX_REASON
from service.regrades import MAX_ANSWER
from service.regrades import MAX_REASON as MAX_REGRADE_REASON


class CommentIn(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"body": "Clip the count by the reference's, as in `min(c, r)`.", "line": 4},
        {"body": "Well structured. **Mind empty candidates.**"}]})

    body: str = Field(min_length=1, max_length=MAX_COMMENT, description="Markdown; raw HTML stays text")
    line: int | None = Field(None, ge=1, le=100_000, strict=True, description=(
        "the line of the code it is about (1 is the first); null or absent: the whole submission"))


class CommentOut(BaseModel):
    id: int
    line: int | None = Field(description="the line of the code it is about; null: the whole submission")
    author: str | None = Field(description="who wrote it (null once their account is gone)")
    body: str = Field(description="the Markdown as written")
    html: str = Field(description="the Markdown rendered (raw HTML escaped, formulas as MathML)")
    created_at: UtcTime
    read_at: UtcTime | None = Field(description="when the submission's learner first saw it; null: new")


class ScoreIn(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"score": 0.8, "reason": "the failing test expects the old tokenizer; full marks but style"},
        {"score": None, "reason": "back to the judged score after the rejudge"}]})

    score: float | None = Field(ge=0.0, le=1.0, allow_inf_nan=False, description=(
        "the score that counts in the gradebook, 0 to 1 (no late penalty is taken from it); null: "
        "the judged score again"))
    reason: str = Field(min_length=1, max_length=MAX_REASON, description="why, kept in the trail")


class ScoreChangeOut(BaseModel):
    changed_by: str | None = Field(description="who changed it (null once their account is gone)")
    changed_at: UtcTime
    previous: float | None = Field(description="the score that counted before")
    score: float | None = Field(description="the score set by hand; null: back to the judged score")
    reason: str


class RegradeIn(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"reason": "Test three expects the old tokenizer; the statement asks for the new one."}]})

    reason: str = Field(min_length=1, max_length=MAX_REGRADE_REASON,
                        description="why the score should change")


class RegradeAnswerIn(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"answer": "You are right: the test was wrong. Full marks.", "score": 1.0},
        {"answer": "The statement says to lower-case first; the score stands.", "score": None}]})

    answer: str = Field(min_length=1, max_length=MAX_ANSWER, description="the answer the learner reads")
    score: float | None = Field(None, ge=0.0, le=1.0, allow_inf_nan=False, description=(
        "a new score set by hand (0 to 1; the answer is its reason); null or absent: the score is kept"))


class RegradeOut(BaseModel):
    id: int
    submission: int
    requested_by: str | None = Field(description="the learner who asked (null once their account is gone)")
    reason: str
    created_at: UtcTime
    outcome: RegradeOutcome = Field(description=(
        "open: waiting for an answer; changed: a new score was set by hand; kept: the score stands"))
    answer: str | None
    answered_by: str | None
    answered_at: UtcTime | None
