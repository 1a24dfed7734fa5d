"""Finding whose work it is, in the browser: a course's instructor reads the submission list with
a learner column, narrows it with the filters (learner, verdict), opens one learner's submission
and follows "history and diffs" to that learner's history (not their own, empty one), where the
diff between the learner's two submissions shows. Axe clean, 375 px without sideways scroll."""

from __future__ import annotations

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

WRONG = "def lookup(key):\n    return 'zq-secret-' + key\n"


def test_an_instructor_finds_a_learners_work_and_history(open_page: PageFactory, live_server: str,
                                                         worker: subprocess.Popen[bytes]) -> None:
    teacher = make_account(Role.INSTRUCTOR, "whose-teacher")
    ann, bob = make_account(Role.LEARNER, "whose-ann"), make_account(Role.LEARNER, "whose-bob")
    course = api_call(live_server, teacher, "POST", "/courses", title=f"Whose work {uuid.uuid4().hex[:4]}")
    for learner in (ann, bob):
        api_call(live_server, learner, "POST", "/courses/join", code=course["join_code"])
    now = datetime.now(UTC)
    week = api_call(live_server, teacher, "POST", f"/courses/{course['id']}/assignments", title="Week 5",
                    opens_at=(now - timedelta(hours=1)).isoformat(), due_at=(now + timedelta(days=2)).isoformat(),
                    late_policy="accept", problems=[FIXTURE.slug])
    sent = [api_call(live_server, who, "POST", "/submissions", problem=FIXTURE.slug, code=code, assignment=week["id"])
            for who, code in ((ann, WRONG), (ann, REFERENCE), (bob, REFERENCE))]
    for submission, who in zip(sent, (ann, ann, bob), strict=True):
        assert api_call(live_server, who, "GET", f"/submissions/{submission['id']}?wait=30")["status"] == "done"

    page = open_page(token=teacher.token, width=375, height=740)
    drawn(page, "/submissions")
    expect(page.get_by_role("heading", level=1)).to_have_text("Submissions")
    expect(page.get_by_role("columnheader", name="Learner")).to_be_visible()
    filters = page.get_by_role("search", name="Filter the submissions")
    filters.get_by_label("Learner").fill(ann.name)
    filters.get_by_label("Verdict").select_option("accepted")
    filters.get_by_role("button", name="Filter").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Submissions of {ann.name}")
    rows = page.locator("tbody tr")
    expect(rows).to_have_count(1)
    expect(rows).to_contain_text(f"#{sent[1]['id']}")
    assert horizontal_overflow(page) is None
    assert_accessible(page)

    # The learner column's link keeps only that learner (any verdict).
    page.get_by_role("link", name=f"Only {ann.name}'s submissions").click()
    expect(page.locator("tbody tr")).to_have_count(2)

    page.get_by_role("link", name=f"#{sent[1]['id']}").click()
    page.get_by_role("link", name="history and diffs").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"History of {ann.name}: {FIXTURE.title}")
    expect(page.get_by_text("2 submissions, newest first.")).to_be_visible()
    expect(page.get_by_role("group", name="line diff")).to_contain_text("SECRETS[key]")
    expect(page.locator(".history")).not_to_contain_text(f"#{sent[2]['id']}")
    assert horizontal_overflow(page) is None
    assert_accessible(page)
