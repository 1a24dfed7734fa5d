"""Notification e-mails: each notification whose user gave an address (and did not opt out) is
mailed over SMTP by the webhook worker (the one that talks to the outside world and holds no
Docker socket), never by a judging worker or the API.

A row waits in state ``pending``. Its message claims it (``email_next_at`` moved a lease ahead,
so two messages never send it twice at once), checks the user's choice again (an opt-out since
the notification was written wins), counts the user's e-mails of the last hour against
JUDGE_MAX_EMAILS_PER_HOUR (past it: ``capped``, kept on the pages only; ``_ahead`` says how
they are counted), and sends. A failure is tried again after each wait of
JUDGE_EMAIL_BACKOFF_SECONDS, then given up (``failed``, with the error kept); a lost message,
or a worker that died holding the lease, is picked up by the webhook worker's sweep (``sweep``).
"""

from __future__ import annotations

import logging
import smtplib
import ssl
from collections.abc import Sequence
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import formataddr, make_msgid

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.orm import Session

from service.db.models import EmailState, Notification, User, utcnow
from service.settings import Settings, get_settings

log = logging.getLogger(__name__)

LEASE = timedelta(seconds=120)  # longer than an attempt's SMTP timeouts together
FIRST_SEND_GRACE = timedelta(seconds=60)  # a new row's message not taken by then is taken as lost
SWEEP_BATCH = 200
SUBJECT_CHARS = 90


def enqueue(ids: Sequence[int]) -> None:
    from service.celery_app import MAIL_TASK, WEBHOOK_QUEUE, send

    for notification_id in ids:
        try:
            send(MAIL_TASK, notification_id, WEBHOOK_QUEUE)
        except Exception as exc:  # the broker is away: the sweep sends it
            log.warning("notification %d: e-mail not queued (%s); the sweep will", notification_id, exc)


def _claim(session: Session, notification_id: int, now: datetime) -> bool:
    claimed = session.execute(
        update(Notification)
        .where(Notification.id == notification_id, Notification.email_state == EmailState.PENDING.value,
               or_(Notification.email_next_at.is_(None), Notification.email_next_at <= now))
        .values(email_next_at=now + LEASE))
    session.commit()
    return bool(getattr(claimed, "rowcount", 0))


def _ahead(session: Session, notification: Notification, now: datetime) -> int:
    """The user's e-mails that count against this one's hourly cap: those sent in the last hour
    and those still to send, of the notifications before it. Only earlier ones count, so the
    answer does not depend on which of several threads gets there first: two never both take
    the last place."""
    return session.scalar(select(func.count()).where(
        Notification.user_id == notification.user_id, Notification.id < notification.id,
        or_(Notification.email_state == EmailState.PENDING.value,
            and_(Notification.email_state == EmailState.SENT.value,
                 Notification.email_next_at > now - timedelta(hours=1))))) or 0


def message(settings: Settings, user: User, notification: Notification) -> EmailMessage:
    """The e-mail of one notification: its text, a link to the page, and how to stop them."""
    base = settings.public_url.rstrip("/")
    mail = EmailMessage()
    mail["From"] = settings.smtp_from
    mail["To"] = formataddr((user.name, user.email or ""))
    text = notification.text
    mail["Subject"] = text if len(text) <= SUBJECT_CHARS else text[: SUBJECT_CHARS - 1] + "…"
    mail["Message-ID"] = make_msgid(idstring=f"notification-{notification.id}")
    mail["Auto-Submitted"] = "auto-generated"  # RFC 3834: no auto-replies to it
    mail.set_content(
        f"{text}\n\nSee {base}{notification.link}\n\n"
        f"You get these e-mails because your judge account has this address. Turn them off, or "
        f"change the address, on {base}/account.\n")
    return mail


def _send(settings: Settings, mail: EmailMessage) -> None:
    with smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=settings.smtp_timeout_seconds) as smtp:
        if settings.smtp_starttls:
            smtp.starttls(context=ssl.create_default_context())
        if settings.smtp_username:
            smtp.login(settings.smtp_username, settings.smtp_password)
        smtp.send_message(mail)


def deliver(session: Session, notification_id: int) -> str:
    """One attempt at one notification's e-mail; what became of it."""
    settings = get_settings()
    now = utcnow()
    if not _claim(session, notification_id, now):
        return "skipped"  # sent, given up, or another worker holds it
    notification = session.get(Notification, notification_id)
    user = session.get(User, notification.user_id) if notification is not None else None
    if notification is None or user is None:
        return "skipped"
    if not (settings.smtp_host and user.email and user.email_notifications):
        notification.email_state = EmailState.NONE.value  # opted out, or the address removed, since
        session.commit()
        return notification.email_state
    if _ahead(session, notification, now) >= settings.max_emails_per_hour:
        notification.email_state = EmailState.CAPPED.value
        session.commit()
        return notification.email_state
    try:
        _send(settings, message(settings, user, notification))
    except (OSError, smtplib.SMTPException, ValueError) as exc:
        notification.email_attempts += 1
        notification.email_error = f"{type(exc).__name__}: {exc}"[:300]
        waits = settings.email_backoff_seconds
        if notification.email_attempts > len(waits):
            notification.email_state = EmailState.FAILED.value
        else:
            notification.email_next_at = utcnow() + timedelta(seconds=waits[notification.email_attempts - 1])
        session.commit()
        log.warning("notification %d: e-mail attempt %d failed: %s", notification.id,
                    notification.email_attempts, notification.email_error)
        return "retry" if notification.email_state == EmailState.PENDING else notification.email_state
    notification.email_attempts += 1
    notification.email_state, notification.email_next_at = EmailState.SENT.value, utcnow()
    notification.email_error = None
    session.commit()
    return notification.email_state


def due(session: Session) -> list[int]:
    """Pending e-mails to send a message for: a retry whose wait is over, a lease that ran out,
    or a first message not taken within FIRST_SEND_GRACE (lost)."""
    now = utcnow()
    rows = session.scalars(
        select(Notification.id)
        .where(Notification.email_state == EmailState.PENDING.value,
               or_(Notification.email_next_at <= now,
                   and_(Notification.email_next_at.is_(None),
                        Notification.created_at <= now - FIRST_SEND_GRACE)))
        .order_by(Notification.id).limit(SWEEP_BATCH)).all()
    return list(rows)


def sweep(session: Session) -> None:
    enqueue(due(session))
