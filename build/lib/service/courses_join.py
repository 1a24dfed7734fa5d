"""Joining a course through its join link: the one place a learner is added by code.

Used by ``POST /courses/join`` (a signed-in user) and by registration through a join link (a new
account joins in the same step). A join code is a random secret; replacing it (``new_join_code``)
makes every earlier link stop working.
"""

from __future__ import annotations

import secrets

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from service.db.models import Course, CourseInvitation, CourseMember, CourseRole, User
from service.errors import NotFound

CODE_BYTES = 12  # 16 URL-safe characters: not guessable, short enough to read out in a classroom


def new_join_code() -> str:
    return secrets.token_urlsafe(CODE_BYTES)


def course_for_code(session: Session, code: str) -> Course:
    """The course whose current join code is ``code``; NotFound for any other (a rotated one)."""
    course = None
    if code and len(code) <= 64 and "\x00" not in code:  # the column's width; NUL cannot be stored
        course = session.scalar(select(Course).where(Course.join_code == code))
    if course is None:
        raise NotFound("no course has this join code (the link may have been replaced)")
    return course


def join_by_code(session: Session, user: User, code: str) -> Course:
    """Add ``user`` to the course of ``code`` as a learner and commit; the course.

    Idempotent: someone already in the course (as learner or instructor) keeps their place. The
    commit also commits what the caller added before (registration: the new user). Two joins at
    once meet the unique (course, user): the loser's insert is rolled back and the course returned.
    An invitation to the course as a learner is answered by joining; one to teach stays pending.
    """
    course = course_for_code(session, code)
    course_id = course.id
    already = session.scalar(select(CourseMember.id).where(
        CourseMember.course_id == course_id, CourseMember.user_id == user.id))
    if already is None:
        session.add(CourseMember(course_id=course_id, user_id=user.id, role=CourseRole.LEARNER.value))
        session.execute(delete(CourseInvitation).where(
            CourseInvitation.course_id == course_id, CourseInvitation.user_id == user.id,
            CourseInvitation.role == CourseRole.LEARNER.value))
        try:
            session.commit()
        except IntegrityError:
            session.rollback()
    found = session.get(Course, course_id)
    assert found is not None
    return found
