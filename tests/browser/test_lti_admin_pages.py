"""The LTI pages of admins and instructors: an admin reads what to paste into an LMS, registers a
platform by hand and removes it on /admin/lti; an instructor of a course an LMS made sees where it
came from on the course's page, and on the gradebook the grades sent to the LMS, one refused with
the LMS's answer, and sends it again. axe checks each page."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest

from tests.browser.support import require_playwright

require_playwright()

from playwright.sync_api import expect  # noqa: E402

from service.courses_join import new_join_code  # noqa: E402
from service.db.models import (  # noqa: E402
    Assignment,
    AssignmentProblem,
    Course,
    CourseMember,
    LtiContext,
    LtiGradeSync,
    LtiLink,
    LtiPlatform,
    ProblemRow,
    Role,
    User,
    utcnow,
)
from service.db.session import session_scope  # noqa: E402
from tests.browser.conftest import Account, PageFactory, make_password_account, sign_in  # noqa: E402
from tests.browser.support import assert_accessible  # noqa: E402

pytestmark = pytest.mark.browser


def test_an_admin_registers_a_platform_by_hand_and_removes_it(open_page: PageFactory, live_server: str) -> None:
    admin = make_password_account(Role.ADMIN, "lti-pages-admin")
    page = open_page()
    sign_in(page, admin)
    page.goto("/admin/users")
    page.get_by_role("link", name="LTI platforms (LMS launches)").click()
    expect(page.get_by_role("heading", level=1, name="LTI platforms")).to_be_visible()
    expect(page.get_by_role("row", name="Login initiation URL")).to_contain_text(f"{live_server}/lti/login")
    expect(page.get_by_role("row", name="Public keys (JWKS) URL")).to_contain_text(f"{live_server}/lti/jwks")
    name = f"Moodle {uuid.uuid4().hex[:6]}"
    page.get_by_label("Name").fill(name)
    page.get_by_label("Issuer").fill(f"https://{uuid.uuid4().hex[:8]}.example.org")
    page.get_by_label("Client id").fill("judge-client")
    page.get_by_label("Deployment ids").fill("1, 2")
    page.get_by_label("Authorization (OIDC) endpoint").fill("https://moodle.example.org/mod/lti/auth.php")
    page.get_by_label("Token endpoint").fill("https://moodle.example.org/mod/lti/token.php")
    page.get_by_label("Public keys (JWKS) URL").fill("https://moodle.example.org/mod/lti/certs.php")
    page.get_by_role("button", name="Register platform").click()
    expect(page.get_by_text(f"Registered {name}.")).to_be_visible()
    row = page.get_by_role("row", name=name)
    expect(row).to_contain_text("1, 2")
    assert_accessible(page)

    page.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name=f"Remove {name}").click()
    expect(page.get_by_text(f"Removed {name}.")).to_be_visible()
    expect(page.get_by_role("row", name=name)).to_have_count(0)


def _an_lms_course(teacher: Account) -> tuple[int, int]:
    """A course an LMS made, taught by ``teacher``, with an assignment placed in it whose learner's
    grade the LMS refused; the course's and the assignment's ids."""
    with session_scope() as session:
        tag = uuid.uuid4().hex[:6]
        platform = LtiPlatform(name=f"Canvas {tag}", issuer=f"https://canvas-{tag}.example.org", client_id="c",
                               deployment_ids=["1"], auth_login_url="https://canvas.example.org/auth",
                               token_url="https://canvas.example.org/token", jwks_url="https://canvas.example.org/jwks")
        course = Course(title=f"From the LMS {tag}", join_code=new_join_code())
        session.add_all([platform, course])
        session.flush()
        teacher_id = session.query(User.id).filter_by(name=teacher.name).scalar()
        learner = User(name=f"Ann {tag}", role=Role.LEARNER.value)
        session.add(learner)
        session.flush()
        session.add_all([CourseMember(course_id=course.id, user_id=teacher_id, role="instructor"),
                         CourseMember(course_id=course.id, user_id=learner.id, role="learner")])
        problem = session.query(ProblemRow).filter_by(slug="secret_lookup").one()
        assignment = Assignment(course_id=course.id, title="Lookups", opens_at=utcnow() - timedelta(hours=1),
                                due_at=utcnow() + timedelta(days=1))
        session.add(assignment)
        session.flush()
        session.add(AssignmentProblem(assignment_id=assignment.id, problem_id=problem.id, position=0))
        context = LtiContext(platform_id=platform.id, deployment_id="1", context_id=tag, course_id=course.id,
                             memberships_url="https://canvas.example.org/api/lti/courses/1/names_and_roles")
        session.add(context)
        session.flush()
        link = LtiLink(context_id=context.id, resource_link_id="rl-1", title="Lookups in Canvas",
                       assignment_id=assignment.id, lineitem_url="https://canvas.example.org/li/1")
        session.add(link)
        session.flush()
        session.add(LtiGradeSync(link_id=link.id, user_id=learner.id, assignment_id=assignment.id, state="failed",
                                 attempts=6, next_attempt_at=None, score_given=None,
                                 error="a score to platform 'Canvas': https://canvas.example.org/li/1/scores "
                                       "answered 422: the user is not enrolled"))
        return course.id, assignment.id


def test_an_instructor_sees_the_lms_course_and_sends_a_refused_grade_again(open_page: PageFactory) -> None:
    teacher = make_password_account(Role.INSTRUCTOR, "lti-pages-teacher")
    course_id, assignment_id = _an_lms_course(teacher)
    page = open_page()
    sign_in(page, teacher)
    page.goto(f"/courses/{course_id}")
    expect(page.get_by_role("heading", level=2, name="From the LMS")).to_be_visible()
    expect(page.get_by_text("This course was made by a launch from Canvas")).to_be_visible()
    expect(page.get_by_role("button", name="Pull the roster from the LMS")).to_be_enabled()
    assert_accessible(page)

    page.goto(f"/assignments/{assignment_id}/gradebook")
    panel = page.get_by_role("region", name="Grades sent to the LMS")
    expect(panel).to_be_visible()
    row = panel.get_by_role("row", name="Ann")
    expect(row).to_contain_text("failed (given up)")
    expect(row).to_contain_text("answered 422: the user is not enrolled")
    assert_accessible(page)
    row.get_by_role("button", name="Send again: Ann").click()
    expect(panel.get_by_text("Queued: the grades go to the LMS in a moment.")).to_be_visible()
    expect(panel.get_by_role("row", name="Ann")).to_contain_text("waiting to be sent")
    with session_scope() as session:
        [state] = [row.state for row in session.query(LtiGradeSync).join(LtiLink)
                   if row.link.assignment_id == assignment_id]
    assert state == "pending"



