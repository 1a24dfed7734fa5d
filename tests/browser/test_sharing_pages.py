"""Sharing a problem from its author page: off until the owner ticks "Let other instructors copy
this problem"; then another instructor's page of the problem offers "Copy this problem to adapt
it", which it does not before; unticked, it is gone again. A shipped problem's box is ticked
and cannot be changed (an admin's view). axe clean."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from service.db.models import Role
from tests.browser.conftest import PageFactory, StoryProblem, make_account
from tests.browser.support import api_call, assert_accessible

pytestmark = pytest.mark.browser

COPY = "Copy this problem to adapt it"


def sharing_box(page: Page) -> Locator:
    return page.get_by_role("region", name="Sharing").get_by_label("Let other instructors copy this problem")


def test_the_owner_shares_a_problem_and_another_instructor_may_copy_it(
        open_page: PageFactory, live_server: str, story_problem: StoryProblem) -> None:
    owner, slug = story_problem.owner, story_problem.slug
    colleague = make_account(Role.INSTRUCTOR, "sharing-colleague")
    other = open_page(token=colleague.token)
    other.goto(f"/problems/{slug}")
    expect(other.get_by_role("heading", level=1)).to_be_visible()
    expect(other.get_by_text(COPY)).to_have_count(0)

    page = open_page(token=owner.token)
    page.goto(f"/author/{slug}")
    box = sharing_box(page)
    expect(box).not_to_be_checked()
    try:
        box.check()
        expect(page.get_by_text("Shared: other instructors may copy its published version.")).to_be_visible()
        assert api_call(live_server, owner, "GET", f"/problems/{slug}")["shareable"] is True
        assert_accessible(page)
        other.reload()
        expect(other.get_by_text(COPY)).to_be_visible()

        box.uncheck()
        expect(page.get_by_text("Not shared: only you (and administrators) may copy it.")).to_be_visible()
        other.reload()
        expect(other.get_by_role("heading", level=1)).to_be_visible()
        expect(other.get_by_text(COPY)).to_have_count(0)
    finally:  # the story problem is the session's: leave it as it was
        api_call(live_server, owner, "PATCH", f"/problems/{slug}", shareable=False)

    admin = open_page(token=make_account(Role.ADMIN, "sharing-admin").token)
    admin.goto("/author/secret_lookup")
    shipped = sharing_box(admin)
    expect(shipped).to_be_checked()
    expect(shipped).to_be_disabled()
