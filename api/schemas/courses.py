"""Request and response bodies of courses, assignments and gradebooks.

Times come in as ISO 8601 with an offset (``2026-03-01T09:00:00+01:00``, or ``Z``); a time
without one is refused, since it would mean a different instant on each client. They are
stored as naive UTC (between 1970-01-01 and 9999-01-01: ``api/schemas/bounds.py``) and answered in
UTC with a ``Z``.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from api.schemas.bounds import TimeIn
from api.schemas.common import UtcTime
from service.assignments import DueState
from service.db.models import CourseRole, LatePolicy, PenaltyUnit


class CourseCreate(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"title": "Evaluation metrics, spring term"}]})

    title: str = Field(min_length=1, max_length=200)


class JoinRequest(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"code": "k3J9xQ2b"}]})

    code: str = Field(min_length=1, max_length=200, description="the code of the course's join link")


class MemberIn(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"name": "ada", "role": "learner"}]})

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


class LateRules(BaseModel):
    """What late work costs; shared by an assignment's input and its answers."""

    penalty_percent: float = Field(0.0, ge=0, le=100, allow_inf_nan=False, description=(
        "percent of a late submission's score taken per started penalty_unit past the due time"))
    penalty_unit: PenaltyUnit = Field(PenaltyUnit.DAY, description="hour or day")
    penalty_floor: float = Field(0.0, ge=0, le=100, allow_inf_nan=False, description=(
        "the percent of its score late work keeps at least, whatever its lateness"))


class AssignmentBrief(LateRules):
    id: int
    course_id: int = Field(description="the course it belongs to")
    title: str
    opens_at: UtcTime
    due_at: UtcTime
    late_policy: LatePolicy
    late_until: UtcTime | None = Field(description="late work is taken until then; null: at any time")
    state: DueState = Field(description=(
        "upcoming (not open yet), open, or due (past its due time): for a learner, by their own due time"))
    problems: list[str] = Field(description="the problems' slugs, in order")
    your_due_at: UtcTime | None = Field(None, description=(
        "a learner's due time: their extension's, or due_at (null: not a learner of the course)"))
    your_late_until: UtcTime | None = Field(None, description=(
        "a learner's last accepted time (null: none, or not a learner of the course)"))
    grades_held: bool = Field(False, description=(
        "scores and feedback are hidden from the learners until an instructor releases them "
        "(POST /assignments/{id}/release-grades, or this false again)"))
    released_at: UtcTime | None = Field(None, description="when held grades were last released")


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


class CsvForm(StrEnum):
    """The shape of a gradebook's CSV."""

    LONG = "long"  # one row per learner and problem, every detail
    WIDE = "wide"  # one row per learner, a column per problem and the total: what an LMS imports


class Naming(StrEnum):
    """What naming a user for a course did."""

    INVITED = "invited"  # an invitation waits for their answer (202)
    MEMBER = "member"  # already in the course: the role named is theirs at once (200)


class NamedOut(BaseModel):
    """The answer to ``POST /courses/{id}/members``: since 2026-12 an invitation (202), never a
    member made, unless the user was one already (200)."""

    outcome: Naming
    invitation: InvitationOut | None = Field(description=(
        "with outcome invited: the invitation; they become a member only by accepting it"))
    member: MemberOut | None = Field(description="with outcome member: their place, in the role named")
    course: CourseOut = Field(description="the course as its instructors see it now")


class AssignmentIn(LateRules):
    model_config = ConfigDict(json_schema_extra={"examples": [{
        "title": "Week 1", "opens_at": "2026-03-01T09:00:00Z", "due_at": "2026-03-08T23:59:00+01:00",
        "late_policy": "accept", "late_until": "2026-03-11T23:59:00+01:00", "penalty_percent": 10,
        "penalty_unit": "day", "penalty_floor": 50, "problems": ["bleu", "rouge_l"],
        "grades_held": False}]})

    title: str = Field(min_length=1, max_length=200)
    opens_at: TimeIn = Field(description="ISO 8601 with an offset, e.g. 2026-03-01T09:00:00Z")
    due_at: TimeIn = Field(description="after opens_at")
    late_policy: LatePolicy = Field(LatePolicy.ACCEPT, description=(
        "accept: submissions after the due time are judged and marked late (until late_until); "
        "refuse: refused (403 past_due)"))
    late_until: TimeIn | None = Field(None, description=(
        "late work (late_policy accept) is taken until then, not before due_at; null: at any time"))
    problems: list[str] = Field([], max_length=50, description=(
        "published problems' slugs, in order (1 to 50); or leave it out and name a track"))
    track: str | None = Field(None, max_length=64, description=(
        "a track's slug (GET /tracks): its published problems, in the track's order, instead of "
        "problems"))
    grades_held: bool = Field(False, description=(
        "hide scores and feedback from the learners until an instructor releases them; false "
        "where it was true releases them (the learners are notified)"))


class ExtensionIn(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{
        "due_at": "2026-03-10T23:59:00Z", "reason": "ill for three days (note from the office)"}]})

    due_at: TimeIn = Field(description="this learner's own due time")
    late_until: TimeIn | None = Field(None, description=(
        "this learner's last accepted time for late work, not before due_at; null: the "
        "assignment's rule moved to this due time (nothing later when it refuses late work, else "
        "until the later of its late_until and this due_at)"))
    reason: str = Field(min_length=1, max_length=500)


class ExtensionOut(BaseModel):
    user: str
    user_id: int
    due_at: UtcTime
    late_until: UtcTime | None
    reason: str
    granted_by: str | None = Field(description="the instructor who granted it (null: since deleted)")
    granted_at: UtcTime


class ExcuseIn(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"excused": True}]})

    excused: bool = Field(description="true: the submission is not late and keeps its whole score")


class CellOut(BaseModel):
    problem: str
    best_score: float | None = Field(description=(
        "the best score after late penalties (a score set by hand counts as it is); null before any"))
    score_before_penalty: float | None = Field(None, description=(
        "the best score as judged, or the score set by hand when that is the one that counts"))
    penalty: float = Field(0.0, description=(
        "what lateness cost: score_before_penalty - best_score (0 when the score that counts was set "
        "by hand)"))
    score_set_by_hand: bool = Field(False, description=(
        "an instructor set the score of one of these submissions by hand (PUT /submissions/{id}/score)"))
    score_set_by: str | None = Field(None, description=(
        "when the score that counts was set by hand: who set it (null too when that account is gone)"))
    score_reason: str | None = Field(None, description="when the score that counts was set by hand: why")
    open_regrade_requests: int = Field(0, description=(
        "submissions of the cell whose learner asked for a regrade not answered yet"))
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


class CountsForOut(BaseModel):
    """An assignment of one of your courses that holds the problem: what your work on it counts for."""

    id: int
    title: str
    course: CourseRef
    opens_at: UtcTime
    due_at: UtcTime = Field(description="your own due time: your extension's, or the assignment's")
    late_until: UtcTime | None = Field(description=(
        "your last accepted time; null: late work is taken at any time"))
    state: DueState = Field(description="upcoming, open or due, by your own due time")
    counts_now: bool = Field(description=(
        "a submission sent now that names no assignment counts for this one (service.assignment_credit)"))


class AssignmentOut(LateRules):
    id: int
    course: CourseRef
    role: CourseRole | None = Field(description="your place in the course (null for an admin outside it)")
    title: str
    opens_at: UtcTime
    due_at: UtcTime
    late_policy: LatePolicy
    late_until: UtcTime | None = Field(description="late work is taken until then; null: at any time")
    state: DueState = Field(description="upcoming, open or due: for a learner, by their own due time")
    problems: list[AssignmentProblemOut]
    solved: int | None = Field(None, description="how many problems you have had accepted (learners)")
    extension: ExtensionOut | None = Field(None, description=(
        "your own due time, for a learner who was granted one"))
    your_due_at: UtcTime | None = Field(None, description=(
        "a learner's due time: their extension's, or due_at"))
    your_late_until: UtcTime | None = Field(None, description=(
        "a learner's last accepted time (null: none, or not a learner)"))
    grades_held: bool = Field(False, description=(
        "scores and feedback are hidden from the learners until an instructor releases them "
        "(POST /assignments/{id}/release-grades, or this false again)"))
    released_at: UtcTime | None = Field(None, description="when held grades were last released")


class GradebookRow(BaseModel):
    user: str
    user_id: int = Field(description="for PUT /assignments/{id}/extensions/{user_id}")
    due_at: UtcTime = Field(description="this learner's due time: their extension's, or the assignment's")
    extension: str | None = Field(description="the extension's reason, when they have one")
    cells: list[CellOut]
    total_score: float = Field(description="the sum of the best scores (a problem never judged: 0)")


class GradebookOut(BaseModel):
    assignment: AssignmentBrief
    problems: list[str]
    max_total: float = Field(description="the most total_score can be: 1 per problem")
    rows: list[GradebookRow]


class MyInvitationOut(BaseModel):
    """An invitation waiting for your answer."""

    id: int = Field(description="for POST /me/invitations/{invitation_id}/accept or /decline")
    course: CourseRef
    role: CourseRole = Field(description="your place in the course once you accept")
    invited_by: str | None = Field(description="the instructor who invited you (null: since deleted)")
    created_at: UtcTime
