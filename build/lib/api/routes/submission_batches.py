"""Submitting many at once: ``POST /submissions/batch``.

Each item is taken exactly as a single POST takes it (``service.submissions.submit_many``
calls ``submit`` for each: the item's own idempotency key, the learner's queue quota counting the
items before it, the assignment's window), and each gets its own result: the submission, or the
error body a single POST would have answered with. The request as a whole answers 200 when it
is itself valid (a JSON body of 1 to 100 well-formed items), however many items were refused.
With ``callback_url`` each stored item's verdict is posted there, and ``batch.done`` once all
are judged (``service.webhooks.batches``).
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from api.deps import CurrentUser, SessionDep
from api.presenters import submission_detail
from api.request_ids import request_id
from api.routes.submissions import QUOTA_429, RATE_LIMIT_HEADERS, queue_quota, set_rate_limit
from api.schemas.common import ErrorCode
from api.schemas.submission_views import BatchCreate, BatchOut, BatchResult, ItemError
from judge.errors import DomainError
from service import submissions
from service.db.models import Submission, User
from service.errors import STATUS
from service.webhooks import batches

router = APIRouter(prefix="/submissions", tags=["submissions"])


def _result(index: int, outcome: Submission | DomainError, user: User,
            rid: str) -> BatchResult:
    if isinstance(outcome, DomainError):
        param = None if outcome.param is None else f"items.{index}.{outcome.param}"
        return BatchResult(index=index, status=STATUS.get(outcome.code, outcome.status),
                           submission=None, error=ItemError(
                               code=ErrorCode(outcome.code), message=outcome.message, param=param,
                               request_id=rid))
    return BatchResult(index=index, status=202, submission=submission_detail(outcome, user),
                       error=None)


@router.post("/batch", response_model=BatchOut, responses={
    200: {"description": "one result per item, in order: `submission` (status 202) or `error` "
                         "(the status and error body a single POST of it would have had)",
          "headers": RATE_LIMIT_HEADERS},
    **QUOTA_429})
def submit_batch(body: BatchCreate, session: SessionDep, user: CurrentUser, request: Request,
                 response: Response) -> BatchOut:
    """Store and queue up to 100 submissions in one request, each with its own
    `idempotency_key`; an item refused (a quota, an unknown problem, ...) does not stop the
    others."""
    items = [submissions.BatchItem(item.problem, item.code, item.mode, item.idempotency_key,
                                   item.arguments, item.assignment) for item in body.items]
    webhook_batch, outcomes = batches.submit_batch(session, user, items, body.callback_url)
    rid = request_id(request.scope)
    results = [_result(index, outcome, user, rid) for index, outcome in enumerate(outcomes)]
    set_rate_limit(response, queue_quota(session, user))
    return BatchOut(results=results, webhook_batch=webhook_batch)
