"""Accepting submissions: limits, idempotency and the learner's queue quota."""

from __future__ import annotations

import hashlib
import json
from enum import StrEnum

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from judge.db.models import ProblemRow, Role, Submission, SubmissionStatus, User
from judge.errors import Conflict, InvalidInput, NotFound, QuotaExceeded, TooLarge
from judge.settings import get_settings


class Mode(StrEnum):
    SUBMIT = "submit"  # every test, hidden ones included
    RUN = "run"  # public tests only, for trying code out


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


def _request_hash(slug: str, code: str, mode: Mode) -> str:
    body = json.dumps([slug, code, mode.value], ensure_ascii=False).encode("utf-8", "surrogatepass")
    return hashlib.sha256(body).hexdigest()


def create_submission(
    session: Session, user: User, slug: str, code: str, mode: Mode, key: str | None
) -> tuple[Submission, bool]:
    """Store a queued submission and commit it; (submission, created). The caller enqueues it
    only when created, after this commit, so a worker never looks for a row that isn't there."""
    digest = _request_hash(slug, code, mode)
    if key is not None:
        if not 1 <= len(key) <= 200:
            raise InvalidInput("the Idempotency-Key header must have 1 to 200 characters")
        previous = session.scalar(select(Submission).where(
            Submission.user_id == user.id, Submission.idempotency_key == key))
        if previous is not None:
            if previous.request_hash != digest:
                raise Conflict("this Idempotency-Key was already used with a different request")
            return previous, False
    check_code(code)
    problem = published_problem(session, slug)
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
        mode=mode.value, code=code, idempotency_key=key, request_hash=digest,
    )
    session.add(submission)
    try:
        session.commit()
    except IntegrityError:
        # The same key arrived twice at once: the other request won; answer with its row.
        session.rollback()
        return create_submission(session, user, slug, code, mode, key)
    return submission, True
