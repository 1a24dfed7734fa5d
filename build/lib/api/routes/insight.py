"""Insight into a problem's submissions: statistics, two charts, and solutions that look alike.

For the problem's owner and admins, or an instructor of a course that assigns the problem (over
that course's learners, hidden tests counted but never named); ``service.insight`` decides.
Every route is under one problem's path, /problems/{slug}; two submissions compared side by side
are under /similarity (``api.routes.similarity``).
"""

from __future__ import annotations

from fastapi import APIRouter, Query
from fastapi.responses import Response
from sqlalchemy.orm import Session

from api.charts import bar_chart
from api.deps import Instructor, SessionDep
from api.schemas.bounds import Id
from api.schemas.insight import (
    AcceptanceOut,
    CategoryCount,
    FailingTestOut,
    InsightOut,
    MatchOut,
    PairOut,
    ScoresOut,
    SideOut,
    SimilarityOut,
    VerdictCount,
)
from judge.results import Verdict, Visibility
from judge.similarity import Match
from service import insight, similarity_reports
from service.authoring import find_problem
from service.db.models import User

router = APIRouter(prefix="/problems/{slug}", tags=["insight"])

FAILING_BARS = 15  # tests drawn in the failing-tests chart
SVG_HEADERS = {
    # An SVG opened on its own is a document: it may run nothing and load nothing.
    "Content-Security-Policy": "default-src 'none'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}
COURSE = Query(None, description="restrict to the learners of this course")


def _insight(session: Session, user: User, slug: str, course: Id | None) -> tuple[str, insight.Scope,
                                                                                   insight.Insight]:
    row = find_problem(session, slug)
    scope = insight.insight_scope(session, user, row, course)
    return row.slug, scope, insight.problem_insight(session, row, scope)


def _failing_label(test: insight.FailingTest) -> str:
    if test.name is None:
        return "hidden tests (together)"
    return test.name if test.visibility != "hidden" else f"{test.name} (hidden)"


@router.get("/insight", response_model=InsightOut)
def problem_insight(slug: str, session: SessionDep, user: Instructor,
                    course: Id | None = COURSE) -> InsightOut:
    """Acceptance with its Wilson interval, scores, the tests that fail most, verdicts and
    failure categories, over judged submissions (mode submit)."""
    _, scope, found = _insight(session, user, slug, course)
    rate = found.acceptance
    return InsightOut(
        problem=slug, course=scope.course_id, hidden_tests_by_name=found.hidden_by_name,
        acceptance=AcceptanceOut(submissions=rate.submissions, accepted=rate.accepted, rate=rate.rate,
                                 wilson_95=rate.interval),
        scores=ScoresOut(bins=list(found.bins), counts=list(found.counts)),
        failing_tests=[FailingTestOut(name=t.name, visibility=Visibility(t.visibility), failures=t.failures)
                       for t in found.failing_tests],
        verdicts=[VerdictCount(verdict=Verdict(v), count=n) for v, n in found.verdicts],
        categories=[CategoryCount(category=c, count=n) for c, n in found.categories],
    )


def _svg(text: str) -> Response:
    return Response(text, media_type="image/svg+xml", headers=SVG_HEADERS)


SVG_DOC: dict[int | str, dict[str, object]] = {
    200: {"content": {"image/svg+xml": {}}, "description": "an SVG bar chart"}}


@router.get("/insight/scores.svg", response_class=Response, responses=SVG_DOC)
def scores_chart(slug: str, session: SessionDep, user: Instructor, course: Id | None = COURSE) -> Response:
    """The histogram of scores as an SVG chart."""
    _, _, found = _insight(session, user, slug, course)
    labels = [f"{low:.0%} to {high:.0%}" for low, high in found.bins]
    return _svg(bar_chart(f"Scores of {slug}", labels, list(found.counts), unit="submissions"))


@router.get("/insight/failing.svg", response_class=Response, responses=SVG_DOC)
def failing_chart(slug: str, session: SessionDep, user: Instructor, course: Id | None = COURSE) -> Response:
    """The tests that fail most often as an SVG chart."""
    _, _, found = _insight(session, user, slug, course)
    shown = found.failing_tests[:FAILING_BARS]
    return _svg(bar_chart(f"Tests that fail most often in {slug}", [_failing_label(t) for t in shown],
                          [t.failures for t in shown], unit="failures", empty="no test has failed"))


def matches_out(matches: tuple[Match, ...]) -> list[MatchOut]:
    return [MatchOut(a_lines=m.a_lines, b_lines=m.b_lines) for m in matches]


def pair_out(pair: similarity_reports.Pair) -> PairOut:
    return PairOut(a=SideOut(submission=pair.a.submission, user=pair.a.user),
                   b=SideOut(submission=pair.b.submission, user=pair.b.user),
                   similarity=pair.similarity, matches=matches_out(pair.matches))


@router.get("/similarity", response_model=SimilarityOut)
def similar_solutions(slug: str, session: SessionDep, user: Instructor, course: Id | None = COURSE,
                      threshold: float = Query(similarity_reports.DEFAULT_THRESHOLD, ge=0.0, le=1.0,
                                               description="the least similarity a pair needs to be "
                                                           "listed, 0..1")) -> SimilarityOut:
    """Pairs of learners whose latest accepted solutions look alike (winnowing over normalized
    Python tokens), most alike first, with their matching line ranges."""
    row = find_problem(session, slug)
    scope = insight.insight_scope(session, user, row, course)
    report = similarity_reports.similar_pairs(session, row, scope, threshold)
    return SimilarityOut(
        problem=slug, course=scope.course_id, threshold=threshold, compared=report.compared,
        total=report.total, message=report.message,
        pairs=[pair_out(p) for p in report.pairs])
