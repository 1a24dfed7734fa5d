"""Names and Role Provisioning Services: an instructor pulls their course's roster from the
platform, page after page (``Link: <...>; rel="next"``), so that its learners are in the gradebook
before their first launch. At most JUDGE_LTI_MAX_ROSTER members, and MAX_PAGES pages, are read.
Active members are made judge users (by issuer and ``sub``) and members of the course with the
platform's role; inactive or deleted ones are left as they are."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.access import Action
from service.courses import find_course
from service.db.models import LtiContext, LtiLink, LtiPlatform, User, utcnow
from service.errors import Conflict, PlatformError
from service.lti import claims as c
from service.lti import grade_marks, provisioning, remote, tokens
from service.settings import get_settings

MEMBERSHIPS = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
MAX_PAGES = 1000  # a platform that answers empty pages, each naming a next one, stops here
_NEXT = re.compile(r'<([^>]+)>\s*;\s*rel="?next"?')


@dataclass(frozen=True)
class Pulled:
    members: int  # active members read
    added: int  # of them, new to the course
    pages: int


def context_of(session: Session, course_id: int) -> LtiContext:
    context = session.scalar(select(LtiContext).where(LtiContext.course_id == course_id))
    if context is None:
        raise Conflict(f"course {course_id} was not made by an LMS launch: it has no roster to pull")
    return context


def _next(link_header: str | None) -> str | None:
    match = _NEXT.search(link_header or "")
    return match.group(1) if match else None


def pull(session: Session, user: User, course_id: int) -> Pulled:
    """Read the roster and place its active members in the course; committed."""
    find_course(session, user, course_id, Action.MANAGE)
    context = context_of(session, course_id)
    if context.memberships_url is None:
        raise Conflict("the LMS offered no roster service (Names and Role Provisioning) at this course's "
                       "launches: turn it on for the tool in the LMS, launch once, and pull again")
    platform = session.get(LtiPlatform, context.platform_id)
    assert platform is not None
    before = {m.user_id for m in provisioning.members_of(session, context)}
    most = get_settings().lti_max_roster
    url: str | None = context.memberships_url
    seen, pages, learners = 0, 0, []
    what = f"the roster of course {course_id} from platform {platform.name!r}"
    while url is not None and seen < most and pages < MAX_PAGES:
        token = tokens.access_token(session, platform, (c.SCOPE_NRPS,))
        answer = remote.call("GET", url, what,
                             headers={"Authorization": f"Bearer {token}", "Accept": MEMBERSHIPS})
        document = remote.json_of(answer, what)
        members = document.get("members") if isinstance(document, dict) else None
        if not isinstance(members, list):
            raise PlatformError(f"{what}: the answer holds no members list")
        pages += 1
        for member in members[: most - seen]:
            if not isinstance(member, dict) or member.get("status", "Active") != "Active":
                continue
            sub = member.get("user_id")
            teaches = c.teaches(member.get("roles"))
            if not isinstance(sub, str) or not 1 <= len(sub) <= 255 or teaches is None:
                continue
            seen += 1
            person = provisioning.user_for(session, platform, sub, member, teaches)
            provisioning.place(session, context, person, teaches)
            if not teaches:
                learners.append(person.id)
        url = _next(answer.headers.get("Link"))  # remote.call checks it before following
    rows = []
    for link in session.scalars(select(LtiLink).where(LtiLink.context_id == context.id)):
        rows += provisioning.follow_grades(session, link, learners)
    context.roster_pulled_at = utcnow()
    session.commit()
    grade_marks.enqueue(rows)
    after = {m.user_id for m in provisioning.members_of(session, context)}
    return Pulled(members=seen, added=len(after - before), pages=pages)
