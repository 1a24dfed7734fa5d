"""`judge api` behind a reverse proxy: the forwarded headers of the proxies it is told to trust
(`--forwarded-allow-ips`, JUDGE_FORWARDED_ALLOW_IPS) give each client its own address, so the
sign-in limit counts two clients apart, and https, so the session cookie is Secure; the same
headers from anyone else change nothing. JUDGE_PUBLIC_URL on https makes the cookie Secure too.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.utils.accounts import set_cookie_attributes
from tests.utils.api_server import serving
from tests.utils.service_env import FIXTURE_PROBLEMS, child_env

PASSWORD = "a password of twenty-five"
CLIENT_A, CLIENT_B = "203.0.113.7", "198.51.100.9"
PER_ADDRESS = 20  # service.sign_in_limits.PER_ADDRESS


@contextmanager
def judge_api(tmp_path: Path, *options: str, **env: str) -> Iterator[httpx.Client]:
    """`judge api` on a database of its own (SQLite in tmp_path) holding the user alice."""
    environment = {k: v for k, v in child_env().items() if k not in ("JUDGE_DATABASE_URL", "JUDGE_BROKER_URL")}
    environment.update(JUDGE_DATA_DIR=str(tmp_path), JUDGE_PROBLEMS_DIR=str(FIXTURE_PROBLEMS),
                       JUDGE_READY_NEEDS_DOCKER="false", **env)
    made = subprocess.run([sys.executable, "-m", "service.cli", "users", "create", "alice", "--password-stdin"],
                          input=PASSWORD + "\n", env=environment, capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    command = [sys.executable, "-m", "service.cli", "api", *options]
    with serving(lambda port: [*command, "--port", str(port)], tmp_path / "api.log", environment) as base, \
            httpx.Client(base_url=base, timeout=30) as client:
        yield client


def _sign_in(client: httpx.Client, name: str, password: str, address: str, scheme: str = "http") -> httpx.Response:
    return client.post("/api/v1/auth/sign-in", json={"name": name, "password": password},
                       headers={"X-Forwarded-For": address, "X-Forwarded-Proto": scheme})


def _fail_until_limited(client: httpx.Client, address: str) -> None:
    for attempt in range(PER_ADDRESS):  # a name of its own each time: the per-name limit stays out of it
        assert _sign_in(client, f"nobody-{address}-{attempt}", "wrong", address).status_code == 401
    limited = _sign_in(client, f"nobody-{address}-last", "wrong", address)
    assert limited.status_code == 429 and limited.json()["error"]["code"] == "too_many_attempts", limited.text


def test_a_trusted_proxys_clients_are_limited_apart_and_get_secure_cookies(tmp_path: Path) -> None:
    with judge_api(tmp_path, "--forwarded-allow-ips", "127.0.0.1") as client:
        _fail_until_limited(client, CLIENT_A)
        assert _sign_in(client, "nobody-else", "wrong", CLIENT_B).status_code == 401  # B has its own count
        signed_in = _sign_in(client, "alice", PASSWORD, CLIENT_B, scheme="https")
        assert signed_in.status_code == 200, signed_in.text
        assert "secure" in set_cookie_attributes(signed_in)
        plain = _sign_in(client, "alice", PASSWORD, CLIENT_B, scheme="http")
        assert "secure" not in set_cookie_attributes(plain)


def test_the_same_headers_from_an_untrusted_peer_change_nothing(tmp_path: Path) -> None:
    with judge_api(tmp_path, "--forwarded-allow-ips", "10.9.9.9") as client:
        signed_in = _sign_in(client, "alice", PASSWORD, CLIENT_A, scheme="https")
        assert signed_in.status_code == 200, signed_in.text
        assert "secure" not in set_cookie_attributes(signed_in)  # the request came over plain http
        _fail_until_limited(client, CLIENT_A)
        # Both "clients" are the peer itself: B is refused with A's count.
        assert _sign_in(client, "nobody-else", "wrong", CLIENT_B).status_code == 429


def test_an_https_public_url_makes_the_cookie_secure_whatever_the_request(tmp_path: Path) -> None:
    with judge_api(tmp_path, JUDGE_PUBLIC_URL="https://judge.example.org",
                   JUDGE_FORWARDED_ALLOW_IPS="10.9.9.9") as client:
        signed_in = _sign_in(client, "alice", PASSWORD, CLIENT_A)
        assert signed_in.status_code == 200, signed_in.text
        assert "secure" in set_cookie_attributes(signed_in)
