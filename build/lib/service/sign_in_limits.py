"""The rate limit on sign-in attempts, counted from ``SignInFailure`` rows.

Within any 15 minutes, 5 failures for one name or 20 from one address block further tries of
that name, or from that address, until enough of them are older than the window; the refusal
says how many seconds that is (``Retry-After``).

An attempt is counted before its password is checked, never after: a check takes a tenth of a
second, and attempts that are each counted after their own check all pass a limit that none of
them sees reached (30 guesses at one name sent at once got 19 checks against a limit of 5).
``reserve`` locks the rows of the name and of the address (``SignInKey``, made or touched by an
upsert: the name's first, then the address's, in every attempt, so two never wait for each
other in a cycle), counts, writes the attempt as a failure and commits, which lets the next
attempt for either key go on and count this one. On PostgreSQL the upsert's row lock waits for
the holder's commit, and under READ COMMITTED every later statement of the waiter sees what that
commit wrote; on SQLite the upsert begins the transaction and takes the database's one write
lock. An attempt whose password proves wrong is settled as a failure (``settle``); one that
proves right takes its row back: a sign-in deletes it with every settled failure of its name
(``forget_name``: the attempts at that name still being checked keep counting), a password change
its own row (``give_back``).

Rows older than the window are deleted after each attempt, a batch at a time, skipping rows
that another attempt holds (so pruning never waits), and the table holds about one window's
worth.

The address is the client as uvicorn reports it: the TCP peer, which uvicorn replaces with
``X-Forwarded-For`` only for connections from ``--forwarded-allow-ips`` (127.0.0.1 by default).
Nothing here reads that header: behind a proxy uvicorn does not trust, every client has the
proxy's address, the per-name limit still holds and the per-address one counts the proxy whole.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from sqlalchemy import delete, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import InstrumentedAttribute, Session

from service.db.models import SignInFailure, SignInKey, utcnow
from service.errors import TooManyAttempts

WINDOW = timedelta(minutes=15)
PER_NAME = 5
PER_ADDRESS = 20
NAME_CHARS = 100  # the columns' widths: longer values are cut, which only merges their counts
ADDRESS_CHARS = 64
PRUNE_BATCH = 500  # more than one attempt adds, so a backlog shrinks with every attempt


def _key(name: str, address: str) -> tuple[str, str]:
    # NUL cannot be stored (PostgreSQL): U+FFFD stands for it, which only merges such counts.
    return name.strip()[:NAME_CHARS].replace("\x00", "\ufffd"), address[:ADDRESS_CHARS]


def _lock(session: Session, key: str, now: datetime) -> None:
    """Make or touch ``key``'s row, holding its lock until the transaction ends."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    upsert = dialect.insert(SignInKey).values(key=key, used_at=now)
    session.execute(upsert.on_conflict_do_update(index_elements=[SignInKey.key],
                                                 set_={"used_at": upsert.excluded.used_at}))


def _seconds_blocked(session: Session, column: InstrumentedAttribute[str], value: str, limit: int,
                     now: datetime) -> int:
    """0 when fewer than ``limit`` attempts for ``value`` fall in the window; else the seconds
    until the oldest ones have left it and one more try is allowed."""
    times = list(session.scalars(
        select(SignInFailure.failed_at)
        .where(column == value, SignInFailure.failed_at > now - WINDOW)
        .order_by(SignInFailure.failed_at.desc())
        .limit(limit)))
    if len(times) < limit:
        return 0
    # The limit-th newest attempt leaves the window first among those that keep it full.
    return max(1, math.ceil((times[-1] + WINDOW - now).total_seconds()))


def reserve(session: Session, name: str, address: str) -> int:
    """Count one attempt at ``name`` from ``address`` before its password is checked, committed;
    its row's id. While the name or the address is at its limit: TooManyAttempts (with the
    seconds to wait), and nothing is counted. The session must hold no unwritten change: its
    transaction is ended first, so that the upsert begins a new one."""
    name, address = _key(name, address)
    session.commit()
    _lock(session, f"name:{name}", utcnow())
    _lock(session, f"address:{address}", utcnow())
    now = utcnow()  # read once both locks are held: later than every attempt counted before
    wait = max(_seconds_blocked(session, SignInFailure.name, name, PER_NAME, now),
               _seconds_blocked(session, SignInFailure.address, address, PER_ADDRESS, now))
    if wait:
        session.rollback()  # a refused attempt leaves nothing, not even its keys' rows
        raise TooManyAttempts(f"too many failed sign-ins for this name or from this address; "
                              f"try again in {wait} s", retry_after=wait)
    attempt = SignInFailure(name=name, address=address, failed_at=now, pending=True)
    session.add(attempt)
    session.commit()
    _prune(session, now)
    return attempt.id


def _prune(session: Session, now: datetime) -> None:
    """Delete a batch of attempts and keys older than the window. SKIP LOCKED (PostgreSQL; SQLite
    has one writer anyway) leaves what another attempt holds, so this never waits for one."""
    old = now - WINDOW
    attempts = (select(SignInFailure.id).where(SignInFailure.failed_at <= old)
                .limit(PRUNE_BATCH).with_for_update(skip_locked=True))
    keys = (select(SignInKey.key).where(SignInKey.used_at <= old)
            .limit(PRUNE_BATCH).with_for_update(skip_locked=True))
    session.execute(delete(SignInFailure).where(SignInFailure.id.in_(attempts)))
    session.execute(delete(SignInKey).where(SignInKey.key.in_(keys)))
    session.commit()


def settle(session: Session, attempt: int) -> None:
    """The attempt ``reserve`` counted proved wrong: a failure from now on (committed)."""
    session.execute(update(SignInFailure).where(SignInFailure.id == attempt).values(pending=False))
    session.commit()


def give_back(session: Session, attempt: int) -> None:
    """The attempt ``reserve`` counted proved right: it no longer counts (the caller commits)."""
    session.execute(delete(SignInFailure).where(SignInFailure.id == attempt))


def forget_name(session: Session, name: str, attempt: int) -> None:
    """``attempt`` signed in: it and the name's settled failures no longer count (the caller
    commits). Attempts at the name still being checked do, as do the address's failures."""
    session.execute(delete(SignInFailure).where(
        SignInFailure.name == _key(name, "")[0],
        or_(SignInFailure.id == attempt, SignInFailure.pending.is_(False))))
