"""Browser sessions: a cookie holding 32 random bytes, stored only as their SHA-256.

Each session also has a CSRF token that the pages read from the sign-in answer (or
``GET /auth/session``) and send back in ``X-CSRF-Token`` with every request that changes
something: a cross-site form can make the browser send the cookie, never the header.
A session lasts ``JUDGE_SESSION_DAYS`` (14) from sign-in; signing out deletes its row, and a new
password or role ends the user's other sessions.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from service.db.models import User, WebSession, utcnow
from service.errors import CsrfRejected
from service.settings import get_settings

COOKIE = "judge_session"
CSRF_HEADER = "X-CSRF-Token"


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def lifetime() -> timedelta:
    return timedelta(days=get_settings().session_days)


def start_session(session: Session, user: User) -> tuple[str, WebSession]:
    """A new session for ``user``: the cookie's secret (not stored) and the row."""
    now = utcnow()
    # The user's expired sessions go now: this stays on the user_id index.
    session.execute(delete(WebSession).where(WebSession.user_id == user.id, WebSession.expires_at <= now))
    secret = secrets.token_urlsafe(32)
    row = WebSession(user_id=user.id, secret_hash=_digest(secret), csrf_token=secrets.token_urlsafe(32),
                     created_at=now, expires_at=now + lifetime())
    session.add(row)
    session.flush()
    return secret, row


def find_session(session: Session, secret: str) -> WebSession | None:
    """The live session whose cookie holds ``secret``; None when unknown or expired."""
    row = session.scalar(select(WebSession).where(WebSession.secret_hash == _digest(secret)))
    if row is None or row.expires_at <= utcnow():
        return None
    return row


def end_session(session: Session, secret: str) -> None:
    session.execute(delete(WebSession).where(WebSession.secret_hash == _digest(secret)))


def end_sessions(session: Session, user_id: int, keep: int | None = None) -> int:
    """End every session of the user except ``keep`` (a session id); how many ended."""
    query = delete(WebSession).where(WebSession.user_id == user_id)
    if keep is not None:
        query = query.where(WebSession.id != keep)
    return int(session.execute(query).rowcount)  # type: ignore[attr-defined]


def csrf_matches(row: WebSession, sent: str | None) -> bool:
    return sent is not None and hmac.compare_digest(row.csrf_token.encode(), sent.encode())


def require_csrf(row: WebSession, sent: str | None) -> None:
    if not csrf_matches(row, sent):
        raise CsrfRejected(f"a request that changes something with the session cookie must send the "
                           f"session's CSRF token in the {CSRF_HEADER} header")
