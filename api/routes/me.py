"""Everything under /me: the caller (a page checks a token with it before keeping it), their
password and API tokens, their assignments and their invitations to courses.

Each route keeps the documentation group of its subject (the routes came from the accounts'
and the courses' modules): the password and the tokens are listed with the accounts, the
assignments and invitations with the courses and the users, the caller with the users.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated

from fastapi import APIRouter, Query, Request, Response
from sqlalchemy.orm import Session

from api import password_work
from api.deps import Caller, CurrentCaller, CurrentUser, SessionDep
from api.presenters import me_out
from api.routes.accounts import UNAUTHORIZED, client_address
from api.routes.courses import assignment_out, course_out
from api.schemas import Me
from api.schemas.accounts import (
    EmailSettings,
    MarkedRead,
    MarkRead,
    NotificationOut,
    NotificationsOut,
    PasswordChange,
    TokenCreate,
    TokenCreated,
    TokenOut,
)
from api.schemas.bounds import Id, Offset
from api.schemas.courses import AssignmentOut, CourseOut, CourseRef, MyInvitationOut
from api.schemas.webhooks import WebhookSecretOut
from service import accounts, assignments, course_invitations, gradebook, notifications, users
from service.db.models import CourseRole, NotificationKind
from service.webhooks import outbox

router = APIRouter(prefix="/me")
# Documentation groups (see above); typed as FastAPI's tags are, so each route may take one.
USERS: list[str | Enum] = ["users"]
ACCOUNTS: list[str | Enum] = ["accounts"]
COURSES: list[str | Enum] = ["courses", "users"]
WEBHOOKS: list[str | Enum] = ["submissions"]


@router.get("", response_model=Me, tags=USERS)
def me(session: SessionDep, user: CurrentUser) -> Me:
    """Your id, name, role, e-mail settings and unread notifications."""
    return me_out(session, user)


@router.put("/email", response_model=Me, tags=USERS)
def set_email(body: EmailSettings, session: SessionDep, user: CurrentUser) -> Me:
    """Where your notifications are e-mailed, and whether they are (the pages show them always)."""
    changed = notifications.set_email(session, users.find_user(session, user.id), body.email,
                                      body.email_notifications)
    return me_out(session, changed)


@router.get("/notifications", response_model=NotificationsOut, tags=USERS)
def my_notifications(session: SessionDep, user: CurrentUser,
                     limit: Annotated[int, Query(ge=0, le=notifications.PAGE)] = notifications.PAGE,
                     offset: Offset = 0) -> NotificationsOut:
    """Your notifications, newest first (the newest 200 are kept): feedback on your handed-in
    work, answers to your regrade requests, and released grades."""
    box = notifications.inbox(session, user, limit, offset)
    return NotificationsOut(items=[
        NotificationOut(id=n.id, kind=NotificationKind(n.kind), text=n.text, link=n.link,
                        created_at=n.created_at, read=n.read_at is not None) for n in box.items],
        unread=box.unread, total=box.total, limit=limit, offset=offset)


@router.post("/notifications/read", response_model=MarkedRead, tags=USERS)
def read_notifications(body: MarkRead, session: SessionDep, user: CurrentUser) -> MarkedRead:
    """Mark your notifications read: those of ``ids``, or all of them."""
    return MarkedRead(marked=notifications.mark_read(session, user, body.ids))


@router.put("/password", status_code=204, responses={
    **UNAUTHORIZED, 403: {"description": "the current password is wrong or missing, or no CSRF token"},
    429: {"description": "too many wrong passwords (too_many_attempts), or the password hashing "
                         "pool is full (busy); with Retry-After"}}, tags=ACCOUNTS)
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


@router.get("/tokens", response_model=list[TokenOut], responses=UNAUTHORIZED, tags=ACCOUNTS)
def list_tokens(session: SessionDep, user: CurrentUser) -> list[TokenOut]:
    """Your API tokens (never the tokens themselves: only their labels and dates)."""
    return [_token_out(row) for row in users.list_tokens(session, user)]


@router.post("/tokens", response_model=TokenCreated, status_code=201, responses=UNAUTHORIZED, tags=ACCOUNTS)
def create_token(body: TokenCreate, session: SessionDep, user: CurrentUser) -> TokenCreated:
    """A new API token, shown only in this answer."""
    row, token = users.create_token(session, user, body.label)
    session.commit()
    return TokenCreated(id=row.id, label=row.label, token=token)


@router.delete("/tokens/{token_id}", status_code=204, responses={
    **UNAUTHORIZED, 404: {"description": "no such token of yours"}}, tags=ACCOUNTS)
def revoke_token(token_id: Id, session: SessionDep, user: CurrentUser) -> Response:
    """Revoke one of your tokens: it stops working at once."""
    users.revoke_token(session, user, token_id)
    session.commit()
    return Response(status_code=204)


@router.get("/assignments", response_model=list[AssignmentOut], tags=COURSES)
def my_assignments(session: SessionDep, user: CurrentUser) -> list[AssignmentOut]:
    """Every assignment of your courses, by due time, with its state and your progress."""
    chosen = assignments.my_assignments(session, user)
    mine = gradebook.progress(session, user, [a for a, role in chosen if role is CourseRole.LEARNER])
    return [assignment_out(a, role, mine.get(a.id), user) for a, role in chosen]


@router.get("/invitations", response_model=list[MyInvitationOut], tags=COURSES)
def my_invitations(session: SessionDep, user: CurrentUser) -> list[MyInvitationOut]:
    """Invitations to courses waiting for your answer, newest first (at most 100)."""
    return [MyInvitationOut(id=i.id, course=CourseRef(id=i.course.id, title=i.course.title),
                            role=CourseRole(i.role), invited_by=i.inviter.name if i.inviter else None,
                            created_at=i.created_at)
            for i in course_invitations.pending_for(session, user)]


@router.post("/invitations/{invitation_id}/accept", response_model=CourseOut, tags=COURSES)
def accept_invitation(invitation_id: Id, session: SessionDep, user: CurrentUser) -> CourseOut:
    """Accept an invitation: you become a member of its course, with the role it offers."""
    return course_out(course_invitations.accept(session, user, invitation_id), user)


@router.post("/invitations/{invitation_id}/decline", status_code=204, tags=COURSES)
def decline_invitation(invitation_id: Id, session: SessionDep, user: CurrentUser) -> Response:
    """Decline an invitation: it is gone, and you stay out of its course."""
    course_invitations.decline(session, user, invitation_id)
    return Response(status_code=204)


@router.get("/webhook-secret", response_model=WebhookSecretOut, tags=WEBHOOKS)
def webhook_secret(session: SessionDep, user: CurrentUser) -> WebhookSecretOut:
    """The secret that signs your webhooks (made at the first read); see docs/webhooks.md."""
    secret = outbox.webhook_secret(session, users.find_user(session, user.id))
    session.commit()
    return WebhookSecretOut(secret=secret)


@router.post("/webhook-secret", response_model=WebhookSecretOut, tags=WEBHOOKS)
def rotate_webhook_secret(session: SessionDep, user: CurrentUser) -> WebhookSecretOut:
    """Replace your webhook secret: every attempt from now on, retries included, is signed with
    the new one."""
    secret = outbox.rotate_secret(session, users.find_user(session, user.id))
    session.commit()
    return WebhookSecretOut(secret=secret)
