"""Webhook signatures: HMAC-SHA256 of ``t.body`` with the user's secret, in a Stripe-style
header; a receiver's check refuses a changed body, another secret, a stale time and junk; and the
verification snippet of docs/webhooks.md accepts what the judge signs."""

from __future__ import annotations

import hashlib
import hmac
import re
from pathlib import Path

import pytest

from service.webhooks.signing import SECRET_PREFIX, header, new_secret, signature, verify

DOC = Path(__file__).resolve().parents[3] / "docs" / "webhooks.md"
BODY = b'{"id":"abc","event":"submission.done","submission":{"id":7,"verdict":"accepted"}}'


def test_the_header_is_t_and_v1_over_the_timestamp_dot_body() -> None:
    secret = "whsec_0123"
    value = header(secret, 1_700_000_000, BODY)
    expected = hmac.new(b"whsec_0123", b"1700000000." + BODY, hashlib.sha256).hexdigest()
    assert value == f"t=1700000000,v1={expected}"
    assert signature(secret, 1_700_000_000, BODY) == expected


def test_secrets_are_fresh_and_long() -> None:
    secrets = {new_secret() for _ in range(20)}
    assert len(secrets) == 20
    assert all(s.startswith(SECRET_PREFIX) and len(s) == len(SECRET_PREFIX) + 48 for s in secrets)


def test_verify_accepts_only_the_exact_body_secret_and_a_recent_time() -> None:
    secret, now = new_secret(), 1_700_000_000
    value = header(secret, now, BODY)
    assert verify(secret, value, BODY, now + 10)
    assert not verify(secret, value, BODY + b" ", now)  # the body changed
    assert not verify(new_secret(), value, BODY, now)  # signed with another secret
    assert not verify(secret, value, BODY, now + 301)  # replayed later than the tolerance
    assert not verify(secret, value, BODY, now - 301)
    tampered_time = value.replace(f"t={now}", f"t={now + 5}")  # the time is inside what is signed
    assert not verify(secret, tampered_time, BODY, now)


@pytest.mark.parametrize("junk", ["", "v1=abc", "t=abc,v1=00", "t=1700000000", "garbage", "t=,v1="])
def test_verify_refuses_malformed_headers(junk: str) -> None:
    assert not verify("whsec_x", junk, BODY, 1_700_000_000)


def test_one_matching_v1_among_several_is_enough() -> None:
    secret, now = new_secret(), 1_700_000_000
    value = f"t={now},v1={'0' * 64},v1={signature(secret, now, BODY)}"
    assert verify(secret, value, BODY, now)


def test_the_documented_snippet_verifies_a_real_signature() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.DOTALL)
    snippet = next(block for block in blocks if "def verify" in block)
    namespace: dict[str, object] = {}
    exec(compile(snippet, str(DOC), "exec"), namespace)  # the docs' own code, as a receiver runs it
    check = namespace["verify"]
    secret = new_secret()
    import time

    now = int(time.time())
    good = header(secret, now, BODY)
    assert check(BODY, good, secret) is True  # type: ignore[operator]
    assert check(BODY + b"x", good, secret) is False  # type: ignore[operator]
    assert check(BODY, header(secret, now - 3600, BODY), secret) is False  # type: ignore[operator]
