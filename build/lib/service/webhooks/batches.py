"""A batch of submissions with one callback URL: each submission gets its own
``submission.done``, and the batch one ``batch.done`` once all of them are judged.

The batch row is committed before its first submission, so a verdict that comes quickly already
knows its batch; it is sealed after the last, so ``batch.done`` never fires while items are still
being stored (``outbox.seal_batch`` writes it at once when everything was judged meanwhile).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from judge.errors import DomainError
from service.db.models import Submission, User
from service.submissions import BatchItem, submit_many
from service.webhooks import outbox
from service.webhooks.outbox import Callback


def submit_batch(session: Session, user: User, items: Sequence[BatchItem],
                 callback_url: str | None) -> tuple[int | None, list[Submission | DomainError]]:
    """``submissions.submit_many``, with the callback when one is given: (the batch's id, or
    None without a callback; each item's submission or refusal). A refused URL refuses the
    whole request (InvalidInput or QuotaExceeded with param callback_url) before any item."""
    if callback_url is None:
        return None, submit_many(session, user, items)
    batch = outbox.new_batch(session, user, callback_url)
    session.commit()
    batch_id = batch.id
    results = submit_many(session, user, items, Callback(callback_url, batch_id))
    outbox.enqueue(outbox.seal_batch(session, batch_id))
    return batch_id, results
