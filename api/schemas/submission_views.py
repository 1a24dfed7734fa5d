"""Bodies of the submission routes that save round trips: a batch of submissions and its
per-item results, and the light view of one submission that a poll asks for (``?view=summary``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from api.schemas import SubmissionFields, SubmissionOut
from api.schemas.bounds import CallbackUrl
from api.schemas.common import ErrorCode
from judge.results import Verdict
from service.db.models import SubmissionStatus

MAX_BATCH = 100  # service.submissions.MAX_BATCH: the schema refuses a longer list first


class BatchItem(SubmissionFields):
    idempotency_key: str | None = Field(None, description=(
        "this item's own Idempotency-Key (1 to 200 characters): sending the batch again answers "
        "each keyed item with the submission it made the first time"))

    @model_validator(mode="before")
    @classmethod
    def _one_callback_per_batch(cls, data: Any) -> Any:
        # An item's own callback_url was once in the schema and silently dropped: refused now,
        # so that no client believes a webhook is coming that never will.
        if isinstance(data, dict) and "callback_url" in data:
            raise ValueError("an item takes no callback_url: a batch has one, at the top level "
                             "(`callback_url` beside `items`), posted for every item")
        return data


class BatchCreate(BaseModel):
    items: list[BatchItem] = Field(min_length=1, max_length=MAX_BATCH, description=(
        f"1 to {MAX_BATCH} submissions, each taken exactly as a single POST takes it"))
    callback_url: CallbackUrl | None = Field(None, description=(
        "a public http(s) URL that gets a signed `submission.done` for each stored item and one "
        "`batch.done` once all of them are judged (docs/webhooks.md); a refused URL refuses the "
        "whole request (422 or 429, param callback_url)"))


class ItemError(BaseModel):
    # The error body's enum, not a bare string: a client branches on an item's code as on any.
    code: ErrorCode
    message: str
    param: str | None
    request_id: str


class BatchResult(BaseModel):
    index: int = Field(description="the item's position in `items`, from 0")
    status: int = Field(description="the status a single POST of this item would have answered")
    submission: SubmissionOut | None = Field(None, description="the submission, when it was taken")
    error: ItemError | None = Field(None, description="why it was not, as an error body says")


class BatchOut(BaseModel):
    results: list[BatchResult] = Field(description="one per item, in the items' order")
    webhook_batch: int | None = Field(None, description=(
        "with callback_url: the id that its `batch.done` webhook carries"))


class SubmissionBrief(BaseModel):
    """What a poll needs: no code, no test rows."""

    view: Literal["summary"] = "summary"
    id: int
    # The full view's enums: a client reads either view's status and verdict with the same types.
    status: SubmissionStatus
    verdict: Verdict | None
    score: float | None
    passed: int | None = Field(description="tests passed, hidden ones included; null until done")
    total: int | None = Field(description="tests run or not, hidden ones included; null until done")
    held: bool = Field(False, description="judged, but its result held until the grades are released")


def brief(submission: SubmissionOut) -> SubmissionBrief:
    """The light view of a submission, counted from what its reader may see in full (hidden
    tests as their aggregate)."""
    if submission.status != "done" or submission.held:
        return SubmissionBrief(id=submission.id, status=submission.status,
                               verdict=submission.verdict, score=submission.score,
                               passed=None, total=None, held=submission.held)
    passed = sum(_field(test, "status") == "passed" for test in submission.tests)
    total = len(submission.tests)
    if submission.hidden is not None:
        passed += int(_field(submission.hidden, "passed") or 0)
        total += int(_field(submission.hidden, "total") or 0)
    return SubmissionBrief(id=submission.id, status=submission.status, verdict=submission.verdict,
                           score=submission.score, passed=passed, total=total, held=False)


def _field(value: object, name: str) -> Any:
    """A field of a test row or of the hidden aggregate, whether a model or its JSON object."""
    return value.get(name) if isinstance(value, dict) else getattr(value, name, None)
