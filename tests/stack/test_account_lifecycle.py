"""Accounts over HTTP on the real stack (PostgreSQL): who reaches the admin's user routes, the
session cookie and its CSRF token, the sign-in rate limit, registering through a join link,
passwords and API tokens."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from service.courses_join import new_join_code
from service.db.models import Course, CourseMember, Role, User, WebSession
from service.db.session import session_scope
from tests.utils.accounts import (
    PASSWORD,
    forget_failures,
    make_account,
    set_cookie_attributes,
    set_role,
    sign_in,
    signed_in,
    unique,
)
from tests.utils.service import bearer
from tests.utils.service_fixtures import Tokens

API = "/api/v1"
ROLES = ["learner", "instructor", "admin", None]  # None: no credentials at all


@pytest.fixture(autouse=True)
def no_failures(client: TestClient) -> None:  # after the app: its start-up made the tables
    forget_failures()


@pytest.fixture
def browser(client: TestClient) -> Iterator[TestClient]:
    """A client with a cookie jar of its own; the session's client keeps no cookie."""
    fresh = TestClient(client.app)
    yield fresh
    fresh.close()


def headers_for(tokens: Tokens, role: str | None) -> dict[str, str]:
    return bearer(str(getattr(tokens, role))) if role else {}


# ---------------------------------------------------------------------------------------------
# The authorization matrix of the admin's routes


@pytest.mark.parametrize(("role", "status"), [("learner", 403), ("instructor", 403), ("admin", 200), (None, 401)])
def test_listing_users(client: TestClient, tokens: Tokens, role: str | None, status: int) -> None:
    response = client.get(f"{API}/users", headers=headers_for(tokens, role))
    assert response.status_code == status, response.text
    if status == 200:
        names = {user["name"] for user in response.json()["items"]}
        assert {"test-learner", "test-admin"} <= names
    else:
        assert "test-learner" not in response.text


@pytest.mark.parametrize(("role", "status"), [("learner", 403), ("instructor", 403), ("admin", 200), (None, 401)])
def test_changing_a_role(client: TestClient, tokens: Tokens, role: str | None, status: int) -> None:
    target = make_account(prefix="matrix-target")
    response = client.patch(f"{API}/users/{target.id}", headers=headers_for(tokens, role), json={"role": "admin"})
    assert response.status_code == status, response.text
    with session_scope() as session:
        assert session.get(User, target.id).role == ("admin" if status == 200 else "learner")  # type: ignore[union-attr]
    set_role(target.id, Role.LEARNER)


@pytest.mark.parametrize(("role", "status"), [("learner", 403), ("instructor", 403), ("admin", 201), (None, 401)])
def test_creating_a_user(client: TestClient, tokens: Tokens, role: str | None, status: int) -> None:
    name = unique("matrix-made")
    response = client.post(f"{API}/users", headers=headers_for(tokens, role),
                           json={"name": name, "role": "admin", "password": PASSWORD})
    assert response.status_code == status, response.text
    with session_scope() as session:
        assert (session.scalar(select(User).where(User.name == name)) is not None) is (status == 201)


@pytest.mark.parametrize("role", ROLES)
def test_own_account_routes_need_credentials_only(client: TestClient, role: str | None) -> None:
    """Every signed-in role has its own tokens and password; no credentials get 401 everywhere."""
    account = make_account(Role(role), prefix="own") if role else None
    headers = bearer(account.token) if account else {}
    listed = client.get(f"{API}/me/tokens", headers=headers)
    made = client.post(f"{API}/me/tokens", headers=headers, json={"label": "matrix"})
    changed = client.put(f"{API}/me/password", headers=headers,
                         json={"current_password": PASSWORD, "new_password": "another long password"})
    statuses = (listed.status_code, made.status_code, changed.status_code)
    assert statuses == ((200, 201, 204) if account else (401, 401, 401)), statuses


# ---------------------------------------------------------------------------------------------
# The session cookie and CSRF


def test_sign_in_cookie_attributes(browser: TestClient, client: TestClient) -> None:
    """SameSite=Strict is what keeps the cookie off cross-site requests; HttpOnly keeps it from
    scripts; Secure is set when the request came over https."""
    account = make_account()
    response = sign_in(browser, account.name)
    assert response.status_code == 200, response.text
    cookie = set_cookie_attributes(response)
    assert cookie["samesite"].lower() == "strict" and "httponly" in cookie and cookie["path"] == "/"
    assert "secure" not in cookie and int(cookie["max-age"]) == 14 * 24 * 3600
    with TestClient(client.app, base_url="https://judge.example") as secure:
        assert "secure" in set_cookie_attributes(sign_in(secure, account.name))


def test_a_cookie_change_without_the_csrf_header_is_refused(browser: TestClient) -> None:
    account = make_account()
    _, csrf = signed_in(browser, account)
    assert browser.get(f"{API}/me").json()["name"] == account.name  # reads need no header
    refused = browser.post(f"{API}/me/tokens", json={"label": "forged"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "csrf"
    refused = browser.delete(f"{API}/me/tokens/1")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "csrf"
    made = browser.post(f"{API}/me/tokens", json={"label": "real"}, headers={"X-CSRF-Token": csrf})
    assert made.status_code == 201, made.text
    labels = [t["label"] for t in browser.get(f"{API}/me/tokens").json()]
    assert labels == [None, "real"]  # the forged one was never made


def test_a_bearer_change_needs_no_csrf_header(client: TestClient) -> None:
    account = make_account()
    made = client.post(f"{API}/me/tokens", headers=bearer(account.token), json={"label": "script"})
    assert made.status_code == 201, made.text


def test_sign_out_ends_the_session(browser: TestClient) -> None:
    account = make_account()
    _, csrf = signed_in(browser, account)
    assert browser.get(f"{API}/auth/session").json()["csrf_token"] == csrf
    assert browser.post(f"{API}/auth/sign-out", headers={"X-CSRF-Token": csrf}).status_code == 204
    with session_scope() as session:
        assert session.scalar(select(WebSession).where(WebSession.user_id == account.id)) is None
    assert browser.get(f"{API}/auth/session").status_code == 401


# ---------------------------------------------------------------------------------------------
# Failures, the rate limit, passwords


def test_bad_credentials_and_the_rate_limit(client: TestClient) -> None:
    account = make_account()
    unknown = sign_in(client, unique("nobody"), PASSWORD)
    wrong = sign_in(client, account.name, "a wrong password here")
    assert unknown.status_code == wrong.status_code == 401
    # The same answer but for the id of each request.
    assert unknown.json()["error"] | {"request_id": ""} == wrong.json()["error"] | {"request_id": ""}
    assert wrong.json()["error"]["code"] == "bad_credentials"
    for n in range(4):
        assert sign_in(client, account.name, f"wrong guess {n}").status_code == 401
    blocked = sign_in(client, account.name)  # the right password, but blocked
    assert blocked.status_code == 429 and blocked.json()["error"]["code"] == "too_many_attempts"
    assert 1 <= int(blocked.headers["Retry-After"]) <= 900
    assert "set-cookie" not in blocked.headers


def test_a_new_password_ends_the_other_sessions(client: TestClient) -> None:
    account = make_account()
    here, there = TestClient(client.app), TestClient(client.app)
    _, csrf = signed_in(here, account)
    signed_in(there, account)
    done = here.put(f"{API}/me/password", headers={"X-CSRF-Token": csrf},
                    json={"current_password": PASSWORD, "new_password": "a newer long password"})
    assert done.status_code == 204, done.text
    assert here.get(f"{API}/me").status_code == 200
    assert there.get(f"{API}/me").status_code == 401
    assert sign_in(client, account.name, "a newer long password").status_code == 200


def test_a_role_change_ends_the_users_sessions(client: TestClient, tokens: Tokens, browser: TestClient) -> None:
    account = make_account(Role.INSTRUCTOR)
    signed_in(browser, account)
    changed = client.patch(f"{API}/users/{account.id}", headers=bearer(tokens.admin), json={"role": "learner"})
    assert changed.status_code == 200 and changed.json()["role"] == "learner"
    assert browser.get(f"{API}/me").status_code == 401


def test_the_last_admin_cannot_be_demoted(client: TestClient) -> None:
    admin = make_account(Role.ADMIN, prefix="only-admin")
    with session_scope() as session:
        others = list(session.scalars(select(User.id).where(User.role == Role.ADMIN, User.id != admin.id)))
    for user_id in others:  # for this test only, the one admin there is
        set_role(user_id, Role.INSTRUCTOR)
    try:
        refused = client.patch(f"{API}/users/{admin.id}", headers=bearer(admin.token), json={"role": "instructor"})
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "last_admin"
    finally:
        for user_id in others:
            set_role(user_id, Role.ADMIN)
    with session_scope() as session:
        assert session.get(User, admin.id).role == "admin"  # type: ignore[union-attr]


def test_tokens_and_last_used(client: TestClient) -> None:
    account = make_account()
    made = client.post(f"{API}/me/tokens", headers=bearer(account.token), json={"label": "laptop"}).json()
    assert client.get(f"{API}/me", headers=bearer(made["token"])).status_code == 200
    listed = {t["id"]: t for t in client.get(f"{API}/me/tokens", headers=bearer(account.token)).json()}
    assert listed[made["id"]]["label"] == "laptop" and listed[made["id"]]["last_used_at"] is not None
    other = make_account()
    assert client.delete(f"{API}/me/tokens/{made['id']}", headers=bearer(other.token)).status_code == 404
    assert client.delete(f"{API}/me/tokens/{made['id']}", headers=bearer(account.token)).status_code == 204
    assert client.get(f"{API}/me", headers=bearer(made["token"])).status_code == 401


# ---------------------------------------------------------------------------------------------
# Registering through a join link


def test_registering_through_a_join_link(browser: TestClient) -> None:
    code = new_join_code()
    with session_scope() as session:
        session.add(Course(title="Metrics 101", join_code=code))
    name = unique("joiner")
    response = browser.post(f"{API}/auth/register", json={"name": name, "password": PASSWORD, "join_code": code})
    assert response.status_code == 201, response.text
    assert response.json()["user"]["role"] == "learner"
    assert browser.get(f"{API}/auth/session").json()["user"]["name"] == name
    with session_scope() as session:
        user = session.scalar(select(User).where(User.name == name))
        assert user is not None
        roles = list(session.scalars(select(CourseMember.role).where(CourseMember.user_id == user.id)))
        assert roles == ["learner"]
    wrong = browser.post(f"{API}/auth/register", json={"name": unique("x"), "password": PASSWORD, "join_code": "nope"})
    assert wrong.status_code == 404


def test_a_nul_in_a_name_or_join_code_gets_a_clear_answer(client: TestClient, tokens: Tokens) -> None:
    """PostgreSQL can neither store nor compare NUL: a sign-in at such a name is a wrong one like
    any other (401, counted for the limit), registering or making one is refused naming the
    problem (422), and such a join code matches no course (404); never the 503 of a database
    error."""
    name = f"{unique('nul')}\x00x"
    for _ in range(5):
        assert sign_in(client, name, "a wrong password").status_code == 401
    assert sign_in(client, name, "a wrong password").status_code == 429  # its attempts counted
    code = new_join_code()
    with session_scope() as session:
        session.add(Course(title="Metrics 102", join_code=code))
    refused = client.post(f"{API}/auth/register", json={"name": name, "password": PASSWORD, "join_code": code})
    assert refused.status_code == 422 and "control characters" in refused.json()["error"]["message"]
    no_course = client.post(f"{API}/auth/register",
                            json={"name": unique("x"), "password": PASSWORD, "join_code": f"{code}\x00"})
    assert no_course.status_code == 404
    made = client.post(f"{API}/users", headers=bearer(tokens.admin), json={"name": name, "password": PASSWORD})
    assert made.status_code == 422 and "control characters" in made.json()["error"]["message"]
