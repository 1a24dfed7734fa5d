"""Dependencies shared by the routes: a database session and the authenticated user."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from judge.errors import Unauthorized
from judge.service.access import Action, authorize
from judge.service.db.models import User
from judge.service.db.session import new_session
from judge.service.users import user_for_token

bearer = HTTPBearer(auto_error=False)


def get_session() -> Iterator[Session]:
    with new_session() as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]


def current_user(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> User:
    """The token's user, detached: its own short session returns the connection to the pool at
    once, so a request that then waits (``?wait=``) holds none."""
    if credentials is None:
        raise Unauthorized("send an API token: Authorization: Bearer <token>")
    with new_session() as session:
        user = user_for_token(session, credentials.credentials)
        if user is not None:
            session.expunge(user)
    if user is None:
        raise Unauthorized("the API token is not valid")
    return user


CurrentUser = Annotated[User, Depends(current_user)]


def instructor(user: CurrentUser) -> User:
    authorize(user, Action.AUTHOR)
    return user


Instructor = Annotated[User, Depends(instructor)]
