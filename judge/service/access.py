"""Who may see what. Learners see their own submissions and never a hidden test; instructors see
everything of the problems they own; admins see everything."""

from __future__ import annotations

from judge.service.db.models import ProblemRow, Role, Submission, User


def owns_problem(user: User, problem: ProblemRow) -> bool:
    if user.role == Role.ADMIN:
        return True
    return user.role == Role.INSTRUCTOR and problem.owner_id == user.id


def can_see_submission(user: User, submission: Submission) -> bool:
    return submission.user_id == user.id or owns_problem(user, submission.problem)
