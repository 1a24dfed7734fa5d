"""OAuth 2 access tokens for a platform's services (the 1EdTech Security Framework): the client
credentials grant, the judge authenticating with a JWT it signs (private_key_jwt). A token is
kept until a minute before it expires, per process, for each platform and set of scopes."""

from __future__ import annotations

import secrets
import threading
import time

from sqlalchemy.orm import Session

from service.db.models import LtiPlatform
from service.errors import PlatformError
from service.lti import keys, remote

ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
EARLY = 60.0  # seconds before its expiry a token is no longer used

_kept: dict[tuple[int, str, str], tuple[str, float]] = {}
_lock = threading.Lock()


def access_token(session: Session, platform: LtiPlatform, scopes: tuple[str, ...]) -> str:
    scope = " ".join(sorted(scopes))
    key = (platform.id, platform.token_url, scope)
    with _lock:
        kept = _kept.get(key)
        if kept is not None and kept[1] > time.monotonic():
            return kept[0]
    now = int(time.time())
    assertion = keys.sign(session, {
        "iss": platform.client_id, "sub": platform.client_id,
        "aud": platform.token_audience or platform.token_url,
        "iat": now, "exp": now + 300, "jti": secrets.token_urlsafe(16)})
    what = f"a token from platform {platform.name!r}"
    answer = remote.json_of(remote.call("POST", platform.token_url, what, data={
        "grant_type": "client_credentials", "client_assertion_type": ASSERTION_TYPE,
        "client_assertion": assertion, "scope": scope}, headers={"Accept": "application/json"}), what)
    token = answer.get("access_token") if isinstance(answer, dict) else None
    if not isinstance(token, str) or not token:
        raise PlatformError(f"{what}: the answer holds no access_token")
    given = answer.get("expires_in", 3600)
    lifetime = float(given) if isinstance(given, int | float) and not isinstance(given, bool) else 3600.0
    with _lock:
        _kept[key] = (token, time.monotonic() + max(0.0, lifetime - EARLY))
    return token


def forget(platform_id: int) -> None:
    """Drop the platform's tokens: one was refused (401), or the platform changed."""
    with _lock:
        for key in [k for k in _kept if k[0] == platform_id]:
            del _kept[key]
