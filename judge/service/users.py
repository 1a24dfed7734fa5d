"""Users and their API tokens. Tokens are shown once and stored only as a SHA-256 hash."""

from __future__ import annotations

import hashlib
import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.errors import Conflict, InvalidInput
from judge.service.db.models import ApiToken, Role, User


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_user(session: Session, name: str, role: Role) -> tuple[User, str]:
    """Create a user with a fresh token; return both (the token is not recoverable later)."""
    name = name.strip()
    if not name or len(name) > 100:
        raise InvalidInput("a user name must have 1 to 100 characters")
    if session.scalar(select(User).where(User.name == name)) is not None:
        raise Conflict(f"a user named {name!r} already exists")
    user = User(name=name, role=role.value)
    session.add(user)
    session.flush()
    return user, issue_token(session, user)


def issue_token(session: Session, user: User) -> str:
    token = "jt_" + secrets.token_urlsafe(32)
    session.add(ApiToken(user_id=user.id, token_hash=hash_token(token)))
    session.flush()
    return token


def user_for_token(session: Session, token: str) -> User | None:
    row = session.scalar(select(ApiToken).where(ApiToken.token_hash == hash_token(token)))
    return row.user if row else None
