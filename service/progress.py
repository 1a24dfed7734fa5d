"""A learner's own progress on problems: solved, attempted, best score.

Only the caller's submissions in mode submit count: a run sees the public tests only and a try
is an experiment with the learner's own arguments, so neither says anything about solving.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sqlalchemy import and_, case, func, select
from sqlalchemy.orm import Session

from judge.results import Verdict
from service.access import HANDED_IN
from service.db.models import Submission, SubmissionStatus, User
from service.grade_release import withheld


class Status(StrEnum):
    SOLVED = "solved"  # an accepted submission
    ATTEMPTED = "attempted"  # submitted, never accepted (yet)


@dataclass(frozen=True)
class Progress:
    status: Status | None
    best_score: float | None


NONE = Progress(None, None)


def progress_by_problem(session: Session, user: User, problem_ids: list[int]) -> dict[int, Progress]:
    """Progress of ``user`` on each of ``problem_ids`` (one query for the whole list)."""
    if not problem_ids:
        return {}
    # A held result (service.grade_release) is tried, not solved, until its grades are released.
    shown = ~withheld()
    solved = func.max(case((and_(Submission.verdict == Verdict.ACCEPTED.value, shown), 1), else_=0))
    # A score is there only once judged; a rejudge in progress has none until it is done again.
    best = func.max(case((and_(Submission.status == SubmissionStatus.DONE, shown), Submission.score)))
    rows = session.execute(
        select(Submission.problem_id, solved, best)
        .where(Submission.user_id == user.id, Submission.mode == HANDED_IN,
               Submission.problem_id.in_(problem_ids))
        .group_by(Submission.problem_id)).all()
    found = {}
    for problem_id, was_solved, best_score in rows:
        found[problem_id] = Progress(Status.SOLVED if was_solved else Status.ATTEMPTED,
                                     None if best_score is None else float(best_score))
    return {problem_id: found.get(problem_id, NONE) for problem_id in problem_ids}
