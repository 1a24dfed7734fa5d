"""Late work in the browser: an instructor sets a late penalty, grants one learner an extension
from the assignment's page, reads penalties and totals out of their maximum in the gradebook and
excuses a late submission from its page; the learner with the extension reads their own due time.
Judged for real by the session worker; axe clean, and the assignment page fits 375 px."""

from __future__ import annotations

import re
import subprocess
import uuid

import pytest

from tests.browser.support import (
    api_call,
    assert_accessible,
    horizontal_overflow,
    hours_from_now,
    require_playwright,
)

require_playwright()

from playwright.sync_api import expect  # noqa: E402

from service.db.models import Role  # noqa: E402
from tests.browser.conftest import PageFactory, make_account  # noqa: E402
from tests.browser.test_pages import FIXTURE, drawn  # noqa: E402
from tests.utils.service import REFERENCE  # noqa: E402

pytestmark = pytest.mark.browser


def test_an_instructor_runs_late_work_from_the_pages(open_page: PageFactory, live_server: str,
                                                      worker: subprocess.Popen[bytes]) -> None:
    teacher = make_account(Role.INSTRUCTOR, "late-teacher")
    ann, bob = make_account(Role.LEARNER, "late-ann"), make_account(Role.LEARNER, "late-bob")
    course = api_call(live_server, teacher, "POST", "/courses", title=f"Late work {uuid.uuid4().hex[:4]}")
    for learner in (ann, bob):
        api_call(live_server, learner, "POST", "/courses/join", code=course["join_code"])
    # Due 50 hours ago: three started days at 10 percent each.
    week = api_call(live_server, teacher, "POST", f"/courses/{course['id']}/assignments", title="Week 3",
                    opens_at=hours_from_now(-100), due_at=hours_from_now(-50), late_policy="accept", penalty_percent=10,
                    penalty_unit="day", penalty_floor=50, problems=[FIXTURE.slug])
    sent = api_call(live_server, ann, "POST", "/submissions", problem=FIXTURE.slug, code=REFERENCE, assignment=week["id"])
    done = api_call(live_server, ann, "GET", f"/submissions/{sent['id']}?wait=30")
    assert (done["verdict"], done["late"], done["penalty"]) == ("accepted", True, 30.0), done

    page = open_page(token=teacher.token)
    drawn(page, f"/assignments/{week['id']}")
    expect(page.get_by_text("A late score loses 10% per started day, never below 50% of the score.")).to_be_visible()
    extensions = page.get_by_role("region", name="Extensions")
    expect(extensions).to_contain_text("Every learner is on the assignment's due time.")
    extensions.get_by_label("Learner").select_option(label=bob.name)
    extensions.get_by_label("Reason").fill("a family emergency")
    extensions.get_by_role("button", name="Grant the extension").click()
    expect(extensions.get_by_role("status")).to_contain_text(f"{bob.name} is now due")
    expect(extensions.get_by_role("row").filter(has_text=bob.name)).to_contain_text("a family emergency")
    assert_accessible(page)

    drawn(page, f"/assignments/{week['id']}/gradebook")
    ann_row = page.get_by_role("row").filter(has_text=ann.name)
    expect(ann_row).to_contain_text("1.00 less 0.30 for lateness")
    expect(ann_row).to_contain_text("0.70 / 1.00")
    expect(page.get_by_role("row").filter(has_text=bob.name)).to_contain_text("extension: due")
    expect(page.get_by_role("button", name="Total (of 1.00)")).to_be_visible()
    assert_accessible(page)

    # From the gradebook to ann's submission, excused there.
    ann_row.get_by_role("link", name=re.compile("Accepted submission")).click()
    expect(page.get_by_text("Late: it loses 30% of its score.")).to_be_visible()
    page.get_by_role("button", name="Excuse the lateness").click()
    expect(page.get_by_text("Excused: it keeps its whole score.")).to_be_visible()
    drawn(page, f"/assignments/{week['id']}/gradebook")
    expect(page.get_by_role("row").filter(has_text=ann.name)).to_contain_text("1.00 / 1.00")

    # bob reads his own due time and reason; ann, the assignment's.
    for learner, words in ((bob, "You are due"), (ann, "Due ")):
        phone = open_page(token=learner.token, width=375, height=740)
        drawn(phone, f"/assignments/{week['id']}")
        line = phone.locator(".due-line")
        expect(line).to_contain_text(words)
        if learner is bob:
            expect(line).to_contain_text("Your extension: a family emergency.")
        else:
            expect(line).not_to_contain_text("extension")
        assert horizontal_overflow(phone) is None
        assert_accessible(phone)


def test_every_due_time_a_learner_reads_is_their_own(open_page: PageFactory, live_server: str) -> None:
    """Due a minute ago, with an extension running 30 minutes more: the problem page's banner and
    the course page say it is still open for that learner, and late for the one without."""
    teacher = make_account(Role.INSTRUCTOR, "own-due-teacher")
    ann, bob = make_account(Role.LEARNER, "own-due-ann"), make_account(Role.LEARNER, "own-due-bob")
    course = api_call(live_server, teacher, "POST", "/courses", title=f"Own due {uuid.uuid4().hex[:4]}")
    for learner in (ann, bob):
        api_call(live_server, learner, "POST", "/courses/join", code=course["join_code"])
    members = api_call(live_server, teacher, "GET", f"/courses/{course['id']}")["members"]
    bob_id = next(m["user_id"] for m in members if m["user"] == bob.name)
    week = api_call(live_server, teacher, "POST", f"/courses/{course['id']}/assignments", title="Week 4",
                    opens_at=hours_from_now(-24), due_at=hours_from_now(-1 / 60), late_policy="accept",
                    problems=[FIXTURE.slug])
    api_call(live_server, teacher, "PUT", f"/assignments/{week['id']}/extensions/{bob_id}",
             due_at=hours_from_now(0.5), reason="a late bus")

    for learner, said, unsaid in ((bob, re.compile(r"\(your extension\) \(due in 2\d minutes\)"), "late"),
                                  (ann, re.compile(r"was due (less than a minute|1 minute) ago"), "extension")):
        page = open_page(token=learner.token)
        drawn(page, f"/problems/{FIXTURE.slug}?assignment={week['id']}")
        banner = page.locator(".assignment-banner")
        expect(banner).to_contain_text(said)
        expect(banner).not_to_contain_text(unsaid)
        drawn(page, f"/courses/{course['id']}")
        row = page.get_by_role("row").filter(has_text="Week 4")
        expect(row).to_contain_text("due in" if learner is bob else "was due")


def test_the_gradebook_keeps_names_and_totals_in_view(open_page: PageFactory, live_server: str) -> None:
    """With three problems' columns (the fixture catalog has one problem: its column is drawn twice
    more), at 1,280 px and on a phone: the learner and total columns stay in view at either end of
    the scroll, a cue says the table scrolls, and the page itself never scrolls sideways."""
    teacher = make_account(Role.INSTRUCTOR, "wide-teacher")
    learner = make_account(Role.LEARNER, "wide-learner-with-a-rather-long-name")
    course = api_call(live_server, teacher, "POST", "/courses", title=f"Wide {uuid.uuid4().hex[:4]}")
    api_call(live_server, learner, "POST", "/courses/join", code=course["join_code"])
    week = api_call(live_server, teacher, "POST", f"/courses/{course['id']}/assignments", title="Week 7",
                    opens_at=hours_from_now(-1), due_at=hours_from_now(24), late_policy="accept",
                    problems=[FIXTURE.slug])
    for width, height in ((1280, 800), (375, 740)):
        page = open_page(token=teacher.token, width=width, height=height)
        drawn(page, f"/assignments/{week['id']}/gradebook")
        cue = page.get_by_text("Scroll the table sideways for every problem")
        expect(cue).to_be_hidden()  # one problem fits
        page.locator("table.gradebook").evaluate("""(table) => {
          for (const row of table.rows) {
            const cell = row.cells[1];
            for (let n = 0; n < 2; n++) row.insertBefore(cell.cloneNode(true), cell);
          }
          window.dispatchEvent(new Event("resize"));
        }""")
        # At 1,280 px three problems fit (a cell wraps its details); on a phone the table scrolls.
        if width < 700:
            expect(cue).to_be_visible()
        else:
            expect(cue).to_be_hidden()
        row = page.get_by_role("row").filter(has_text=learner.name)
        scroller = page.locator(".gradebook-scroll")
        for end in ("0", "node.scrollWidth"):
            scroller.evaluate(f"(node) => {{ node.scrollLeft = {end}; }}")
            for cell in (row.get_by_role("rowheader"), row.locator("td.total")):
                box = cell.bounding_box()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (width, end, box)
        assert horizontal_overflow(page) is None
        assert_accessible(page)
        expect(page.get_by_role("link", name="CSV for an LMS")).to_have_attribute(
            "href", f"/api/v1/assignments/{week['id']}/gradebook.csv?form=wide")
