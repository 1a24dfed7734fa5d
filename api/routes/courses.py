"""Courses under /courses: their members, invitations, join links and new assignments; and how
a course and an assignment are shaped in answers.

Each route parses, calls the service (``service.courses``, ``course_invitations``,
``assignments``, ``gradebook``; they authorize through ``service.access``) and shapes the
answer with the helpers here, which ``api.routes.assignments`` (an assignment and its gradebook)
and ``api.routes.me`` (one's own assignments and invitations) share.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Response

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
    ExtensionOut,
    InvitationOut,
    JoinRequest,
    MemberIn,
    MemberOut,
    NamedOut,
    Naming,
)
from service import assignments, course_invitations, courses
from service.access import course_role
from service.assignments import AssignmentInput, due_state
from service.catalog import load_version
from service.courses_join import course_for_code, join_by_code
from service.db.models import (
    Assignment,
    Course,
    CourseInvitation,
    CourseMember,
    CourseRole,
    Extension,
    LatePolicy,
    PenaltyUnit,
    Role,
    User,
    utcnow,
)
from service.gradebook import Cell
from service.lateness import Deadline, deadline

router = APIRouter(prefix="/courses", tags=["courses"])


def late_rules(assignment: Assignment) -> dict[str, Any]:
    return {"late_policy": LatePolicy(assignment.late_policy), "late_until": assignment.late_until,
            "penalty_percent": assignment.penalty_percent, "penalty_floor": assignment.penalty_floor,
            "penalty_unit": PenaltyUnit(assignment.penalty_unit)}


def release_state(assignment: Assignment) -> dict[str, Any]:
    return {"grades_held": assignment.grades_held, "released_at": assignment.released_at}


def own_deadline(assignment: Assignment, learner: User) -> tuple[Extension | None, Deadline]:
    """A learner's extension of the assignment, if any, and the deadline that holds for them."""
    mine = next((e for e in assignment.extensions if e.user_id == learner.id), None)
    return mine, deadline(assignment, mine)


def brief(assignment: Assignment, learner: User | None = None) -> AssignmentBrief:
    """``learner``: a learner of the course, whose own due time (an extension's) the state follows."""
    own = own_deadline(assignment, learner)[1] if learner is not None else None
    return AssignmentBrief(
        id=assignment.id, course_id=assignment.course_id, title=assignment.title,
        opens_at=assignment.opens_at, due_at=assignment.due_at,
        state=due_state(assignment, utcnow(), own.due_at if own else None),
        problems=[link.problem.slug for link in assignment.problems],
        your_due_at=own.due_at if own else None, your_late_until=own.late_until if own else None,
        **late_rules(assignment), **release_state(assignment))


def extension_out(extension: Extension) -> ExtensionOut:
    return ExtensionOut(user=extension.user.name, user_id=extension.user_id, due_at=extension.due_at,
                        late_until=extension.late_until, reason=extension.reason,
                        granted_by=extension.granter.name if extension.granter else None,
                        granted_at=extension.granted_at)


def member_out(member: CourseMember) -> MemberOut:
    return MemberOut(user=member.user.name, user_id=member.user_id, role=CourseRole(member.role),
                     joined_at=member.joined_at)


def invitation_out(invitation: CourseInvitation) -> InvitationOut:
    return InvitationOut(id=invitation.id, user=invitation.user.name, user_id=invitation.user_id,
                         role=CourseRole(invitation.role),
                         invited_by=invitation.inviter.name if invitation.inviter else None,
                         created_at=invitation.created_at)


def course_out(course: Course, viewer: User) -> CourseOut:
    """Members, pending invitations and the join code only for the course's instructors (and
    admins)."""
    role = course_role(viewer, course)
    teaching = role is CourseRole.INSTRUCTOR or viewer.role == Role.ADMIN
    teachers_view: dict[str, Any] = {}
    if teaching:
        teachers_view = {
            "members": [member_out(m) for m in courses.members(course)],
            "invitations": [invitation_out(i) for i in course.invitations],
            "join_code": course.join_code, "join_url": courses.join_path(course)}
    return CourseOut(id=course.id, title=course.title, role=role, created_at=course.created_at,
                     assignments=[brief(a, viewer if role is CourseRole.LEARNER else None)
                                  for a in course.assignments], **teachers_view)


def cell_out(cell: Cell) -> CellOut:
    return CellOut(problem=cell.problem, best_score=cell.best_score, accepted=cell.accepted,
                   attempts=cell.attempts, first_accepted_at=cell.first_accepted_at, late=cell.late,
                   submission=cell.submission, score_before_penalty=cell.score_before_penalty,
                   penalty=cell.penalty, score_set_by_hand=cell.overridden,
                   score_set_by=cell.by_hand.by if cell.by_hand else None,
                   score_reason=cell.by_hand.reason if cell.by_hand else None,
                   open_regrade_requests=cell.open_regrades)


def assignment_out(assignment: Assignment, role: CourseRole | None, cells: list[Cell] | None,
                   viewer: User | None = None) -> AssignmentOut:
    """``cells``: the viewer's own progress, for a learner of the course; ``viewer``: whose
    extension to show (a learner's own)."""
    mine, own = None, None
    if viewer is not None and role is CourseRole.LEARNER:
        mine, own = own_deadline(assignment, viewer)
    problems = []
    for index, link in enumerate(assignment.problems):
        version = link.problem.published_version
        title = load_version(version).title if version is not None else link.problem.slug
        problems.append(AssignmentProblemOut(slug=link.problem.slug, title=title,
                                             progress=cell_out(cells[index]) if cells is not None else None))
    return AssignmentOut(
        id=assignment.id, course=CourseRef(id=assignment.course.id, title=assignment.course.title),
        role=role, title=assignment.title, opens_at=assignment.opens_at, due_at=assignment.due_at,
        state=due_state(assignment, utcnow(), mine.due_at if mine else None), problems=problems,
        solved=sum(c.accepted for c in cells) if cells is not None else None,
        extension=extension_out(mine) if mine else None, your_due_at=own.due_at if own else None,
        your_late_until=own.late_until if own else None, **late_rules(assignment),
        **release_state(assignment))


def assignment_input(body: AssignmentIn) -> AssignmentInput:
    return AssignmentInput(title=body.title, opens_at=body.opens_at, due_at=body.due_at,
                           late_policy=body.late_policy, problems=body.problems, track=body.track,
                           late_until=body.late_until, penalty_percent=body.penalty_percent,
                           penalty_unit=body.penalty_unit, penalty_floor=body.penalty_floor,
                           grades_held=body.grades_held)


@router.post("", status_code=201, response_model=CourseOut)
def create_course(body: CourseCreate, session: SessionDep, user: CurrentUser) -> CourseOut:
    """Create a course (instructors and admins); you become its instructor."""
    return course_out(courses.create_course(session, user, body.title), user)


@router.get("", response_model=list[CourseListItem])
def my_courses(session: SessionDep, user: CurrentUser) -> list[CourseListItem]:
    """The courses you teach or take."""
    return [CourseListItem(id=course.id, title=course.title, role=role,
                           join_url=courses.join_path(course) if role is CourseRole.INSTRUCTOR else None)
            for course, role in courses.my_courses(session, user)]


@router.get("/join/{code}", response_model=CourseRef)
def course_of_code(code: Annotated[str, Path(max_length=200)], session: SessionDep) -> CourseRef:
    """The course a join link leads to (its id and title), for the join page to name it before
    anyone signs in: whoever holds the code may join the course anyway."""
    course = course_for_code(session, code)
    return CourseRef(id=course.id, title=course.title)


@router.post("/join", response_model=CourseOut)
def join(body: JoinRequest, session: SessionDep, user: CurrentUser) -> CourseOut:
    """Join the course of a join link as a learner (joining again changes nothing)."""
    return course_out(join_by_code(session, user, body.code), user)


@router.get("/{course_id}", response_model=CourseOut)
def read_course(course_id: Id, session: SessionDep, user: CurrentUser) -> CourseOut:
    """A course with its assignments; for its instructors also its members and join link."""
    return course_out(courses.find_course(session, user, course_id), user)


@router.post("/{course_id}/join-code", response_model=CourseOut)
def rotate_join_code(course_id: Id, session: SessionDep, user: CurrentUser) -> CourseOut:
    """Replace the course's join code (its instructors): the old link stops working."""
    return course_out(courses.rotate_join_code(session, user, course_id), user)


# Until 2026-12 this answered 200 with the course, as when it added the member at once; a client
# that read 200 as "added" now hears 202 (docs/using-the-api.md, API changes).
@router.post("/{course_id}/members", status_code=202, response_model=NamedOut, responses={
    200: {"model": NamedOut, "description": (
        "outcome member: they were in the course already and take the role named at once")},
    202: {"description": "outcome invited: an invitation waits for their answer; they are not a "
                         "member until they accept it (POST /me/invitations/{id}/accept)"},
    409: {"description": "demoting the course's last instructor (code last_instructor), or the "
                         "course holds the most pending invitations it may (too_many_invitations)"}})
def add_member(course_id: Id, body: MemberIn, session: SessionDep, user: CurrentUser,
               response: Response) -> NamedOut:
    """Invite a user to a course you teach by their name, as instructor or learner: 202 with the
    invitation; they become a member when they accept (a member already takes the role at once: 200)."""
    named = course_invitations.invite(session, user, course_id, body.name, body.role)
    course = course_out(named.course, user)
    if isinstance(named, course_invitations.Invited):
        return NamedOut(outcome=Naming.INVITED, invitation=invitation_out(named.invitation),
                        member=None, course=course)
    response.status_code = 200
    return NamedOut(outcome=Naming.MEMBER, invitation=None, member=member_out(named.member), course=course)


@router.delete("/{course_id}/invitations/{invitation_id}", status_code=204)
def withdraw_invitation(course_id: Id, invitation_id: Id, session: SessionDep, user: CurrentUser) -> Response:
    """Take back an invitation to a course you teach that is not answered yet."""
    course_invitations.withdraw(session, user, course_id, invitation_id)
    return Response(status_code=204)


@router.delete("/{course_id}/members/{user_id}", status_code=204, responses={
    409: {"description": "the course's last instructor (code last_instructor)"}})
def remove_member(course_id: Id, user_id: Id, session: SessionDep, user: CurrentUser) -> Response:
    """Remove a member from a course you teach (their submissions stay); never its last instructor."""
    courses.remove_member(session, user, course_id, user_id)
    return Response(status_code=204)


@router.post("/{course_id}/assignments", status_code=201, response_model=AssignmentOut)
def create_assignment(course_id: Id, body: AssignmentIn, session: SessionDep,
                      user: CurrentUser) -> AssignmentOut:
    """Create an assignment in a course you teach."""
    assignment = assignments.create_assignment(session, user, course_id, assignment_input(body))
    return assignment_out(assignment, course_role(user, assignment.course), None)
