"""Passwords: argon2id hashes, checked in constant time whether or not the name exists.

A sign-in first asks the rate limit (``sign_in_limits``), then verifies. For a name that does not
exist, or a user who has no password (made by the CLI, signing in with tokens only), the password
is verified against a dummy hash made with the same parameters, so the answer takes as long as a
wrong password would and its timing does not tell which names exist.
"""

from __future__ import annotations

import threading
from functools import lru_cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.errors import DomainError, InvalidInput
from judge.service import sign_in_limits
from judge.service.db.models import User
from judge.service.web_sessions import end_sessions
from judge.settings import get_settings

MIN_PASSWORD = 10
MAX_PASSWORD = 200
# Each hash takes password_memory_kib of memory: a burst of sign-ins waits here rather than
# taking a threadpool's worth of 64 MiB blocks at once.
_hashing = threading.BoundedSemaphore(4)


class BadCredentials(DomainError):
    """The name or the password is wrong (one message for both)."""

    code = "bad_credentials"


class WrongPassword(DomainError):
    """A signed-in user's current password, asked again before it is changed, is wrong."""

    code = "wrong_password"


BAD_CREDENTIALS = "the user name or the password is wrong"


@lru_cache
def _hasher(time_cost: int, memory_kib: int, parallelism: int) -> PasswordHasher:
    return PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism)


def hasher() -> PasswordHasher:
    """The hasher for the parameters the settings name now."""
    settings = get_settings()
    return _hasher(settings.password_time_cost, settings.password_memory_kib, settings.password_parallelism)


@lru_cache
def _dummy_hash(ph: PasswordHasher) -> str:
    return ph.hash("a password nobody has: verified for names that do not exist")


def check_new_password(password: str) -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise InvalidInput(f"a password must have {MIN_PASSWORD} to {MAX_PASSWORD} characters "
                           f"(this one has {len(password)})")


def hash_password(password: str) -> str:
    check_new_password(password)
    with _hashing:
        return hasher().hash(password)


def verify_password(user: User | None, password: str) -> bool:
    """Whether ``password`` is ``user``'s; ``None`` (no such user) costs the same and is False.

    A correct password whose hash was made with other parameters is hashed again with the
    current ones (the caller commits)."""
    ph = hasher()
    stored = user.password_hash if user is not None else None
    with _hashing:
        try:
            ok = ph.verify(stored or _dummy_hash(ph), password) and stored is not None
        except (VerificationError, InvalidHashError):
            ok = False
        if ok and user is not None and stored is not None and ph.check_needs_rehash(stored):
            user.password_hash = ph.hash(password)
    return ok


def normalize_name(name: str) -> str:
    """A user name as stored: without surrounding white space, 1 to 100 characters."""
    name = name.strip()
    if not name or len(name) > 100:
        raise InvalidInput("a user name must have 1 to 100 characters (after trimming spaces)")
    return name


def authenticate(session: Session, name: str, password: str, address: str) -> User:
    """The user whose name and password these are; raise TooManyAttempts or BadCredentials.

    Every failure is recorded for the rate limit under the name tried and the client's address.
    """
    name = name.strip()
    sign_in_limits.check(session, name, address)
    user = session.scalar(select(User).where(User.name == name)) if 0 < len(name) <= 100 else None
    if not verify_password(user, password) or user is None:
        sign_in_limits.record_failure(session, name, address)
        raise BadCredentials(BAD_CREDENTIALS)
    sign_in_limits.forget_name(session, name)
    return user


def set_password(session: Session, user: User, password: str, keep_session: int | None = None) -> None:
    """Set the password with no questions asked (the CLI; ``change_password`` after its check)
    and end the user's browser sessions but ``keep_session``: a password changed because it
    leaked also signs out whoever used it."""
    user.password_hash = hash_password(password)
    end_sessions(session, user.id, keep=keep_session)


def change_password(session: Session, user: User, new_password: str, current_password: str | None,
                    address: str, keep_session: int | None = None) -> None:
    """Set ``user``'s own password. One who has a password must give it first, so that a stolen
    session alone cannot take the account over; wrong guesses count for the rate limit."""
    check_new_password(new_password)
    if user.password_hash is not None:
        sign_in_limits.check(session, user.name, address)
        if current_password is None:
            raise WrongPassword("give your current password (current_password) to change it")
        if not verify_password(user, current_password):
            sign_in_limits.record_failure(session, user.name, address)
            raise WrongPassword("the current password is wrong")
    set_password(session, user, new_password, keep_session)
