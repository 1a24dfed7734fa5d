"""Accounts under /auth: signing in and out with a password (a session cookie for the pages),
registering through a course's join link, and the session the pages read on load.

One's own password and API tokens are under /me (``api.routes.me``), the admin's user list under
/users (``api.routes.users``); both use the responses and helpers defined here."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from sqlalchemy.orm import Session

from api import password_work
from api.deps import CurrentCaller, SessionDep
from api.presenters import me_out
from api.schemas.accounts import Register, SessionOut, SignIn
from service import accounts, users, web_sessions
from service.db.models import User
from service.errors import Unauthorized
from service.settings import get_settings

router = APIRouter(prefix="/auth", tags=["accounts"])

Responses = dict[int | str, dict[str, Any]]
UNAUTHORIZED: Responses = {401: {"description": "no valid token or session"}}
ADMIN_ONLY: Responses = {**UNAUTHORIZED, 403: {"description": "not an admin"}}


def client_address(request: Request) -> str:
    """The TCP peer: what the rate limit counts per address (see service.sign_in_limits)."""
    return request.client.host if request.client else "unknown"


def _cookie_options(request: Request) -> dict[str, object]:
    # SameSite=Strict: a request started by another site never carries the cookie, which is the
    # first wall against cross-site requests; the CSRF header is the second.
    # Secure when the request came over https (directly, or from a trusted proxy that said so),
    # or when the operator says the judge is reached over https at all.
    secure = request.url.scheme == "https" or get_settings().public_url.lower().startswith("https://")
    return {"path": "/", "httponly": True, "samesite": "strict", "secure": secure}


def _signed_in(session: SessionDep, request: Request, response: Response, user: User) -> SessionOut:
    """Start a browser session for ``user``, commit, set the cookie; the answer of sign-in."""
    secret, row = web_sessions.start_session(session, user)
    session.commit()
    response.set_cookie(web_sessions.COOKIE, secret, max_age=int(web_sessions.lifetime().total_seconds()),
                        **_cookie_options(request))  # type: ignore[arg-type]
    return SessionOut(user=me_out(session, user), csrf_token=row.csrf_token)


# The routes that hash a password are async and run their work on api.password_work's threads,
# never on the pool the other routes share; a full hashing pool answers 429 busy at once.
BUSY: Responses = {429: {"description": "the password hashing pool is full (busy, Retry-After: 1)"}}


@router.post("/sign-in", response_model=SessionOut, responses={
    401: {"description": "the name or the password is wrong (one answer for both)"},
    429: {"description": "too many failed sign-ins for this name or address (too_many_attempts), "
                         "or the password hashing pool is full (busy); with Retry-After"}})
async def sign_in(body: SignIn, request: Request, response: Response) -> SessionOut:
    """Sign in with a user name and password: sets the session cookie and returns the CSRF token."""
    return await password_work.run(_sign_in, body, request, response)


def _sign_in(session: Session, body: SignIn, request: Request, response: Response) -> SessionOut:
    user = accounts.authenticate(session, body.name, body.password, client_address(request))
    return _signed_in(session, request, response, user)


@router.post("/register", response_model=SessionOut, status_code=201, responses={
    404: {"description": "no course has this join code"}, 409: {"description": "the name is taken"},
    **BUSY})
async def register(body: Register, request: Request, response: Response) -> SessionOut:
    """Create a learner account through a course's join link, join that course and sign in."""
    return await password_work.run(_register, body, request, response)


def _register(session: Session, body: Register, request: Request, response: Response) -> SessionOut:
    user = users.register(session, body.name, body.password, body.join_code)
    return _signed_in(session, request, response, user)


@router.post("/sign-out", status_code=204, responses={403: {"description": "no CSRF token"}})
def sign_out(session: SessionDep, request: Request) -> Response:
    """End this browser's session and clear its cookie (nothing to do without one)."""
    secret = request.cookies.get(web_sessions.COOKIE)
    if secret:
        row = web_sessions.find_session(session, secret)
        if row is not None:
            web_sessions.require_csrf(row, request.headers.get(web_sessions.CSRF_HEADER))
            web_sessions.end_session(session, secret)
            session.commit()
    response = Response(status_code=204)
    response.delete_cookie(web_sessions.COOKIE, **_cookie_options(request))  # type: ignore[arg-type]
    return response


@router.get("/session", response_model=SessionOut, responses=UNAUTHORIZED)
def read_session(session: SessionDep, caller: CurrentCaller) -> SessionOut:
    """The signed-in user and the session's CSRF token (the pages ask on load); 401 without a session."""
    if caller.web_session_id is None or caller.csrf_token is None:
        raise Unauthorized("not signed in with a session (an API token has no session)")
    return SessionOut(user=me_out(session, caller.user), csrf_token=caller.csrf_token)
