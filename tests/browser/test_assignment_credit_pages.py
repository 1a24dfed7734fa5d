"""Credit wherever work is done, in the browser: a learner opens a problem from the problem list
(no assignment in the address), reads which assignment Submit counts for and by when, submits,
and the instructor's gradebook shows the accepted work. Judged for real by the session worker."""

from __future__ import annotations

import subprocess
import uuid

import pytest

from tests.browser.support import api_call, assert_accessible, hours_from_now, require_playwright

require_playwright()

from playwright.sync_api import expect  # noqa: E402

from service.db.models import Role  # noqa: E402
from tests.browser.conftest import PageFactory, make_account  # noqa: E402
from tests.browser.test_instructor_story import submit_in_page  # noqa: E402
from tests.browser.test_learner_story import judged, type_code  # noqa: E402
from tests.browser.test_pages import FIXTURE, drawn  # noqa: E402
from tests.utils.service import REFERENCE  # noqa: E402

pytestmark = pytest.mark.browser


def test_work_from_the_problem_list_counts_for_the_assignment(open_page: PageFactory, live_server: str,
                                                               worker: subprocess.Popen[bytes]) -> None:
    teacher = make_account(Role.INSTRUCTOR, "credit-teacher")
    learner = make_account(Role.LEARNER, "credit-learner")
    title = f"Credit {uuid.uuid4().hex[:4]}"
    course = api_call(live_server, teacher, "POST", "/courses", title=title)
    api_call(live_server, learner, "POST", "/courses/join", code=course["join_code"])
    week = api_call(live_server, teacher, "POST", f"/courses/{course['id']}/assignments", title="Week 6",
                    opens_at=hours_from_now(-1), due_at=hours_from_now(50), late_policy="accept",
                    problems=[FIXTURE.slug])

    page = open_page(token=learner.token)
    drawn(page, f"/problems/{FIXTURE.slug}")  # as the problem list links it: no assignment named
    notice = page.locator(".counts-for")
    expect(notice).to_contain_text(f"Submit counts for Week 6 ({title}), due")
    expect(notice).to_contain_text("(due in 2 days 1 hour)")
    expect(notice.get_by_role("link", name="Week 6")).to_have_attribute("href", f"/assignments/{week['id']}")
    assert_accessible(page)

    type_code(page, page.get_by_role("textbox", name="your solution"), REFERENCE)
    posted = submit_in_page(page)
    assert "assignment" not in posted["sent"] and posted["created"]["assignment"] == week["id"]
    assert judged(live_server, learner.token, posted["created"]["id"])["verdict"] == "accepted"

    gradebook = open_page(token=teacher.token)
    drawn(gradebook, f"/assignments/{week['id']}/gradebook")
    row = gradebook.get_by_role("row").filter(has_text=learner.name)
    expect(row).to_contain_text("accepted")
    expect(row).not_to_contain_text("not tried")


def test_a_learners_code_and_progress_follow_them_and_tries_stand_apart(
        open_page: PageFactory, live_server: str, worker: subprocess.Popen[bytes]) -> None:
    """Submit accepted: the header says solved without a reload. A try is listed apart from the
    submissions, never with an accepted badge. In a fresh browser (another device: no draft kept)
    the editor opens with the last submitted code, not the starter."""
    learner = make_account(Role.LEARNER, "device-learner")
    page = open_page(token=learner.token)
    drawn(page, f"/problems/{FIXTURE.slug}")
    expect(page.locator(".progress-slot")).to_have_text("")
    type_code(page, page.get_by_role("textbox", name="your solution"), REFERENCE)
    posted = submit_in_page(page)
    assert judged(live_server, learner.token, posted["created"]["id"])["verdict"] == "accepted"
    expect(page.locator(".progress-slot")).to_contain_text("✓ solved")  # no reload

    tried = api_call(live_server, learner, "POST", "/submissions", problem=FIXTURE.slug, code=REFERENCE,
                     mode="try", arguments=["a"])
    assert judged(live_server, learner.token, tried["id"])["verdict"] == "accepted"
    drawn(page, "/submissions")
    graded = page.get_by_role("table", name="Submissions and runs")
    tries = page.get_by_role("table", name="Tries")
    expect(graded.get_by_role("row").filter(has_text=f"#{posted['created']['id']}")).to_contain_text("accepted")
    try_row = tries.get_by_role("row").filter(has_text=f"#{tried['id']}")
    expect(try_row).to_contain_text("matches the reference")
    expect(tries.locator(".badge.verdict-accepted")).to_have_count(0)
    expect(graded.get_by_role("row").filter(has_text=f"#{tried['id']}")).to_have_count(0)
    assert_accessible(page)

    elsewhere = open_page(token=learner.token)  # a new browser context: no draft of it
    drawn(elsewhere, f"/problems/{FIXTURE.slug}")
    expect(elsewhere.locator(".code-note")).to_contain_text(f"submission #{tried['id']}")
    editor = elsewhere.get_by_role("textbox", name="your solution")
    expect(editor).to_contain_text(REFERENCE.strip().splitlines()[0])
