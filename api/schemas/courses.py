"""Request and response bodies of courses, assignments and gradebooks.

Times come in as ISO 8601 with an offset (``2026-03-01T09:00:00+01:00``, or ``Z``); a time
without one is refused, since it would mean a different instant on each client. They are
stored as naive UTC (between 1970-01-01 and 9999-01-01: ``api/schemas/bounds.py``) and answered in
UTC with a ``Z``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from pydantic import BaseModel, Field, PlainSerializer

from api.schemas.bounds import TimeIn
from judge.service.assignments import DueState
from judge.service.db.models import CourseRole, LatePolicy


def _zulu(moment: datetime) -> str:
    """A stored (naive UTC) time as ISO 8601 with a Z."""
    return (moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment).isoformat() + "Z"


UtcTime = Annotated[datetime, PlainSerializer(_zulu, return_type=str)]


class CourseCreate(BaseModel):
    title: str = Field(min_length=1, max_length=200)


class JoinRequest(BaseModel):
    code: str = Field(min_length=1, max_length=200, description="the code of the course's join link")


class MemberIn(BaseModel):
    name: str = Field(min_length=1, max_length=100, description="the user's name")
    role: CourseRole = Field(description=(
        "instructor (the user must be an instructor or an admin) or learner; someone already in "
        "the course takes the new role, anyone else is invited and joins by accepting"))


class CourseListItem(BaseModel):
    id: int
    title: str
    role: CourseRole = Field(description="your place in the course")
    join_url: str | None = Field(None, description="the join link's path, for the course's instructors")


class MemberOut(BaseModel):
    user: str
    user_id: int = Field(description="for DELETE /courses/{id}/members/{user_id}")
    role: CourseRole
    joined_at: UtcTime


class InvitationOut(BaseModel):
    """A pending invitation, as the course's instructors see it."""

    id: int = Field(description="for DELETE /courses/{id}/invitations/{invitation_id}")
    user: str
    user_id: int
    role: CourseRole
    invited_by: str | None = Field(description="the instructor who invited (null: since deleted)")
    created_at: UtcTime


class AssignmentBrief(BaseModel):
    id: int
    title: str
    opens_at: UtcTime
    due_at: UtcTime
    late_policy: LatePolicy
    state: DueState = Field(description="upcoming (not open yet), open, or due (past its due time)")
    problems: list[str] = Field(description="the problems' slugs, in order")


class CourseOut(BaseModel):
    id: int
    title: str
    role: CourseRole | None = Field(description="your place in the course (null for an admin outside it)")
    created_at: UtcTime
    assignments: list[AssignmentBrief]
    members: list[MemberOut] | None = Field(None, description="for the course's instructors and admins")
    invitations: list[InvitationOut] | None = Field(None, description=(
        "invitations not answered yet, oldest first: for the course's instructors and admins"))
    join_code: str | None = Field(None, description="for the course's instructors and admins")
    join_url: str | None = Field(None, description="the join link's path (/join/<code>)")


class AssignmentIn(BaseModel):
    title: str = Field(min_length=1, max_length=200)
    opens_at: TimeIn = Field(description="ISO 8601 with an offset, e.g. 2026-03-01T09:00:00Z")
    due_at: TimeIn = Field(description="after opens_at")
    late_policy: LatePolicy = Field(LatePolicy.ACCEPT, description=(
        "accept: submissions after the due time are judged and marked late; refuse: refused (403 "
        "past_due)"))
    problems: list[str] = Field(min_length=1, max_length=50,
                                description="published problems' slugs, in order")


class CellOut(BaseModel):
    problem: str
    best_score: float | None
    accepted: bool
    attempts: int = Field(description="submissions (mode submit) sent for the assignment")
    first_accepted_at: UtcTime | None = Field(description="when the first accepted one was sent")
    late: bool = Field(description="first accepted only late, or (never accepted) some submission late")
    submission: int | None = Field(None, description=(
        "the submission to open (GET /submissions/{id}): the first accepted one, else the latest; "
        "null before any"))


class AssignmentProblemOut(BaseModel):
    slug: str
    title: str
    progress: CellOut | None = Field(None, description="your own result (for the course's learners)")


class CourseRef(BaseModel):
    id: int
    title: str


class AssignmentOut(BaseModel):
    id: int
    course: CourseRef
    role: CourseRole | None = Field(description="your place in the course (null for an admin outside it)")
    title: str
    opens_at: UtcTime
    due_at: UtcTime
    late_policy: LatePolicy
    state: DueState
    problems: list[AssignmentProblemOut]
    solved: int | None = Field(None, description="how many problems you have had accepted (learners)")


class GradebookRow(BaseModel):
    user: str
    cells: list[CellOut]
    total_score: float = Field(description="the sum of the best scores (a problem never judged: 0)")


class GradebookOut(BaseModel):
    assignment: AssignmentBrief
    problems: list[str]
    rows: list[GradebookRow]


class MyInvitationOut(BaseModel):
    """An invitation waiting for your answer."""

    id: int = Field(description="for POST /me/invitations/{invitation_id}/accept or /decline")
    course: CourseRef
    role: CourseRole = Field(description="your place in the course once you accept")
    invited_by: str | None = Field(description="the instructor who invited you (null: since deleted)")
    created_at: UtcTime
