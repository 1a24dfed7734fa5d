"""Courses: creating one, finding one for a caller, listing the caller's, replacing the join code,
removing members.

A course's creator becomes its instructor; learners join through the join link
(``service.courses_join``); anyone else named by its instructors, learner or instructor,
joins by accepting an invitation (``service.course_invitations``). Its instructors may
remove a member, but a course always keeps one instructor. Who may see or change a course is
``access.authorize``'s.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.errors import InvalidInput
from service.access import Action, authorize
from service.courses_join import new_join_code
from service.db.models import Course, CourseMember, CourseRole, User
from service.errors import LastInstructor, NotFound

MAX_ID = 2**31 - 1  # ids are INTEGER columns: PostgreSQL's stops here (SQLite's at 2**63 - 1); a larger
# id would overflow the query (a 5xx), not miss
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


def _other_instructors(session: Session, course: Course, member: CourseMember) -> bool:
    """Whether the course has an instructor besides ``member``. Locks the instructors' rows where
    the database can (PostgreSQL), so two instructors removing each other at once cannot both pass."""
    instructors = session.scalars(select(CourseMember.id).where(
        CourseMember.course_id == course.id, CourseMember.role == CourseRole.INSTRUCTOR.value)
        .with_for_update())
    return any(found != member.id for found in instructors)


def keep_an_instructor(session: Session, course: Course, member: CourseMember) -> None:
    """LastInstructor when ``member`` is the course's only instructor (before removing or demoting)."""
    if member.role == CourseRole.INSTRUCTOR.value and not _other_instructors(session, course, member):
        raise LastInstructor(f"{member.user.name!r} is the last instructor of course {course.id}: "
                             "another instructor must join it first")


def remove_member(session: Session, user: User, course_id: int, member_id: int) -> None:
    """Take the user ``member_id`` out of the course (its instructors), and commit; the last
    instructor stays. Their submissions stay too; a learner no longer appears in the gradebooks."""
    course = find_course(session, user, course_id, Action.MANAGE)
    member = next((m for m in course.members if m.user_id == member_id), None)
    if member is None:
        raise NotFound(f"user {member_id} is not a member of course {course.id}")
    keep_an_instructor(session, course, member)
    course.members.remove(member)
    session.commit()
