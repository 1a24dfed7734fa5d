"""The admin's user list under /users: every user, creating one with a password, changing a role."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from sqlalchemy.orm import Session

from api import password_work
from api.deps import Admin, CurrentCaller, SessionDep
from api.routes.accounts import ADMIN_ONLY, BUSY
from api.schemas.accounts import RoleChange, UserCreate, UserOut, UserPage
from api.schemas.bounds import Id, Offset
from service import users
from service.db.models import User

router = APIRouter(prefix="/users", tags=["accounts"])


def _user_out(user: User) -> UserOut:
    return UserOut(id=user.id, name=user.name, role=user.role,  # type: ignore[arg-type]
                   created_at=user.created_at, has_password=user.password_hash is not None)


@router.get("", response_model=UserPage, responses=ADMIN_ONLY)
def list_users(session: SessionDep, _: Admin, limit: Annotated[int, Query(ge=1, le=500)] = 100,
               offset: Annotated[Offset, Query()] = 0) -> UserPage:
    """Every user, oldest first (admins only)."""
    found, total = users.list_users(session, limit, offset)
    return UserPage(items=[_user_out(user) for user in found], total=total)


@router.post("", response_model=UserOut, status_code=201, responses={
    **ADMIN_ONLY, 409: {"description": "the name is taken"}, **BUSY})
async def create_user(body: UserCreate, _: Admin) -> UserOut:
    """Create a user who signs in with a password (admins only)."""
    return await password_work.run(_create_user, body)


def _create_user(session: Session, body: UserCreate) -> UserOut:
    user = users.add_user(session, body.name, body.role, body.password)
    session.commit()
    return _user_out(user)


@router.patch("/{user_id}", response_model=UserOut, responses={
    **ADMIN_ONLY, 404: {"description": "no such user"}, 409: {"description": "the last admin"}})
def change_role(user_id: Id, body: RoleChange, session: SessionDep, _: Admin,
                caller: CurrentCaller) -> UserOut:
    """Change a user's role (admins only); their sessions end. The last admin cannot be demoted."""
    user = users.change_role(session, user_id, body.role, keep_session=caller.web_session_id)
    session.commit()
    return _user_out(user)
