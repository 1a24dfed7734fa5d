"""Accounts through HTTP: signing in with a password, the session cookie and its CSRF token,
the rate limit on failed sign-ins, registering through a join link, passwords, API tokens and
the admin's user routes."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import timedelta

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from service.courses_join import new_join_code
from service.db.models import (
    ApiToken,
    Course,
    CourseMember,
    Role,
    SignInFailure,
    SignInKey,
    User,
    WebSession,
    utcnow,
)
from service.db.session import session_scope
from service.settings import get_settings
from tests.unit.service.helpers import error
from tests.utils.accounts import (
    COOKIE,
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

API = "/api/v1"
CHEAP = {"password_time_cost": 1, "password_memory_kib": 1024, "password_parallelism": 1}


def use_settings(patch: pytest.MonkeyPatch, **values: object) -> None:
    """Change settings on the package's one Settings object (tests elsewhere hold it by identity)."""
    for name, value in values.items():
        patch.setattr(get_settings(), name, value)


@pytest.fixture(scope="module", autouse=True)
def cheap_hashes() -> Iterator[None]:
    """argon2 at its smallest cost here: the parameters are settings, and the test of rehashing
    changes them itself."""
    with pytest.MonkeyPatch.context() as patch:
        use_settings(patch, **CHEAP)
        yield


@pytest.fixture(autouse=True)
def no_failures(client: TestClient) -> None:  # after the app: its start-up made the tables
    forget_failures()


@pytest.fixture
def browser(client: TestClient) -> Iterator[TestClient]:
    """A client with a cookie jar of its own (the package's client must keep none)."""
    fresh = TestClient(client.app, raise_server_exceptions=False)
    yield fresh
    fresh.close()


def at(client: TestClient, address: str) -> TestClient:
    return TestClient(client.app, raise_server_exceptions=False, client=(address, 40000))


# ---------------------------------------------------------------------------------------------
# Signing in and the cookie


def test_sign_in_sets_a_strict_http_only_cookie_and_answers_the_csrf_token(browser: TestClient) -> None:
    account = make_account(Role.INSTRUCTOR)
    response = sign_in(browser, account.name)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["user"] == {"id": account.id, "name": account.name, "role": "instructor", "email": None,
                            "email_notifications": True, "unread_notifications": 0}
    assert len(body["csrf_token"]) >= 32
    cookie = set_cookie_attributes(response)
    assert "httponly" in cookie and cookie["samesite"].lower() == "strict" and cookie["path"] == "/"
    assert int(cookie["max-age"]) == 14 * 24 * 3600
    assert "secure" not in cookie  # plain http (a test, a local serve): a Secure cookie would not come back
    with session_scope() as session:  # only the secret's SHA-256 is stored
        row = session.scalar(select(WebSession).where(WebSession.user_id == account.id))
        assert row is not None and row.csrf_token == body["csrf_token"]
        assert row.secret_hash == hashlib.sha256(cookie["value"].encode()).hexdigest()
        assert row.expires_at - row.created_at == timedelta(days=14)
    assert len(cookie["value"]) >= 43  # 32 random bytes, URL-safe base64


def test_the_cookie_is_secure_over_https(client: TestClient) -> None:
    account = make_account()
    with TestClient(client.app, base_url="https://judge.example") as secure:
        cookie = set_cookie_attributes(sign_in(secure, account.name))
    assert "secure" in cookie and cookie["samesite"].lower() == "strict" and "httponly" in cookie


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(browser: TestClient) -> None:
    account = make_account()
    wrong = error(sign_in(browser, account.name, "not the password at all"), 401, "bad_credentials")
    unknown = error(sign_in(browser, unique("nobody"), PASSWORD), 401, "bad_credentials")
    tokens_only = error(sign_in(browser, make_account(password=None).name, PASSWORD), 401, "bad_credentials")
    assert wrong == unknown == tokens_only
    assert "set-cookie" not in browser.post(f"{API}/auth/sign-in", json={"name": "x", "password": "y"}).headers


def test_unknown_names_cost_one_argon2_verification_like_known_ones(browser: TestClient,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The constant-time path: a name that does not exist (or has no password) is still checked
    against a hash, so the answer's timing does not tell which names exist."""
    account = make_account()
    tokens_only = make_account(password=None)
    calls: list[str] = []
    real = PasswordHasher.verify

    def counted(self: PasswordHasher, stored: str | bytes, password: str | bytes) -> bool:
        calls.append(str(stored)[:30])
        return real(self, stored, password)

    monkeypatch.setattr(PasswordHasher, "verify", counted)
    for name in (account.name, unique("nobody"), tokens_only.name):
        calls.clear()
        error(sign_in(browser, name, "a wrong password, long"), 401, "bad_credentials")
        assert len(calls) == 1 and calls[0].startswith("$argon2id$v=19$m=1024,t=1,p=1"), (name, calls)


def test_names_are_trimmed_when_signing_in(browser: TestClient) -> None:
    account = make_account()
    assert sign_in(browser, f"  {account.name} ").status_code == 200


def test_the_cookie_authenticates_reads(browser: TestClient) -> None:
    account = make_account()
    signed_in(browser, account)
    me = browser.get(f"{API}/me")
    assert me.status_code == 200 and me.json()["name"] == account.name
    assert browser.get(f"{API}/problems").status_code == 200


def test_auth_session_answers_for_a_cookie_only(browser: TestClient, client: TestClient) -> None:
    account = make_account()
    _, csrf = signed_in(browser, account)
    session = browser.get(f"{API}/auth/session")
    assert session.status_code == 200
    assert session.json() == {"user": {"id": account.id, "name": account.name, "role": "learner",
                                       "email": None, "email_notifications": True, "unread_notifications": 0},
                              "csrf_token": csrf}
    error(client.get(f"{API}/auth/session", headers=bearer(account.token)), 401, "unauthorized")
    error(client.get(f"{API}/auth/session"), 401, "unauthorized")


# ---------------------------------------------------------------------------------------------
# CSRF


def test_a_change_with_the_cookie_needs_the_csrf_header(browser: TestClient) -> None:
    account = make_account()
    _, csrf = signed_in(browser, account)
    error(browser.post(f"{API}/me/tokens", json={"label": "no header"}), 403, "csrf")
    error(browser.post(f"{API}/me/tokens", json={"label": "wrong"}, headers={"X-CSRF-Token": csrf[:-1] + "x"}),
          403, "csrf")
    error(browser.post(f"{API}/submissions", json={"problem": "secret_lookup", "code": "x = 1\n"}), 403, "csrf")
    with session_scope() as session:
        assert session.scalars(select(ApiToken).where(ApiToken.user_id == account.id)).all() != []
        assert not [t for t in session.scalars(select(ApiToken).where(ApiToken.user_id == account.id))
                    if t.label is not None]  # neither refused request made a token
    made = browser.post(f"{API}/me/tokens", json={"label": "with header"}, headers={"X-CSRF-Token": csrf})
    assert made.status_code == 201, made.text


def test_a_bearer_token_needs_no_csrf_header_even_with_a_cookie(browser: TestClient) -> None:
    account = make_account()
    signed_in(browser, account)
    made = browser.post(f"{API}/me/tokens", json={"label": "bearer"}, headers=bearer(account.token))
    assert made.status_code == 201, made.text


def test_one_users_csrf_token_does_not_pass_for_another(client: TestClient) -> None:
    first, second = make_account(), make_account()
    a, b = TestClient(client.app, raise_server_exceptions=False), TestClient(client.app, raise_server_exceptions=False)
    _, csrf_a = signed_in(a, first)
    signed_in(b, second)
    error(b.post(f"{API}/me/tokens", json={"label": "x"}, headers={"X-CSRF-Token": csrf_a}), 403, "csrf")


# ---------------------------------------------------------------------------------------------
# Signing out and expiry


def test_sign_out_deletes_the_session_and_clears_the_cookie(browser: TestClient) -> None:
    account = make_account()
    cookie, csrf = signed_in(browser, account)
    replay = TestClient(browser.app, raise_server_exceptions=False)
    replay.cookies.set(COOKIE, cookie)  # the same cookie, kept by someone else
    assert replay.get(f"{API}/me").status_code == 200
    error(browser.post(f"{API}/auth/sign-out"), 403, "csrf")  # signing out is a change, too
    out = browser.post(f"{API}/auth/sign-out", headers={"X-CSRF-Token": csrf})
    assert out.status_code == 204
    cleared = set_cookie_attributes(out)
    assert cleared["value"] in ("", '""') and int(cleared["max-age"]) == 0
    with session_scope() as session:
        assert session.scalar(select(WebSession).where(WebSession.user_id == account.id)) is None
    error(replay.get(f"{API}/me"), 401, "unauthorized")  # the old cookie, replayed


def test_an_expired_session_is_refused(browser: TestClient) -> None:
    account = make_account()
    signed_in(browser, account)
    with session_scope() as session:
        session.execute(update(WebSession).where(WebSession.user_id == account.id)
                        .values(expires_at=utcnow() - timedelta(seconds=1)))
    assert "sign in again" in error(browser.get(f"{API}/me"), 401, "unauthorized")


def test_the_session_lifetime_is_a_setting(browser: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    use_settings(monkeypatch, session_days=2.0)
    cookie = set_cookie_attributes(sign_in(browser, make_account().name))
    assert int(cookie["max-age"]) == 2 * 24 * 3600


def test_a_made_up_cookie_is_refused(browser: TestClient) -> None:
    browser.cookies.set(COOKIE, "x" * 43)
    error(browser.get(f"{API}/me"), 401, "unauthorized")


# ---------------------------------------------------------------------------------------------
# The rate limit


def test_five_failures_for_a_name_block_it_even_with_the_right_password(client: TestClient) -> None:
    account = make_account()
    addresses = [at(client, f"10.1.0.{n}") for n in range(6)]  # one address each: only the name counts
    for n in range(5):
        error(sign_in(addresses[n], account.name, f"wrong guess {n}"), 401, "bad_credentials")
    blocked = sign_in(addresses[5], account.name)
    error(blocked, 429, "too_many_attempts")
    assert 890 <= int(blocked.headers["Retry-After"]) <= 900
    error(sign_in(at(client, "10.1.1.1"), make_account().name, "wrong guess"), 401)  # another name is not blocked


def test_twenty_failures_from_an_address_block_it(client: TestClient) -> None:
    attacker, elsewhere = at(client, "10.2.0.1"), at(client, "10.2.0.2")
    for n in range(20):
        error(sign_in(attacker, unique(f"guess{n}"), "wrong guess"), 401, "bad_credentials")
    account = make_account()
    blocked = sign_in(attacker, account.name)
    error(blocked, 429, "too_many_attempts")
    assert int(blocked.headers["Retry-After"]) > 0
    assert sign_in(elsewhere, account.name).status_code == 200


def test_retry_after_counts_from_the_failures_that_keep_the_limit_full(client: TestClient) -> None:
    account = make_account()
    now = utcnow()
    with session_scope() as session:  # 5 failures, the oldest 10 min ago and the others just now
        session.add(SignInFailure(name=account.name, address="10.3.0.1", failed_at=now - timedelta(minutes=10)))
        session.add_all(SignInFailure(name=account.name, address="10.3.0.1", failed_at=now) for _ in range(4))
    blocked = sign_in(at(client, "10.3.0.2"), account.name)
    error(blocked, 429, "too_many_attempts")
    assert 290 <= int(blocked.headers["Retry-After"]) <= 300  # the oldest leaves the window in 5 min


def test_failures_older_than_the_window_do_not_count_and_are_pruned(client: TestClient) -> None:
    account = make_account()
    with session_scope() as session:
        session.add_all(SignInFailure(name=account.name, address="10.4.0.1",
                                      failed_at=utcnow() - timedelta(minutes=16)) for _ in range(10))
    error(sign_in(at(client, "10.4.0.1"), account.name, "a wrong one"), 401, "bad_credentials")
    with session_scope() as session:
        rows = session.scalars(select(SignInFailure).where(SignInFailure.name == account.name)).all()
        assert len(rows) == 1  # the new failure; the old ten were deleted when it was recorded
    assert sign_in(at(client, "10.4.0.1"), account.name).status_code == 200


def test_a_successful_sign_in_forgets_the_names_failures(client: TestClient) -> None:
    account = make_account()
    for n in range(4):
        error(sign_in(at(client, "10.5.0.1"), account.name, f"wrong {n}"), 401)
    assert sign_in(at(client, "10.5.0.2"), account.name).status_code == 200
    for n in range(4):  # four more are allowed again
        error(sign_in(at(client, "10.5.0.3"), account.name, f"wrong again {n}"), 401)
    assert sign_in(at(client, "10.5.0.4"), account.name).status_code == 200


def test_a_refused_attempt_stores_nothing(client: TestClient) -> None:
    """Past the limit, guesses at ever new names from the blocked address write no rows (neither
    attempts nor the names' keys), so they cost the database nothing to keep."""
    attacker = at(client, "10.7.0.1")
    for n in range(20):
        error(sign_in(attacker, unique(f"guess{n}"), "wrong guess"), 401)

    def rows() -> tuple[int, int]:
        with session_scope() as session:
            return (int(session.scalar(select(func.count()).select_from(SignInFailure)) or 0),
                    int(session.scalar(select(func.count()).select_from(SignInKey)) or 0))

    before = rows()
    for n in range(10):
        error(sign_in(attacker, unique(f"more{n}"), "wrong guess"), 429, "too_many_attempts")
    assert rows() == before


def test_the_forwarded_for_header_is_not_trusted(client: TestClient) -> None:
    attacker = at(client, "10.6.0.1")
    for n in range(20):
        attacker.post(f"{API}/auth/sign-in", json={"name": unique("g"), "password": "wrong guess"},
                      headers={"X-Forwarded-For": f"192.0.2.{n}"})
    error(sign_in(attacker, make_account().name), 429, "too_many_attempts")


# ---------------------------------------------------------------------------------------------
# Passwords: hashing, rehashing, changing


def test_passwords_are_stored_as_argon2id_hashes() -> None:
    account = make_account()
    with session_scope() as session:
        user = session.get(User, account.id)
        assert user is not None and user.password_hash is not None
        assert user.password_hash.startswith("$argon2id$") and PASSWORD not in user.password_hash


def test_a_hash_with_old_parameters_is_replaced_at_sign_in(browser: TestClient,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    account = make_account()  # hashed with t=1
    use_settings(monkeypatch, password_time_cost=2)
    error(sign_in(browser, account.name, "a wrong password"), 401)
    with session_scope() as session:
        before = session.get(User, account.id).password_hash  # type: ignore[union-attr]
    assert before is not None and ",t=1," in before  # a failure rehashes nothing
    assert sign_in(browser, account.name).status_code == 200
    with session_scope() as session:
        after = session.get(User, account.id).password_hash  # type: ignore[union-attr]
    assert after is not None and ",t=2," in after
    assert sign_in(browser, account.name).status_code == 200  # the new hash verifies


def test_changing_the_password_asks_for_the_current_one_and_ends_other_sessions(client: TestClient) -> None:
    account = make_account()
    here, there = TestClient(client.app), TestClient(client.app)
    _, csrf = signed_in(here, account)
    signed_in(there, account)
    new = "a brand new passphrase"
    change = f"{API}/me/password"
    error(here.put(change, json={"new_password": new}, headers={"X-CSRF-Token": csrf}), 403, "wrong_password")
    error(here.put(change, json={"current_password": "not it at all", "new_password": new},
                   headers={"X-CSRF-Token": csrf}), 403, "wrong_password")
    error(here.put(change, json={"current_password": PASSWORD, "new_password": "short"},
                   headers={"X-CSRF-Token": csrf}), 422, "invalid_input")
    error(here.put(change, json={"current_password": PASSWORD, "new_password": new}), 403, "csrf")
    done = here.put(change, json={"current_password": PASSWORD, "new_password": new},
                    headers={"X-CSRF-Token": csrf})
    assert done.status_code == 204, done.text
    assert here.get(f"{API}/me").status_code == 200  # this session goes on
    error(there.get(f"{API}/me"), 401, "unauthorized")  # the other one ended
    error(sign_in(client, account.name), 401, "bad_credentials")
    assert sign_in(TestClient(client.app), account.name, new).status_code == 200
    assert client.get(f"{API}/me", headers=bearer(account.token)).status_code == 200  # tokens stay


def test_a_user_without_a_password_sets_one_with_a_token(client: TestClient, browser: TestClient) -> None:
    account = make_account(password=None)
    done = client.put(f"{API}/me/password", headers=bearer(account.token),
                      json={"new_password": "my first password"})
    assert done.status_code == 204, done.text
    assert sign_in(browser, account.name, "my first password").status_code == 200


@pytest.mark.parametrize("password", ["123456789", "x" * 201])
def test_password_length_is_checked(client: TestClient, password: str) -> None:
    account = make_account(password=None)
    message = error(client.put(f"{API}/me/password", headers=bearer(account.token),
                               json={"new_password": password}), 422, "invalid_input")
    assert "10 to 200 characters" in message


# ---------------------------------------------------------------------------------------------
# API tokens


def test_tokens_are_made_listed_and_revoked(client: TestClient) -> None:
    account = make_account()
    made = client.post(f"{API}/me/tokens", headers=bearer(account.token), json={"label": "  laptop  "})
    assert made.status_code == 201
    body = made.json()
    assert body["label"] == "laptop" and body["token"].startswith("jt_")
    listed = client.get(f"{API}/me/tokens", headers=bearer(account.token)).json()
    assert [t["label"] for t in listed] == [None, "laptop"]
    assert body["token"] not in str(listed) and set(listed[1]) == {"id", "label", "created_at", "last_used_at"}
    assert client.get(f"{API}/me", headers=bearer(body["token"])).json()["name"] == account.name
    assert client.delete(f"{API}/me/tokens/{body['id']}", headers=bearer(account.token)).status_code == 204
    error(client.get(f"{API}/me", headers=bearer(body["token"])), 401, "unauthorized")
    assert [t["label"] for t in client.get(f"{API}/me/tokens", headers=bearer(account.token)).json()] == [None]


def test_another_users_token_cannot_be_revoked(client: TestClient) -> None:
    owner, other = make_account(), make_account()
    theirs = client.post(f"{API}/me/tokens", headers=bearer(owner.token), json={"label": "mine"}).json()
    error(client.delete(f"{API}/me/tokens/{theirs['id']}", headers=bearer(other.token)), 404, "not_found")
    assert client.get(f"{API}/me", headers=bearer(theirs["token"])).status_code == 200


@pytest.mark.parametrize("label", ["", "   ", "x" * 101])
def test_a_token_label_is_checked(client: TestClient, label: str) -> None:
    account = make_account()
    error(client.post(f"{API}/me/tokens", headers=bearer(account.token), json={"label": label}), 422)


def test_last_used_at_is_written_at_most_once_a_minute(client: TestClient) -> None:
    account = make_account()
    made = client.post(f"{API}/me/tokens", headers=bearer(account.token), json={"label": "ci"}).json()

    def last_used() -> object:
        with session_scope() as session:
            return session.get(ApiToken, made["id"]).last_used_at  # type: ignore[union-attr]

    assert last_used() is None
    client.get(f"{API}/me", headers=bearer(made["token"]))
    first = last_used()
    assert first is not None
    client.get(f"{API}/me", headers=bearer(made["token"]))
    assert last_used() == first  # within the minute: no write
    with session_scope() as session:
        session.execute(update(ApiToken).where(ApiToken.id == made["id"])
                        .values(last_used_at=utcnow() - timedelta(minutes=2)))
    client.get(f"{API}/me", headers=bearer(made["token"]))
    moved = last_used()
    assert isinstance(moved, type(utcnow())) and utcnow() - moved < timedelta(seconds=30)
    listed = {t["id"]: t for t in client.get(f"{API}/me/tokens", headers=bearer(account.token)).json()}
    assert listed[made["id"]]["last_used_at"] is not None


# ---------------------------------------------------------------------------------------------
# Registering through a join link


def make_course(code: str | None = None) -> str:
    code = code or new_join_code()
    with session_scope() as session:
        session.add(Course(title=unique("course"), join_code=code))
    return code


def test_registering_through_a_join_link_makes_a_signed_in_learner_of_the_course(browser: TestClient) -> None:
    code = make_course()
    name = unique("newcomer")
    response = browser.post(f"{API}/auth/register", json={"name": f" {name} ", "password": PASSWORD, "join_code": code})
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["user"]["name"] == name and body["user"]["role"] == "learner" and body["csrf_token"]
    assert "httponly" in set_cookie_attributes(response)
    assert browser.get(f"{API}/me").json()["name"] == name
    with session_scope() as session:
        course = session.scalar(select(Course).where(Course.join_code == code))
        member = session.scalar(select(CourseMember).where(CourseMember.user_id == body["user"]["id"]))
        assert course is not None and member is not None
        assert member.course_id == course.id and member.role == "learner"
    assert sign_in(TestClient(browser.app), name).status_code == 200


def test_registering_with_a_wrong_code_makes_no_account(browser: TestClient) -> None:
    name = unique("stranger")
    error(browser.post(f"{API}/auth/register", json={"name": name, "password": PASSWORD, "join_code": "nope"}),
          404, "not_found")
    with session_scope() as session:
        assert session.scalar(select(User).where(User.name == name)) is None


@pytest.mark.parametrize(("name", "password", "status"), [
    ("   ", PASSWORD, 422), ("x" * 101, PASSWORD, 422), ("ok-name", "too short", 422),
])
def test_registration_checks_the_name_and_the_password(browser: TestClient, name: str, password: str,
                                                       status: int) -> None:
    code = make_course()
    error(browser.post(f"{API}/auth/register", json={"name": name, "password": password, "join_code": code}),
          status, "invalid_input")


def test_registering_a_taken_name_is_a_conflict(browser: TestClient) -> None:
    taken = make_account()
    error(browser.post(f"{API}/auth/register",
                       json={"name": taken.name, "password": PASSWORD, "join_code": make_course()}), 409, "conflict")


# ---------------------------------------------------------------------------------------------
# The admin's user routes


@pytest.mark.parametrize(("role", "status"), [("learner", 403), ("instructor", 403), ("admin", 200), (None, 401)])
def test_only_admins_reach_the_user_routes(client: TestClient, role: str | None, status: int) -> None:
    headers = bearer(make_account(Role(role)).token) if role else {}
    target = make_account()
    assert client.get(f"{API}/users", headers=headers).status_code == status
    changed = client.patch(f"{API}/users/{target.id}", headers=headers, json={"role": "instructor"})
    assert changed.status_code == status
    made = client.post(f"{API}/users", headers=headers, json={"name": unique("made"), "password": PASSWORD})
    assert made.status_code == (201 if status == 200 else status)


def test_admins_list_users_with_paging(client: TestClient) -> None:
    admin = make_account(Role.ADMIN)
    tokens_only = make_account(password=None)
    page = client.get(f"{API}/users?limit=500", headers=bearer(admin.token)).json()
    assert page["total"] >= 2 and len(page["items"]) == min(page["total"], 500)
    by_id = {u["id"]: u for u in page["items"]}
    assert by_id[admin.id]["has_password"] is True and by_id[admin.id]["role"] == "admin"
    assert by_id[tokens_only.id]["has_password"] is False
    assert set(by_id[admin.id]) == {"id", "name", "role", "created_at", "has_password"}
    second = client.get(f"{API}/users?limit=1&offset=1", headers=bearer(admin.token)).json()
    assert second["items"] == [page["items"][1]] and second["total"] == page["total"]
    error(client.get(f"{API}/users?limit=0", headers=bearer(admin.token)), 422)


def test_a_role_change_ends_the_users_sessions(client: TestClient, browser: TestClient) -> None:
    admin, learner = make_account(Role.ADMIN), make_account()
    signed_in(browser, learner)
    changed = client.patch(f"{API}/users/{learner.id}", headers=bearer(admin.token), json={"role": "instructor"})
    assert changed.status_code == 200 and changed.json()["role"] == "instructor"
    error(browser.get(f"{API}/me"), 401, "unauthorized")
    assert client.get(f"{API}/me", headers=bearer(learner.token)).json()["role"] == "instructor"
    error(client.patch(f"{API}/users/999999", headers=bearer(admin.token), json={"role": "admin"}), 404)
    error(client.patch(f"{API}/users/{learner.id}", headers=bearer(admin.token), json={"role": "root"}), 422)


def test_the_last_admin_cannot_be_demoted(client: TestClient) -> None:
    admin = make_account(Role.ADMIN)
    with session_scope() as session:
        others = [u.id for u in session.scalars(select(User).where(User.role == Role.ADMIN, User.id != admin.id))]
    for user_id in others:  # for this test only, the one admin there is
        set_role(user_id, Role.INSTRUCTOR)
    try:
        message = error(client.patch(f"{API}/users/{admin.id}", headers=bearer(admin.token),
                                     json={"role": "learner"}), 409, "last_admin")
        assert "last admin" in message
        second = make_account(Role.LEARNER)
        promoted = client.patch(f"{API}/users/{second.id}", headers=bearer(admin.token), json={"role": "admin"})
        assert promoted.status_code == 200
        demoted = client.patch(f"{API}/users/{admin.id}", headers=bearer(admin.token), json={"role": "learner"})
        assert demoted.status_code == 200 and demoted.json()["role"] == "learner"
        set_role(second.id, Role.LEARNER)
    finally:
        for user_id in others:
            set_role(user_id, Role.ADMIN)


def test_an_admin_creates_a_user_who_can_sign_in(client: TestClient, browser: TestClient) -> None:
    admin = make_account(Role.ADMIN)
    name = unique("created")
    made = client.post(f"{API}/users", headers=bearer(admin.token),
                       json={"name": f"  {name}", "role": "instructor", "password": PASSWORD})
    assert made.status_code == 201, made.text
    assert made.json()["name"] == name and made.json()["has_password"] and made.json()["role"] == "instructor"
    assert "token" not in made.json()
    assert sign_in(browser, name).json()["user"]["role"] == "instructor"
    error(client.post(f"{API}/users", headers=bearer(admin.token), json={"name": name, "password": PASSWORD}),
          409, "conflict")
    error(client.post(f"{API}/users", headers=bearer(admin.token), json={"name": "n", "password": "short"}),
          422, "invalid_input")


def test_admin_changes_with_the_cookie_need_the_csrf_header(client: TestClient, browser: TestClient) -> None:
    admin, target = make_account(Role.ADMIN), make_account()
    _, csrf = signed_in(browser, admin)
    error(browser.patch(f"{API}/users/{target.id}", json={"role": "admin"}), 403, "csrf")
    with session_scope() as session:
        assert session.get(User, target.id).role == "learner"  # type: ignore[union-attr]
    assert browser.patch(f"{API}/users/{target.id}", json={"role": "instructor"},
                         headers={"X-CSRF-Token": csrf}).status_code == 200


def test_an_admin_demoting_itself_keeps_its_own_session(client: TestClient, browser: TestClient) -> None:
    admin = make_account(Role.ADMIN)
    make_account(Role.ADMIN)  # not the last one
    _, csrf = signed_in(browser, admin)
    done = browser.patch(f"{API}/users/{admin.id}", json={"role": "instructor"}, headers={"X-CSRF-Token": csrf})
    assert done.status_code == 200
    assert browser.get(f"{API}/me").json()["role"] == "instructor"
    error(browser.get(f"{API}/users"), 403, "forbidden")




def test_a_name_taken_at_the_same_moment_is_a_conflict_not_a_crash(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two requests pass the name check together; the unique index refuses the second insert,
    which must be the same 409 as a name taken earlier, not a 500."""
    from service import users
    from service.errors import Conflict

    with session_scope() as session:
        users.add_user(session, "same-moment", Role.LEARNER)
    with session_scope() as session:
        # The second request's check ran before the first one committed: it saw no such name.
        monkeypatch.setattr(session, "scalar", lambda *_args, **_kwargs: None)
        with pytest.raises(Conflict, match="already exists"):
            users.add_user(session, "same-moment", Role.LEARNER)
