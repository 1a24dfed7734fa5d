"""Dependencies shared by the routes: a database session and the authenticated caller.

A caller shows who they are with ``Authorization: Bearer <token>`` (REST clients) or with the
``judge_session`` cookie (the pages, after signing in). A request made with the cookie that
changes something (any method but GET, HEAD and OPTIONS) must also carry the session's CSRF
token in ``X-CSRF-Token``; a token in the Authorization header needs none, since a browser never
adds it to a cross-site request by itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from service.access import Action, authorize
from service.db.models import User
from service.db.session import new_session, read_session
from service.errors import Unauthorized
from service.users import user_for_token
from service.web_sessions import COOKIE, CSRF_HEADER, find_session, require_csrf

bearer = HTTPBearer(auto_error=False)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def get_session() -> Iterator[Session]:
    with new_session() as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]


@dataclass(frozen=True)
class Caller:
    """The authenticated user (detached) and, for a cookie session, that session's id and CSRF token."""

    user: User
    web_session_id: int | None = None
    csrf_token: str | None = None


def _by_token(token: str) -> Caller:
    with read_session() as session:
        user = user_for_token(session, token)
        if user is not None:
            session.commit()  # last_used_at, when it moved on (at most once a minute)
            session.expunge(user)
    if user is None:
        raise Unauthorized("the API token is not valid")
    return Caller(user)


def _by_cookie(request: Request, secret: str) -> Caller:
    with read_session() as session:
        row = find_session(session, secret)
        if row is not None:
            caller = Caller(row.user, row.id, row.csrf_token)
            session.expunge(row.user)
    if row is None:
        raise Unauthorized("your session has ended (signed out or expired): sign in again")
    if request.method not in SAFE_METHODS:
        require_csrf(row, request.headers.get(CSRF_HEADER))
    return caller


def current_caller(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Caller:
    """Who is asking. The user is loaded in a short session of its own and detached, so the
    connection goes back to the pool at once and a request that then waits (``?wait=``) holds
    none. A Bearer token wins over a cookie sent along with it."""
    if credentials is not None:
        return _by_token(credentials.credentials)
    secret = request.cookies.get(COOKIE)
    if secret:
        return _by_cookie(request, secret)
    raise Unauthorized("send an API token (Authorization: Bearer <token>) or sign in")


CurrentCaller = Annotated[Caller, Depends(current_caller)]


# The dependencies below do no I/O: as coroutines they run on the event loop, where FastAPI
# would hand a plain function to a thread of the pool and back (0.3 to 0.8 ms of every request
# at a learner's pace, when the thread it wakes has slept).
async def current_user(caller: CurrentCaller) -> User:
    return caller.user


CurrentUser = Annotated[User, Depends(current_user)]


async def instructor(user: CurrentUser) -> User:
    authorize(user, Action.AUTHOR)
    return user


Instructor = Annotated[User, Depends(instructor)]


async def admin(user: CurrentUser) -> User:
    authorize(user, Action.ADMINISTER)
    return user


Admin = Annotated[User, Depends(admin)]
