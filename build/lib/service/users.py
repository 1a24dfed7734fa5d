"""Users and their API tokens. Tokens are shown once and stored only as a SHA-256 hash.

A user may hold any number of labelled tokens and revoke each; an admin lists users, makes them
with a password and changes their roles (never demoting the last admin).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, joinedload

from judge.errors import InvalidInput
from service.accounts import check_new_password, hash_password, normalize_name
from service.courses_join import course_for_code, join_by_code
from service.db.models import ApiToken, Role, User, utcnow
from service.errors import Conflict, LastAdmin, NotFound
from service.web_sessions import end_sessions

# last_used_at is written at most this often per token, so that reading with a token does not
# write to the database on every request.
LAST_USED_STEP = timedelta(minutes=1)
MAX_LABEL = 100


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def add_user(session: Session, name: str, role: Role, password: str | None = None) -> User:
    """A new user, with an argon2 hash of ``password`` when one is given. The session must hold
    no unwritten change: its transaction ends before the hash is made, so that no database
    connection is held while the hashing pool works (or queues)."""
    name = normalize_name(name)
    if password is not None:
        check_new_password(password)
    if session.scalar(select(User).where(User.name == name)) is not None:
        raise Conflict(f"a user named {name!r} already exists")
    password_hash = None
    if password is not None:
        session.commit()
        password_hash = hash_password(password)
    user = User(name=name, role=role.value, password_hash=password_hash)
    session.add(user)
    try:
        session.flush()
    except IntegrityError:
        # The same name taken at the same moment by another request: the unique index decides.
        session.rollback()
        raise Conflict(f"a user named {name!r} already exists") from None
    return user


def create_user(session: Session, name: str, role: Role, password: str | None = None) -> tuple[User, str]:
    """Create a user with a fresh token; return both (the token is not recoverable later)."""
    user = add_user(session, name, role, password)
    return user, issue_token(session, user)


def _label(label: str | None) -> str | None:
    if label is None:
        return None
    label = label.strip()
    if not label or len(label) > MAX_LABEL:
        raise InvalidInput(f"a token's label must have 1 to {MAX_LABEL} characters")
    return label


def create_token(session: Session, user: User, label: str | None = None) -> tuple[ApiToken, str]:
    """A new token for ``user``: its row and the token itself (shown only this once)."""
    token = "jt_" + secrets.token_urlsafe(32)
    row = ApiToken(user_id=user.id, token_hash=hash_token(token), label=_label(label))
    session.add(row)
    session.flush()
    return row, token


def issue_token(session: Session, user: User, label: str | None = None) -> str:
    return create_token(session, user, label)[1]


def user_for_token(session: Session, token: str) -> User | None:
    """The token's user, noting when the token was used (at most once a minute; the caller
    commits)."""
    row = session.scalar(select(ApiToken).where(ApiToken.token_hash == hash_token(token))
                         .options(joinedload(ApiToken.user)))  # one query for every request
    if row is None:
        return None
    now = utcnow()
    if row.last_used_at is None or now - row.last_used_at >= LAST_USED_STEP:
        row.last_used_at = now
    return row.user


def list_tokens(session: Session, user: User) -> list[ApiToken]:
    return list(session.scalars(select(ApiToken).where(ApiToken.user_id == user.id).order_by(ApiToken.id)))


def revoke_token(session: Session, user: User, token_id: int) -> None:
    """Delete one of the user's own tokens; another's answers 'not found' like a missing one."""
    row = session.get(ApiToken, token_id)
    if row is None or row.user_id != user.id:
        raise NotFound(f"you have no token {token_id}")
    session.delete(row)


def list_users(session: Session, limit: int, offset: int) -> tuple[list[User], int]:
    users = list(session.scalars(select(User).order_by(User.id).limit(limit).offset(offset)))
    return users, int(session.scalar(select(func.count()).select_from(User)) or 0)


def find_user(session: Session, user_id: int) -> User:
    user = session.get(User, user_id)
    if user is None:
        raise NotFound(f"no user {user_id}")
    return user


def change_role(session: Session, user_id: int, role: Role, keep_session: int | None = None) -> User:
    """Give the user ``role`` and end their browser sessions (but ``keep_session``, the caller's
    own), so that no page keeps showing what the old role could do. The last admin stays one."""
    user = find_user(session, user_id)
    if user.role == Role.ADMIN and role != Role.ADMIN:
        # Locks the admins' rows where the database can (PostgreSQL), so that two admins demoting
        # each other at once cannot both pass.
        admins = list(session.scalars(select(User.id).where(User.role == Role.ADMIN).with_for_update()))
        if admins == [user.id]:
            raise LastAdmin(f"{user.name!r} is the last admin: make another user admin first")
    if user.role != role:
        user.role = role.value
        end_sessions(session, user.id, keep=keep_session)
    return user


def user_named(session: Session, name: str) -> User:
    user = session.scalar(select(User).where(User.name == name.strip()))
    if user is None:
        raise NotFound(f"no user named {name.strip()!r}")
    return user


def register(session: Session, name: str, password: str, join_code: str) -> User:
    """A new learner who came through a course's join link, a member of that course (committed).

    The code is checked before anything is stored, so a wrong link makes no account; there is
    no other way to register."""
    course_for_code(session, join_code)
    user = add_user(session, name, Role.LEARNER, password)
    join_by_code(session, user, join_code)  # commits the user with the membership
    return user
