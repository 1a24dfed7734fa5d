"""Courses, their join links, assignments, the learner's view of them and gradebooks.

Each route parses, calls the service (``judge.service.courses``, ``course_invitations``,
``assignments``, ``gradebook``; they authorize through ``judge.service.access``) and shapes the
answer here. A user's own invitations are ``api.routes.invitations``'.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from api.deps import CurrentUser, SessionDep
from api.schemas.bounds import Id
from api.schemas.courses import (
    AssignmentBrief,
    AssignmentIn,
    AssignmentOut,
    AssignmentProblemOut,
    CellOut,
    CourseCreate,
    CourseListItem,
    CourseOut,
    CourseRef,
    GradebookOut,
    GradebookRow,
    InvitationOut,
    JoinRequest,
    MemberIn,
    MemberOut,
    MyInvitationOut,
)
from judge.service import assignments, course_invitations, courses, gradebook
from judge.service.access import course_role
from judge.service.assignments import AssignmentInput, due_state
from judge.service.catalog import load_version
from judge.service.courses_join import join_by_code
from judge.service.db.models import Assignment, Course, CourseRole, LatePolicy, Role, User, utcnow
from judge.service.gradebook import Cell

router = APIRouter(tags=["courses"])


def _brief(assignment: Assignment) -> AssignmentBrief:
    return AssignmentBrief(
        id=assignment.id, title=assignment.title, opens_at=assignment.opens_at, due_at=assignment.due_at,
        late_policy=LatePolicy(assignment.late_policy), state=due_state(assignment, utcnow()),
        problems=[link.problem.slug for link in assignment.problems])


def _course_out(course: Course, viewer: User) -> CourseOut:
    """Members, pending invitations and the join code only for the course's instructors (and
    admins)."""
    role = course_role(viewer, course)
    teaching = role is CourseRole.INSTRUCTOR or viewer.role == Role.ADMIN
    teachers_view: dict[str, Any] = {}
    if teaching:
        teachers_view = {
            "members": [MemberOut(user=m.user.name, user_id=m.user_id, role=CourseRole(m.role),
                                  joined_at=m.joined_at)
                        for m in courses.members(course)],
            "invitations": [InvitationOut(id=i.id, user=i.user.name, user_id=i.user_id,
                                          role=CourseRole(i.role),
                                          invited_by=i.inviter.name if i.inviter else None,
                                          created_at=i.created_at)
                            for i in course.invitations],
            "join_code": course.join_code, "join_url": courses.join_path(course)}
    return CourseOut(id=course.id, title=course.title, role=role, created_at=course.created_at,
                     assignments=[_brief(a) for a in course.assignments], **teachers_view)


def _cell_out(cell: Cell) -> CellOut:
    return CellOut(problem=cell.problem, best_score=cell.best_score, accepted=cell.accepted,
                   attempts=cell.attempts, first_accepted_at=cell.first_accepted_at, late=cell.late,
                   submission=cell.submission)


def _assignment_out(assignment: Assignment, role: CourseRole | None,
                    cells: list[Cell] | None) -> AssignmentOut:
    """``cells``: the viewer's own progress, for a learner of the course."""
    problems = []
    for index, link in enumerate(assignment.problems):
        version = link.problem.published_version
        title = load_version(version).title if version is not None else link.problem.slug
        problems.append(AssignmentProblemOut(slug=link.problem.slug, title=title,
                                             progress=_cell_out(cells[index]) if cells is not None else None))
    return AssignmentOut(
        id=assignment.id, course=CourseRef(id=assignment.course.id, title=assignment.course.title),
        role=role, title=assignment.title, opens_at=assignment.opens_at, due_at=assignment.due_at,
        late_policy=LatePolicy(assignment.late_policy), state=due_state(assignment, utcnow()),
        problems=problems, solved=sum(c.accepted for c in cells) if cells is not None else None)


def _input(body: AssignmentIn) -> AssignmentInput:
    return AssignmentInput(title=body.title, opens_at=body.opens_at, due_at=body.due_at,
                           late_policy=body.late_policy, problems=body.problems)


@router.post("/courses", status_code=201, response_model=CourseOut)
def create_course(body: CourseCreate, session: SessionDep, user: CurrentUser) -> CourseOut:
    """Create a course (instructors and admins); you become its instructor."""
    return _course_out(courses.create_course(session, user, body.title), user)


@router.get("/courses", response_model=list[CourseListItem])
def my_courses(session: SessionDep, user: CurrentUser) -> list[CourseListItem]:
    """The courses you teach or take."""
    return [CourseListItem(id=course.id, title=course.title, role=role,
                           join_url=courses.join_path(course) if role is CourseRole.INSTRUCTOR else None)
            for course, role in courses.my_courses(session, user)]


@router.post("/courses/join", response_model=CourseOut)
def join(body: JoinRequest, session: SessionDep, user: CurrentUser) -> CourseOut:
    """Join the course of a join link as a learner (joining again changes nothing)."""
    return _course_out(join_by_code(session, user, body.code), user)


@router.get("/courses/{course_id}", response_model=CourseOut)
def read_course(course_id: Id, session: SessionDep, user: CurrentUser) -> CourseOut:
    """A course with its assignments; for its instructors also its members and join link."""
    return _course_out(courses.find_course(session, user, course_id), user)


@router.post("/courses/{course_id}/join-code", response_model=CourseOut)
def rotate_join_code(course_id: Id, session: SessionDep, user: CurrentUser) -> CourseOut:
    """Replace the course's join code (its instructors): the old link stops working."""
    return _course_out(courses.rotate_join_code(session, user, course_id), user)


@router.post("/courses/{course_id}/members", response_model=CourseOut, responses={
    409: {"description": "demoting the course's last instructor (code last_instructor), or the "
                         "course holds the most pending invitations it may (too_many_invitations)"}})
def add_member(course_id: Id, body: MemberIn, session: SessionDep, user: CurrentUser) -> CourseOut:
    """Invite a user to a course you teach by their name, as instructor or learner: they become a
    member when they accept (a member already takes the new role at once)."""
    return _course_out(course_invitations.invite(session, user, course_id, body.name, body.role), user)


@router.delete("/courses/{course_id}/invitations/{invitation_id}", status_code=204)
def withdraw_invitation(course_id: Id, invitation_id: Id, session: SessionDep, user: CurrentUser) -> Response:
    """Take back an invitation to a course you teach that is not answered yet."""
    course_invitations.withdraw(session, user, course_id, invitation_id)
    return Response(status_code=204)


@router.delete("/courses/{course_id}/members/{user_id}", status_code=204, responses={
    409: {"description": "the course's last instructor (code last_instructor)"}})
def remove_member(course_id: Id, user_id: Id, session: SessionDep, user: CurrentUser) -> Response:
    """Remove a member from a course you teach (their submissions stay); never its last instructor."""
    courses.remove_member(session, user, course_id, user_id)
    return Response(status_code=204)


@router.post("/courses/{course_id}/assignments", status_code=201, response_model=AssignmentOut)
def create_assignment(course_id: Id, body: AssignmentIn, session: SessionDep,
                      user: CurrentUser) -> AssignmentOut:
    """Create an assignment in a course you teach."""
    assignment = assignments.create_assignment(session, user, course_id, _input(body))
    return _assignment_out(assignment, course_role(user, assignment.course), None)


@router.get("/me/assignments", response_model=list[AssignmentOut], tags=["users"])
def my_assignments(session: SessionDep, user: CurrentUser) -> list[AssignmentOut]:
    """Every assignment of your courses, by due time, with its state and your progress."""
    chosen = assignments.my_assignments(session, user)
    mine = gradebook.progress(session, user, [a for a, role in chosen if role is CourseRole.LEARNER])
    return [_assignment_out(a, role, mine.get(a.id)) for a, role in chosen]


@router.get("/me/invitations", response_model=list[MyInvitationOut], tags=["users"])
def my_invitations(session: SessionDep, user: CurrentUser) -> list[MyInvitationOut]:
    """Invitations to courses waiting for your answer, newest first (at most 100)."""
    return [MyInvitationOut(id=i.id, course=CourseRef(id=i.course.id, title=i.course.title),
                            role=CourseRole(i.role), invited_by=i.inviter.name if i.inviter else None,
                            created_at=i.created_at)
            for i in course_invitations.pending_for(session, user)]


@router.post("/me/invitations/{invitation_id}/accept", response_model=CourseOut, tags=["users"])
def accept_invitation(invitation_id: Id, session: SessionDep, user: CurrentUser) -> CourseOut:
    """Accept an invitation: you become a member of its course, with the role it offers."""
    return _course_out(course_invitations.accept(session, user, invitation_id), user)


@router.post("/me/invitations/{invitation_id}/decline", status_code=204, tags=["users"])
def decline_invitation(invitation_id: Id, session: SessionDep, user: CurrentUser) -> Response:
    """Decline an invitation: it is gone, and you stay out of its course."""
    course_invitations.decline(session, user, invitation_id)
    return Response(status_code=204)


@router.get("/assignments/{assignment_id}", response_model=AssignmentOut)
def read_assignment(assignment_id: Id, session: SessionDep, user: CurrentUser) -> AssignmentOut:
    """An assignment with its problems; for a learner of the course, their own progress on each."""
    assignment = assignments.find_assignment(session, user, assignment_id)
    role = course_role(user, assignment.course)
    cells = (gradebook.progress(session, user, [assignment])[assignment.id]
             if role is CourseRole.LEARNER else None)
    return _assignment_out(assignment, role, cells)


@router.put("/assignments/{assignment_id}", response_model=AssignmentOut)
def update_assignment(assignment_id: Id, body: AssignmentIn, session: SessionDep,
                      user: CurrentUser) -> AssignmentOut:
    """Replace an assignment's title, times, late policy and problems."""
    assignment = assignments.update_assignment(session, user, assignment_id, _input(body))
    return _assignment_out(assignment, course_role(user, assignment.course), None)


@router.delete("/assignments/{assignment_id}", status_code=204)
def delete_assignment(assignment_id: Id, session: SessionDep, user: CurrentUser) -> Response:
    """Delete an assignment (its submissions stay, counted for none)."""
    assignments.delete_assignment(session, user, assignment_id)
    return Response(status_code=204)


@router.get("/assignments/{assignment_id}/gradebook", response_model=GradebookOut)
def read_gradebook(assignment_id: Id, session: SessionDep, user: CurrentUser) -> GradebookOut:
    """Learners x problems: best score, accepted, attempts, first accepted, late (instructors)."""
    book = gradebook.gradebook(session, user, assignment_id)
    return GradebookOut(assignment=_brief(book.assignment), problems=book.problems, rows=[
        GradebookRow(user=row.user, cells=[_cell_out(c) for c in row.cells], total_score=row.total_score)
        for row in book.rows])


@router.get("/assignments/{assignment_id}/gradebook.csv", response_class=Response, responses={
    200: {"content": {"text/csv": {}}, "description": "one row per learner x problem, with a header"}})
def gradebook_csv(assignment_id: Id, session: SessionDep, user: CurrentUser) -> Response:
    """The gradebook as CSV (RFC 4180): learner, problem, best_score, accepted, attempts,
    first_accepted_at, late."""
    book = gradebook.gradebook(session, user, assignment_id)
    return Response(gradebook.as_csv(book), media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="{gradebook.csv_filename(book)}"',
        "Cache-Control": "no-store"})
