"""Tracks in the browser: the problem list shows each track's progress and the problem to try
next, a track's button shows its problems only, and a problem's page names its track."""

from __future__ import annotations

import re
import uuid

import httpx
import pytest

from tests.browser.support import assert_accessible, require_playwright

require_playwright()

from playwright.sync_api import Page, expect  # noqa: E402

from service.db.models import Role  # noqa: E402
from tests.browser.conftest import PageFactory, make_account  # noqa: E402
from tests.browser.test_pages import FIXTURE, drawn  # noqa: E402

pytestmark = pytest.mark.browser


def test_the_list_shows_each_track_with_progress_and_the_next_problem(page: Page) -> None:
    drawn(page, "/")
    table = page.get_by_role("table").filter(has_text="Tracks, in the order to take them")
    row = table.get_by_role("row").filter(has_text="Lookups")
    expect(row).to_contain_text("0 of 1")
    expect(row.get_by_role("progressbar", name="Lookups: 0 of 1 solved")).to_be_visible()
    expect(table.get_by_role("row").filter(has_text="Later")).to_contain_text("no problem published yet")
    row.get_by_role("link", name=FIXTURE.title).click()
    expect(page).to_have_url(re.compile(rf"/problems/{FIXTURE.slug}$"))


def test_a_tracks_button_lists_its_problems_only_and_stays_in_the_address(page: Page) -> None:
    drawn(page, "/")
    page.get_by_role("button", name="Later").click()
    expect(page).to_have_url(re.compile(r"/\?track=later$"))
    expect(page.get_by_text("No problem matches these filters.")).to_be_visible()
    drawn(page, "/?track=lookups")
    expect(page.get_by_label("Track")).to_have_value("lookups")
    expect(page.locator("table.problems tbody tr")).to_have_count(1)


def test_a_problem_page_names_its_track(page: Page) -> None:
    drawn(page, f"/problems/{FIXTURE.slug}")
    nav = page.get_by_role("navigation", name="Track")
    expect(nav).to_contain_text("Track: Lookups · problem 1 of 1")
    nav.get_by_role("link", name="Lookups").click()
    expect(page).to_have_url(re.compile(r"/\?track=lookups$"))


def test_an_instructor_fills_an_assignment_from_a_track(open_page: PageFactory, live_server: str) -> None:
    teacher = make_account(Role.INSTRUCTOR, "tracks-teacher")
    course = httpx.post(f"{live_server}/api/v1/courses", headers={"Authorization": f"Bearer {teacher.token}"},
                        json={"title": f"Tracks {uuid.uuid4().hex[:4]}"}, timeout=30).json()
    page = open_page(token=teacher.token)
    drawn(page, f"/courses/{course['id']}")
    # The problems are searched by title or slug; no match hides every box but the ticked ones.
    boxes = page.locator('.problem-choices input[type="checkbox"]')
    total = boxes.count()
    page.get_by_label("Find a problem").fill("no-such-problem-zz")
    expect(page.get_by_text(f"0 of {total} problems shown (ticked ones stay).")).to_be_visible()
    expect(page.locator(".problem-choices .choice:visible")).to_have_count(0)
    page.get_by_label("Find a problem").fill(FIXTURE.slug)
    expect(page.locator(f'input[type="checkbox"][value="{FIXTURE.slug}"]')).to_be_visible()
    page.get_by_label("Find a problem").fill("")
    # Only tracks with a published problem are offered ("Later" has none).
    choice = page.get_by_label("Fill from a track")
    expect(choice.locator("option")).to_have_text(["choose a track…", "Lookups (1 problem)"])
    choice.select_option("lookups")
    expect(page.get_by_label("Assignment title")).to_have_value("Lookups")
    expect(page.locator(f'input[type="checkbox"][value="{FIXTURE.slug}"]')).to_be_checked()
    page.get_by_role("button", name="Create assignment", exact=True).click()
    expect(page.get_by_text("Created “Lookups”.")).to_be_visible()
    assert_accessible(page)
