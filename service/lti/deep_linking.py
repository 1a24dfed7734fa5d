"""Deep Linking 2.0: an instructor launching with an LtiDeepLinkingRequest picks, on a page of
the judge, problems, an assignment of the course or a track; the judge answers the platform with
a signed LtiDeepLinkingResponse holding one resource link for each, problems and assignments
with a line item (its score maximum: 1 a problem, the number of problems an assignment).

The request waits server-side (``LtiDeepLink``), for the instructor who launched it only, for an
hour, and is answered once.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from judge.errors import InvalidInput
from service.catalog import load_version
from service.db.models import Assignment, LtiDeepLink, LtiPlatform, ProblemRow, User, utcnow
from service.errors import LaunchRefused, NotFound
from service.lti import claims as c
from service.lti import keys, remote
from service.track_progress import shipped_tracks

LIFETIME = timedelta(hours=1)
MAX_PROBLEMS = 50
MAX_DATA = 2000


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def start(session: Session, user: User, context: Any, claims: dict[str, Any]) -> str:
    """Keep the request for the picker; the token of its page."""
    settings = claims.get(c.DEEP_LINKING_SETTINGS)
    if not isinstance(settings, dict):
        raise LaunchRefused("deep linking: the launch has no deep_linking_settings")
    try:
        return_url = remote.checked_url(settings.get("deep_link_return_url"), "deep_link_return_url")
    except ValueError as exc:
        raise LaunchRefused(f"deep linking: {exc}") from exc
    accepted = settings.get("accept_types")
    if not isinstance(accepted, list) or "ltiResourceLink" not in accepted:
        raise LaunchRefused("deep linking: the platform does not accept resource links (ltiResourceLink), "
                            "the only kind of item the judge offers")
    data = settings.get("data")
    if data is not None and (not isinstance(data, str) or len(data) > MAX_DATA):
        raise LaunchRefused(f"deep linking: its data is not a string of at most {MAX_DATA} characters")
    now = utcnow()
    session.execute(delete(LtiDeepLink).where(LtiDeepLink.expires_at <= now))
    token = secrets.token_urlsafe(32)
    session.add(LtiDeepLink(token_hash=_digest(token), user_id=user.id, context_id=context.id,
                            return_url=return_url, data=data,
                            accept_multiple=settings.get("accept_multiple", True) is not False,
                            expires_at=now + LIFETIME))
    session.flush()
    return token


def pending(session: Session, user: User, token: str) -> LtiDeepLink:
    """The waiting request of this token, if it is ``user``'s and has not expired."""
    row = session.scalar(select(LtiDeepLink).where(LtiDeepLink.token_hash == _digest(token[:200])))
    if row is None or row.user_id != user.id or row.expires_at <= utcnow():
        raise NotFound("no deep-linking request waits here: it was answered, it expired (after an hour), "
                       "or it is another user's; start again from the LMS")
    return row


@dataclass(frozen=True)
class Picks:
    problems: list[str]
    assignment: int | None = None
    track: str | None = None


def _problem_item(session: Session, slug: str, launch_url: str) -> dict[str, Any]:
    row = session.scalar(select(ProblemRow).where(ProblemRow.slug == slug[:64]))
    if row is None or row.published_version is None:
        raise InvalidInput(f"problems: {slug[:64]!r} is not a published problem", param="problems")
    title = load_version(row.published_version).title
    return {"type": "ltiResourceLink", "title": title, "url": launch_url, "custom": {"problem": slug},
            "lineItem": {"scoreMaximum": 1, "label": title, "resourceId": f"problem:{slug}"}}


def items(session: Session, request: LtiDeepLink, picks: Picks, launch_url: str) -> list[dict[str, Any]]:
    """The content items of the answer, each checked."""
    if len(picks.problems) > MAX_PROBLEMS or len(set(picks.problems)) != len(picks.problems):
        raise InvalidInput(f"problems: at most {MAX_PROBLEMS}, each once", param="problems")
    chosen = [_problem_item(session, slug, launch_url) for slug in picks.problems]
    if picks.assignment is not None:
        assignment = session.get(Assignment, picks.assignment)
        if assignment is None or assignment.course_id != request.context.course_id:
            raise InvalidInput(f"assignment: {picks.assignment} is not an assignment of this course",
                               param="assignment")
        chosen.append({"type": "ltiResourceLink", "title": assignment.title, "url": launch_url,
                       "custom": {"assignment": str(assignment.id)},
                       "lineItem": {"scoreMaximum": max(1, len(assignment.problems)),
                                    "label": assignment.title,
                                    "resourceId": f"assignment:{assignment.id}"}})
    if picks.track is not None:
        track = next((t for t in shipped_tracks() if t.slug == picks.track), None)
        if track is None:
            raise InvalidInput(f"track: no track {picks.track[:64]!r}", param="track")
        chosen.append({"type": "ltiResourceLink", "title": track.title, "url": launch_url,
                       "custom": {"track": track.slug}})
    if not chosen:
        raise InvalidInput("pick at least one problem, an assignment or a track", param="problems")
    if len(chosen) > 1 and not request.accept_multiple:
        raise InvalidInput("the LMS takes one item from this request: pick one", param="problems")
    return chosen


def answer(session: Session, user: User, token: str, picks: Picks, launch_url: str) -> tuple[str, str]:
    """The signed LtiDeepLinkingResponse for the picks, and where to post it; the request is
    answered (deleted), committed."""
    request = pending(session, user, token)
    chosen = items(session, request, picks, launch_url)
    platform = session.get(LtiPlatform, request.context.platform_id)
    assert platform is not None  # the context's foreign key cascades
    now = int(time.time())
    claims: dict[str, Any] = {
        "iss": platform.client_id, "aud": platform.issuer, "azp": platform.client_id, "iat": now,
        "exp": now + 300, "nonce": secrets.token_urlsafe(16),
        c.DEPLOYMENT_ID: request.context.deployment_id, c.MESSAGE_TYPE: c.DEEP_LINKING_RESPONSE,
        c.VERSION: c.LTI_VERSION, c.CONTENT_ITEMS: chosen,
        c.DL_MESSAGE: f"Added {len(chosen)} item{'s' if len(chosen) != 1 else ''} from the judge"}
    if request.data is not None:
        claims[c.DL_DATA] = request.data
    signed = keys.sign(session, claims)
    return_url = request.return_url
    session.delete(request)
    session.commit()
    return return_url, signed
