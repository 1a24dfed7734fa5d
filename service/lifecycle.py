"""Every change of a submission's status happens here, and only here.

queued -> running (``claim``) -> done (``finish``), or back to queued (``release`` when the judge
or its infrastructure failed, ``requeue_lost`` for recovery, ``reset_for_rejudge``). A new row
starts queued (``service.submissions``). Each change is announced right after its commit
(``service.announcements``), which wakes the clients that wait for it; the two functions
whose caller commits leave the announcement to that caller. A verdict whose commit raised although
the database took it has its announcement (and its webhooks' messages) sent by ``confirm``.

Exactly one worker judges a submission at a time. A worker claims it with a conditional UPDATE
(queued, or running under an expired lease), renews the lease from a heartbeat thread while it
judges, and writes the verdict only while the claim is still its own, so a verdict is written
once. Recovery takes over only an expired lease, never a long run that is still alive.
"""

from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import TracebackType
from typing import Any, cast

from sqlalchemy import (
    JSON,
    ColumnElement,
    DateTime,
    Integer,
    String,
    Table,
    and_,
    bindparam,
    column,
    func,
    insert,
    or_,
    select,
    true,
    update,
)
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select

from judge.custom_input import Rejected
from judge.results import Report, TestResult, safe_text, stored_tests
from service import announcements
from service.access import HANDED_IN
from service.db.models import (
    ProblemVersion,
    Submission,
    SubmissionStatus,
    TestResultRow,
    WebhookDelivery,
    utcnow,
)
from service.db.session import read_session
from service.lti import grade_marks as lti_grades
from service.settings import get_settings
from service.webhooks import outbox


def committed_lazily(session: Session) -> list[ColumnElement[bool]]:
    """For the WHERE of a statement that commits on its own (autocommit): PostgreSQL returns
    from its commit before flushing it to disk. ``set_config(..., true)`` sets the setting for
    the statement's own transaction, whose commit reads it; as a condition that always holds it
    costs no round trip, where ``SET LOCAL`` in a transaction cost three (BEGIN, the SET and
    COMMIT). Should the condition not be evaluated (the row was not there), the commit waits
    for the disk, which is only slower.

    Only for a claim and its lease: should the database lose one in a crash, the submission is
    queued (or its lease expired) again, and the verdict of the worker that held it is refused
    (``finish`` checks the claim), so recovery judges it once more. A verdict is never lazy."""
    if session.get_bind().dialect.name != "postgresql":
        return []
    return [func.set_config("synchronous_commit", "off", True).is_not(None)]


def _on_its_own(session: Session) -> None:
    """Run the session's next statement in autocommit: it commits itself, with no BEGIN or
    COMMIT round trip. The connection gets its isolation level back when the session ends the
    transaction (``session.commit()``), and the session's next one is an ordinary transaction.
    What the session had open is committed first, as the claim always did."""
    session.commit()
    session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})


def _expired(now: datetime) -> ColumnElement[bool]:
    return or_(Submission.lease_expires_at.is_(None), Submission.lease_expires_at < now)


def claim(session: Session, submission_id: int) -> str | None:
    """Take the submission for judging; the lease token, or None when another worker holds it
    or it is done. Counts one attempt."""
    claimed = claim_row(session, submission_id)
    return None if claimed is None else claimed.token


@dataclass(frozen=True)
class Claimed:
    token: str  # the lease's
    submission: Submission  # the row as the claim left it
    version: str  # the content hash of the version it is judged against


def claim_row(session: Session, submission_id: int) -> Claimed | None:
    """``claim``, with the claimed row and its version's hash as the claim's own UPDATE returns
    them. The UPDATE commits itself, lazily (``committed_lazily``): one round trip, where a
    transaction with ``SET LOCAL`` and a read of the row took five. With the hash, a version
    already loaded needs no read of its row (``catalog.cached_version``)."""
    token = uuid.uuid4().hex
    now = utcnow()
    claimable = or_(Submission.status == SubmissionStatus.QUEUED,
                    and_(Submission.status == SubmissionStatus.RUNNING, _expired(now)))
    version = (select(ProblemVersion.version).where(ProblemVersion.id == Submission.version_id)
               .scalar_subquery())
    _on_its_own(session)
    row = session.execute(
        update(Submission).where(Submission.id == submission_id, claimable,
                                 *committed_lazily(session)).values(
            status=SubmissionStatus.RUNNING, lease_token=token, started_at=now,
            lease_expires_at=now + timedelta(seconds=get_settings().lease_seconds),
            attempts=Submission.attempts + 1,
        ).returning(Submission, version)
        .execution_options(synchronize_session=False, populate_existing=True)).first()
    session.commit()
    if row is None:
        return None
    announcements.announce(submission_id, SubmissionStatus.RUNNING)
    return Claimed(token, row[0], row[1])


def _holding(submission_id: int | ColumnElement[int], token: str | ColumnElement[str]
             ) -> ColumnElement[bool]:
    return and_(Submission.id == submission_id, Submission.lease_token == token,
                Submission.status == SubmissionStatus.RUNNING)


def renew(submission_id: int, token: str) -> bool:
    """Extend the lease; False when the claim was lost (taken over, or finished elsewhere)."""
    with read_session() as session:  # autocommit: one round trip
        result = session.execute(update(Submission).where(
            _holding(submission_id, token), *committed_lazily(session)).values(
            lease_expires_at=utcnow() + timedelta(seconds=get_settings().lease_seconds)))
        return result.rowcount == 1  # type: ignore[attr-defined,no-any-return]


class Heartbeat:
    """Renews a claim every third of the lease while the block runs."""

    def __init__(self, submission_id: int, token: str) -> None:
        self.submission_id, self.token = submission_id, token
        self.stopped = threading.Event()
        self.lost = False
        self.thread = threading.Thread(target=self._run, daemon=True, name=f"lease-{submission_id}")

    def _run(self) -> None:
        while not self.stopped.wait(get_settings().lease_seconds / 3):
            try:
                if not renew(self.submission_id, self.token):
                    self.lost = True
                    return
            except Exception:  # the database hiccuped: try again at the next beat
                continue

    def __enter__(self) -> Heartbeat:
        self.thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stopped.set()
        self.thread.join()


def release(session: Session, submission_id: int, token: str, message: str,
            refund: bool) -> bool:
    """Put a claimed submission back in the queue; refund gives the attempt back (the judge's
    infrastructure failed, not the judging of this submission)."""
    values: dict[str, object] = {
        "status": SubmissionStatus.QUEUED, "lease_token": None, "lease_expires_at": None,
        "enqueued_at": utcnow(), "message": safe_text(message)}
    if refund:
        values["attempts"] = Submission.attempts - 1
    result = session.execute(update(Submission).where(_holding(submission_id, token)).values(values))
    session.commit()
    if result.rowcount != 1:  # type: ignore[attr-defined]
        return False
    announcements.announce(submission_id, SubmissionStatus.QUEUED)
    return True


def finish(session: Session, submission_id: int, token: str | None, report: Report | Rejected,
           webhooks: bool = True) -> bool:
    """Write the verdict, the per-test rows and the webhook deliveries it calls for in one
    transaction, only while the claim is ours (token None: unconditionally, for recovery giving
    up). False when the claim was lost.

    The done row keeps the claim's token: should the commit raise although the database took it
    (the connection died after COMMIT reached the server), the retry that carries the token finds
    the row done under it and calls ``confirm``. Nothing reads a token on a done row as a claim
    (``_holding`` and ``claim`` want a running row; ``reset_for_rejudge`` clears it).

    ``webhooks`` False: the caller knows the row calls for none (the claim returned it), and on
    PostgreSQL the verdict then commits in one round trip (``_in_one_statement``).

    A try the reference rejected is done with no verdict and no score: nothing was compared."""
    verdict = report.verdict.value if isinstance(report, Report) else None
    values: dict[str, object] = {
        "status": SubmissionStatus.DONE, "verdict": verdict,
        "score": report.score if isinstance(report, Report) else None,
        "message": safe_text(report.message), "finished_at": utcnow(), "lease_token": token,
        "lease_expires_at": None}
    if token is not None and session.get_bind().dialect.name == "postgresql":
        if not webhooks:  # a submission's callback and batch are set when it is made, never after
            _on_its_own(session)
        stored = _in_one_statement(session, submission_id, token, values, report.tests)
    else:
        stored = _step_by_step(session, submission_id, token, values, report.tests)
    if stored is None:  # the claim was lost
        session.rollback()
        return False
    hooks, grades = stored
    # The webhooks the verdict calls for commit with it, or not at all (service.webhooks).
    deliveries = outbox.on_verdict(session, submission_id) if calls_webhooks(hooks) else []
    session.commit()
    session.expire_all()
    announcements.announce(submission_id, SubmissionStatus.DONE, verdict)
    outbox.enqueue(deliveries)
    lti_grades.enqueue(grades)
    return True


def calls_webhooks(row: Any) -> bool:
    """Whether a submission (its row, or what its verdict's update returned) calls for webhooks
    on its verdict: its own callback, or its batch's."""
    return row.callback_url is not None or row.webhook_batch_id is not None


_SUBMISSIONS = cast(Table, Submission.__table__)
_TEST_RESULTS = cast(Table, TestResultRow.__table__)
# What the webhooks need to know of a verdict's row comes back with its update: most verdicts
# call for none, and then nothing more is read before the commit.
_HOOKS = (_SUBMISSIONS.c.callback_url, _SUBMISSIONS.c.webhook_batch_id)
_WORK = (_SUBMISSIONS.c.mode, _SUBMISSIONS.c.user_id, _SUBMISSIONS.c.problem_id,
         _SUBMISSIONS.c.assignment_id)


def _step_by_step(session: Session, submission_id: int, token: str | None,
                  values: dict[str, object], tests: list[TestResult]
                  ) -> tuple[Any, list[int]] | None:
    """The verdict's row, its tests and the LTI grades it changes, a statement each; (what the
    row's update returned, the grades' ids), or None when the claim was lost."""
    where = _holding(submission_id, token) if token else (Submission.id == submission_id)
    hooks = session.execute(update(_SUBMISSIONS).where(where).values(values)
                            .returning(*_HOOKS, *_WORK)).first()
    if hooks is None:
        return None
    if token is None:
        # Only a row this claim did not hold may be done already, with tests stored. A running
        # row has none: they are written with the verdict, and cleared when a done row is
        # queued again (``reset_for_rejudge``).
        session.query(TestResultRow).filter(TestResultRow.submission_id == submission_id).delete()
    if tests:
        session.execute(insert(TestResultRow), [{"submission_id": submission_id, **row}
                                                 for row in _test_rows(tests)])
    # A hand-in's verdict may change the learner's grade on an LMS's line item (service.lti.grades).
    grades = (lti_grades.touch_work(session, hooks.user_id, hooks.problem_id, hooks.assignment_id)
              if hooks.mode == HANDED_IN else [])
    return hooks, grades


# PostgreSQL takes a verdict's row, its tests and the LTI grades it changes in one statement:
# data-modifying CTEs, all done or none. The tests come as one parameter, the rows' JSON, which
# PostgreSQL splits itself (json_to_recordset): an executemany sent each row on its own, and
# psycopg's pipelining of bleu_1gram's 68 cost about 6 ms of the worker's CPU. Five round trips
# (BEGIN, three statements, COMMIT) become one in autocommit, or three with webhooks to write.
# The statement is built once, its values bound by name: building and keying it for each
# verdict cost about 2 ms of the worker's CPU.
_RECORDS = func.json_to_recordset(bindparam("rows", type_=JSON)).table_valued(
    column("position", Integer), column("name", String), column("visibility", String),
    column("status", String), column("data", JSON)).render_derived(with_types=True)
_VERDICT_COLUMNS = ("status", "verdict", "score", "message", "finished_at", "lease_token",
                    "lease_expires_at")


def _verdict_in_one() -> Select[Any]:
    done = (update(_SUBMISSIONS).where(_holding(bindparam("submission_id"), bindparam("token")))
        .values({name: bindparam(f"new_{name}", type_=_SUBMISSIONS.c[name].type)
                 for name in _VERDICT_COLUMNS})
        .returning(_SUBMISSIONS.c.id, *_HOOKS, *_WORK).cte("done"))
    stored = insert(_TEST_RESULTS).from_select(
        ["submission_id", "position", "name", "visibility", "status", "data"],
        select(done.c.id, _RECORDS.c.position, _RECORDS.c.name, _RECORDS.c.visibility,
               _RECORDS.c.status, _RECORDS.c.data).select_from(done).join(_RECORDS, true()))
    grades = (lti_grades.work_made_pending(done.c.user_id, done.c.problem_id, done.c.assignment_id,
                                           bindparam("now", type_=DateTime))
              .where(done.c.mode == HANDED_IN).cte("grades"))
    return (select(*(done.c[c.name] for c in (*_HOOKS, *_WORK)),
                   select(func.array_agg(grades.c.id)).scalar_subquery().label("grades"))
            .add_cte(stored.cte("tests")))


_VERDICT_IN_ONE = _verdict_in_one()


def _in_one_statement(session: Session, submission_id: int, token: str,
                      values: dict[str, object], tests: list[TestResult]
                      ) -> tuple[Any, list[int]] | None:
    row = session.execute(_VERDICT_IN_ONE, {
        "submission_id": submission_id, "token": token, "rows": _test_rows(tests),
        "now": utcnow(), **{f"new_{name}": values[name] for name in _VERDICT_COLUMNS}}).first()
    return None if row is None else (row, list(row.grades or []))


def _test_rows(tests: list[TestResult]) -> list[dict[str, Any]]:
    return [{"position": position, "name": safe_text(test.name),
             "visibility": test.visibility.value, "status": test.status.value, "data": data}
            for position, (test, data) in enumerate(zip(tests, stored_tests(tests), strict=True))]


def confirm(session: Session, submission_id: int, token: str) -> bool:
    """For the retry of a verdict whose commit raised: when the row is done under ``token`` (the
    commit landed after all), take over what follows the commit (the announcement, and the
    messages of the webhook deliveries it wrote) and return True. The token is cleared in the same
    step, so of two retries only one does it; False when the row is not done under the token
    (the commit was lost, another claim stored the verdict, or it was confirmed already)."""
    done = session.execute(update(Submission).where(
        Submission.id == submission_id, Submission.lease_token == token,
        Submission.status == SubmissionStatus.DONE).values(lease_token=None)
        .returning(Submission.verdict, Submission.webhook_batch_id)
        .execution_options(synchronize_session=False)).first()
    if done is None:
        session.rollback()
        return False
    deliveries = _unsent_deliveries(session, submission_id, done.webhook_batch_id)
    session.commit()
    announcements.announce(submission_id, SubmissionStatus.DONE, done.verdict)
    outbox.enqueue(deliveries)
    return True


def _unsent_deliveries(session: Session, submission_id: int, batch_id: int | None) -> list[int]:
    """The deliveries never attempted that the verdict's commit may have written: the
    submission's own and, when it completed its batch, the batch's (a second message for one
    already sent is harmless: an attempt claims its row)."""
    mine = WebhookDelivery.submission_id == submission_id
    if batch_id is not None:
        mine = or_(mine, and_(WebhookDelivery.batch_id == batch_id,
                              WebhookDelivery.event == outbox.WebhookEvent.BATCH_DONE))
    return list(session.scalars(select(WebhookDelivery.id).where(
        mine, WebhookDelivery.state == outbox.DeliveryState.PENDING, WebhookDelivery.attempts == 0)
        .order_by(WebhookDelivery.id)))


def stale(session: Session, every_queued: bool = False) -> list[Submission]:
    """Queued for longer than the re-queue delay (its message may be lost), or every queued one
    (the broker lost every message), or running under an expired lease (its worker died)."""
    settings = get_settings()
    now = utcnow()
    queued_before = now if every_queued else now - timedelta(seconds=settings.requeue_after_seconds)
    return list(session.scalars(select(Submission).where(or_(
        and_(Submission.status == SubmissionStatus.QUEUED, Submission.enqueued_at < queued_before),
        and_(Submission.status == SubmissionStatus.RUNNING, _expired(now)),
    ))))


def _back_in_queue(submission: Submission) -> None:
    submission.status = SubmissionStatus.QUEUED
    submission.lease_token = submission.lease_expires_at = None
    submission.enqueued_at = utcnow()


def requeue_lost(submission: Submission) -> None:
    """Queue again a submission whose message was lost or whose worker died (its lease lapsed).
    The caller commits, then announces ``requeued``."""
    _back_in_queue(submission)


def reset_for_rejudge(submission: Submission, version_id: int) -> None:
    """Forget the verdict and judge again against ``version_id`` with every attempt restored.
    Dropping the claim means the verdict of a judge still running no longer lands. The caller
    commits, then announces ``requeued``."""
    _back_in_queue(submission)
    submission.version_id = version_id
    submission.verdict = submission.score = submission.message = None
    submission.started_at = submission.finished_at = None
    submission.attempts = 0
    submission.results.clear()


def requeued(submission_ids: list[int]) -> None:
    """Announce, after the caller's commit, that ``requeue_lost`` or ``reset_for_rejudge`` put
    these submissions back in the queue."""
    announcements.announce_all(
        announcements.Change(submission_id, SubmissionStatus.QUEUED) for submission_id in submission_ids)
