"""Rows shaped into response bodies. What a viewer may see was decided by ``service.access``;
here it only decides which fields the body carries (an owner's view carries hidden tests)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session, object_session

from api.rendering import render_markdown
from api.schemas import (
    HintOut,
    HintsOut,
    Me,
    ProblemDetail,
    ProblemSummary,
    SubmissionOut,
    SubmissionSummary,
    VersionOut,
)
from api.schemas.authoring import ValidationReport
from api.schemas.common import (
    CheckerOut,
    Difficulty,
    HiddenAggregate,
    LimitsOut,
    Parameter,
    ProblemTest,
    TestResultOut,
)
from api.schemas.courses import CountsForOut, CourseRef
from api.schemas.tracks import TrackPlaceOut
from judge.problems import Problem, TestCase
from judge.results import HiddenPolicy, Verdict, json_safe, learner_view, peak_memory
from service import editorials, hints, notifications
from service.access import owns_problem
from service.assignment_credit import chosen, counting_assignments
from service.assignments import due_state
from service.authoring import current_version, versions
from service.catalog import load_version
from service.db.models import (
    ProblemRow,
    ProblemVersion,
    Role,
    Submission,
    SubmissionStatus,
    User,
    VersionStatus,
    utcnow,
)
from service.grade_release import held_from
from service.progress import Progress, progress_by_problem
from service.sharing import is_shareable
from service.submissions import Mode, shown_tests
from service.track_progress import track_place


def _test_json(test: TestCase) -> dict[str, Any]:
    data: dict[str, Any] = {"name": test.name, "args": json_safe(test.args),
                            "kwargs": json_safe(test.kwargs)}
    if test.raises:
        data["raises"] = test.raises
    else:
        data["expected"] = json_safe(test.expected)
    data["explanation"] = test.explanation
    return data


def problem_summary(row: ProblemRow, problem: Problem, progress: Progress, viewer: User) -> ProblemSummary:
    return ProblemSummary(
        slug=row.slug, title=problem.title, difficulty=Difficulty(problem.difficulty),
        tags=list(problem.tags),
        version=row.published_version.version if row.published_version else None,
        published=row.published_version_id is not None,
        progress=progress.status, best_score=progress.best_score,
        owned=owns_problem(viewer, row), shipped=row.owner_id is None, shareable=is_shareable(row),
    )


def version_out(row: ProblemRow, version: ProblemVersion) -> VersionOut:
    validation = None if version.validation is None else ValidationReport.model_validate(version.validation)
    return VersionOut(id=version.id, problem=row.slug, version=version.version,
                      status=VersionStatus(version.status), published=row.published_version_id == version.id,
                      validation=validation, created_at=version.created_at)


def _track_place(session: Session, slug: str) -> TrackPlaceOut | None:
    place = track_place(session, slug)
    return None if place is None else TrackPlaceOut(
        slug=place.track.slug, title=place.track.title, position=place.position, total=place.total,
        previous=place.previous, next=place.next)


def problem_detail(session: Session, row: ProblemRow, viewer: User,
                   version: ProblemVersion | None = None) -> ProblemDetail:
    """Hidden tests and versions only for the owner: for anyone else the keys are left out.
    ``version`` shows another version than the current one (an owner's preview)."""
    problem = load_version(version or current_version(session, row))
    owner = owns_problem(viewer, row)
    progress = progress_by_problem(session, viewer, [row.id])[row.id]
    owners_view: dict[str, Any] = {}
    if owner:
        owners_view = {"hidden_tests": [ProblemTest.model_validate(_test_json(t))
                                        for t in problem.hidden_tests],
                       "versions": [version_out(row, v) for v in versions(session, row)]}
    return ProblemDetail(
        **problem_summary(row, problem, progress, viewer).model_dump(),
        signature=problem.signature,
        function=problem.function,
        parameters=[Parameter(name=p.name, type=str(p.type), optional=p.optional)
                    for p in problem.parameters],
        returns=str(problem.returns),
        statement_markdown=problem.statement,
        statement_html=render_markdown(problem.statement),
        starter=problem.starter,
        limits=LimitsOut(time_per_test=problem.limits.time_per_test,
                         time_per_submission=problem.limits.time_per_submission,
                         memory_mb=problem.limits.memory_mb),
        checker=CheckerOut.model_validate(problem.checker.as_dict()),
        public_tests=[ProblemTest.model_validate(_test_json(t)) for t in problem.public_tests],
        hidden_test_count=len(problem.hidden_tests),
        track=_track_place(session, row.slug),
        counts_for=counts_for(session, row, viewer),
        hints_total=len(problem.hints),
        hints_revealed=hints.revealed_count(session, viewer, row, len(problem.hints)),
        hint_tests=[list(names) for names in problem.hint_tests],
        has_editorial=problem.editorial is not None,
        editorial_available=problem.editorial is not None and editorials.may_read(session, viewer, row),
        **owners_view,
    )


def counts_for(session: Session, row: ProblemRow, viewer: User) -> list[CountsForOut]:
    """What ``viewer``'s work on the problem counts for: every assignment of their courses that
    holds it, by their own times, the one a submission sent now would count for marked."""
    now = utcnow()
    counting = counting_assignments(session, viewer, row)
    taking = chosen(counting, now)
    return [CountsForOut(id=c.assignment.id, title=c.assignment.title,
                         course=CourseRef(id=c.assignment.course.id, title=c.assignment.course.title),
                         opens_at=c.assignment.opens_at, due_at=c.rule.due_at, late_until=c.rule.late_until,
                         state=due_state(c.assignment, now, c.rule.due_at),
                         counts_now=c is taking)
            for c in counting]


def me_out(session: Session, user: User) -> Me:
    return Me(id=user.id, name=user.name, role=Role(user.role), email=user.email,
              email_notifications=user.email_notifications,
              unread_notifications=notifications.unread_count(session, user))


def hints_out(shown: hints.Hints) -> HintsOut:
    return HintsOut(total=shown.total, revealed=[
        HintOut(index=h.index, tests=list(h.tests), markdown=h.markdown, html=render_markdown(h.markdown),
                revealed_at=h.revealed_at) for h in shown.revealed])


def submission_summary(submission: Submission, viewer: User,
                       new_comments: int | None = None) -> SubmissionSummary:
    """``new_comments``: how many comments its learner has not seen, when the viewer is that
    learner. Held grades (``service.grade_release``) leave the result out for its learner."""
    held = held_from(viewer, submission)
    return SubmissionSummary(
        id=submission.id, problem=submission.problem.slug,
        problem_version=submission.version.version, user=submission.user.name,
        mode=Mode(submission.mode), status=SubmissionStatus(submission.status),
        verdict=None if submission.verdict is None or held else Verdict(submission.verdict),
        score=None if held else submission.score, assignment=submission.assignment_id,
        late=submission.late, penalty=0.0 if held else submission.penalty, excused=submission.excused,
        score_override=None if held else submission.score_override,
        new_comments=0 if held and new_comments is not None else new_comments, held=held,
        created_at=submission.created_at,
        started_at=submission.started_at, finished_at=submission.finished_at,
    )


def submission_detail(submission: Submission, viewer: User) -> SubmissionOut:
    """The problem's owner sees every test; anyone else sees hidden tests as an aggregate; the
    learner of a submission whose grades are held sees none (nor its message)."""
    summary = submission_summary(submission, viewer)
    if summary.held:
        return SubmissionOut(**summary.model_dump(), message=None, code=submission.code,
                             arguments=submission.arguments, tests=[], hidden=None)
    full = owns_problem(viewer, submission.problem)
    session = object_session(submission)
    assert session is not None, "a submission is shown from the session that read it"
    tests = shown_tests(session, submission, full)
    hidden = None
    if not full:
        policy = HiddenPolicy(load_version(submission.version).hidden_policy)
        view = learner_view(tests, policy)
        tests, hidden = view["tests"], HiddenAggregate.model_validate(view["hidden"])
    return SubmissionOut(**summary.model_dump(), message=submission.message,
                         code=submission.code, arguments=submission.arguments,
                         tests=[TestResultOut.model_validate(t) for t in tests], hidden=hidden,
                         peak_memory_bytes=peak_memory(tests))
