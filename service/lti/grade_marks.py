"""Marking LTI grades to send: whatever may change a learner's grade on an LMS line item makes
their rows ``pending`` in its own transaction: a verdict of handed-in work (``lifecycle.finish``),
a score set by hand or a regrade's answer (``feedback``), an assignment changed, held or released
(``assignments``), an extension or an excuse (``extensions``). After the commit ``enqueue`` sends
a message to the webhook worker, the one that talks to the outside world and holds no Docker
socket, which sends them (``grades``). Apart from ``grades`` so that those modules need none of
the gradebook."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum

from sqlalchemy import ColumnElement, Update, or_, update
from sqlalchemy.orm import Session

from service.db.models import LtiGradeSync, utcnow

log = logging.getLogger(__name__)


class SyncState(StrEnum):
    PENDING = "pending"  # to send
    SENT = "sent"
    FAILED = "failed"  # given up after its attempts; the instructor may send it again
    HELD = "held"  # the assignment holds its grades: sent when they are released
    IDLE = "idle"  # nothing judged yet: nothing to send
    NO_LINE_ITEM = "no_item"  # the link has no line item to send to


def pending_values(now: ColumnElement[datetime] | datetime) -> dict[str, object]:
    """A row made pending. Its lease goes too: a sender working on it meanwhile worked out an
    older grade, and must not write its outcome over this (``grades.deliver``); the message
    that follows this change sends the newer one."""
    return {"state": SyncState.PENDING.value, "attempts": 0, "next_attempt_at": now, "error": None,
            "lease_until": None}


def work_made_pending(user_id: ColumnElement[int] | int, problem_id: ColumnElement[int] | int,
                      assignment_id: ColumnElement[int | None] | int | None,
                      now: ColumnElement[datetime] | datetime) -> Update:
    """The UPDATE that makes pending the learner's rows a judged or re-scored hand-in may change,
    returning their ids. The ids may be columns of a statement it is part of (``lifecycle``'s
    verdict: a NULL assignment matches no row, as None does here), and ``now`` a parameter."""
    target = LtiGradeSync.problem_id == problem_id
    if assignment_id is not None:
        target = or_(target, LtiGradeSync.assignment_id == assignment_id)
    return (update(LtiGradeSync).where(LtiGradeSync.user_id == user_id, target)
            .values(**pending_values(now)).returning(LtiGradeSync.id))


def touch_work(session: Session, user_id: int, problem_id: int, assignment_id: int | None) -> list[int]:
    """The learner's rows a judged or re-scored hand-in may change, made pending (not committed)."""
    return list(session.scalars(work_made_pending(user_id, problem_id, assignment_id, utcnow())
                                .execution_options(synchronize_session=False)))


def touch_assignment(session: Session, assignment_id: int) -> list[int]:
    """Every row of an assignment's links, made pending (held or released; not committed)."""
    return list(session.scalars(update(LtiGradeSync).where(LtiGradeSync.assignment_id == assignment_id)
                                .values(**pending_values(utcnow())).returning(LtiGradeSync.id)
                                .execution_options(synchronize_session=False)))


def touch_learner(session: Session, user_id: int) -> list[int]:
    """Every row of one learner, made pending (an extension or an excuse moved their penalties;
    not committed)."""
    return list(session.scalars(update(LtiGradeSync).where(LtiGradeSync.user_id == user_id)
                                .values(**pending_values(utcnow())).returning(LtiGradeSync.id)
                                .execution_options(synchronize_session=False)))


def enqueue(ids: Sequence[int]) -> None:
    """A message for each row, to the webhook worker; a broker away leaves them to the sweep."""
    from service.celery_app import LTI_SCORE_TASK, WEBHOOK_QUEUE, send

    for sync_id in ids:
        try:
            send(LTI_SCORE_TASK, sync_id, WEBHOOK_QUEUE)
        except Exception as exc:
            log.warning("LTI grade %d: not queued (%s); the sweep will send it", sync_id, exc)
