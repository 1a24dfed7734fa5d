"""The rate limit on failed sign-ins, counted from ``SignInFailure`` rows.

Within any 15 minutes, 5 failures for one name or 20 from one address block further tries of
that name, or from that address, until enough of them are older than the window; the refusal
says how many seconds that is (``Retry-After``). Rows older than the window are deleted when a
new failure is recorded, so the table holds at most one window's worth.

The address is the client as uvicorn reports it: the TCP peer, which uvicorn replaces with
``X-Forwarded-For`` only for connections from ``--forwarded-allow-ips`` (127.0.0.1 by default).
Nothing here reads that header: behind a proxy uvicorn does not trust, every client has the
proxy's address, the per-name limit still holds and the per-address one counts the proxy whole.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from judge.errors import DomainError
from judge.service.db.models import SignInFailure, utcnow

WINDOW = timedelta(minutes=15)
PER_NAME = 5
PER_ADDRESS = 20
NAME_CHARS = 100  # the columns' widths: longer values are cut, which only merges their counts
ADDRESS_CHARS = 64


class TooManyAttempts(DomainError):
    code = "too_many_attempts"


def _key(name: str, address: str) -> tuple[str, str]:
    return name.strip()[:NAME_CHARS], address[:ADDRESS_CHARS]


def _seconds_blocked(session: Session, column: InstrumentedAttribute[str], value: str, limit: int,
                     now: datetime) -> int:
    """0 when fewer than ``limit`` failures for ``value`` fall in the window; else the seconds
    until the oldest ones have left it and one more try is allowed."""
    times = list(session.scalars(
        select(SignInFailure.failed_at)
        .where(column == value, SignInFailure.failed_at > now - WINDOW)
        .order_by(SignInFailure.failed_at.desc())
        .limit(limit)))
    if len(times) < limit:
        return 0
    # The limit-th newest failure leaves the window first among those that keep it full.
    return max(1, math.ceil((times[-1] + WINDOW - now).total_seconds()))


def check(session: Session, name: str, address: str) -> None:
    """Raise TooManyAttempts (with the seconds to wait) while the name or the address is blocked."""
    name, address = _key(name, address)
    now = utcnow()
    wait = max(_seconds_blocked(session, SignInFailure.name, name, PER_NAME, now),
               _seconds_blocked(session, SignInFailure.address, address, PER_ADDRESS, now))
    if wait:
        raise TooManyAttempts(f"too many failed sign-ins for this name or from this address; "
                              f"try again in {wait} s", retry_after=wait)


def record_failure(session: Session, name: str, address: str) -> None:
    """Store one failure and commit it (the refusal that follows must not roll it back)."""
    name, address = _key(name, address)
    now = utcnow()
    session.execute(delete(SignInFailure).where(SignInFailure.failed_at <= now - WINDOW))
    session.add(SignInFailure(name=name, address=address, failed_at=now))
    session.commit()


def forget_name(session: Session, name: str) -> None:
    """After a successful sign-in the name's failures no longer count (the address's still do)."""
    session.execute(delete(SignInFailure).where(SignInFailure.name == _key(name, "")[0]))
