"""One assignment under /assignments: reading, replacing and deleting it, its learners'
extensions, and its gradebook (as JSON and as CSV). A course's new assignments are made under
/courses (``api.routes.courses``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from api.deps import CurrentUser, SessionDep
from api.routes.courses import assignment_input, assignment_out, brief, cell_out, extension_out
from api.routes.insight import pair_out
from api.schemas.bounds import Id
from api.schemas.courses import (
    AssignmentIn,
    AssignmentOut,
    CsvForm,
    ExtensionIn,
    ExtensionOut,
    GradebookOut,
    GradebookRow,
)
from api.schemas.insight import AssignmentSimilarityOut, ProblemPairOut
from service import assignments, extensions, gradebook, similarity_reports
from service.access import course_role
from service.db.models import CourseRole

router = APIRouter(prefix="/assignments", tags=["courses"])


@router.get("/{assignment_id}", response_model=AssignmentOut)
def read_assignment(assignment_id: Id, session: SessionDep, user: CurrentUser) -> AssignmentOut:
    """An assignment with its problems; for a learner of the course, their own progress on each."""
    assignment = assignments.find_assignment(session, user, assignment_id)
    role = course_role(user, assignment.course)
    cells = (gradebook.progress(session, user, [assignment])[assignment.id]
             if role is CourseRole.LEARNER else None)
    return assignment_out(assignment, role, cells, user)


@router.put("/{assignment_id}", response_model=AssignmentOut)
def update_assignment(assignment_id: Id, body: AssignmentIn, session: SessionDep,
                      user: CurrentUser) -> AssignmentOut:
    """Replace an assignment's title, times, late rules and problems; the late flags and
    penalties of the submissions already made follow the new rules."""
    assignment = assignments.update_assignment(session, user, assignment_id, assignment_input(body))
    return assignment_out(assignment, course_role(user, assignment.course), None)


@router.post("/{assignment_id}/release-grades", response_model=AssignmentOut)
def release_grades(assignment_id: Id, session: SessionDep, user: CurrentUser) -> AssignmentOut:
    """Show the learners the scores and feedback the assignment held back, and notify them
    (its instructors); 409 when it holds none."""
    assignment = assignments.release_grades(session, user, assignment_id)
    return assignment_out(assignment, course_role(user, assignment.course), None)


@router.delete("/{assignment_id}", status_code=204)
def delete_assignment(assignment_id: Id, session: SessionDep, user: CurrentUser) -> Response:
    """Delete an assignment (its submissions stay, counted for none)."""
    assignments.delete_assignment(session, user, assignment_id)
    return Response(status_code=204)


@router.get("/{assignment_id}/gradebook", response_model=GradebookOut)
def read_gradebook(assignment_id: Id, session: SessionDep, user: CurrentUser) -> GradebookOut:
    """Learners x problems: best score, accepted, attempts, first accepted, late (instructors)."""
    book = gradebook.gradebook(session, user, assignment_id)
    return GradebookOut(assignment=brief(book.assignment), problems=book.problems,
                        max_total=book.max_total, rows=[
        GradebookRow(user=row.user, user_id=row.user_id, due_at=row.due_at or book.assignment.due_at,
                     extension=row.extension, cells=[cell_out(c) for c in row.cells],
                     total_score=row.total_score)
        for row in book.rows])


@router.get("/{assignment_id}/gradebook.csv", response_class=Response, responses={
    200: {"content": {"text/csv": {}}, "description": (
        "long: one row per learner x problem, with a header; wide: one row per learner, a column "
        "per problem and the total")}})
def gradebook_csv(assignment_id: Id, session: SessionDep, user: CurrentUser,
                  form: Annotated[CsvForm, Query(description=(
                      "long: every detail, one row per learner and problem; wide: the form an LMS "
                      "(Canvas, Moodle) imports, one row per learner"))] = CsvForm.LONG) -> Response:
    """The gradebook as CSV (RFC 4180). Long: learner, problem, best_score, accepted, attempts,
    first_accepted_at, late, due_at (the learner's), score_before_penalty, penalty,
    score_set_by_hand, score_set_by, score_reason. Wide: learner, each problem's best score, total."""
    book = gradebook.gradebook(session, user, assignment_id)
    wide = form is CsvForm.WIDE
    text = gradebook.as_wide_csv(book) if wide else gradebook.as_csv(book)
    name = gradebook.csv_filename(book, "wide" if wide else "")
    return Response(text, media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="{name}"',
        "Cache-Control": "no-store"})


@router.get("/{assignment_id}/similarity", response_model=AssignmentSimilarityOut)
def assignment_similarity(assignment_id: Id, session: SessionDep, user: CurrentUser,
                          threshold: float = Query(similarity_reports.DEFAULT_THRESHOLD, ge=0.0, le=1.0,
                                                   description="the least similarity a pair needs to be "
                                                               "listed, 0..1")) -> AssignmentSimilarityOut:
    """Learners whose accepted solutions look alike, over every problem of the assignment, most
    alike first (the course's instructors): each pair opens side by side at /similarity/{a}/{b}."""
    report = similarity_reports.assignment_pairs(session, user, assignment_id, threshold)
    return AssignmentSimilarityOut(
        assignment=report.assignment.id, threshold=threshold, compared=report.compared,
        messages=list(report.messages),
        pairs=[ProblemPairOut(problem=p.problem, **pair_out(p.pair).model_dump()) for p in report.pairs])


@router.get("/{assignment_id}/extensions", response_model=list[ExtensionOut])
def list_extensions(assignment_id: Id, session: SessionDep, user: CurrentUser) -> list[ExtensionOut]:
    """The learners given their own due time, in the order they were given it (instructors)."""
    return [extension_out(e) for e in extensions.extensions(session, user, assignment_id)]


@router.put("/{assignment_id}/extensions/{user_id}", response_model=ExtensionOut)
def grant_extension(assignment_id: Id, user_id: Id, body: ExtensionIn, session: SessionDep,
                    user: CurrentUser) -> ExtensionOut:
    """Give a learner of the course their own due time and last accepted time, with a reason
    (replacing any they had); their submissions' late flags and penalties follow it."""
    return extension_out(extensions.grant(session, user, assignment_id, user_id, body.due_at,
                                          body.late_until, body.reason))


@router.delete("/{assignment_id}/extensions/{user_id}", status_code=204)
def revoke_extension(assignment_id: Id, user_id: Id, session: SessionDep, user: CurrentUser) -> Response:
    """Take a learner's extension away: the assignment's rules apply to them again."""
    extensions.revoke(session, user, assignment_id, user_id)
    return Response(status_code=204)
