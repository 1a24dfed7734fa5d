"""Progressive hints: revealed one at a time, in order (or the one about a failing public test
first), and recorded per user and problem.

What a user has revealed is theirs alone (a learner never reads another's reveals); the
problem's owner (and admins) may see who revealed which hint when (``reveals``). Reveals are
kept per problem, not per version: a new version with other hints shows the user as many of
the new ones as they had revealed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from judge.errors import InvalidInput
from service.authoring import current_version
from service.catalog import load_version
from service.db.models import HintReveal, ProblemRow, User
from service.errors import NoMoreHints


@dataclass(frozen=True)
class Hint:
    index: int  # 1 for the first hint
    markdown: str
    revealed_at: datetime
    tests: tuple[str, ...] = ()  # the public tests it is about


@dataclass(frozen=True)
class Hints:
    total: int
    revealed: list[Hint]


@dataclass(frozen=True)
class Reveal:
    user: str
    index: int
    revealed_at: datetime


def _texts(session: Session, row: ProblemRow) -> tuple[str, ...]:
    return load_version(current_version(session, row)).hints


def _about(session: Session, row: ProblemRow, position: int) -> tuple[str, ...]:
    tests = load_version(current_version(session, row)).hint_tests
    return tests[position - 1] if position <= len(tests) else ()


def _mine(session: Session, user: User, row: ProblemRow) -> list[HintReveal]:
    return list(session.scalars(select(HintReveal).where(
        HintReveal.user_id == user.id, HintReveal.problem_id == row.id).order_by(HintReveal.position)))


def hints(session: Session, user: User, row: ProblemRow) -> Hints:
    """The hints ``user`` has revealed on ``row`` so far (the caller authorized reading it)."""
    texts = _texts(session, row)
    shown = [reveal for reveal in _mine(session, user, row) if reveal.position <= len(texts)]
    return Hints(len(texts), [Hint(r.position, texts[r.position - 1], r.revealed_at,
                                   _about(session, row, r.position)) for r in shown])


def revealed_count(session: Session, user: User, row: ProblemRow, total: int) -> int:
    return sum(reveal.position <= total for reveal in _mine(session, user, row))


def reveal_next(session: Session, user: User, row: ProblemRow, position: int | None = None) -> Hints:
    """Reveal the next hint in order (or the one at ``position``, when it is not revealed yet)
    and record it; NoMoreHints when every one is revealed, InvalidInput for no such position.

    Two clicks at once reveal one hint: the second insert meets the unique (user, problem,
    position) and the answer is simply the state that the first one made.
    """
    texts = _texts(session, row)
    positions = {reveal.position for reveal in _mine(session, user, row)}
    if position is not None and not 1 <= position <= len(texts):
        raise InvalidInput(f"hint: problem {row.slug!r} has {len(texts)} hints, not a hint {position}",
                           param="hint")
    if position is not None and position in positions:
        return hints(session, user, row)  # shown already: asking again changes nothing
    following = position or next((p for p in range(1, len(texts) + 1) if p not in positions), None)
    if following is None:
        what = "has no hints" if not texts else f"has {len(texts)} hints and all are revealed"
        raise NoMoreHints(f"problem {row.slug!r} {what}")
    session.add(HintReveal(user_id=user.id, problem_id=row.id, position=following))
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
    return hints(session, user, row)


def reveals(session: Session, row: ProblemRow) -> list[Reveal]:
    """Every reveal on ``row``, oldest first, for its owner (the caller authorized MANAGE)."""
    rows = session.scalars(select(HintReveal).where(HintReveal.problem_id == row.id)
                           .order_by(HintReveal.revealed_at, HintReveal.id))
    return [Reveal(r.user.name, r.position, r.revealed_at) for r in rows]
