"""Reaching Insight, in the browser: a course's instructor who does not own the problem finds
Insight from the course, the assignment and the gradebook, scoped to the course, with a
breadcrumb back to the course (never to an author page that would refuse them); and copies a
shipped problem from its page into a draft of their own. Axe clean, 375 px without sideways
scroll."""

from __future__ import annotations

import re
import subprocess
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from tests.browser.support import api_call, assert_accessible, horizontal_overflow, require_playwright

require_playwright()

from playwright.sync_api import expect  # noqa: E402

from service.db.models import Role  # noqa: E402
from tests.browser.conftest import PageFactory, make_account  # noqa: E402
from tests.browser.test_pages import FIXTURE, drawn  # noqa: E402
from tests.utils.service import REFERENCE  # noqa: E402

pytestmark = pytest.mark.browser


def test_a_course_instructor_reaches_insight_and_copies_a_shipped_problem(
        open_page: PageFactory, live_server: str, worker: subprocess.Popen[bytes]) -> None:
    teacher = make_account(Role.INSTRUCTOR, "reach-teacher")
    ann = make_account(Role.LEARNER, "reach-ann")
    title = f"Insight course {uuid.uuid4().hex[:4]}"
    course = api_call(live_server, teacher, "POST", "/courses", title=title)
    api_call(live_server, ann, "POST", "/courses/join", code=course["join_code"])
    now = datetime.now(UTC)
    week = api_call(live_server, teacher, "POST", f"/courses/{course['id']}/assignments", title="Week 6",
                    opens_at=(now - timedelta(hours=1)).isoformat(), due_at=(now + timedelta(days=2)).isoformat(),
                    late_policy="accept", problems=[FIXTURE.slug])
    sent = api_call(live_server, ann, "POST", "/submissions", problem=FIXTURE.slug, code=REFERENCE, assignment=week["id"])
    assert api_call(live_server, ann, "GET", f"/submissions/{sent['id']}?wait=30")["verdict"] == "accepted"

    page = open_page(token=teacher.token, width=375, height=740)
    insight_name = f"Insight into {FIXTURE.slug} over this course"
    for where in (f"/courses/{course['id']}", f"/assignments/{week['id']}/gradebook"):
        drawn(page, where)
        expect(page.get_by_role("link", name=insight_name)).to_have_attribute(
            "href", f"/author/{FIXTURE.slug}/insight?course={course['id']}")
    drawn(page, f"/assignments/{week['id']}")
    page.get_by_role("link", name=f"Insight into {FIXTURE.title} in this course").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Insight: {FIXTURE.slug}")
    expect(page.get_by_text("Over this course's learners only.")).to_be_visible()
    expect(page.get_by_role("region", name="Acceptance")).to_contain_text("1 of 1")
    crumbs = page.locator(".course-crumbs")
    expect(crumbs.get_by_role("link", name=title)).to_have_attribute("href", f"/courses/{course['id']}")
    expect(crumbs.get_by_role("link", name=f"Author {FIXTURE.slug}")).to_have_count(0)
    expect(page.get_by_role("alert")).to_have_count(0)
    assert horizontal_overflow(page) is None
    assert_accessible(page)
    # The charts are light images: in dark mode they are drawn inverted, never as white boxes.
    chart = page.locator("img.chart").first
    expect(chart).to_be_visible()
    assert chart.evaluate("(img) => getComputedStyle(img).filter") == "none"
    page.emulate_media(color_scheme="dark")
    assert chart.evaluate("(img) => getComputedStyle(img).filter").startswith("invert(0.88)")
    page.emulate_media(color_scheme="light")

    # The shipped problem's page offers the copy; the copy opens on its own author page.
    drawn(page, f"/problems/{FIXTURE.slug}")
    page.get_by_text("Copy this problem to adapt it").click()
    slug = f"lookup_{uuid.uuid4().hex[:6]}"
    page.get_by_label("Slug of your copy").fill("Not A Slug")
    page.get_by_role("button", name="Make my copy").click()
    expect(page.get_by_role("alert")).to_contain_text("lower-case letters")
    page.get_by_label("Slug of your copy").fill(slug)
    page.get_by_role("button", name="Make my copy").click()
    page.wait_for_url(f"**/author/{slug}")
    expect(page.get_by_role("heading", level=1)).to_contain_text(FIXTURE.title)
    assert api_call(live_server, teacher, "GET", f"/problems/{slug}")["owned"] is True
    assert_accessible(page)

    # A learner is offered no copy.
    learner_page = open_page(token=ann.token)
    drawn(learner_page, f"/problems/{FIXTURE.slug}")
    expect(learner_page.get_by_text("Copy this problem to adapt it")).to_have_count(0)


def test_similar_solutions_across_an_assignment_open_side_by_side(
        open_page: PageFactory, live_server: str, worker: subprocess.Popen[bytes]) -> None:
    teacher = make_account(Role.INSTRUCTOR, "alike-teacher")
    ann, bob = make_account(Role.LEARNER, "alike-ann"), make_account(Role.LEARNER, "alike-bob")
    course = api_call(live_server, teacher, "POST", "/courses", title=f"Alike {uuid.uuid4().hex[:4]}")
    now = datetime.now(UTC)
    week = api_call(live_server, teacher, "POST", f"/courses/{course['id']}/assignments", title="Week 8",
                    opens_at=(now - timedelta(hours=1)).isoformat(), due_at=(now + timedelta(days=2)).isoformat(),
                    late_policy="accept", problems=[FIXTURE.slug])
    for learner in (ann, bob):
        api_call(live_server, learner, "POST", "/courses/join", code=course["join_code"])
        sent = api_call(live_server, learner, "POST", "/submissions", problem=FIXTURE.slug, code=REFERENCE)
        assert api_call(live_server, learner, "GET", f"/submissions/{sent['id']}?wait=30")["verdict"] == "accepted"

    page = open_page(token=teacher.token)
    drawn(page, f"/assignments/{week['id']}/gradebook")
    page.get_by_role("link", name="Similar solutions across this assignment").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Similar solutions: Week 8")
    row = page.get_by_role("row").filter(has_text=ann.name)
    expect(row).to_contain_text(bob.name)
    expect(row).to_contain_text("100%")
    row.get_by_role("button", name=re.compile(rf"^Side by side: .* on {FIXTURE.slug}$")).click()
    expect(page.locator("#sbs-heading")).to_contain_text("100% alike")
    assert_accessible(page)
    # A learner of the course gets a refusal, not the report.
    learner_page = open_page(token=ann.token)
    learner_page.goto(f"/assignments/{week['id']}/similarity")
    expect(learner_page.get_by_role("alert")).to_be_visible()
