"""LTI 1.3 under /lti (the JSON API's side; the protocol's own endpoints are
``api.routes.lti_protocol``): admins register platforms, by hand or dynamically, and read what to
paste into an LMS; an instructor's deep-linking request shows its choices; a course's
instructors see the grades sent to the LMS, send them again, and pull the roster.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request, Response
from sqlalchemy import select

from api.deps import Admin, CurrentUser, SessionDep
from api.routes.accounts import Responses
from api.schemas.bounds import Id
from api.schemas.lti import (
    CourseLtiOut,
    DeepLinkOption,
    DeepLinkOut,
    GradeSyncOut,
    PlatformIn,
    PlatformOut,
    RegistrationIn,
    RegistrationPreview,
    RosterOut,
    SendAgainIn,
    ToolOut,
)
from service import authoring
from service.access import Action, allowed
from service.assignments import find_assignment
from service.catalog import load_version
from service.courses import find_course
from service.db.models import LtiContext, LtiGradeSync, LtiPlatform
from service.lti import deep_linking, framing, grade_marks, grades, keys, platforms, registration, roster
from service.settings import get_settings
from service.track_progress import shipped_tracks

router = APIRouter(tags=["lti"])

TAKEN: Responses = {409: {"description": "a platform with this issuer and client id is registered already"}}
PLATFORM_FAILED: Responses = {502: {"description": (
    "the LMS could not be reached, or answered what the judge cannot use (platform_error: the "
    "message says which call and why)")}}


def tool_base(request: Request) -> str:
    """The judge's address as platforms reach it: JUDGE_PUBLIC_URL, else the request's own."""
    return (get_settings().public_url or str(request.base_url)).rstrip("/")


def _platform_out(platform: LtiPlatform) -> PlatformOut:
    return PlatformOut(id=platform.id, name=platform.name, issuer=platform.issuer,
                       client_id=platform.client_id,
                       deployment_ids=list(platform.deployment_ids), auth_login_url=platform.auth_login_url,
                       token_url=platform.token_url, jwks_url=platform.jwks_url,
                       token_audience=platform.token_audience, keys_fetched_at=platform.jwks_fetched_at,
                       created_at=platform.created_at)


def _fields(body: PlatformIn) -> platforms.PlatformFields:
    return platforms.PlatformFields(**body.model_dump())


@router.get("/lti/tool", response_model=ToolOut)
def tool(request: Request, session: SessionDep, _: Admin) -> ToolOut:
    """The judge's URLs and key, to register it in an LMS by hand."""
    base = tool_base(request)
    return ToolOut(login_url=f"{base}/lti/login", launch_url=f"{base}/lti/launch",
                   jwks_url=f"{base}/lti/jwks",
                   registration_url=f"{base}/lti/register", domain=base.split("://", 1)[-1],
                   signing_key=keys.public_key_set(session)["keys"][0]["kid"])


@router.get("/lti/platforms", response_model=list[PlatformOut])
def list_platforms(session: SessionDep, _: Admin) -> list[PlatformOut]:
    """Every registered platform."""
    return [_platform_out(p) for p in platforms.listing(session)]


@router.post("/lti/platforms", status_code=201, response_model=PlatformOut, responses=TAKEN)
def add_platform(body: PlatformIn, session: SessionDep, admin: Admin) -> PlatformOut:
    """Register a platform by hand (the values its LTI 1.3 tool settings show)."""
    platform = platforms.register(session, admin, _fields(body))
    framing.forget()
    return _platform_out(platform)


@router.put("/lti/platforms/{platform_id}", response_model=PlatformOut, responses=TAKEN)
def change_platform(platform_id: Annotated[int, Path(ge=1, le=2**31 - 1)], body: PlatformIn,
                    session: SessionDep, _: Admin) -> PlatformOut:
    """Change a platform's registration (a new deployment id, a moved endpoint)."""
    platform = platforms.update(session, platform_id, _fields(body))
    framing.forget()
    return _platform_out(platform)


@router.delete("/lti/platforms/{platform_id}", status_code=204)
def remove_platform(platform_id: Annotated[int, Path(ge=1, le=2**31 - 1)], session: SessionDep,
                    _: Admin) -> Response:
    """Remove a platform: its launches stop; the users and courses it made stay."""
    platforms.remove(session, platform_id)
    framing.forget()
    return Response(status_code=204)


@router.post("/lti/registrations", response_model=RegistrationPreview | PlatformOut,
             responses={**TAKEN, **PLATFORM_FAILED})
def dynamic_registration(body: RegistrationIn, request: Request, session: SessionDep,
                         admin: Admin) -> RegistrationPreview | PlatformOut:
    """LTI Dynamic Registration: without a registration token, what the platform's configuration
    says (to confirm); with it, register the judge with the platform and keep the platform."""
    if body.registration_token is None:
        config = registration.preview(body.openid_configuration)
        return RegistrationPreview(issuer=config.issuer, name=config.name,
                                   authorization_endpoint=config.authorization_endpoint,
                                   token_endpoint=config.token_endpoint, jwks_uri=config.jwks_uri,
                                   registration_endpoint=config.registration_endpoint,
                                   messages=config.messages)
    platform = registration.register(session, admin, body.openid_configuration, body.registration_token,
                                     tool_base(request))
    framing.forget()
    return _platform_out(platform)


@router.get("/lti/deep-links/{token}", response_model=DeepLinkOut)
def deep_link(token: Annotated[str, Path(max_length=200)], session: SessionDep,
              user: CurrentUser) -> DeepLinkOut:
    """A deep-linking request of yours, waiting: its course and what you may place in it."""
    request = deep_linking.pending(session, user, token)
    course = find_course(session, user, request.context.course_id, Action.MANAGE)
    problems = [DeepLinkOption(key=row.slug, title=load_version(row.published_version).title)
                for row in authoring.all_problems(session)
                if row.published_version is not None and allowed(user, Action.READ, row)]
    return DeepLinkOut(
        course_id=course.id, course_title=course.title, platform=request.context.platform.name,
        accept_multiple=request.accept_multiple, problems=problems,
        assignments=[DeepLinkOption(key=str(a.id), title=a.title) for a in course.assignments],
        tracks=[DeepLinkOption(key=t.slug, title=t.title) for t in shipped_tracks()])


def _sync_out(row: LtiGradeSync) -> GradeSyncOut:
    link = row.link
    target = (f"assignment:{link.assignment_id}" if link.assignment_id is not None
              else f"problem:{link.problem_id}")
    return GradeSyncOut(id=row.id, user=row.user.name, user_id=row.user_id,
                        link=link.title or link.resource_link_id,
                        target=target, state=row.state, score_given=row.score_given,
                        score_maximum=row.score_maximum, sent_at=row.sent_at, attempts=row.attempts,
                        error=row.error)


@router.get("/assignments/{assignment_id}/lti-grades", response_model=list[GradeSyncOut])
def lti_grades(assignment_id: Id, session: SessionDep, user: CurrentUser) -> list[GradeSyncOut]:
    """Each learner's grade as last sent to the LMS, on the links to this assignment and to its
    problems: when, what, and any error (the course's instructors)."""
    find_assignment(session, user, assignment_id, Action.MANAGE)
    return [_sync_out(row) for row in grades.syncs_of_assignment(session, assignment_id)]


@router.post("/assignments/{assignment_id}/lti-grades/send-again", response_model=list[GradeSyncOut])
def send_again(assignment_id: Id, body: SendAgainIn, session: SessionDep,
               user: CurrentUser) -> list[GradeSyncOut]:
    """Send grades to the LMS again: the rows named, or every row not sent."""
    find_assignment(session, user, assignment_id, Action.MANAGE)
    rows = grades.syncs_of_assignment(session, assignment_id)
    mine = {row.id for row in rows}
    wanted = [i for i in body.ids if i in mine] if body.ids is not None else [
        row.id for row in rows if row.state != grade_marks.SyncState.SENT]
    grade_marks.enqueue(grades.send_again(session, wanted))
    return [_sync_out(row) for row in grades.syncs_of_assignment(session, assignment_id)]


@router.get("/courses/{course_id}/lti", response_model=CourseLtiOut)
def course_lti(course_id: Id, session: SessionDep, user: CurrentUser) -> CourseLtiOut:
    """Whether the course came from an LMS, and its roster service."""
    find_course(session, user, course_id, Action.MANAGE)
    context = session.scalar(select(LtiContext).where(LtiContext.course_id == course_id))
    if context is None:
        return CourseLtiOut(linked=False, roster_service=False)
    return CourseLtiOut(linked=True, platform=context.platform.name,
                        roster_service=context.memberships_url is not None,
                        roster_pulled_at=context.roster_pulled_at)


@router.post("/courses/{course_id}/lti-roster", response_model=RosterOut, responses={
    409: {"description": "the course was not made by an LMS launch, or its LMS offers no roster service"},
    **PLATFORM_FAILED})
def pull_roster(course_id: Id, session: SessionDep, user: CurrentUser) -> RosterOut:
    """Pull the course's roster from the LMS (Names and Role Provisioning): its active members
    join the course with the LMS's roles."""
    pulled = roster.pull(session, user, course_id)
    return RosterOut(members=pulled.members, added=pulled.added, pages=pulled.pages)
