"""The judge's own RSA keys: what it signs deep-linking answers and token requests with, published
at /lti/jwks.

Two keys are published at all times. The older signs; the newer waits its turn, already in the
key set that platforms cache, so rotating (``rotate``: the older goes, the newer signs, a new one
waits) never shows a platform a key it has not seen. Private keys are kept in the database,
which backups then hold: keep backups as secret as the database.
"""

from __future__ import annotations

import secrets
from typing import Any

from joserfc import jwt
from joserfc.jwk import RSAKey
from sqlalchemy import select
from sqlalchemy.orm import Session

from service.db.models import LtiKey

PUBLISHED = 2
KEY_BITS = 2048


def _new_key() -> LtiKey:
    kid = secrets.token_urlsafe(12)
    key = RSAKey.generate_key(KEY_BITS, parameters={"kid": kid, "use": "sig", "alg": "RS256"})
    return LtiKey(kid=kid, private_jwk=dict(key.as_dict(private=True)))


def _keys(session: Session) -> list[LtiKey]:
    """The published keys, oldest first; made on first use (and committed)."""
    keys = list(session.scalars(select(LtiKey).order_by(LtiKey.id)))
    if len(keys) < PUBLISHED:
        for _ in range(PUBLISHED - len(keys)):
            session.add(_new_key())
        session.commit()
        keys = list(session.scalars(select(LtiKey).order_by(LtiKey.id)))
    return keys


def public_key_set(session: Session) -> dict[str, Any]:
    """The JWKS document: every published key's public half."""
    keys = []
    for row in _keys(session):
        public = dict(RSAKey.import_key(row.private_jwk).as_dict(private=False))
        public.update(kid=row.kid, use="sig", alg="RS256")
        keys.append(public)
    return {"keys": keys}


def sign(session: Session, claims: dict[str, Any]) -> str:
    """A compact JWS of ``claims`` (RS256) by the signing key, its kid in the header."""
    row = _keys(session)[0]
    key = RSAKey.import_key(row.private_jwk)
    return jwt.encode({"alg": "RS256", "kid": row.kid, "typ": "JWT"}, claims, key, algorithms=["RS256"])


def rotate(session: Session) -> tuple[str, str]:
    """Retire the signing key: the waiting one signs from now on and a new one waits. Returns
    (the kid that signs now, the kid that waits); committed."""
    keys = _keys(session)
    session.delete(keys[0])
    session.add(_new_key())
    session.commit()
    now = _keys(session)
    return now[0].kid, now[-1].kid
