"""What a launch makes of its claims: the platform's user as a judge user (by issuer and ``sub``,
never by name or e-mail), its context as a course, its roles as a membership of that course only,
and its resource link as a link to a problem, an assignment or a track.

A platform's instructor becomes an instructor of the judge (they author, and read what their
course's learners hand in) and of that course; never an admin, whatever the platform calls them.
A course's membership follows the platform's word at every launch: the platform's enrolment is
the learner's place in the course, as the join link is elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from service.courses_join import new_join_code
from service.db.models import (
    Assignment,
    Course,
    CourseMember,
    CourseRole,
    LtiContext,
    LtiGradeSync,
    LtiLink,
    LtiPlatform,
    LtiUser,
    ProblemRow,
    Role,
    User,
)
from service.errors import Conflict, LaunchRefused
from service.lti import claims as c
from service.track_progress import shipped_tracks

NAME_CHARS = 60
_SPACES = re.compile(r"\s+")


def _shown_name(claims: dict[str, Any]) -> str:
    """A name to show for the platform's user: its name, or given and family names, or its
    preferred user name; printable characters only, one space between words."""
    parts = [claims.get("name"), " ".join(str(claims.get(k) or "") for k in ("given_name", "family_name")),
             claims.get("preferred_username")]
    for part in parts:
        if isinstance(part, str):
            text = _SPACES.sub(" ", "".join(ch for ch in part if ch.isprintable())).strip()[:NAME_CHARS]
            if text:
                return text
    return "LMS user"


def _free_name(session: Session, wanted: str) -> str:
    taken = set(session.scalars(select(User.name).where(User.name.like(f"{wanted}%"))))
    if wanted not in taken:
        return wanted
    number = 2
    while f"{wanted} ({number})" in taken:
        number += 1
    return f"{wanted} ({number})"


T = TypeVar("T")
TRIES = 3


def _found_or_made(session: Session, find: Callable[[], T | None], make: Callable[[], T]) -> T:
    """What ``find`` finds, else what ``make`` adds, in a savepoint: two first launches at the
    same moment (a learner's two tabs, a class at nine o'clock) both end with the one row, the
    second finding what the first made; a name taken meanwhile is chosen again."""
    for _ in range(TRIES):
        found = find()
        if found is not None:
            return found
        try:
            with session.begin_nested():
                made = make()
                session.flush()
            return made
        except IntegrityError:
            continue
    raise Conflict("the LMS's launch met another one making the same records: open the link again")


def user_for(session: Session, platform: LtiPlatform, sub: str, claims: dict[str, Any],
             teaches: bool) -> User:
    """The judge user of the platform's ``sub``, made at their first launch (or roster pull)."""
    def find() -> User | None:
        link = session.scalar(select(LtiUser).where(LtiUser.issuer == platform.issuer, LtiUser.sub == sub))
        return None if link is None else session.get(User, link.user_id)

    def make() -> User:
        made = User(name=_free_name(session, _shown_name(claims)), role=Role.LEARNER.value)
        session.add(made)
        session.flush()
        session.add(LtiUser(issuer=platform.issuer, sub=sub, user_id=made.id))
        return made

    user = _found_or_made(session, find, make)
    email = claims.get("email")
    if user.email is None and isinstance(email, str) and "@" in email and len(email) <= 254:
        user.email = email
    if teaches and user.role == Role.LEARNER:
        user.role = Role.INSTRUCTOR.value
    session.flush()
    return user


def context_for(session: Session, platform: LtiPlatform, deployment_id: str,
                claims: dict[str, Any]) -> LtiContext:
    """The course of the launch's context, made at its first launch."""
    context = claims.get(c.CONTEXT)
    if not isinstance(context, dict) or not isinstance(context.get("id"), str) or not context["id"]:
        raise LaunchRefused("the launch names no course (context): place the judge in a course of the LMS")
    context_id = context["id"][:255]
    named = [t for t in (context.get("title"), context.get("label")) if isinstance(t, str) and t.strip()]
    title = named[0] if named else f"Course {context_id} of {platform.name}"
    title = _SPACES.sub(" ", "".join(ch for ch in title if ch.isprintable())).strip()[:200]

    def find() -> LtiContext | None:
        return session.scalar(select(LtiContext).where(
            LtiContext.platform_id == platform.id, LtiContext.deployment_id == deployment_id,
            LtiContext.context_id == context_id))

    def make() -> LtiContext:
        course = Course(title=title, join_code=new_join_code())
        session.add(course)
        session.flush()
        made = LtiContext(platform_id=platform.id, deployment_id=deployment_id, context_id=context_id,
                          course_id=course.id)
        session.add(made)
        return made

    row = _found_or_made(session, find, make)
    known = session.get(Course, row.course_id)
    if known is not None:
        known.title = title
    nrps = claims.get(c.NRPS)
    if isinstance(nrps, dict) and isinstance(nrps.get("context_memberships_url"), str):
        row.memberships_url = nrps["context_memberships_url"][:1000]
    session.flush()
    return row


def place(session: Session, context: LtiContext, user: User, teaches: bool) -> CourseMember:
    """``user``'s membership of the context's course, with the role the platform gives them."""
    role = (CourseRole.INSTRUCTOR if teaches else CourseRole.LEARNER).value

    def make() -> CourseMember:
        made = CourseMember(course_id=context.course_id, user_id=user.id, role=role)
        session.add(made)
        return made

    member = _found_or_made(session, lambda: session.scalar(select(CourseMember).where(
        CourseMember.course_id == context.course_id, CourseMember.user_id == user.id)), make)
    member.role = role
    session.flush()
    return member


def _custom(claims: dict[str, Any]) -> dict[str, str]:
    custom = claims.get(c.CUSTOM)
    if not isinstance(custom, dict):
        return {}
    return {str(k): v for k, v in custom.items() if isinstance(v, str)}


def _target(session: Session, context: LtiContext, custom: dict[str, str], link: LtiLink) -> None:
    """Point ``link`` at what its custom parameters name: ``problem`` (a published problem's
    slug), ``assignment`` (an assignment of this very course) or ``track`` (a track's slug)."""
    if "problem" in custom:
        row = session.scalar(select(ProblemRow).where(ProblemRow.slug == custom["problem"][:64]))
        if row is None or row.published_version_id is None:
            raise LaunchRefused(f"this link opens problem {custom['problem'][:64]!r}, which is not "
                                "published on the judge")
        link.problem_id, link.assignment_id, link.track = row.id, None, None
    elif "assignment" in custom:
        wanted = custom["assignment"]
        assignment = session.get(Assignment, int(wanted)) if wanted.isdigit() and len(wanted) < 10 else None
        if assignment is None or assignment.course_id != context.course_id:
            raise LaunchRefused(f"this link opens assignment {wanted[:20]!r}, which is not an assignment "
                                "of this course on the judge")
        link.problem_id, link.assignment_id, link.track = None, assignment.id, None
    elif "track" in custom:
        if custom["track"] not in {t.slug for t in shipped_tracks()}:
            raise LaunchRefused(f"this link opens track {custom['track'][:64]!r}, which the judge does "
                                "not have")
        link.problem_id, link.assignment_id, link.track = None, None, custom["track"]


def link_for(session: Session, context: LtiContext, claims: dict[str, Any]) -> LtiLink:
    """The resource link launched, its target and line item as the launch tells them."""
    resource = claims.get(c.RESOURCE_LINK)
    if not isinstance(resource, dict) or not isinstance(resource.get("id"), str) or not resource["id"]:
        raise LaunchRefused("the launch names no resource link (resource_link.id)")
    resource_id = resource["id"][:255]

    def make() -> LtiLink:
        made = LtiLink(context_id=context.id, resource_link_id=resource_id)
        session.add(made)
        return made

    link = _found_or_made(session, lambda: session.scalar(select(LtiLink).where(
        LtiLink.context_id == context.id, LtiLink.resource_link_id == resource_id)), make)
    if isinstance(resource.get("title"), str):
        link.title = resource["title"][:200]
    _target(session, context, _custom(claims), link)
    endpoint = claims.get(c.AGS_ENDPOINT)
    if isinstance(endpoint, dict) and isinstance(endpoint.get("lineitem"), str):
        link.lineitem_url = endpoint["lineitem"][:1000]
    session.flush()
    return link


def follow_grades(session: Session, link: LtiLink, user_ids: list[int]) -> list[int]:
    """Rows that send these learners' grades on ``link`` to its line item (made where missing,
    pending so that work done before is sent too); their ids, for the sender."""
    if link.lineitem_url is None or (link.problem_id is None and link.assignment_id is None):
        return []
    have = {row.user_id: row for row in session.scalars(
        select(LtiGradeSync).where(LtiGradeSync.link_id == link.id, LtiGradeSync.user_id.in_(user_ids)))}
    made = []
    for user_id in user_ids:
        row = have.get(user_id)
        if row is not None:
            row.problem_id, row.assignment_id = link.problem_id, link.assignment_id
            continue
        row = LtiGradeSync(link_id=link.id, user_id=user_id, problem_id=link.problem_id,
                           assignment_id=link.assignment_id)
        try:
            with session.begin_nested():  # another launch of the learner may make it at the same moment
                session.add(row)
        except IntegrityError:
            continue
        made.append(row.id)
    session.flush()
    return made


def landing(session: Session, link: LtiLink | None, context: LtiContext) -> str:
    """The page a launch opens."""
    problem = session.get(ProblemRow, link.problem_id) if link is not None and link.problem_id else None
    if problem is not None:
        return f"/problems/{problem.slug}"
    if link is not None and link.assignment_id is not None:
        return f"/assignments/{link.assignment_id}"
    if link is not None and link.track is not None:
        return f"/?track={link.track}"
    return f"/courses/{context.course_id}"


def members_of(session: Session, context: LtiContext) -> list[CourseMember]:
    return list(session.scalars(select(CourseMember).where(CourseMember.course_id == context.course_id)))
