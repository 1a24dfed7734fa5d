"""Passwords: argon2id hashes, checked in constant time whether or not the name exists.

Every hash and check runs in the one bounded pool of ``password_hashing``; a request takes its
slot there first, so a refusal for a full pool (429 busy) costs nothing else. A sign-in then
counts its attempt (``sign_in_limits.reserve``), and only then checks the password, holding no
database connection while it does. For a name that does not exist, or a user who has no password
(made by the CLI, signing in with tokens only), the password is checked against a dummy hash
made with the same parameters, so the answer takes as long as a wrong password would and its
timing does not tell which names exist.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.errors import InvalidInput
from service import password_hashing, sign_in_limits
from service.db.models import User
from service.errors import BadCredentials, WrongPassword
from service.web_sessions import end_sessions

MIN_PASSWORD = 10
MAX_PASSWORD = 200


BAD_CREDENTIALS = "the user name or the password is wrong"


def check_new_password(password: str) -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise InvalidInput(f"a password must have {MIN_PASSWORD} to {MAX_PASSWORD} characters "
                           f"(this one has {len(password)})")


def hash_password(password: str) -> str:
    """The hash to store for a new password (checked for length first), made in the pool."""
    check_new_password(password)
    return password_hashing.new_hash(password)


def normalize_name(name: str) -> str:
    """A user name as stored: without surrounding white space, 1 to 100 characters, none of them
    a control character (PostgreSQL cannot store NUL, and a name is shown on every page)."""
    name = name.strip()
    if not name or len(name) > 100:
        raise InvalidInput("a user name must have 1 to 100 characters (after trimming spaces)")
    if any(ord(c) < 32 or c == "\x7f" for c in name):
        raise InvalidInput("a user name must not contain control characters (line breaks, tabs, NUL)")
    return name


def _findable(name: str) -> bool:
    """Whether ``name`` could be a stored one: a longer one, or one with NUL, cannot, and is not
    looked up (PostgreSQL refuses NUL in a query's text); it still costs a check."""
    return 0 < len(name) <= 100 and "\x00" not in name


def authenticate(session: Session, name: str, password: str, address: str) -> User:
    """The user whose name and password these are; raise HashingBusy, TooManyAttempts or
    BadCredentials. The attempt is counted under the name tried and the client's address before
    the password is checked, and forgotten with the name's failures when it is right."""
    name = name.strip()
    with password_hashing.admitted():
        attempt = sign_in_limits.reserve(session, name, address)
        user = session.scalar(select(User).where(User.name == name)) if _findable(name) else None
        stored = user.password_hash if user is not None else None
        session.commit()  # the connection goes back to the pool while the password is checked
        checked = password_hashing.check(stored, password)
    if not checked.ok or user is None:
        sign_in_limits.settle(session, attempt)
        raise BadCredentials(BAD_CREDENTIALS)
    if checked.rehashed is not None:  # made with other parameters than the settings' (the caller commits)
        user.password_hash = checked.rehashed
    sign_in_limits.forget_name(session, name, attempt)
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
    session alone cannot take the account over; each try counts for the rate limit before it is
    checked, and a right one is given back. The session must hold no unwritten change: no
    database connection is held while passwords are hashed."""
    check_new_password(new_password)
    stored = user.password_hash
    if stored is not None and current_password is None:
        raise WrongPassword("give your current password (current_password) to change it")
    with password_hashing.admitted():
        attempt = None
        if stored is not None and current_password is not None:
            attempt = sign_in_limits.reserve(session, user.name, address)
            if not password_hashing.check(stored, current_password).ok:
                sign_in_limits.settle(session, attempt)
                raise WrongPassword("the current password is wrong")
        session.commit()
        new_hash = hash_password(new_password)
    if attempt is not None:
        sign_in_limits.give_back(session, attempt)
    user.password_hash = new_hash
    end_sessions(session, user.id, keep=keep_session)
