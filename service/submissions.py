"""Submissions: accepting them (limits, idempotency, the learner's queue quota, an assignment's
window, the assignment one that names none counts for (``assignment_credit``), queueing), finding
one, listing them. Their status changes after creation belong to
``lifecycle``."""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum
from typing import Any

from sqlalchemy import case, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, joinedload
from sqlalchemy.orm.attributes import set_committed_value

from judge.custom_input import typed_arguments
from judge.errors import DomainError, InvalidInput
from judge.problems import SLUG
from judge.results import Visibility
from service.access import Action, authorize, readable_submissions
from service.assignment_credit import implied_credit
from service.catalog import load_version, no_such_problem
from service.celery_app import RUN_QUEUE, SUBMIT_QUEUE, enqueue_submission
from service.db.models import (
    Assignment,
    ProblemRow,
    ProblemVersion,
    Role,
    Submission,
    SubmissionStatus,
    TestResultRow,
    User,
    utcnow,
)
from service.errors import Conflict, NotFound, QuotaExceeded, TooLarge, Unavailable
from service.grade_release import withheld
from service.lateness import admit, deadline_of
from service.settings import get_settings
from service.webhooks import outbox
from service.webhooks.outbox import Callback

log = logging.getLogger(__name__)
MAX_ID = 2**31 - 1  # ids are INTEGER columns: PostgreSQL's stops here (SQLite's at 2**63 - 1); a larger
# id would overflow the query (a 5xx), not miss


class Mode(StrEnum):
    SUBMIT = "submit"  # every test, hidden ones included
    RUN = "run"  # public tests only, for trying code out
    TRY = "try"  # the learner's own arguments, against the reference's value; never counted


def check_code(code: str) -> None:
    settings = get_settings()
    try:
        size = len(code.encode("utf-8"))
    except UnicodeEncodeError as exc:
        where = _place(code, exc.start)
        raise InvalidInput(f"the code is not valid text: a lone surrogate at {where}") from exc
    if size > settings.max_code_bytes:
        raise TooLarge(f"the code has {size} bytes; the limit is {settings.max_code_bytes}")
    if "\x00" in code:
        where = _place(code, code.index("\x00"))
        raise InvalidInput(f"the code contains a NUL character (U+0000) at {where}")


def _place(code: str, index: int) -> str:
    """Where ``index`` falls as an editor shows it (line and column, both from 1): a learner finds
    a character by line and column, never by its offset in the whole text."""
    line = code.count("\n", 0, index) + 1
    column = index - (code.rfind("\n", 0, index) + 1) + 1
    return f"line {line}, column {column}"


def published_problem(session: Session, slug: str) -> ProblemRow:
    """The problem with its published version (not the version's files, which are read only
    when the loaded problem is not cached yet: bleu_1gram's are 130 KB)."""
    row = session.scalar(select(ProblemRow).where(ProblemRow.slug == slug).options(
        joinedload(ProblemRow.published_version).defer(ProblemVersion.files)))
    if row is None or row.published_version_id is None:
        raise no_such_problem(session, slug, "published problem")
    return row


def _request_hash(slug: str, code: str, mode: Mode, arguments: list[Any] | None,
                  assignment: int | None = None, callback: Callback | None = None) -> str:
    fields: list[Any] = [slug, code, mode.value]
    if arguments is not None:  # so that the hashes of earlier rows stay what they were
        fields.append(arguments)
    if assignment is not None:  # a dict, never mistaken for the arguments' list
        fields.append({"assignment": assignment})
    if callback is not None:
        fields.append({"callback_url": callback.url})
    body = json.dumps(fields, ensure_ascii=False).encode("utf-8", "surrogatepass")
    return hashlib.sha256(body).hexdigest()


def check_arguments(problem: ProblemRow, mode: Mode, arguments: list[Any] | None) -> None:
    """A try needs arguments that fit the published problem's parameters; no other mode takes any."""
    if mode is not Mode.TRY:
        if arguments is not None:
            raise InvalidInput(f"arguments: only a try (mode \"try\") takes arguments, not {mode.value!r}")
        return
    if arguments is None:
        raise InvalidInput("arguments: a try (mode \"try\") needs arguments, one value per parameter")
    assert problem.published_version is not None
    typed_arguments(load_version(problem.published_version), arguments)


def check_assignment(session: Session, user: User, assignment_id: int, problem: ProblemRow,
                     mode: Mode) -> tuple[bool, float]:
    """(late, penalty): whether the submission is late for the assignment it is sent for, and
    the percent of its score that costs (``service.lateness``).

    Only the course's learners send work for an assignment, and only for its problems. A
    submission (mode submit) is refused before the assignment opens, and after the learner's last
    accepted time; runs and tries never count, so they are taken at any time.
    """
    assignment = session.get(Assignment, assignment_id) if 0 < assignment_id <= MAX_ID else None
    if assignment is None:
        raise NotFound(f"no assignment {assignment_id}")
    authorize(user, Action.SUBMIT, assignment)
    if all(link.problem_id != problem.id for link in assignment.problems):
        raise InvalidInput(f"assignment: problem {problem.slug!r} is not part of assignment {assignment_id}")
    now = utcnow()
    rule = deadline_of(session, assignment, user.id)
    if mode is Mode.SUBMIT:
        return admit(assignment, rule, now)
    return now > rule.due_at, 0.0


def queue_for(mode: str) -> str:
    """Runs and tries have a learner waiting at the keyboard: the fast queue."""
    return SUBMIT_QUEUE if mode == Mode.SUBMIT else RUN_QUEUE


# SQLite has no row locks, and the embedded default runs one API process: a lock in the process
# serialises the count-then-insert of every submission there.
_SQLITE_QUOTA_LOCK = threading.Lock()


@contextmanager
def _one_at_a_time(session: Session, user: User) -> Iterator[None]:
    """Hold off other submissions of user until this transaction ends, so that the quota count
    and the insert that follows it are atomic. The transaction ends here either way (commit, or
    rollback on error) so the lock is never held past the call."""
    sqlite = session.get_bind().dialect.name == "sqlite"
    with _SQLITE_QUOTA_LOCK if sqlite else nullcontext():
        if not sqlite:
            # The row lock lasts until commit or rollback; under READ COMMITTED the count that
            # follows sees every submission committed by whoever held it before.
            session.execute(select(User.id).where(User.id == user.id).with_for_update())
        try:
            yield
        except BaseException:
            session.rollback()
            raise
        if session.in_transaction():  # an idempotent replay wrote nothing: just release
            session.commit()


QUEUE_QUOTA = "queue"  # the name a 429 of the learner's queue quota gives (QuotaExceeded.quota)
QUEUE_RETRY_AFTER = 5  # seconds: about what a short submission takes to be judged


def _pending(session: Session, user: User) -> int:
    return session.scalar(select(func.count()).select_from(Submission).where(
        Submission.user_id == user.id,
        Submission.status.in_([SubmissionStatus.QUEUED, SubmissionStatus.RUNNING]))) or 0


# session.info's key for the count of a learner's queued and running submissions that the
# session's last new submission left, as counted under the quota's lock.
_PENDING_AFTER = "judge_pending_after"


def queue_quota_left(session: Session, user: User) -> tuple[int, int] | None:
    """(the learner queue quota, how many more submissions user may queue now); None for
    instructors and admins, whom no queue quota holds. Right after this session made a
    submission, the count it took for the quota, plus that one, saves counting again."""
    if user.role != Role.LEARNER:
        return None
    quota = get_settings().learner_queue_quota
    pending = session.info.pop(_PENDING_AFTER, None)
    if pending is None:
        pending = _pending(session, user)
    return quota, max(quota - pending, 0)


def create_submission(
    session: Session, user: User, slug: str, code: str, mode: Mode, key: str | None,
    arguments: list[Any] | None = None, assignment: int | None = None,
    callback: Callback | None = None,
) -> tuple[Submission, bool]:
    """Store a queued submission and commit it; (submission, created). The caller enqueues it
    only when created, after this commit, so a worker never looks for a row that isn't there.
    ``callback``: the webhook its verdict is posted to (``service.webhooks``)."""
    if key is not None and not 1 <= len(key) <= 200:
        raise InvalidInput("the Idempotency-Key header must have 1 to 200 characters")
    if not SLUG.fullmatch(slug):  # before it reaches a hash or a query: it may not even encode
        raise no_such_problem(session, slug, "published problem")
    if callback is not None and callback.batch_id is None:  # a batch's URL was checked for it
        outbox.check_url(callback.url)  # resolves a name: before the lock, never under it
    try:
        with _one_at_a_time(session, user):
            return _create_locked(session, user, slug, code, mode, key, arguments, assignment,
                                  callback)
    except IntegrityError:
        if key is None:  # only the idempotency key is unique: anything else is not a race
            raise
        # The same key arrived twice at once past the lock (another process on SQLite): the
        # other request won; answer with its row.
        session.rollback()
        return create_submission(session, user, slug, code, mode, key, arguments, assignment,
                                 callback)


def _create_locked(
    session: Session, user: User, slug: str, code: str, mode: Mode, key: str | None,
    arguments: list[Any] | None, assignment: int | None, callback: Callback | None = None,
) -> tuple[Submission, bool]:
    digest = _request_hash(slug, code, mode, arguments, assignment, callback)
    if key is not None:
        previous = session.scalar(select(Submission).where(
            Submission.user_id == user.id, Submission.idempotency_key == key))
        if previous is not None:
            if previous.request_hash != digest:
                raise Conflict("this Idempotency-Key was already used with a different request")
            return previous, False
    check_code(code)
    problem = published_problem(session, slug)
    check_arguments(problem, mode, arguments)
    late, penalty = False, 0.0
    if assignment is not None:
        late, penalty = check_assignment(session, user, assignment, problem, mode)
    elif mode is Mode.SUBMIT and (credit := implied_credit(session, user, problem, utcnow())) is not None:
        assignment, late, penalty = credit.assignment_id, credit.late, credit.penalty
    pending = None
    if user.role == Role.LEARNER:
        quota = get_settings().learner_queue_quota
        pending = _pending(session, user)
        if pending >= quota:
            raise QuotaExceeded(
                f"queue quota: you have {pending} submissions queued or running; the limit is "
                f"{quota} at once for a learner (JUDGE_LEARNER_QUEUE_QUOTA); wait for a verdict",
                retry_after=QUEUE_RETRY_AFTER, quota=QUEUE_QUOTA, limit=quota)
    if callback is not None:
        outbox.check_cap(session, user)
    assert problem.published_version_id is not None
    submission = Submission(
        user_id=user.id, problem_id=problem.id, version_id=problem.published_version_id,
        mode=mode.value, code=code, arguments=arguments, idempotency_key=key, request_hash=digest,
        assignment_id=assignment, late=late, penalty=penalty,
        callback_url=callback.url if callback else None,
        webhook_batch_id=callback.batch_id if callback else None,
    )
    session.add(submission)
    session.commit()
    if pending is not None:
        session.info[_PENDING_AFTER] = pending + 1
    # What the answer shows of it, as read here: each would be read again, the version with its
    # files, in three more round trips (the session keeps no row nobody refers to).
    set_committed_value(submission, "problem", problem)
    set_committed_value(submission, "version", problem.published_version)
    set_committed_value(submission, "user", user)
    return submission, True


def submit(session: Session, user: User, slug: str, code: str, mode: Mode,
           key: str | None, arguments: list[Any] | None = None,
           assignment: int | None = None, callback: Callback | None = None) -> Submission:
    """Store a submission and queue it (a replay of an Idempotency-Key returns the first one).

    When the queue is unreachable the row stays saved and queued, recovery sends it later, and
    the caller hears Unavailable so that a client knows to poll rather than post again.
    """
    submission, created = create_submission(session, user, slug, code, mode, key, arguments, assignment,
                                            callback)
    # Only a new row is sent. A replay never is, even of a row still queued: each replay sending
    # one more message let one key grow the queue without bound (ten 100-item batches replayed:
    # 1,001 messages for 100 rows). A row whose first send failed (the 503 below) is recovery's
    # to send once the broker answers (``jobs.recover_stale``), so a replay loses nothing.
    if created:
        try:
            enqueue_submission(submission.id, queue=queue_for(mode))
        except Exception as exc:
            log.warning("submission %s saved but not queued: %s", submission.id, exc)
            _never_sent(session, submission)
            raise Unavailable(
                f"submission {submission.id} is saved but the queue is unreachable; it will be "
                "judged when the queue is back: poll it (a retry with the same Idempotency-Key "
                "answers with it too, and makes no other)", retry_after=5) from exc
    return submission


def _never_sent(session: Session, submission: Submission) -> None:
    """Mark a row whose message could not be sent as due for recovery's next pass, rather than
    after the requeue delay that a row whose message is merely slow waits out: this one's
    message certainly does not exist."""
    try:
        submission.enqueued_at = utcnow() - timedelta(seconds=get_settings().requeue_after_seconds)
        session.commit()
    except Exception as exc:  # the row is saved and queued either way; it is only found later
        session.rollback()
        log.warning("submission %s could not be marked for recovery: %s", submission.id, exc)


# What a read of one submission touches, in one query: its problem, sender and version, but not
# the version's files (bleu_1gram's are 130 KB of JSON, decoded again on every read; the engine's
# cache of loaded versions holds them, catalog.load_version reads them only on a miss) nor its
# validation report.
SUBMISSION_READ = (joinedload(Submission.problem), joinedload(Submission.user),
                   joinedload(Submission.version).defer(ProblemVersion.files)
                   .defer(ProblemVersion.validation))


def find_submission(session: Session, user: User, submission_id: int) -> Submission:
    """The submission, when user may read it; NotFound otherwise, exactly as for a missing id."""
    submission = (session.get(Submission, submission_id, options=SUBMISSION_READ)
                  if 0 < submission_id <= MAX_ID else None)
    if submission is None:
        raise NotFound(f"no submission {submission_id}")
    authorize(user, Action.READ, submission)
    return submission


def shown_tests(session: Session, submission: Submission, full: bool) -> list[dict[str, Any]]:
    """The stored JSON of each test, in run order, for a viewer who sees every test (``full``)
    or the learner's view (``judge.results.learner_view``), which needs only the status and
    category of a hidden test: for those only the two are read, never the rest of the row
    (bleu_1gram's hidden rows hold 90 KB of arguments a learner never sees)."""
    if submission.status != SubmissionStatus.DONE:
        return []  # rows are written with the verdict, in its transaction, and cleared with it
    if full:
        return [row.data for row in submission.results]
    hidden = TestResultRow.visibility == Visibility.HIDDEN.value
    rows = session.execute(
        select(hidden, TestResultRow.status, case((~hidden, TestResultRow.data)),
               case((hidden, TestResultRow.data["category"].as_string())))
        .where(TestResultRow.submission_id == submission.id).order_by(TestResultRow.position))
    public, rest = [], []
    for is_hidden, status, data, category in rows:
        if is_hidden:
            rest.append({"visibility": Visibility.HIDDEN.value, "status": status, "category": category})
        else:
            public.append(data)
    return [*public, *rest]


@dataclass(frozen=True)
class Filters:
    """What a listing keeps (None: anything): the problem's slug, the sender's name, the
    assignment it was handed in for, its verdict, and whether it counts as late (an excused
    submission does not)."""

    problem: str | None = None
    learner: str | None = None
    assignment: int | None = None
    verdict: str | None = None
    late: bool | None = None


def list_submissions(session: Session, user: User, filters: Filters, limit: int,
                     offset: int) -> tuple[list[Submission], int]:
    """The page of submissions user may read (newest first) and how many there are in all."""
    query = (select(Submission).join(ProblemRow, Submission.problem_id == ProblemRow.id)
             .where(readable_submissions(user)))
    if filters.problem is not None:
        query = query.where(ProblemRow.slug == filters.problem)
    if filters.learner is not None:
        query = query.join(User, User.id == Submission.user_id).where(User.name == filters.learner)
    if filters.assignment is not None:
        query = query.where(Submission.assignment_id == filters.assignment)
    if filters.verdict is not None:
        # A learner's own held result is not there to filter on (service.grade_release).
        query = query.where(Submission.verdict == filters.verdict,
                            or_(Submission.user_id != user.id, ~withheld()))
    if filters.late is not None:
        counted_late = Submission.late.is_(True) & Submission.excused.is_(False)
        query = query.where(counted_late if filters.late else ~counted_late)
    total = session.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = session.scalars(query.order_by(Submission.id.desc()).limit(limit).offset(offset)).all()
    return list(rows), total


MAX_BATCH = 100  # submissions in one batch, and ids in one read of many


@dataclass(frozen=True)
class BatchItem:
    """One submission of a batch, as ``submit`` takes it; the key is the item's own."""

    problem: str
    code: str
    mode: Mode
    key: str | None = None
    arguments: list[Any] | None = None
    assignment: int | None = None


def submit_many(session: Session, user: User, items: Sequence[BatchItem],
                callback: Callback | None = None) -> list[Submission | DomainError]:
    """Each item submitted in turn exactly as ``submit`` would one alone (its idempotency key,
    the learner's queue quota, the assignment's window): the submission, or the refusal of that
    item. One refused item does not stop the others; the quota counts the items taken before.
    ``callback``: each item's webhook, in its batch (``service.webhooks.batches``)."""
    if len(items) > MAX_BATCH:
        raise InvalidInput(f"a batch holds at most {MAX_BATCH} submissions, not {len(items)}",
                           param="items")
    results: list[Submission | DomainError] = []
    for item in items:
        try:
            results.append(submit(session, user, item.problem, item.code, item.mode, item.key,
                                  item.arguments, item.assignment, callback))
        except DomainError as exc:
            if session.in_transaction():  # a refusal before the quota lock was taken
                session.rollback()
            results.append(exc)
    return results


def find_submissions(session: Session, user: User, ids: Sequence[int]) -> list[Submission]:
    """The submissions of ids that user may read, in the order asked (each once); ids that are
    missing or not user's to read are left out, as a single read answers 404 for both."""
    if len(ids) > MAX_BATCH:
        raise InvalidInput(f"ids: at most {MAX_BATCH} ids at once, not {len(ids)}", param="ids")
    wanted = list(dict.fromkeys(i for i in ids if 0 < i <= MAX_ID))
    if not wanted:
        return []
    rows = session.scalars(select(Submission).where(Submission.id.in_(wanted),
                                                    readable_submissions(user))).all()
    by_id = {row.id: row for row in rows}
    return [by_id[i] for i in wanted if i in by_id]
