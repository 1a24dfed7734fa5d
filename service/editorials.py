"""Editorials: the idea, the pitfalls and the complexity of a problem, readable once solved.

A learner may read the editorial after one accepted submission (mode submit) on the problem;
the problem's owner and admins may always. Runs and tries never unlock it.
"""

from __future__ import annotations

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from judge.results import Verdict
from service.access import owns_problem
from service.authoring import current_version
from service.catalog import load_version
from service.db.models import ProblemRow, Submission, User
from service.errors import NotFound, NotSolved
from service.grade_release import withheld
from service.submissions import Mode


def has_solved(session: Session, user: User, row: ProblemRow) -> bool:
    return bool(session.scalar(select(exists().where(
        Submission.user_id == user.id, Submission.problem_id == row.id,
        Submission.mode == Mode.SUBMIT.value, Submission.verdict == Verdict.ACCEPTED.value,
        ~withheld()))))  # an accepted verdict still held does not open it


def may_read(session: Session, user: User, row: ProblemRow) -> bool:
    """Whether ``user`` may read the editorial now (whether there is one aside)."""
    return owns_problem(user, row) or has_solved(session, user, row)


def text_of(session: Session, row: ProblemRow) -> str | None:
    return load_version(current_version(session, row)).editorial


def editorial(session: Session, user: User, row: ProblemRow) -> str:
    """The editorial's Markdown; NotFound without one, NotSolved before an accepted submission."""
    text = text_of(session, row)
    if text is None:
        raise NotFound(f"problem {row.slug!r} has no editorial")
    if not may_read(session, user, row):
        raise NotSolved(f"the editorial of {row.slug!r} opens once you have an accepted submission")
    return text
