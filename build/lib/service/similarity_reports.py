"""Which learners' accepted solutions of a problem look alike (``judge.similarity`` compares them).

One submission per learner: their latest accepted one in mode submit, within the viewer's scope
(``service.insight.insight_scope``: for a course, only what was sent for its assignments).
Each submission compared, or shown side by side, is one ``access.authorize`` lets the viewer read:
never a try or a run, never a learner's work outside the viewer's courses. Every pair is
compared, so the number of submissions is capped: past ``MAX_SUBMISSIONS`` the most recent ones
are compared and the answer says so. Code every learner was given (the starter) is left out of
the comparison.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from judge.errors import InvalidInput
from judge.results import Verdict
from judge.similarity import Comparison, Match, compare, fingerprints
from service.access import Action, allowed
from service.assignments import find_assignment
from service.authoring import current_version
from service.catalog import load_version
from service.db.models import Assignment, ProblemRow, Submission, User
from service.errors import NotFound
from service.insight import Scope, insight_scope, judged
from service.submissions import Mode, find_submission

MAX_SUBMISSIONS = 200
DEFAULT_THRESHOLD = 0.6


@dataclass(frozen=True)
class Side:
    submission: int
    user: str


@dataclass(frozen=True)
class Pair:
    a: Side
    b: Side
    similarity: float
    matches: tuple[Match, ...]


@dataclass(frozen=True)
class Report:
    pairs: tuple[Pair, ...]
    compared: int  # submissions compared
    total: int  # learners with an accepted submission in the scope
    message: str | None  # set when the cap left some out


def latest_accepted(session: Session, row: ProblemRow, scope: Scope) -> list[Submission]:
    """Each learner's latest accepted submission (mode submit) of row, newest first."""
    newest = (select(func.max(Submission.id).label("id"))
              .where(*judged(row, scope), Submission.verdict == Verdict.ACCEPTED.value)
              .group_by(Submission.user_id).subquery())
    return list(session.scalars(select(Submission).join(newest, newest.c.id == Submission.id)
                                .order_by(Submission.id.desc())))


def _starter_hashes(session: Session, row: ProblemRow) -> frozenset[int]:
    return frozenset(f.hash for f in fingerprints(load_version(current_version(session, row)).starter))


def similar_pairs(session: Session, row: ProblemRow, scope: Scope, threshold: float) -> Report:
    """Pairs of learners whose accepted solutions share at least ``threshold`` of their
    fingerprints, most alike first."""
    if not 0.0 <= threshold <= 1.0:
        raise InvalidInput(f"threshold: {threshold} is not between 0 and 1")
    # The query already keeps to what the viewer may read; each one is authorized all the same,
    # so that code reaches a comparison only through the one rule.
    every = [s for s in latest_accepted(session, row, scope) if allowed(scope.viewer, Action.READ, s)]
    chosen = every[:MAX_SUBMISSIONS]
    message = None
    if len(every) > MAX_SUBMISSIONS:
        message = (f"{len(every)} learners have an accepted solution; only the {MAX_SUBMISSIONS} "
                   "most recent were compared (choose a course to compare its learners alone)")
    ignore = _starter_hashes(session, row)
    prints = {s.id: fingerprints(s.code) for s in chosen}
    pairs = []
    for a, b in combinations(chosen, 2):
        result = compare(prints[a.id], prints[b.id], ignore)
        if result.similarity >= threshold and result.similarity > 0:
            pairs.append(Pair(Side(a.id, a.user.name), Side(b.id, b.user.name),
                              round(result.similarity, 4), result.matches))
    pairs.sort(key=lambda p: (-p.similarity, p.a.submission, p.b.submission))
    return Report(tuple(pairs), len(chosen), len(every), message)


@dataclass(frozen=True)
class ProblemPair:
    problem: str  # the slug
    pair: Pair


@dataclass(frozen=True)
class AssignmentReport:
    assignment: Assignment
    pairs: tuple[ProblemPair, ...]  # over every problem of the assignment, most alike first
    compared: int  # accepted submissions compared, summed over the problems
    messages: tuple[str, ...]  # one per problem whose learners were not all compared


def assignment_pairs(session: Session, viewer: User, assignment_id: int,
                     threshold: float) -> AssignmentReport:
    """One report over every problem of an assignment, for its course's instructors: on each
    problem, the course's learners' latest accepted solutions compared in pairs (as
    ``similar_pairs`` does, within the course), then every pair, most alike first."""
    assignment = find_assignment(session, viewer, assignment_id, Action.MANAGE)
    found: list[ProblemPair] = []
    compared = 0
    messages = []
    for link in assignment.problems:
        report = similar_pairs(session, link.problem,
                               insight_scope(session, viewer, link.problem, assignment.course_id), threshold)
        found += [ProblemPair(link.problem.slug, pair) for pair in report.pairs]
        compared += report.compared
        if report.message:
            messages.append(f"{link.problem.slug}: {report.message}")
    found.sort(key=lambda p: (-p.pair.similarity, p.problem, p.pair.a.submission, p.pair.b.submission))
    return AssignmentReport(assignment, tuple(found), compared, tuple(messages))


@dataclass(frozen=True)
class SideBySide:
    a: Submission
    b: Submission
    comparison: Comparison


def _comparable(session: Session, viewer: User, submission_id: int) -> Submission:
    """A submission the viewer may read (``access.authorize``, through ``find_submission``) that
    similarity compares: mode submit. Anything else is "not found", exactly like a missing id."""
    submission = find_submission(session, viewer, submission_id)
    if submission.mode != Mode.SUBMIT:
        raise NotFound(f"no submission {submission_id}")  # a try or a run is never compared
    return submission


def side_by_side(session: Session, viewer: User, a_id: int, b_id: int) -> SideBySide:
    """Two submissions of one problem with their matching lines, for a viewer who may study the
    problem's submissions (``insight_scope``) and read both (``access.authorize``)."""
    a, b = _comparable(session, viewer, a_id), _comparable(session, viewer, b_id)
    if a.problem_id != b.problem_id:
        raise InvalidInput(f"submissions {a_id} and {b_id} are of different problems")
    insight_scope(session, viewer, a.problem)  # a learner reading their own two: still not insight
    ignore = _starter_hashes(session, a.problem)
    return SideBySide(a, b, compare(fingerprints(a.code), fingerprints(b.code), ignore))
