"""Sign-ins at once on the embedded default (SQLite), and the bounded password hashing pool.

Each request runs in a thread of its own against the one app, so they meet in the app's rate
limit and its hashing pool as a real server's would. The verifier is argon2 itself, wrapped to
count its calls (and, where a test says so, to hold a check until the test lets it go).
"""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from service import password_hashing
from service.db.models import Role, SignInFailure
from service.db.session import session_scope
from service.settings import get_settings
from tests.unit.service.helpers import error
from tests.utils.accounts import PASSWORD, Account, forget_failures, make_account, signed_in, unique
from tests.utils.service import bearer

SIGN_IN = "/api/v1/auth/sign-in"
HELD = "a guess the test holds in the verifier"


@pytest.fixture(autouse=True)
def no_failures(client: TestClient) -> None:  # after the app: its start-up made the tables
    forget_failures()


@pytest.fixture(autouse=True)
def quicker_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """argon2 at about 10 ms a check rather than 100 (8 MiB, one pass): still long beside the
    rate limit's few queries, which is the race these tests are about."""
    for name, value in {"password_time_cost": 1, "password_memory_kib": 8192, "password_parallelism": 1}.items():
        monkeypatch.setattr(get_settings(), name, value)


@dataclass
class Verifier:
    """argon2's verifier, counting its calls; a check of the password HELD waits for ``release``."""

    calls: list[str] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)

    def __call__(self) -> int:
        return len(self.calls)


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> Iterator[Verifier]:
    verifier = Verifier()
    real = PasswordHasher.verify

    def counted(self: PasswordHasher, stored: str | bytes, password: str | bytes) -> bool:
        verifier.calls.append(str(password))
        if password == HELD:
            assert verifier.release.wait(timeout=60)
        return real(self, stored, password)

    monkeypatch.setattr(PasswordHasher, "verify", counted)
    yield verifier
    verifier.release.set()


def pool_shape(monkeypatch: pytest.MonkeyPatch, workers: int, queue: int) -> None:
    monkeypatch.setattr(get_settings(), "password_hash_workers", workers)
    monkeypatch.setattr(get_settings(), "password_hash_queue", queue)


def at(client: TestClient, address: str) -> TestClient:
    return TestClient(client.app, raise_server_exceptions=False, client=(address, 40000))


def together(client: TestClient, attempts: list[tuple[str, str, str]]) -> list[tuple[str, int, str | None]]:
    """Send every (name, password, address) sign-in at once, one thread each; (name, status, code)."""
    answers: list[tuple[str, int, str | None]] = []
    ready = threading.Barrier(len(attempts))

    def send(name: str, password: str, address: str) -> None:
        http = at(client, address)
        ready.wait()
        response = http.post(SIGN_IN, json={"name": name, "password": password})
        code = response.json()["error"]["code"] if response.status_code >= 400 else None
        answers.append((name, response.status_code, code))

    threads = [threading.Thread(target=send, args=attempt) for attempt in attempts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(answers) == len(attempts)
    return answers


def counted(names: list[str]) -> int:
    with session_scope() as session:
        return int(session.scalar(select(func.count()).select_from(SignInFailure)
                                  .where(SignInFailure.name.in_(names))) or 0)


def wait_until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_thirty_guesses_at_one_name_at_once_get_five_checks(client: TestClient, checks: Verifier,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    pool_shape(monkeypatch, 2, 100)  # every guess reaches the rate limit
    account = make_account()
    answers = together(client, [(account.name, f"wrong guess {n}", f"10.70.0.{n}") for n in range(30)])
    assert Counter((status, code) for _, status, code in answers) == {
        (401, "bad_credentials"): 5, (429, "too_many_attempts"): 25}
    assert checks() == 5


def test_sixty_names_at_once_from_one_address_get_twenty_checks(client: TestClient, checks: Verifier,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    pool_shape(monkeypatch, 2, 100)
    answers = together(client, [(unique(f"g{n}"), "wrong guess", "10.71.0.1") for n in range(60)])
    assert Counter(status for _, status, _ in answers) == {401: 20, 429: 40}
    assert checks() == 20


def test_a_full_pool_refuses_every_hashing_route_at_once_and_counts_nothing(
        client: TestClient, checks: Verifier, monkeypatch: pytest.MonkeyPatch) -> None:
    """One worker and a queue of one, both taken by checks the test holds: a third sign-in, a
    registration, a password change and an admin's new user are refused (429 busy, Retry-After
    1) while those checks are still held, and the refused sign-in is not counted."""
    pool_shape(monkeypatch, 1, 1)
    admin, learner = make_account(Role.ADMIN), make_account()
    holders = [threading.Thread(target=at(client, f"10.72.0.{n}").post, args=(SIGN_IN,),
                                kwargs={"json": {"name": unique("held"), "password": HELD}}) for n in range(2)]
    for holder in holders:
        holder.start()
    try:
        _refused_while_held(client, holders, checks, admin, learner)
    finally:  # a held sign-in left running would be checked by the next test's verifier
        checks.release.set()
        for holder in holders:
            holder.join(timeout=60)
    assert password_hashing.slots_held() == 0 and checks() == 2


def _refused_while_held(client: TestClient, holders: list[threading.Thread], checks: Verifier,
                        admin: Account, learner: Account) -> None:
    # Both slots taken is not enough: the worker's sign-in may not have reached the verifier yet.
    wait_until(lambda: password_hashing.slots_held() == 2 and checks() == 1)
    name = unique("refused")
    refused = at(client, "10.72.1.1").post(SIGN_IN, json={"name": name, "password": "wrong guess"})
    assert "try again in 1 s" in error(refused, 429, "busy") and refused.headers["Retry-After"] == "1"
    assert counted([name]) == 0
    error(client.post("/api/v1/auth/register", json={"name": unique("new"), "password": PASSWORD,
                                                     "join_code": "whatever"}), 429, "busy")
    error(client.put("/api/v1/me/password", headers=bearer(learner.token),
                     json={"current_password": PASSWORD, "new_password": "another password"}), 429, "busy")
    error(client.post("/api/v1/users", headers=bearer(admin.token),
                      json={"name": unique("made"), "password": PASSWORD}), 429, "busy")
    assert client.get("/api/v1/me", headers=bearer(learner.token)).status_code == 200
    assert checks() == 1 and all(holder.is_alive() for holder in holders)  # still held: refused at once


def test_a_guess_counts_while_it_is_checked_and_a_success_does_not_forget_it(
        client: TestClient, checks: Verifier) -> None:
    account = make_account()
    for n in range(3):
        error(at(client, "10.73.0.1").post(SIGN_IN, json={"name": account.name, "password": f"wrong {n}"}), 401)
    guess = threading.Thread(target=at(client, "10.73.0.2").post, args=(SIGN_IN,),
                             kwargs={"json": {"name": account.name, "password": HELD}})
    guess.start()
    wait_until(lambda: checks() == 4)  # the held guess is being checked
    assert counted([account.name]) == 4  # and already counts
    assert at(client, "10.73.0.3").post(SIGN_IN, json={"name": account.name, "password": PASSWORD}).status_code == 200
    assert counted([account.name]) == 1  # the three settled failures are forgotten, the held guess is not
    checks.release.set()
    guess.join(timeout=60)
    assert counted([account.name]) == 1  # it failed, and counts on


def test_a_password_change_counts_each_try_before_checking_it(client: TestClient, checks: Verifier,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Wrong current passwords sent at once count for the name's limit like sign-ins: five are
    checked, the rest refused; a right one afterwards is refused too until the window passes."""
    pool_shape(monkeypatch, 2, 100)
    account = make_account()
    browser = TestClient(client.app, raise_server_exceptions=False)
    _, csrf = signed_in(browser, account)
    statuses: list[int] = []
    ready = threading.Barrier(12)

    def change(n: int) -> None:
        ready.wait()
        statuses.append(client.put("/api/v1/me/password", headers=bearer(account.token),
                                   json={"current_password": f"wrong {n}", "new_password": "a new password"}).status_code)

    threads = [threading.Thread(target=change, args=(n,)) for n in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert Counter(statuses) == {403: 5, 429: 7}
    assert checks() == 6  # and the one sign-in above
    error(browser.put("/api/v1/me/password", headers={"X-CSRF-Token": csrf},
                      json={"current_password": PASSWORD, "new_password": "a new password"}), 429,
          "too_many_attempts")


def test_hashing_threads_run_nicer_than_the_thread_that_asks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under load the API's other answers go first: argon2 runs password_hash_niceness (10)
    nicer than the request's own thread."""
    pool_shape(monkeypatch, 3, 5)  # a pool of its own, whose threads start now
    mine = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    seen: list[int] = []
    real = PasswordHasher.hash

    def noting(self: PasswordHasher, password: str | bytes, *, salt: bytes | None = None) -> str:
        seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        return real(self, password, salt=salt)

    monkeypatch.setattr(PasswordHasher, "hash", noting)
    assert password_hashing.new_hash(PASSWORD).startswith("$argon2id$")
    assert seen == [min(19, mine + get_settings().password_hash_niceness)]
