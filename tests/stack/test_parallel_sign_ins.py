"""Sign-ins sent at once, to a real server (uvicorn on the session's database, PostgreSQL here).

The rate limit counts each attempt before its password is checked, so however many arrive
together, no more than the limit are checked; the password hashing pool is bounded, answers
429 busy at once when full, and no other route waits behind it. Checks are counted twice, with
no clock: by the server itself (its ``judge_password_hashes`` metric) and by the answers (a 401
is one failed check; a 429 checked nothing). Addresses are sent as ``X-Forwarded-For``, which
uvicorn takes as the client's address on connections from 127.0.0.1.
"""

from __future__ import annotations

import re
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select

from service.db.models import SignInFailure
from service.db.session import session_scope
from tests.utils.accounts import PASSWORD, forget_failures, make_account, unique
from tests.utils.api_server import api_server
from tests.utils.service import bearer
from tests.utils.service_env import CHEAP_HASHING

# uvicorn on the session's database (PostgreSQL here), which the module's own fixture starts.
pytestmark = pytest.mark.stack

SIGN_IN = "/api/v1/auth/sign-in"
DEEP_QUEUE = "100"  # deeper than any burst here: every request reaches the rate limit together
SLOW_COST = "40"  # argon2 passes: about 1.3 s a check on this machine, far longer than any answer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("sign-ins")
    with api_server(folder / "api.log", env={"JUDGE_PASSWORD_HASH_QUEUE": DEEP_QUEUE, **own_metrics(folder)}) as base:
        yield base


@pytest.fixture(autouse=True)
def no_failures(server: str) -> None:  # after the server: its start-up made the tables
    forget_failures()


def own_metrics(folder: Path) -> dict[str, str]:
    """The server's metrics in a folder of its own: its /metrics then counts its own hashes,
    never those of another server of this test process (nor loses a stopped one's)."""
    return {"PROMETHEUS_MULTIPROC_DIR": str(folder / "metrics")}


def checks(base: str) -> int:
    """The server's password checks so far (its metric; 0 before the first)."""
    text = httpx.get(f"{base}/metrics").text
    found = re.search(r'^judge_password_hashes_total\{kind="verify"\} (\S+)$', text, re.MULTILINE)
    return int(float(found.group(1))) if found else 0


@dataclass
class Answer:
    name: str
    response: httpx.Response | None  # None: the server stopped before answering
    finished: float  # time.monotonic() when it arrived

    @property
    def status(self) -> int | None:
        return self.response.status_code if self.response is not None else None

    @property
    def code(self) -> str | None:
        if self.response is None or self.response.status_code < 400:
            return None
        return str(self.response.json()["error"]["code"])


def burst(base: str, attempts: list[tuple[str, str, str]], wait: bool = True) -> list[Answer]:
    """Send every (name, password, address) sign-in at once: each client connects first, then
    all are released together. Without ``wait``, return once all are sent; the list fills as
    answers come."""
    answers: list[Answer] = []
    lock = threading.Lock()
    ready = threading.Barrier(len(attempts) + 1)

    def send(name: str, password: str, address: str) -> None:
        with httpx.Client(base_url=base, timeout=300) as http:
            assert http.get("/healthz").status_code == 200  # the connection is open before the start
            ready.wait()
            try:
                response: httpx.Response | None = http.post(
                    SIGN_IN, json={"name": name, "password": password}, headers={"X-Forwarded-For": address})
            except httpx.TransportError:
                response = None
        with lock:
            answers.append(Answer(name, response, time.monotonic()))

    threads = [threading.Thread(target=send, args=attempt, daemon=True) for attempt in attempts]
    for thread in threads:
        thread.start()
    ready.wait()
    if wait:
        for thread in threads:
            thread.join(timeout=300)
        assert len(answers) == len(attempts)
    return answers


def attempts_counted(names: list[str]) -> int:
    with session_scope() as session:
        return int(session.scalar(select(func.count()).select_from(SignInFailure)
                                  .where(SignInFailure.name.in_(names))) or 0)


def test_thirty_parallel_guesses_at_one_name_get_five_checks(server: str) -> None:
    account = make_account()
    before = checks(server)
    answers = burst(server, [(account.name, f"wrong guess {n}", f"10.30.0.{n}") for n in range(30)])
    assert Counter(a.status for a in answers) == {401: 5, 429: 25}
    assert checks(server) - before == 5
    refused = [a for a in answers if a.status == 429]
    assert {a.code for a in refused} == {"too_many_attempts"}
    assert all(a.response is not None and 890 <= int(a.response.headers["Retry-After"]) <= 900 for a in refused)
    right = httpx.post(f"{server}{SIGN_IN}", json={"name": account.name, "password": PASSWORD},
                       headers={"X-Forwarded-For": "10.30.1.1"})
    assert right.status_code == 429  # the name is blocked, even for its own password
    assert checks(server) - before == 5


def test_sixty_parallel_names_from_one_address_get_twenty_checks(server: str) -> None:
    before = checks(server)
    answers = burst(server, [(unique(f"guess{n}"), "wrong guess", "10.60.0.1") for n in range(60)])
    assert Counter(a.status for a in answers) == {401: 20, 429: 40}
    assert checks(server) - before == 20
    assert {a.code for a in answers if a.status == 429} == {"too_many_attempts"}
    elsewhere = httpx.post(f"{server}{SIGN_IN}", json={"name": unique("x"), "password": "wrong guess"},
                           headers={"X-Forwarded-For": "10.60.0.2"})
    assert elsewhere.status_code == 401  # another address is not blocked


def test_a_full_hashing_pool_answers_busy_at_once(tmp_path: Path) -> None:
    """One worker and a queue of two, each check about 1.3 s: of ten sign-ins sent at once,
    three are checked, and seven are refused before the first check ends, counting no attempt
    and costing no check."""
    env = {"JUDGE_PASSWORD_HASH_WORKERS": "1", "JUDGE_PASSWORD_HASH_QUEUE": "2",
           "JUDGE_PASSWORD_TIME_COST": SLOW_COST}
    with api_server(tmp_path / "api.log", env={**env, **own_metrics(tmp_path)}, unset=tuple(CHEAP_HASHING)) as base:
        before = checks(base)
        answers = burst(base, [(unique(f"busy{n}"), "wrong guess", f"10.40.0.{n}") for n in range(10)])
        assert Counter(a.status for a in answers) == {401: 3, 429: 7}
        busy = [a for a in answers if a.status == 429]
        checked = [a for a in answers if a.status == 401]
        assert {a.code for a in busy} == {"busy"}
        assert {a.response.headers["Retry-After"] for a in busy if a.response is not None} == {"1"}
        assert max(a.finished for a in busy) < min(a.finished for a in checked)
        assert checks(base) - before == 3
        assert attempts_counted([a.name for a in busy]) == 0
        assert attempts_counted([a.name for a in checked]) == 3


def test_other_routes_answer_while_the_hashing_pool_is_full(tmp_path: Path) -> None:
    """Sixty sign-ins waiting for one slow hashing worker hold no thread of the routes' pool:
    GET /me and /healthz answer while all but the first few are still waiting."""
    env = {"JUDGE_PASSWORD_HASH_WORKERS": "1", "JUDGE_PASSWORD_HASH_QUEUE": "60",
           "JUDGE_PASSWORD_TIME_COST": SLOW_COST}
    with api_server(tmp_path / "api.log", env={**env, **own_metrics(tmp_path)}, unset=tuple(CHEAP_HASHING)) as base:
        account = make_account()
        answers = burst(base, [(unique(f"slow{n}"), "wrong guess", f"10.50.{n}.1") for n in range(60)],
                        wait=False)
        time.sleep(0.5)  # every sign-in has arrived and waits for the one worker
        with httpx.Client(base_url=base, headers=bearer(account.token), timeout=300) as http:
            for _ in range(5):
                assert http.get("/api/v1/me").status_code == 200
                assert http.get("/healthz").status_code == 200
        finished_by_then = len(answers)
    assert finished_by_then <= 3, f"{finished_by_then} of 60 sign-ins had finished before GET /me answered"
