"""`judge users create --password-stdin` and `judge users set-password`: passwords from stdin."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from service.cli import app
from service.settings import get_settings
from tests.unit.service.helpers import error
from tests.utils.accounts import forget_failures, sign_in, unique
from tests.utils.service import bearer

CHEAP = {"password_time_cost": 1, "password_memory_kib": 1024, "password_parallelism": 1}


@pytest.fixture(scope="module", autouse=True)
def cheap_hashes() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        for name, value in CHEAP.items():
            patch.setattr(get_settings(), name, value)
        yield


@pytest.fixture(autouse=True)
def no_failures(client: TestClient) -> None:  # after the app: its start-up made the tables
    forget_failures()


def judge(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_create_with_a_password_from_stdin(client: TestClient) -> None:
    name = unique("cli-admin")
    code, out, err = judge("users", "create", name, "--role", "admin", "--password-stdin",
                           stdin="the first admin's password\n")
    assert code == 0, err
    token = out.strip()
    me = client.get("/api/v1/me", headers=bearer(token)).json()
    assert me["name"] == name and me["role"] == "admin"
    signed = sign_in(TestClient(client.app), name, "the first admin's password")
    assert signed.status_code == 200 and signed.json()["user"]["role"] == "admin"


def test_create_without_a_password_signs_in_with_tokens_only(client: TestClient) -> None:
    name = unique("cli-learner")
    code, out, _ = judge("users", "create", name)
    assert code == 0 and out.strip().startswith("jt_")
    error(sign_in(TestClient(client.app), name, "any password at all"), 401, "bad_credentials")


@pytest.mark.parametrize(("stdin", "says"), [("short\n", "10 to 200 characters"), ("\n", "held no password")])
def test_create_refuses_a_bad_password_and_makes_no_user(client: TestClient, stdin: str, says: str) -> None:
    name = unique("cli-bad")
    code, out, err = judge("users", "create", name, "--password-stdin", stdin=stdin)
    assert code != 0 and says in err and not out
    assert judge("users", "create", name)[0] == 0  # the name was not taken by the refused attempt


def test_set_password_replaces_it_and_ends_sessions(client: TestClient) -> None:
    name = unique("cli-user")
    judge("users", "create", name, "--password-stdin", stdin="the old password\n")
    browser = TestClient(client.app)
    assert sign_in(browser, name, "the old password").status_code == 200
    code, _, err = judge("users", "set-password", name, "--password-stdin", stdin="the new password\r\n")
    assert code == 0, err
    error(browser.get("/api/v1/me"), 401, "unauthorized")
    error(sign_in(TestClient(client.app), name, "the old password"), 401)
    assert sign_in(TestClient(client.app), name, "the new password").status_code == 200


def test_set_password_needs_stdin_and_a_known_name() -> None:
    code, _, err = judge("users", "set-password", unique("x"))
    assert code != 0 and "--password-stdin" in err
    code, _, err = judge("users", "set-password", unique("nobody"), "--password-stdin", stdin="long enough pw\n")
    assert code != 0 and "no user named" in err
