"""Whether other instructors may copy a problem: its owner's consent.

A copy holds every file of the problem, hidden tests, reference and wrong solutions included, so
copying someone else's problem reads what its author kept from learners (issue 32). A shipped
problem (from ``problems/``, no owner) is public in the repository anyway and is always
shareable; an authored one is shareable only once its owner (or an admin) says so. Who may copy
is decided by ``access.authorize(user, Action.COPY, problem)``, which asks ``is_shareable``.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from service.db.models import ProblemRow
from service.errors import Conflict


def is_shareable(problem: ProblemRow) -> bool:
    return problem.owner_id is None or problem.shareable


def set_shareable(session: Session, problem: ProblemRow, shareable: bool) -> ProblemRow:
    """Let other instructors copy ``problem`` (its published version), or stop them; commit.

    Copies already made stay their makers'. A shipped problem cannot be withdrawn: its files
    ship with the judge."""
    if problem.owner_id is None and not shareable:
        raise Conflict(f"problem {problem.slug!r} ships with the judge (problems/): its files are "
                       "public, so it is always shareable")
    problem.shareable = shareable
    session.commit()
    return problem
