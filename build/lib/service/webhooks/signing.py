"""Webhook signatures, as Stripe makes them: ``Judge-Signature: t=<unix time>,v1=<hex>`` where
the hex is HMAC-SHA256, keyed with the user's webhook secret, of ``f"{t}.{body}"``.

The time is inside what is signed, so a receiver that refuses old timestamps also refuses a
captured request replayed later; ``verify`` is the check a receiver makes (docs/webhooks.md
shows it on its own, with the standard library only).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

SIGNATURE_HEADER = "Judge-Signature"
DELIVERY_HEADER = "Judge-Delivery"
EVENT_HEADER = "Judge-Event"
SECRET_PREFIX = "whsec_"
TOLERANCE_SECONDS = 300


def new_secret() -> str:
    """A fresh secret: 192 random bits, prefixed so that a leaked one is recognisable."""
    return SECRET_PREFIX + secrets.token_hex(24)


def signature(secret: str, timestamp: int, body: bytes) -> str:
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def header(secret: str, timestamp: int, body: bytes) -> str:
    return f"t={timestamp},v1={signature(secret, timestamp, body)}"


def verify(secret: str, value: str, body: bytes, now: float,
           tolerance: float = TOLERANCE_SECONDS) -> bool:
    """Whether value (a Judge-Signature header) signs body with secret at a time within
    tolerance seconds of now. Any v1 may match (there may be several while a secret rotates)."""
    timestamp: int | None = None
    candidates: list[str] = []
    for part in value.split(","):
        key, _, item = part.strip().partition("=")
        if key == "t" and item.isdigit():
            timestamp = int(item)
        elif key == "v1":
            candidates.append(item)
    if timestamp is None or abs(now - timestamp) > tolerance:
        return False
    expected = signature(secret, timestamp, body)
    return any(hmac.compare_digest(expected, candidate) for candidate in candidates)
