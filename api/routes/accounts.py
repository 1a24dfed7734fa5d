"""Accounts: signing in and out with a password (a session cookie for the pages), registering
through a course's join link, one's own password and API tokens, and the admin's user list."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from sqlalchemy.orm import Session

from api import password_work
from api.deps import Admin, Caller, CurrentCaller, CurrentUser, SessionDep
from api.schemas import Me
from api.schemas.accounts import (
    PasswordChange,
    Register,
    RoleChange,
    SessionOut,
    SignIn,
    TokenCreate,
    TokenCreated,
    TokenOut,
    UserCreate,
    UserOut,
    UserPage,
)
from api.schemas.bounds import Id, Offset
from judge.errors import Unauthorized
from judge.service import accounts, users, web_sessions
from judge.service.db.models import User, WebSession

router = APIRouter(tags=["accounts"])

Responses = dict[int | str, dict[str, Any]]
UNAUTHORIZED: Responses = {401: {"description": "no valid token or session"}}
ADMIN_ONLY: Responses = {**UNAUTHORIZED, 403: {"description": "not an admin"}}


def client_address(request: Request) -> str:
    """The TCP peer: what the rate limit counts per address (see judge.service.sign_in_limits)."""
    return request.client.host if request.client else "unknown"


def _cookie_options(request: Request) -> dict[str, object]:
    # SameSite=Strict: a request started by another site never carries the cookie, which is the
    # first wall against cross-site requests; the CSRF header is the second.
    return {"path": "/", "httponly": True, "samesite": "strict", "secure": request.url.scheme == "https"}


def _signed_in(session: SessionDep, request: Request, response: Response, user: User) -> SessionOut:
    """Start a browser session for ``user``, commit, set the cookie; the answer of sign-in."""
    secret, row = web_sessions.start_session(session, user)
    session.commit()
    response.set_cookie(web_sessions.COOKIE, secret, max_age=int(web_sessions.lifetime().total_seconds()),
                        **_cookie_options(request))  # type: ignore[arg-type]
    return _session_out(user, row)


def _session_out(user: User, row: WebSession) -> SessionOut:
    return SessionOut(user=Me(id=user.id, name=user.name, role=user.role), csrf_token=row.csrf_token)


# The routes that hash a password are async and run their work on api.password_work's threads,
# never on the pool the other routes share; a full hashing pool answers 429 busy at once.
BUSY: Responses = {429: {"description": "the password hashing pool is full (busy, Retry-After: 1)"}}


@router.post("/auth/sign-in", response_model=SessionOut, responses={
    401: {"description": "the name or the password is wrong (one answer for both)"},
    429: {"description": "too many failed sign-ins for this name or address (too_many_attempts), "
                         "or the password hashing pool is full (busy); with Retry-After"}})
async def sign_in(body: SignIn, request: Request, response: Response) -> SessionOut:
    """Sign in with a user name and password: sets the session cookie and returns the CSRF token."""
    return await password_work.run(_sign_in, body, request, response)


def _sign_in(session: Session, body: SignIn, request: Request, response: Response) -> SessionOut:
    user = accounts.authenticate(session, body.name, body.password, client_address(request))
    return _signed_in(session, request, response, user)


@router.post("/auth/register", response_model=SessionOut, status_code=201, responses={
    404: {"description": "no course has this join code"}, 409: {"description": "the name is taken"},
    **BUSY})
async def register(body: Register, request: Request, response: Response) -> SessionOut:
    """Create a learner account through a course's join link, join that course and sign in."""
    return await password_work.run(_register, body, request, response)


def _register(session: Session, body: Register, request: Request, response: Response) -> SessionOut:
    user = users.register(session, body.name, body.password, body.join_code)
    return _signed_in(session, request, response, user)


@router.post("/auth/sign-out", status_code=204, responses={403: {"description": "no CSRF token"}})
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


@router.get("/auth/session", response_model=SessionOut, responses=UNAUTHORIZED)
def read_session(caller: CurrentCaller) -> SessionOut:
    """The signed-in user and the session's CSRF token (the pages ask on load); 401 without a session."""
    if caller.web_session_id is None or caller.csrf_token is None:
        raise Unauthorized("not signed in with a session (an API token has no session)")
    user = caller.user
    return SessionOut(user=Me(id=user.id, name=user.name, role=user.role), csrf_token=caller.csrf_token)


@router.put("/me/password", status_code=204, responses={
    **UNAUTHORIZED, 403: {"description": "the current password is wrong or missing, or no CSRF token"},
    429: {"description": "too many wrong passwords (too_many_attempts), or the password hashing "
                         "pool is full (busy); with Retry-After"}})
async def change_password(body: PasswordChange, caller: CurrentCaller, request: Request) -> Response:
    """Set your password (give the current one when you have one); your other sessions end."""
    await password_work.run(_change_password, body, caller, client_address(request))
    return Response(status_code=204)


def _change_password(session: Session, body: PasswordChange, caller: Caller, address: str) -> None:
    user = users.find_user(session, caller.user.id)
    accounts.change_password(session, user, body.new_password, body.current_password, address,
                             keep_session=caller.web_session_id)
    session.commit()


def _token_out(row: object) -> TokenOut:
    return TokenOut.model_validate(row, from_attributes=True)


@router.get("/me/tokens", response_model=list[TokenOut], responses=UNAUTHORIZED)
def list_tokens(session: SessionDep, user: CurrentUser) -> list[TokenOut]:
    """Your API tokens (never the tokens themselves: only their labels and dates)."""
    return [_token_out(row) for row in users.list_tokens(session, user)]


@router.post("/me/tokens", response_model=TokenCreated, status_code=201, responses=UNAUTHORIZED)
def create_token(body: TokenCreate, session: SessionDep, user: CurrentUser) -> TokenCreated:
    """A new API token, shown only in this answer."""
    row, token = users.create_token(session, user, body.label)
    session.commit()
    return TokenCreated(id=row.id, label=row.label, token=token)


@router.delete("/me/tokens/{token_id}", status_code=204, responses={
    **UNAUTHORIZED, 404: {"description": "no such token of yours"}})
def revoke_token(token_id: Id, session: SessionDep, user: CurrentUser) -> Response:
    """Revoke one of your tokens: it stops working at once."""
    users.revoke_token(session, user, token_id)
    session.commit()
    return Response(status_code=204)


def _user_out(user: User) -> UserOut:
    return UserOut(id=user.id, name=user.name, role=user.role,  # type: ignore[arg-type]
                   created_at=user.created_at, has_password=user.password_hash is not None)


@router.get("/users", response_model=UserPage, responses=ADMIN_ONLY)
def list_users(session: SessionDep, _: Admin, limit: Annotated[int, Query(ge=1, le=500)] = 100,
               offset: Annotated[Offset, Query()] = 0) -> UserPage:
    """Every user, oldest first (admins only)."""
    found, total = users.list_users(session, limit, offset)
    return UserPage(items=[_user_out(user) for user in found], total=total)


@router.post("/users", response_model=UserOut, status_code=201, responses={
    **ADMIN_ONLY, 409: {"description": "the name is taken"}, **BUSY})
async def create_user(body: UserCreate, _: Admin) -> UserOut:
    """Create a user who signs in with a password (admins only)."""
    return await password_work.run(_create_user, body)


def _create_user(session: Session, body: UserCreate) -> UserOut:
    user = users.add_user(session, body.name, body.role, body.password)
    session.commit()
    return _user_out(user)


@router.patch("/users/{user_id}", response_model=UserOut, responses={
    **ADMIN_ONLY, 404: {"description": "no such user"}, 409: {"description": "the last admin"}})
def change_role(user_id: Id, body: RoleChange, session: SessionDep, _: Admin,
                caller: CurrentCaller) -> UserOut:
    """Change a user's role (admins only); their sessions end. The last admin cannot be demoted."""
    user = users.change_role(session, user_id, body.role, keep_session=caller.web_session_id)
    session.commit()
    return _user_out(user)
