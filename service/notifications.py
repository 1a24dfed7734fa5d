"""Notifications: what a user is told, shown on the pages (a count in the header, a list) until
read, and e-mailed where the operator configured SMTP and the user gave an address and did not
opt out (``service.notification_mail``).

A learner is told when an instructor comments on or sets the score of their handed-in
submission, answers their regrade request, or releases an assignment's held grades. Feedback on
work whose grades are held is not told one by one: the release tells it all at once.

``notify`` adds the rows to the caller's transaction and, once that commits, queues their
e-mails; a message lost on the way is sent by the webhook worker's sweep. Bounded: a text's
length, and the newest MAX_KEPT of a user's notifications (older ones are dropped as new ones
come), so no amount of instructor activity fills the database.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import delete, event, func, select, update
from sqlalchemy.orm import Session

from judge.errors import InvalidInput
from judge.text_safety import safe_text
from service import notification_mail
from service.db.models import EmailState, Notification, NotificationKind, User, utcnow
from service.settings import get_settings

MAX_KEPT = 200  # per user, newest first
MAX_EMAIL = 254  # RFC 5321's limit on a path
# One address, nothing an e-mail header would read as a second one or as a display name.
EMAIL = re.compile(r"[^@\s<>,;:\"()\[\]\\]+@[^@\s<>,;:\"()\[\]\\]+\.[^@\s<>,;:\"()\[\]\\.]+", re.ASCII)
MAX_TEXT = 300
PAGE = 50


def _email_state(user: User) -> EmailState:
    if get_settings().smtp_host and user.email and user.email_notifications:
        return EmailState.PENDING
    return EmailState.NONE


def notify(session: Session, users: Iterable[User], kind: NotificationKind, text: str, link: str) -> None:
    """Tell each of ``users`` ``text`` (one line; cut to MAX_TEXT), pointing at the page ``link``.
    Added to the session's transaction, not committed; e-mails are queued after its commit."""
    line = safe_text(" ".join(text.split()))[:MAX_TEXT]
    rows = [Notification(user_id=user.id, kind=kind.value, text=line, link=link[:200],
                         email_state=_email_state(user).value) for user in users]
    if not rows:
        return
    session.add_all(rows)
    session.flush()
    for user_id in {row.user_id for row in rows}:
        _prune(session, user_id)
    mailed = [row.id for row in rows if row.email_state == EmailState.PENDING]
    if mailed:
        # Only once committed: a worker must find the row, and a rolled-back one must not be sent.
        event.listen(session, "after_commit", lambda _: notification_mail.enqueue(mailed), once=True)


def _prune(session: Session, user_id: int) -> None:
    newest = (select(Notification.id).where(Notification.user_id == user_id)
              .order_by(Notification.id.desc()).limit(MAX_KEPT).scalar_subquery())
    session.execute(delete(Notification).where(Notification.user_id == user_id,
                                               Notification.id.not_in(newest)))


@dataclass(frozen=True)
class Inbox:
    items: list[Notification]
    unread: int
    total: int


def inbox(session: Session, user: User, limit: int = PAGE, offset: int = 0) -> Inbox:
    """``user``'s notifications, newest first, with how many are unread."""
    mine = Notification.user_id == user.id
    unread = session.scalar(select(func.count()).where(mine, Notification.read_at.is_(None))) or 0
    total = session.scalar(select(func.count()).where(mine)) or 0
    items = session.scalars(select(Notification).where(mine).order_by(Notification.id.desc())
                            .limit(limit).offset(offset)).all()
    return Inbox(list(items), unread, total)


def unread_count(session: Session, user: User) -> int:
    return session.scalar(select(func.count()).where(Notification.user_id == user.id,
                                                     Notification.read_at.is_(None))) or 0


def mark_read(session: Session, user: User, ids: Sequence[int] | None) -> int:
    """Mark ``user``'s notifications read (``ids``; None: all of them); how many were unread. Commit.
    Another user's ids are passed over, as if they did not exist."""
    where = [Notification.user_id == user.id, Notification.read_at.is_(None)]
    if ids is not None:
        where.append(Notification.id.in_(list(ids)))
    changed = session.execute(update(Notification).where(*where).values(read_at=utcnow()))
    session.commit()
    return int(getattr(changed, "rowcount", 0) or 0)


def set_email(session: Session, user: User, email: str | None, notify_by_email: bool) -> User:
    """Where ``user``'s notifications are e-mailed (None or blank: nowhere) and whether they are;
    commit. An address is taken as given: no message proves it is the user's, and what is sent
    to it is only the user's own notifications, at most JUDGE_MAX_EMAILS_PER_HOUR of them."""
    address = (email or "").strip()
    if address and (len(address) > MAX_EMAIL or not (address.isascii() and address.isprintable())
                    or not EMAIL.fullmatch(address)):
        raise InvalidInput(f"email: one address such as ada@example.org, in ASCII, at most "
                           f"{MAX_EMAIL} characters (not {address[:80]!r})", param="email")
    user.email, user.email_notifications = address or None, notify_by_email
    session.commit()
    return user
