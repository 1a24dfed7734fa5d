"""Invitations to a course: how a user named by an instructor becomes a member, by accepting.

Membership is consent: a course's instructors read what its learners send for its assignments,
so nobody is put in a course by someone else. An instructor names a user (``invite``, the
``POST /courses/{id}/members`` route); the user sees the invitation (``pending_for``) and
accepts or declines it; the instructors see the pending ones on the course and may withdraw
one. Learners also join by the join link (``courses_join``), which is consent of its own.

Bounds: a course holds at most ``MAX_PENDING`` pending invitations (so an instructor cannot
spray every user of the judge), and a user is shown at most ``MAX_LISTED``, newest first (many
courses inviting one user cannot make their page heavy). An invitation reveals nothing about a
name beyond what adding a member by name always did to a course's instructors: whether a user
of that name exists and whether they may teach.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

from judge.errors import InvalidInput
from service.access import Action
from service.courses import MAX_ID, find_course, keep_an_instructor
from service.db.models import Course, CourseInvitation, CourseMember, CourseRole, Role, User
from service.errors import NotFound, TooManyInvitations

MAX_PENDING = 100  # pending invitations per course
MAX_LISTED = 100  # invitations shown to one user


def _can_teach(user: User) -> bool:
    return user.role in (Role.INSTRUCTOR, Role.ADMIN)


def _named(session: Session, name: str, role: CourseRole) -> User:
    """The user called ``name`` (without surrounding blanks), able to take ``role``; the same
    InvalidInput a course's instructors always got for a name that is no one, or no teacher."""
    wanted = name.strip()
    found = session.scalar(select(User).where(User.name == wanted)) if wanted else None
    if found is None:
        raise InvalidInput(f"name: there is no user named {wanted!r}")
    if role is CourseRole.INSTRUCTOR and not _can_teach(found):
        raise InvalidInput(f"name: {wanted!r} is a learner; only instructors and admins can teach a "
                           "course (an admin can change their role)")
    return found


def _lock_course(session: Session, course: Course) -> None:
    """Hold off other invitations to the course until commit where the database can (PostgreSQL),
    so that the count and the insert after it keep to the cap together."""
    session.execute(select(Course.id).where(Course.id == course.id).with_for_update())


@dataclass(frozen=True)
class Invited:
    """Naming a user made an invitation (or gave their pending one the role named): it waits for
    their answer."""

    course: Course
    invitation: CourseInvitation


@dataclass(frozen=True)
class AlreadyMember:
    """The user named was in the course already: the role named is theirs at once."""

    course: Course
    member: CourseMember


Named = Invited | AlreadyMember


def invite(session: Session, user: User, course_id: int, name: str, role: CourseRole) -> Named:
    """Invite the user named ``name`` to the course with ``role`` (its instructors), and commit.

    A member already in the course takes the new role at once (they consented to the course;
    the last instructor stays one). Anyone else gets an invitation, or their pending one the new
    role; they become a member only by accepting it."""
    course = find_course(session, user, course_id, Action.MANAGE)
    invitee = _named(session, name, role)
    member = next((m for m in course.members if m.user_id == invitee.id), None)
    if member is not None:
        if member.role != role.value:
            keep_an_instructor(session, course, member)
            member.role = role.value
        session.commit()
        return AlreadyMember(course, member)
    _lock_course(session, course)
    pending = next((i for i in course.invitations if i.user_id == invitee.id), None)
    if pending is None:
        count = session.scalar(select(func.count()).select_from(CourseInvitation)
                               .where(CourseInvitation.course_id == course.id)) or 0
        if count >= MAX_PENDING:
            raise TooManyInvitations(f"course {course.id} has {count} pending invitations, the most "
                                     "it may hold: withdraw some, or share the join link")
        pending = CourseInvitation(user_id=invitee.id, role=role.value, invited_by=user.id)
        course.invitations.append(pending)
    else:
        pending.role, pending.invited_by = role.value, user.id
    try:
        session.commit()
    except IntegrityError:
        # The same invitation made by a concurrent request: name them again over what it left
        # (that invitation, given this role; or, accepted meanwhile, a member).
        session.rollback()
        return invite(session, user, course_id, name, role)
    session.refresh(course)
    return Invited(course, pending)


def withdraw(session: Session, user: User, course_id: int, invitation_id: int) -> None:
    """Take back a pending invitation of the course (its instructors), and commit."""
    course = find_course(session, user, course_id, Action.MANAGE)
    found = next((i for i in course.invitations if i.id == invitation_id), None)
    if found is None:
        raise NotFound(f"no pending invitation {invitation_id} in course {course.id}")
    course.invitations.remove(found)
    session.commit()


def pending_for(session: Session, user: User) -> list[CourseInvitation]:
    """The invitations waiting for ``user``'s answer, newest first, at most ``MAX_LISTED``."""
    return list(session.scalars(
        select(CourseInvitation).where(CourseInvitation.user_id == user.id)
        .options(selectinload(CourseInvitation.course), selectinload(CourseInvitation.inviter))
        .order_by(CourseInvitation.id.desc()).limit(MAX_LISTED)))


def _own(session: Session, user: User, invitation_id: int) -> CourseInvitation:
    """The user's own invitation; someone else's is "not found", exactly like a missing one."""
    found = session.get(CourseInvitation, invitation_id) if 0 < invitation_id <= MAX_ID else None
    if found is None or found.user_id != user.id:
        raise NotFound(f"no invitation {invitation_id}")
    return found


def accept(session: Session, user: User, invitation_id: int) -> Course:
    """Accept one's invitation and commit: a member of the course with the offered role; the course.

    Someone who joined meanwhile by the join link keeps their place, and an invitation to teach
    makes them an instructor. Only instructors and admins (by their role now) may teach."""
    invitation = _own(session, user, invitation_id)
    course, role = invitation.course, CourseRole(invitation.role)
    if role is CourseRole.INSTRUCTOR and not _can_teach(user):
        raise InvalidInput("only instructors and admins can teach a course: this invitation to teach "
                           "cannot be accepted with your role (decline it, or ask an admin)")
    member = next((m for m in course.members if m.user_id == user.id), None)
    if member is None:
        course.members.append(CourseMember(user_id=user.id, role=role.value))
    elif role is CourseRole.INSTRUCTOR:
        member.role = role.value
    session.delete(invitation)
    try:
        session.commit()
    except IntegrityError:  # accepted twice at once, or joined by link at this moment: a member
        session.rollback()
        if session.get(CourseInvitation, invitation_id) is not None:
            return accept(session, user, invitation_id)  # joined by link: now a member, so no insert
    session.refresh(course)
    return course


def decline(session: Session, user: User, invitation_id: int) -> None:
    """Refuse one's invitation and commit: it is gone, and nothing of the course changes."""
    session.delete(_own(session, user, invitation_id))
    session.commit()
