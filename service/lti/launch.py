"""The launch: third-party-initiated login (``begin``), then the platform's ``id_token`` posted
back (``finish``).

The login stores its state (as a SHA-256) and nonce server-side for JUDGE_LTI_LOGIN_SECONDS and
puts the state in a cookie of this browser. The launch must bring both back: the state is used
once (deleted before anything else is checked, so a replayed launch finds nothing) and must
match the cookie, so a launch made in another browser never signs this one in. A browser that
kept no cookie in the LMS's frame gets the offer of a new window (``NewWindow``), where the
login starts again with the platform.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from service.db.models import LtiLaunchState, LtiPlatform, User, utcnow
from service.errors import LaunchRefused, QuotaExceeded
from service.lti import claims as c
from service.lti import deep_linking, id_tokens, platforms, provisioning
from service.settings import get_settings

STATE_COOKIE = "lti_state"
LOGIN_FIELDS = ("iss", "login_hint", "target_link_uri", "lti_message_hint", "client_id", "lti_deployment_id")
MAX_FIELD = 2000
MAX_LIVE_LOGINS = 20_000  # logins in progress at once: each is a row until it ends or expires


def _digest(state: str) -> str:
    return hashlib.sha256(state.encode()).hexdigest()


@dataclass(frozen=True)
class LoginStart:
    redirect_url: str  # the platform's authorization endpoint, with the request
    state: str  # for the cookie


def login_fields(given: dict[str, str]) -> dict[str, str]:
    """The login's parameters, each checked for presence and size."""
    fields = {k: given[k] for k in LOGIN_FIELDS if isinstance(given.get(k), str) and given[k]}
    for name in ("iss", "login_hint", "target_link_uri"):
        if name not in fields:
            raise LaunchRefused(f"login: the platform sent no {name}")
    for name, value in fields.items():
        if len(value) > MAX_FIELD:
            raise LaunchRefused(f"login: {name} is longer than {MAX_FIELD} characters")
    return fields


def begin(session: Session, given: dict[str, str], redirect_uri: str) -> LoginStart:
    """Start a login: the authentication request to send the browser to."""
    fields = login_fields(given)
    platform = platforms.by_issuer(session, fields["iss"], fields.get("client_id"))
    if platform is None:
        raise LaunchRefused(f"login: no platform is registered with issuer {fields['iss']!r}"
                            + (f" and client id {fields['client_id']!r}" if "client_id" in fields else ""))
    deployment = fields.get("lti_deployment_id")
    if deployment is not None and deployment not in platform.deployment_ids:
        raise LaunchRefused(f"login: deployment {deployment!r} is not registered for platform "
                            f"{platform.name!r}")
    now = utcnow()
    session.execute(delete(LtiLaunchState).where(LtiLaunchState.expires_at <= now))
    live = session.scalar(select(func.count()).select_from(LtiLaunchState)) or 0
    if live >= MAX_LIVE_LOGINS:
        session.commit()
        raise QuotaExceeded("too many LTI logins are in progress; try again in a minute", retry_after=60)
    state, nonce = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    session.add(LtiLaunchState(state_hash=_digest(state), nonce=nonce, platform_id=platform.id, login=fields,
                               expires_at=now + timedelta(seconds=get_settings().lti_login_seconds)))
    session.commit()
    request = {"scope": "openid", "response_type": "id_token", "response_mode": "form_post",
               "prompt": "none", "client_id": platform.client_id, "redirect_uri": redirect_uri,
               "login_hint": fields["login_hint"], "state": state, "nonce": nonce}
    if "lti_message_hint" in fields:
        request["lti_message_hint"] = fields["lti_message_hint"]
    separator = "&" if "?" in platform.auth_login_url else "?"
    return LoginStart(f"{platform.auth_login_url}{separator}{urlencode(request)}", state)


@dataclass(frozen=True)
class Launched:
    user: User
    landing: str  # the page to open
    grade_rows: list[int]  # grade rows made pending: the sender's, once committed


@dataclass(frozen=True)
class NewWindow:
    """The browser brought no state cookie: the login to start again in a window of its own."""

    login_url: str


@dataclass(frozen=True)
class TakenState:
    nonce: str
    platform_id: int
    login: dict[str, Any]


def _take_state(session: Session, state: str) -> TakenState:
    if not isinstance(state, str) or not 1 <= len(state) <= 200:
        raise LaunchRefused("launch: no state was posted")
    # Taken in one statement: of two launches posting one state at once, one gets it.
    row = session.execute(delete(LtiLaunchState).where(LtiLaunchState.state_hash == _digest(state))
                          .returning(LtiLaunchState.nonce, LtiLaunchState.platform_id, LtiLaunchState.login,
                                     LtiLaunchState.expires_at)).first()
    session.commit()  # used once, whatever the checks below find
    if row is None or row.expires_at <= utcnow():
        raise LaunchRefused("launch: its state is unknown, used already or expired; open the link in "
                            "the LMS again")
    return TakenState(row.nonce, row.platform_id, row.login)


def finish(session: Session, id_token: str, state: str, cookie_state: str | None,
           login_path: str) -> Launched | NewWindow:
    """Check the launch in full and sign its user in: what to open, or the new window to offer."""
    row = _take_state(session, state)
    if cookie_state is None:
        return NewWindow(f"{login_path}?{urlencode(row.login)}")
    if not secrets.compare_digest(cookie_state.encode(), state.encode()):
        raise LaunchRefused("launch: its state does not match the one this browser's login set")
    platform = session.get(LtiPlatform, row.platform_id)
    if platform is None:
        raise LaunchRefused("launch: its platform has been removed")
    claims = id_tokens.verify(session, platform, id_token, row.nonce)
    return _provision(session, platform, claims)


def _provision(session: Session, platform: LtiPlatform, claims: dict[str, Any]) -> Launched:
    teaches = c.teaches(claims.get(c.ROLES))
    if teaches is None:
        raise LaunchRefused("your role in this course is neither an instructor's nor a learner's: the "
                            "judge has no place for it")
    deployment = str(claims[c.DEPLOYMENT_ID])
    context = provisioning.context_for(session, platform, deployment, claims)
    user = provisioning.user_for(session, platform, str(claims["sub"]), claims, teaches)
    provisioning.place(session, context, user, teaches)
    if claims[c.MESSAGE_TYPE] == c.DEEP_LINKING_REQUEST:
        if not teaches:
            raise LaunchRefused("only the course's instructors may add content from the judge")
        token = deep_linking.start(session, user, context, claims)
        session.commit()
        return Launched(user, f"/lti/deep-link/{token}", [])
    link = provisioning.link_for(session, context, claims)
    rows = [] if teaches else provisioning.follow_grades(session, link, [user.id])
    landing = provisioning.landing(session, link, context)
    session.commit()
    return Launched(user, landing, rows)
