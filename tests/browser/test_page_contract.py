"""Issue 10's promises about the pages that need no judging: the token box checks a token
before keeping it and says who is signed in, and a narrow screen shows the problem page behind
the tabs "Statement", "Code" and "Results"."""

from __future__ import annotations

import pytest

from tests.browser.support import require_playwright

require_playwright()

from playwright.sync_api import expect  # noqa: E402

from judge.problems import load_problem  # noqa: E402
from tests.browser.conftest import TOKEN_KEY, Account, PageFactory  # noqa: E402
from tests.utils.service_env import FIXTURE_PROBLEMS  # noqa: E402

pytestmark = pytest.mark.browser

FIXTURE = load_problem(FIXTURE_PROBLEMS / "secret_lookup")


def test_the_token_box_checks_a_token_before_keeping_it(open_page: PageFactory, learner: Account) -> None:
    page = open_page()  # not signed in
    page.goto("/")
    stored = f"() => localStorage.getItem({TOKEN_KEY!r})"
    box = page.get_by_label("API token")
    box.fill("jt_not-a-real-token")
    box.press("Enter")
    expect(page.get_by_text("That token is not valid")).to_be_visible()
    assert page.evaluate(stored) in (None, "")
    box.fill(learner.token)
    box.press("Enter")
    expect(page.get_by_text(f"Signed in as {learner.name} (learner)")).to_be_visible()
    assert page.evaluate(stored) == learner.token


def test_a_narrow_screen_shows_the_problem_behind_tabs(open_page: PageFactory, learner: Account) -> None:
    page = open_page(token=learner.token, width=375, height=740)
    page.goto(f"/problems/{FIXTURE.slug}")
    statement = page.get_by_text(FIXTURE.statement.split(".")[0])
    editor = page.get_by_role("textbox", name="your solution")
    statement_tab = page.get_by_role("tab", name="Statement")
    expect(statement_tab).to_have_attribute("aria-selected", "true")
    expect(statement).to_be_visible()
    expect(editor).to_be_hidden()
    # The tabs pattern by keyboard: the arrow keys move to the next tab and show its panel.
    statement_tab.focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("tab", name="Code")).to_be_focused()
    expect(editor).to_be_visible()
    expect(statement).to_be_hidden()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("tab", name="Results")).to_have_attribute("aria-selected", "true")
    expect(editor).to_be_hidden()
    # A wide screen shows every panel at once and no tabs.
    page.set_viewport_size({"width": 1366, "height": 768})
    expect(page.get_by_role("tab", name="Statement")).to_be_hidden()
    expect(statement).to_be_visible()
    expect(editor).to_be_visible()
