"""Who may do what: every route authorizes through ``authorize``, and nothing else decides.

Learners see published problems and their own submissions, and never a hidden test; instructors
may author, and see everything of the problems they own; admins may do everything. An
instructor copies (every file, hidden tests included) the problems they own, and someone else's
published problem only when it is shareable (``service.sharing``: shipped, or its owner
shares it). An instructor
of a course also reads the submissions (mode submit: never a try or a run, which are a learner's
own experiments) its learners sent for its assignments (to look at them from the gradebook, and
compare them), with hidden tests shown only as they are to learners unless they own the
problem: that is the presenter's ``owns_problem``, not this rule. Being a learner of a course is
the learner's own choice (the join link, or an invitation they accepted), never an instructor's. What a
caller may not *see* answers "not found", exactly like something missing, so ids and slugs
reveal nothing; a problem they may see but not change answers "forbidden".

Courses: instructors and admins create them. A course and its assignments are seen by its
members (and admins); only its instructors (and admins) change them or read a gradebook; only
its learners submit for an assignment.
"""

from __future__ import annotations

from enum import StrEnum

from sqlalchemy import ColumnElement, exists, or_, true

from judge.errors import DomainError
from service.db.models import (
    Assignment,
    Course,
    CourseMember,
    CourseRole,
    ProblemRow,
    Role,
    Submission,
    User,
)
from service.errors import Forbidden, NotFound
from service.sharing import is_shareable

Target = ProblemRow | Submission | Course | Assignment | None


class Action(StrEnum):
    AUTHOR = "author"  # create problems at all
    READ = "read"  # a problem (published, or a draft one owns) or a submission
    MANAGE = "manage"  # a problem one owns: new versions, publish, rejudge, hidden tests,
    # sharing; a course one teaches: its join code, its assignments, their gradebooks
    COPY = "copy"  # a problem into a new one of one's own: one's own, or a shareable one
    TEACH = "teach"  # create courses at all
    SUBMIT = "submit"  # send submissions for an assignment: the learners of its course
    ADMINISTER = "administer"  # users: list them, change roles, create them with a password
    FOLLOW = "follow"  # a submission's webhook deliveries: its sender's (and admins'), no reader's
    FEEDBACK = "feedback"  # comment on a handed-in submission and set its score by hand: the
    # instructors of the course it was handed in for, and admins


def owns_problem(user: User, problem: ProblemRow) -> bool:
    if user.role == Role.ADMIN:
        return True
    return user.role == Role.INSTRUCTOR and problem.owner_id == user.id


HANDED_IN = "submit"  # the mode of what a learner hands in (service.submissions.Mode.SUBMIT)


def teaches_assignment_of(user: User, submission: Submission) -> bool:
    """``submission`` was handed in (mode submit) for an assignment of a course ``user`` teaches
    (an instructor by role: someone made a learner since keeps no course power, as for MANAGE)."""
    assignment = submission.assignment
    return (user.role == Role.INSTRUCTOR and assignment is not None and submission.mode == HANDED_IN
            and course_role(user, assignment.course) is CourseRole.INSTRUCTOR)


def course_role(user: User, course: Course) -> CourseRole | None:
    """The user's place in the course, None for an outsider (admins included)."""
    for member in course.members:
        if member.user_id == user.id:
            return CourseRole(member.role)
    return None


def _authorize_course(user: User, action: Action, course: Course, missing: str) -> None:
    """The rules shared by a course and its assignments; ``missing`` is what a stranger hears."""
    role = course_role(user, course)
    if action is Action.SUBMIT:
        if role is CourseRole.LEARNER:
            return
        if role is None and user.role != Role.ADMIN:
            raise NotFound(missing)
        raise Forbidden("only the course's learners submit for its assignments")
    if user.role == Role.ADMIN or role is CourseRole.INSTRUCTOR:
        return
    if role is None:
        raise NotFound(missing)  # someone else's course does not exist
    if action is Action.READ:
        return
    raise Forbidden("only the course's instructors may do this")


def authorize(user: User, action: Action, target: Target = None) -> None:
    """Return when ``user`` may do ``action`` to ``target``; raise NotFound or Forbidden."""
    if action is Action.ADMINISTER:
        if user.role != Role.ADMIN:
            raise Forbidden("only admins may do this")
        return
    if action in (Action.AUTHOR, Action.TEACH) or (
            action in (Action.MANAGE, Action.COPY) and user.role == Role.LEARNER):
        if user.role not in (Role.INSTRUCTOR, Role.ADMIN):
            raise Forbidden("only instructors and admins may do this")
        if target is None:
            return
    if isinstance(target, Submission):
        if action is Action.READ and (target.user_id == user.id or owns_problem(user, target.problem)
                                      or teaches_assignment_of(user, target)):
            return
        if action is Action.FEEDBACK:
            handed_in = target.assignment is not None and target.mode == HANDED_IN
            if teaches_assignment_of(user, target) or (user.role == Role.ADMIN and handed_in):
                return
            if allowed(user, Action.READ, target):
                raise Forbidden("only the instructors of the course it was handed in for comment "
                                "on a submission or change its score" if handed_in else
                                f"submission {target.id} was not handed in for an assignment: "
                                "feedback belongs to a course's assignments")
        if action is Action.FOLLOW:
            # The callback URL and the receiver's answers are the sender's own business.
            if target.user_id == user.id or user.role == Role.ADMIN:
                return
            if allowed(user, Action.READ, target):
                raise Forbidden("only the submission's sender and admins see its webhook deliveries")
        raise NotFound(f"no submission {target.id}")
    if isinstance(target, ProblemRow):
        if owns_problem(user, target):
            return
        if action in (Action.READ, Action.COPY) and target.published_version_id is None:
            raise NotFound(f"no problem {target.slug!r}")  # someone else's draft does not exist
        if action is Action.READ or (action is Action.COPY and is_shareable(target)):
            return
        if action is Action.COPY:
            raise Forbidden(f"problem {target.slug!r} is not shareable: its owner has not let others "
                            "copy it (a copy holds its hidden tests and solutions); copy your own "
                            "problems, the shipped ones, or one its owner shares")
        raise Forbidden(f"you do not own problem {target.slug!r}")
    if isinstance(target, Course):
        return _authorize_course(user, action, target, f"no course {target.id}")
    if isinstance(target, Assignment):
        return _authorize_course(user, action, target.course, f"no assignment {target.id}")
    raise TypeError(f"cannot authorize {action} on {target!r}")


def allowed(user: User, action: Action, target: Target = None) -> bool:
    """``authorize`` as a yes or no, for filtering what a listing shows."""
    try:
        authorize(user, action, target)
    except DomainError:
        return False
    return True


def readable_submissions(user: User) -> ColumnElement[bool]:
    """``authorize(user, READ, submission)`` as a query filter over ``Submission`` (it needs no
    join), for listings and insight; ``tests/unit/engine/test_authorize_rule.py`` holds the two to the same
    answers."""
    if user.role == Role.ADMIN:
        return true()
    if user.role == Role.INSTRUCTOR:
        # Correlated on the submission alone: a query that joins the problems keeps its own.
        owned = exists().where(ProblemRow.id == Submission.problem_id,
                               ProblemRow.owner_id == user.id).correlate(Submission)
        taught = exists().where(
            Submission.mode == HANDED_IN,
            Assignment.id == Submission.assignment_id, CourseMember.course_id == Assignment.course_id,
            CourseMember.user_id == user.id, CourseMember.role == CourseRole.INSTRUCTOR.value)
        return or_(Submission.user_id == user.id, owned, taught)
    return Submission.user_id == user.id
