"""Courses: creating one, finding one for a caller, listing the caller's, replacing the join code.

A course's creator becomes its instructor; learners join through the join link
(``judge.service.courses_join``). Who may see or change a course is ``access.authorize``'s.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.errors import InvalidInput, NotFound
from judge.service.access import Action, authorize
from judge.service.courses_join import new_join_code
from judge.service.db.models import Course, CourseMember, CourseRole, User

MAX_ID = 2**63 - 1  # the database's integer: a larger id would overflow the query, not miss
TITLE_CHARS = 200  # the column's width


def checked_title(title: str, field: str = "title") -> str:
    """A title without surrounding blanks, 1 to 200 characters; InvalidInput naming ``field``."""
    title = title.strip()
    if not 1 <= len(title) <= TITLE_CHARS:
        raise InvalidInput(f"{field}: must have 1 to {TITLE_CHARS} characters (not counting blanks "
                           f"around it), not {len(title)}")
    if any(ord(c) < 32 or c == "\x7f" for c in title):
        raise InvalidInput(f"{field}: must not contain control characters (line breaks, tabs, NUL)")
    return title


def join_path(course: Course) -> str:
    """The path of the course's join page (the pages prefix it with their origin)."""
    return f"/join/{course.join_code}"


def create_course(session: Session, user: User, title: str) -> Course:
    """A new course taught by ``user`` (an instructor or an admin), committed."""
    authorize(user, Action.TEACH)
    course = Course(title=checked_title(title), join_code=new_join_code(), created_by=user.id)
    course.members.append(CourseMember(user_id=user.id, role=CourseRole.INSTRUCTOR.value))
    session.add(course)
    session.commit()
    return course


def find_course(session: Session, user: User, course_id: int, action: Action = Action.READ) -> Course:
    """The course when ``user`` may do ``action`` to it; NotFound exactly as for a missing id."""
    course = session.get(Course, course_id) if 0 < course_id <= MAX_ID else None
    if course is None:
        raise NotFound(f"no course {course_id}")
    authorize(user, action, course)
    return course


def my_courses(session: Session, user: User) -> list[tuple[Course, CourseRole]]:
    """The courses ``user`` teaches or takes, with their place in each, by title."""
    rows = session.execute(
        select(Course, CourseMember.role).join(CourseMember, CourseMember.course_id == Course.id)
        .where(CourseMember.user_id == user.id).order_by(Course.title, Course.id)).all()
    return [(course, CourseRole(role)) for course, role in rows]


def rotate_join_code(session: Session, user: User, course_id: int) -> Course:
    """Give the course a new join code (its instructors): links with the old one stop working."""
    course = find_course(session, user, course_id, Action.MANAGE)
    course.join_code = new_join_code()
    session.commit()
    return course


def members(course: Course) -> list[CourseMember]:
    """Instructors first, then learners, each by name."""
    order = {CourseRole.INSTRUCTOR.value: 0, CourseRole.LEARNER.value: 1}
    return sorted(course.members, key=lambda m: (order.get(m.role, 2), m.user.name))
