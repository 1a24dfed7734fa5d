"""Gradebooks: per assignment, each learner's result on each of its problems.

Only submissions in mode submit that were sent for the assignment count: runs and tries never
do, nor submissions to the same problem made outside it. A cell is aggregated in SQL (GROUP BY
learner and problem over the assignment's submissions), so a gradebook is one query whatever
its size. A submission's score counts less its late penalty (``service.lateness``), unless
an instructor set it by hand (``service.feedback``): that score counts as it is. And
``late`` is true when the problem was first accepted only by a late submission, or, never
accepted, when any of its submissions was late; an excused submission is never late.

When the score that counts is one set by hand, it is the cell's score as it is: no late penalty
is shown against it (the judged score it replaced is not "before the penalty"), and the cell
names who set it and why (the submission's latest ``ScoreChange``).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, case, func, select, true
from sqlalchemy.orm import Session

from judge.results import Verdict
from service.access import Action
from service.assignments import find_assignment
from service.db.models import (
    Assignment,
    AssignmentProblem,
    CourseMember,
    CourseRole,
    Extension,
    ProblemRow,
    RegradeOutcome,
    RegradeRequest,
    ScoreChange,
    Submission,
    SubmissionStatus,
    User,
)
from service.grade_release import withheld
from service.submissions import Mode

# score_set_by_hand, score_set_by, score_reason: the score that counts (best_score) is one an
# instructor set by hand, who set it and why.
CSV_COLUMNS = ("learner", "problem", "best_score", "accepted", "attempts", "first_accepted_at", "late",
               "due_at", "score_before_penalty", "penalty", "score_set_by_hand", "score_set_by",
               "score_reason")
# A spreadsheet runs a cell that starts with one of these as a formula (tab and carriage return
# too, as some strip them first): such text gets a leading apostrophe, shown as plain text.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class HandSet:
    """A score an instructor set by hand, as the trail last recorded it."""

    score: float
    by: str | None  # None: the account was deleted since
    reason: str


@dataclass(frozen=True)
class Cell:
    problem: str  # the slug
    best_score: float | None  # after the late penalty; None before any judged submission
    accepted: bool
    attempts: int
    first_accepted_at: datetime | None  # when the first accepted submission was made (naive UTC)
    late: bool
    # The one to open from the gradebook: the first accepted submission, else the latest one.
    submission: int | None = None
    # The best score as judged, of the submissions whose score no one set by hand; when the score
    # that counts was set by hand, that score.
    score_before_penalty: float | None = None
    overridden: bool = False  # a submission of the cell has a score set by hand
    by_hand: HandSet | None = None  # the score that counts was set by hand: by whom and why
    open_regrades: int = 0  # submissions of the cell with a regrade request waiting for an answer

    @property
    def penalty(self) -> float:
        """What lateness cost: the best judged score less the best counted one; nothing when the
        score that counts was set by hand."""
        if self.by_hand is not None or self.best_score is None or self.score_before_penalty is None:
            return 0.0
        return max(0.0, self.score_before_penalty - self.best_score)


@dataclass(frozen=True)
class Row:
    user: str
    cells: list[Cell]
    user_id: int = 0
    due_at: datetime | None = None  # this learner's due time: an extension's, or the assignment's
    extension: str | None = None  # the extension's reason

    @property
    def total_score(self) -> float:
        return sum(cell.best_score or 0.0 for cell in self.cells)


@dataclass(frozen=True)
class Gradebook:
    assignment: Assignment
    problems: list[str]
    rows: list[Row]

    @property
    def max_total(self) -> float:
        """A score is at most 1 per problem."""
        return float(len(self.problems))


def _aggregates(*where: Any) -> Select[*tuple[Any, ...]]:
    """One row per (assignment, learner, problem) with submissions that count."""
    accepted = Submission.verdict == Verdict.ACCEPTED.value
    late = and_(Submission.late.is_(True), Submission.excused.is_(False))
    done = Submission.status == SubmissionStatus.DONE
    # Without a penalty the score itself, not x * 100 / 100, which may differ in the last bit.
    by_hand = Submission.score_override.is_not(None)
    counted = case((by_hand, Submission.score_override), (Submission.penalty == 0, Submission.score),
                   else_=Submission.score * (100.0 - Submission.penalty) / 100.0)
    judged = and_(done, ~by_hand)
    open_regrade = (select(RegradeRequest.id).where(RegradeRequest.submission_id == Submission.id,
                                                     RegradeRequest.outcome == RegradeOutcome.OPEN.value)
                    .correlate(Submission).exists())
    return (select(
        Submission.assignment_id.label("assignment_id"),
        Submission.user_id.label("user_id"),
        Submission.problem_id.label("problem_id"),
        # A score is there only once judged; a rejudge in progress has none until it is done.
        # A score set by hand counts even then: it is the instructor's, not the judge's.
        func.max(case((by_hand | done, counted))).label("best"),
        func.count().label("attempts"),
        func.min(case((accepted, Submission.created_at))).label("first_accepted"),
        func.max(case((and_(accepted, ~late), 1), else_=0)).label("on_time"),
        func.max(case((late, 1), else_=0)).label("any_late"),
        func.min(case((accepted, Submission.id))).label("first_accepted_id"),
        func.max(Submission.id).label("latest_id"),
        # Of the submissions no one set a score of: a hand-set score is not "before a penalty".
        func.max(case((judged, Submission.score))).label("raw_best"),
        func.max(case((judged, counted))).label("best_judged"),
        func.sum(case((open_regrade, 1), else_=0)).label("open_regrades"))
        .where(Submission.mode == Mode.SUBMIT.value, *where)
        .group_by(Submission.assignment_id, Submission.user_id, Submission.problem_id))


AGGREGATE_NAMES = [column.name for column in _aggregates().selected_columns][3:]  # after its 3 keys
AGGREGATES = len(AGGREGATE_NAMES)


def _cell(slug: str, best: float | None, attempts: int | None, first_accepted: datetime | None,
          on_time: int | None, any_late: int | None, first_accepted_id: int | None,
          latest_id: int | None, raw_best: float | None, best_judged: float | None,
          open_regrades: int | None, *, hand_set: HandSet | None) -> Cell:
    """``hand_set``: the best score set by hand among the cell's submissions, if any."""
    accepted = first_accepted is not None
    # The hand-set score counts when no judged one counts for more (a tie: the instructor's word).
    counts = hand_set is not None and (best_judged is None or hand_set.score >= best_judged)
    by_hand = hand_set if counts else None
    before = by_hand.score if by_hand is not None else raw_best
    return Cell(problem=slug, best_score=None if best is None else float(best), accepted=accepted,
                attempts=attempts or 0, first_accepted_at=first_accepted,
                late=not on_time if accepted else bool(any_late),
                submission=first_accepted_id if first_accepted_id is not None else latest_id,
                score_before_penalty=None if before is None else float(before),
                overridden=hand_set is not None, by_hand=by_hand, open_regrades=int(open_regrades or 0))


def _hand_set(session: Session, *where: Any) -> dict[tuple[int | None, int, int], HandSet]:
    """(assignment, learner, problem) -> the best score set by hand among the cell's submissions,
    with who set it and why (that submission's latest change)."""
    latest = (select(func.max(ScoreChange.id)).where(ScoreChange.submission_id == Submission.id)
              .correlate(Submission).scalar_subquery())
    found: dict[tuple[int | None, int, int], HandSet] = {}
    rows = session.execute(
        select(Submission.assignment_id, Submission.user_id, Submission.problem_id,
               Submission.score_override, User.name, ScoreChange.reason)
        .join(ScoreChange, ScoreChange.id == latest)
        .outerjoin(User, User.id == ScoreChange.changed_by)
        .where(Submission.score_override.is_not(None), Submission.mode == Mode.SUBMIT.value, *where)
        .order_by(Submission.score_override, Submission.id))
    for assignment_id, user_id, problem_id, score, by, reason in rows:
        if score is not None:  # always, by the query: for the type checker
            found[(assignment_id, user_id, problem_id)] = HandSet(float(score), by, reason)  # best last
    return found


def gradebook(session: Session, user: User, assignment_id: int) -> Gradebook:
    """Every learner of the course (by name) x every problem of the assignment (in its order)."""
    assignment = find_assignment(session, user, assignment_id, Action.MANAGE)
    cells = _aggregates(Submission.assignment_id == assignment.id).subquery()
    hand_set = _hand_set(session, Submission.assignment_id == assignment.id)
    rows = session.execute(
        select(User.name, User.id, Extension.due_at, Extension.reason, ProblemRow.id, ProblemRow.slug,
               cells.c.best, cells.c.attempts, cells.c.first_accepted, cells.c.on_time, cells.c.any_late,
               cells.c.first_accepted_id, cells.c.latest_id, cells.c.raw_best, cells.c.best_judged,
               cells.c.open_regrades)
        .select_from(CourseMember)
        .join(User, User.id == CourseMember.user_id)
        .outerjoin(Extension, and_(Extension.assignment_id == assignment.id,
                                   Extension.user_id == CourseMember.user_id))
        .join(AssignmentProblem, true())  # every learner meets every problem
        .join(ProblemRow, ProblemRow.id == AssignmentProblem.problem_id)
        .outerjoin(cells, and_(cells.c.user_id == CourseMember.user_id,
                               cells.c.problem_id == AssignmentProblem.problem_id))
        .where(CourseMember.course_id == assignment.course_id,
               CourseMember.role == CourseRole.LEARNER.value,
               AssignmentProblem.assignment_id == assignment.id)
        .order_by(CourseMember.user_id, AssignmentProblem.position)).all()
    by_learner: dict[str, Row] = {}
    for name, user_id, due_at, reason, problem_id, slug, *aggregate in rows:
        row = by_learner.setdefault(name, Row(name, [], user_id, due_at or assignment.due_at, reason))
        row.cells.append(_cell(slug, *aggregate, hand_set=hand_set.get((assignment.id, user_id, problem_id))))
    problems = [link.problem.slug for link in assignment.problems]
    # Sorted here, by code point: the database's collation would order "=x" and "ann" its own way.
    return Gradebook(assignment, problems, [by_learner[name] for name in sorted(by_learner)])


def progress(session: Session, user: User, assignments: Iterable[Assignment]) -> dict[int, list[Cell]]:
    """``user``'s own cells on each assignment (id -> cells in the assignment's order): one query."""
    chosen = list(assignments)
    if not chosen:
        return {}
    mine = (Submission.user_id == user.id, Submission.assignment_id.in_([a.id for a in chosen]))
    found = {(a, p): tuple(aggregate) for a, _, p, *aggregate in session.execute(_aggregates(*mine))}
    hand_set = _hand_set(session, *mine)
    cells = {a.id: [_cell(link.problem.slug, *found.get((a.id, link.problem_id), (None,) * AGGREGATES),
                          hand_set=hand_set.get((a.id, user.id, link.problem_id)))
                    for link in a.problems] for a in chosen}
    for a in chosen:
        if a.grades_held:  # the learner's own view: what was tried and when, no result yet
            cells[a.id] = [_held(cell, found.get((a.id, link.problem_id)))
                           for cell, link in zip(cells[a.id], a.problems, strict=True)]
    return cells


def _held(cell: Cell, aggregate: tuple[Any, ...] | None) -> Cell:
    """``cell`` as its learner sees it while the assignment holds its grades (service.grade_release):
    how many tries, whether any was late, and the latest submission to open (the cell's own
    ``late`` and first accepted submission would tell the verdict)."""
    def value(name: str) -> Any:
        return aggregate[AGGREGATE_NAMES.index(name)] if aggregate else None

    return Cell(problem=cell.problem, best_score=None, accepted=False, attempts=cell.attempts,
                first_accepted_at=None, late=bool(value("any_late")), submission=value("latest_id"))


def _utc(moment: datetime | None) -> str:
    return "" if moment is None else moment.isoformat() + "Z"


def neutralized(text: str) -> str:
    """Text a spreadsheet shows as text: a leading apostrophe before a formula's first character."""
    return "'" + text if text.startswith(FORMULA_START) else text


def as_csv(book: Gradebook) -> str:
    """RFC 4180 (CRLF line ends, quotes where needed): a header, then one row per learner x problem."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for row in book.rows:
        for cell in row.cells:
            writer.writerow([
                neutralized(row.user), neutralized(cell.problem),
                "" if cell.best_score is None else repr(cell.best_score),
                "true" if cell.accepted else "false", cell.attempts,
                _utc(cell.first_accepted_at), "true" if cell.late else "false", _utc(row.due_at),
                "" if cell.score_before_penalty is None else repr(cell.score_before_penalty),
                repr(round(cell.penalty, 12)), "true" if cell.by_hand else "false",
                neutralized(cell.by_hand.by or "") if cell.by_hand else "",
                neutralized(cell.by_hand.reason) if cell.by_hand else ""])
    return out.getvalue()


def _score(value: float | None) -> str:
    return "" if value is None else repr(value)


def as_wide_csv(book: Gradebook) -> str:
    """The form a learning management system imports (RFC 4180): one row per learner, the
    learner's name (the judge's user name, which an LMS matches to its own login), then the score
    that counts on each problem (empty: never judged, each out of 1), then the total (out of the
    number of problems). Nothing else: an LMS takes any other row for a learner it cannot find."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["learner", *(neutralized(slug) for slug in book.problems), "total"])
    for row in book.rows:
        writer.writerow([neutralized(row.user), *(_score(cell.best_score) for cell in row.cells),
                         repr(round(row.total_score, 12))])
    return out.getvalue()


def csv_filename(book: Gradebook, form: str = "") -> str:
    """A file name safe in any header and on any system: ASCII letters, digits, '-' and '_'."""
    words = re.sub(r"[^A-Za-z0-9]+", "-", book.assignment.title).strip("-")[:60].strip("-")
    return f"gradebook-{book.assignment.id}{'-' + words if words else ''}{'-' + form if form else ''}.csv"


def best_on_problem(session: Session, user_id: int, problem_id: int) -> tuple[float | None, bool]:
    """A learner's best counted score on a problem over everything they handed in for it (any
    assignment, or none), leaving out what a held assignment keeps from them; and whether any of
    it was accepted. (None, False) before anything of theirs was judged."""
    cells = session.execute(_aggregates(Submission.user_id == user_id, Submission.problem_id == problem_id,
                                        ~withheld())).all()
    bests = [row.best for row in cells if row.best is not None]
    return (max(bests) if bests else None), any(row.first_accepted is not None for row in cells)
