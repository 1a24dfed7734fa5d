"""Checking a launch's ``id_token`` in full, as LTI 1.3 and OpenID Connect ask: every failure is
a LaunchRefused that names the check.

The header first, before any key is looked at: RS256 only (``none``, HS256 and every other
algorithm are refused by name, so a platform's public key can never serve as an HMAC secret),
with a ``kid``. Then the signature by that key of the platform's key set (fetched again once
when the cache lacks it), the issuer and audience (``azp`` when there are several audiences),
the times (with JUDGE_LTI_CLOCK_SKEW_SECONDS either way), the nonce of this login, a registered
deployment, the message type and the LTI version.
"""

from __future__ import annotations

import base64
import json
import time
from typing import Any

from joserfc import jwt
from joserfc.errors import InvalidKeyIdError, JoseError
from sqlalchemy.orm import Session

from service.db.models import LtiPlatform
from service.errors import LaunchRefused
from service.lti import claims as c
from service.lti import platforms
from service.settings import get_settings

MAX_TOKEN_CHARS = 100_000
MESSAGES = (c.RESOURCE_LINK_REQUEST, c.DEEP_LINKING_REQUEST)


def _header(token: str) -> dict[str, Any]:
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_CHARS:
        raise LaunchRefused(f"id_token: a signed JWT of at most {MAX_TOKEN_CHARS} characters was expected")
    parts = token.split(".")
    if len(parts) != 3:
        raise LaunchRefused("id_token: not a compact JWS (three parts separated by dots)")
    try:
        raw = base64.urlsafe_b64decode(parts[0] + "=" * (-len(parts[0]) % 4))
        header = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise LaunchRefused("id_token: its header is not base64url-encoded JSON") from exc
    if not isinstance(header, dict):
        raise LaunchRefused("id_token: its header is not a JSON object")
    return header


def _times(claims: dict[str, Any]) -> None:
    skew = get_settings().lti_clock_skew_seconds
    now = time.time()
    exp, iat = claims.get("exp"), claims.get("iat")
    if not isinstance(exp, int | float) or isinstance(exp, bool):
        raise LaunchRefused("id_token: no expiry time (exp)")
    if not isinstance(iat, int | float) or isinstance(iat, bool):
        raise LaunchRefused("id_token: no issue time (iat)")
    if exp + skew < now:
        raise LaunchRefused(f"id_token: expired {int(now - exp)} s ago")
    if iat - skew > now:
        raise LaunchRefused("id_token: issued in the future (iat): check the platform's clock")


def _audience(claims: dict[str, Any], client_id: str) -> None:
    aud = claims.get("aud")
    audiences = aud if isinstance(aud, list) else [aud]
    if client_id not in audiences:
        raise LaunchRefused(f"id_token: the audience (aud) is not this tool's client id {client_id!r}")
    azp = claims.get("azp")
    if (len(audiences) > 1 or azp is not None) and azp != client_id:
        raise LaunchRefused(f"id_token: the authorized party (azp) is not this tool's client id "
                            f"{client_id!r}")


def verify(session: Session, platform: LtiPlatform, token: str, nonce: str) -> dict[str, Any]:
    """The claims of ``token``, a launch from ``platform`` for the login whose nonce is ``nonce``."""
    header = _header(token)
    alg = header.get("alg")
    if alg != "RS256":
        raise LaunchRefused(f"id_token: algorithm {alg!r} is refused; launches must be signed with RS256")
    kid = header.get("kid")
    if not isinstance(kid, str) or not kid:
        raise LaunchRefused("id_token: its header names no key (kid)")
    keys = platforms.key_set(session, platform, kid)
    try:
        decoded = jwt.decode(token, keys, algorithms=["RS256"])
    except InvalidKeyIdError as exc:
        raise LaunchRefused(f"id_token: key {kid!r} is not in the platform's key set "
                            f"({platform.jwks_url})") from exc
    except (JoseError, ValueError) as exc:
        raise LaunchRefused(f"id_token: the signature does not verify with key {kid!r} of the platform "
                            f"({type(exc).__name__})") from exc
    claims = dict(decoded.claims)
    if claims.get("iss") != platform.issuer:
        raise LaunchRefused(f"id_token: the issuer (iss) is not {platform.issuer!r}")
    _audience(claims, platform.client_id)
    _times(claims)
    if claims.get("nonce") != nonce:
        raise LaunchRefused("id_token: the nonce is not this login's (a replayed or foreign launch)")
    deployment = claims.get(c.DEPLOYMENT_ID)
    if deployment not in platform.deployment_ids:
        raise LaunchRefused(f"id_token: deployment {deployment!r} is not registered for platform "
                            f"{platform.name!r}: an admin adds it on /admin/lti")
    if claims.get(c.MESSAGE_TYPE) not in MESSAGES:
        raise LaunchRefused(f"id_token: message type {claims.get(c.MESSAGE_TYPE)!r} is not one this tool "
                            f"takes ({', '.join(MESSAGES)})")
    if claims.get(c.VERSION) != c.LTI_VERSION:
        raise LaunchRefused(f"id_token: LTI version {claims.get(c.VERSION)!r} is not {c.LTI_VERSION}")
    sub = claims.get("sub")
    if not isinstance(sub, str) or not 1 <= len(sub) <= 255:
        raise LaunchRefused("id_token: no user (sub): anonymous launches are not taken")
    return claims
