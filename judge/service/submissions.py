"""Submissions: accepting them (limits, idempotency, the learner's queue quota, an assignment's
window, queueing), finding one, listing them. Their status changes after creation belong to
``lifecycle``."""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from enum import StrEnum
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from judge.custom_input import typed_arguments
from judge.errors import Conflict, InvalidInput, NotFound, QuotaExceeded, TooLarge, Unavailable
from judge.problem_paths import shown
from judge.problems import SLUG
from judge.service.access import Action, authorize, readable_submissions
from judge.service.assignments import window
from judge.service.catalog import load_version
from judge.service.celery_app import RUN_QUEUE, SUBMIT_QUEUE, enqueue_submission
from judge.service.db.models import (
    Assignment,
    ProblemRow,
    Role,
    Submission,
    SubmissionStatus,
    User,
    utcnow,
)
from judge.settings import get_settings

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
        raise InvalidInput(f"the code is not valid text: a lone surrogate at index {exc.start}") from exc
    if size > settings.max_code_bytes:
        raise TooLarge(f"the code has {size} bytes; the limit is {settings.max_code_bytes}")
    if "\x00" in code:
        raise InvalidInput(f"the code contains a NUL character at index {code.index(chr(0))}")


def published_problem(session: Session, slug: str) -> ProblemRow:
    row = session.scalar(select(ProblemRow).where(ProblemRow.slug == slug))
    if row is None or row.published_version_id is None:
        raise NotFound(f"no published problem {slug!r}")
    return row


def _request_hash(slug: str, code: str, mode: Mode, arguments: list[Any] | None,
                  assignment: int | None = None) -> str:
    fields: list[Any] = [slug, code, mode.value]
    if arguments is not None:  # so that the hashes of earlier rows stay what they were
        fields.append(arguments)
    if assignment is not None:  # a dict, never mistaken for the arguments' list
        fields.append({"assignment": assignment})
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
                     mode: Mode) -> bool:
    """Whether the submission is late for the assignment it is sent for.

    Only the course's learners send work for an assignment, and only for its problems. A
    submission (mode submit) is refused before the assignment opens, and after it is due when
    its policy refuses late work; runs and tries never count, so they are taken at any time.
    """
    assignment = session.get(Assignment, assignment_id) if 0 < assignment_id <= MAX_ID else None
    if assignment is None:
        raise NotFound(f"no assignment {assignment_id}")
    authorize(user, Action.SUBMIT, assignment)
    if all(link.problem_id != problem.id for link in assignment.problems):
        raise InvalidInput(f"assignment: problem {problem.slug!r} is not part of assignment {assignment_id}")
    now = utcnow()
    if mode is Mode.SUBMIT:
        return window(assignment, now)
    return now > assignment.due_at


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


def create_submission(
    session: Session, user: User, slug: str, code: str, mode: Mode, key: str | None,
    arguments: list[Any] | None = None, assignment: int | None = None,
) -> tuple[Submission, bool]:
    """Store a queued submission and commit it; (submission, created). The caller enqueues it
    only when created, after this commit, so a worker never looks for a row that isn't there."""
    if key is not None and not 1 <= len(key) <= 200:
        raise InvalidInput("the Idempotency-Key header must have 1 to 200 characters")
    if not SLUG.fullmatch(slug):  # before it reaches a hash or a query: it may not even encode
        raise NotFound(f"no published problem {shown(slug)}")
    try:
        with _one_at_a_time(session, user):
            return _create_locked(session, user, slug, code, mode, key, arguments, assignment)
    except IntegrityError:
        if key is None:  # only the idempotency key is unique: anything else is not a race
            raise
        # The same key arrived twice at once past the lock (another process on SQLite): the
        # other request won; answer with its row.
        session.rollback()
        return create_submission(session, user, slug, code, mode, key, arguments, assignment)


def _create_locked(
    session: Session, user: User, slug: str, code: str, mode: Mode, key: str | None,
    arguments: list[Any] | None, assignment: int | None,
) -> tuple[Submission, bool]:
    digest = _request_hash(slug, code, mode, arguments, assignment)
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
    late = False if assignment is None else check_assignment(session, user, assignment, problem, mode)
    if user.role == Role.LEARNER:
        quota = get_settings().learner_queue_quota
        pending = session.scalar(select(func.count()).select_from(Submission).where(
            Submission.user_id == user.id,
            Submission.status.in_([SubmissionStatus.QUEUED, SubmissionStatus.RUNNING])))
        if (pending or 0) >= quota:
            raise QuotaExceeded(
                f"you have {pending} submissions waiting; the limit is {quota}", retry_after=5
            )
    assert problem.published_version_id is not None
    submission = Submission(
        user_id=user.id, problem_id=problem.id, version_id=problem.published_version_id,
        mode=mode.value, code=code, arguments=arguments, idempotency_key=key, request_hash=digest,
        assignment_id=assignment, late=late,
    )
    session.add(submission)
    session.commit()
    return submission, True


def submit(session: Session, user: User, slug: str, code: str, mode: Mode,
           key: str | None, arguments: list[Any] | None = None,
           assignment: int | None = None) -> Submission:
    """Store a submission and queue it (a replay of an Idempotency-Key returns the first one).

    When the queue is unreachable the row stays saved and queued, recovery sends it later, and
    the caller hears Unavailable so that a client knows to poll rather than post again.
    """
    submission, created = create_submission(session, user, slug, code, mode, key, arguments, assignment)
    # A replay of a row still queued sends it again: the client may be retrying after a 503, and
    # a second message for one row is harmless (the claim lets only one worker judge it).
    if created or submission.status == SubmissionStatus.QUEUED:
        try:
            enqueue_submission(submission.id, queue=queue_for(mode))
        except Exception as exc:
            log.warning("submission %s saved but not queued: %s", submission.id, exc)
            raise Unavailable(
                f"submission {submission.id} is saved but the queue is unreachable; it will be "
                "judged when the queue is back (poll it, or retry with the same Idempotency-Key)",
                retry_after=5) from exc
    return submission


def find_submission(session: Session, user: User, submission_id: int) -> Submission:
    """The submission, when user may read it; NotFound otherwise, exactly as for a missing id."""
    submission = session.get(Submission, submission_id) if 0 < submission_id <= MAX_ID else None
    if submission is None:
        raise NotFound(f"no submission {submission_id}")
    authorize(user, Action.READ, submission)
    return submission


def list_submissions(session: Session, user: User, slug: str | None, limit: int,
                     offset: int) -> tuple[list[Submission], int]:
    """The page of submissions user may read (newest first) and how many there are in all."""
    query = (select(Submission).join(ProblemRow, Submission.problem_id == ProblemRow.id)
             .where(readable_submissions(user)))
    if slug is not None:
        query = query.where(ProblemRow.slug == slug)
    total = session.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = session.scalars(query.order_by(Submission.id.desc()).limit(limit).offset(offset)).all()
    return list(rows), total
