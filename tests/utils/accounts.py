"""Helpers for the account tests of both layers: users with passwords, browsers with cookies."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import httpx
from sqlalchemy import delete, update

from service.db.models import Role, SignInFailure, User
from service.db.session import session_scope
from service.users import create_user

PASSWORD = "correct horse battery staple"
COOKIE = "judge_session"


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    token: str
    password: str = PASSWORD


def make_account(role: Role = Role.LEARNER, password: str | None = PASSWORD, prefix: str = "acct") -> Account:
    """A new user with a password (and, as every user made this way, an API token)."""
    with session_scope() as session:
        user, token = create_user(session, unique(prefix), role, password)
        return Account(user.id, user.name, token, password or "")


def forget_failures() -> None:
    """Every test starts with no failed sign-in counted (the test client's address is shared)."""
    with session_scope() as session:
        session.execute(delete(SignInFailure))


def set_role(user_id: int, role: Role) -> None:
    with session_scope() as session:
        session.execute(update(User).where(User.id == user_id).values(role=role.value))


def set_cookie_attributes(response: httpx.Response) -> dict[str, str]:
    """The judge_session Set-Cookie header's attributes, names lower-cased ('value' holds the value)."""
    headers = [h for h in response.headers.get_list("set-cookie") if h.startswith(f"{COOKIE}=")]
    assert len(headers) == 1, response.headers
    parts = [part.strip() for part in headers[0].split(";")]
    attributes = {"value": parts[0].split("=", 1)[1]}
    for part in parts[1:]:
        key, _, value = part.partition("=")
        attributes[key.lower()] = value
    return attributes


def sign_in(client: httpx.Client, name: str, password: str = PASSWORD) -> httpx.Response:
    return client.post("/api/v1/auth/sign-in", json={"name": name, "password": password})


def signed_in(client: httpx.Client, account: Account) -> tuple[str, str]:
    """Sign ``account`` in with ``client`` (its cookie jar keeps the cookie); (cookie, csrf_token)."""
    response = sign_in(client, account.name, account.password)
    assert response.status_code == 200, response.text
    return set_cookie_attributes(response)["value"], str(response.json()["csrf_token"])
